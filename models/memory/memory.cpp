#include "memory/memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "base/cache_traffic.h"
#include "base/local_time.h"

namespace avp {

Memory::Memory(sc_core::sc_module_name name, uint64_t default_size, sc_core::sc_time default_latency)
    : Memory(name, default_size, nullptr, default_latency, default_latency) {}

Memory::Memory(sc_core::sc_module_name name, const DerivedSize& size, sc_core::sc_time default_latency)
    : Memory(name, size.bytes, &size.derivation, default_latency, default_latency) {}

Memory::Memory(sc_core::sc_module_name name, uint64_t default_size, const DramStandard& standard)
    : Memory(name, default_size, nullptr, standard.read_latency, standard.write_latency) {
  rows_ = std::make_unique<RowBuffers>(this, standard);
}

Memory::Memory(sc_core::sc_module_name name, uint64_t size, const std::string* derivation,
               sc_core::sc_time default_read_latency, sc_core::sc_time default_write_latency)
    : sc_module(name),
      socket("socket"),
      read_latency(this, "read_latency", default_read_latency, "latency of a read access"),
      write_latency(this, "write_latency", default_write_latency, "latency of a write access"),
      dmi_enabled(this, "dmi", true, "grant direct memory interface pointers to initiators"),
      huge_pages(this, "huge_pages", false,
                 "back the storage with transparent huge host pages (2 MiB: fewer page faults, but each first touch "
                 "clears 2 MiB of host memory)"),
      size_param_(derivation ? nullptr : std::make_unique<Param<uint64_t>>(this, "size", size, "size in bytes")),
      size_(size_param_ ? size_param_->get() : size),
      log_(this->name()),
      reads_(this, "reads", "read transactions", "transactions"),
      writes_(this, "writes", "write transactions", "transactions"),
      bytes_read_(this, "bytes_read", "bytes read (harts: their caches' line fills and uncached reads)", "bytes"),
      bytes_written_(this, "bytes_written", "bytes written (harts: their caches' write-backs and uncached writes)", "bytes"),
      dmi_grants_(this, "dmi_grants", "DMI pointers granted", "grants") {
  if (derivation) {
    const std::string param = std::string(this->name()) + ".size";
    if (Preset* p = ParamRegistry::instance().preset_for(param)) {
      p->used = true;
      ParamRegistry::instance().report(param + " is not a parameter: the size is " + *derivation + "; set those instead");
    }
  }
  if (size_ == 0) throw ParamError(std::string(this->name()) + ".size: must not be 0");
  void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw ParamError(std::string(this->name()) + ".size: cannot reserve " + std::to_string(size_) + " bytes");
  madvise(p, size_, huge_pages.get() ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);  // no-huge also where THP is "always"
  data_ = static_cast<uint8_t*>(p);
  writes_counted_.cover(data_, size_);
  socket.register_b_transport(this, &Memory::b_transport);
  socket.register_transport_dbg(this, &Memory::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
}

Memory::~Memory() {
  munmap(data_, size_);
  if (share_fd_ >= 0) close(share_fd_);
}

int Memory::share() {
  if (share_fd_ >= 0) return share_fd_;
  writes_counted_.untrack();
  const int fd = memfd_create(name(), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  // Sealed at its size: a process it is shared with cannot shrink it under
  // the simulator (whose accesses past the new end would raise SIGBUS).
  if (ftruncate(fd, static_cast<off_t>(size_)) != 0 ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 ||
      mmap(data_, size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
    close(fd);
    return -1;
  }
  share_fd_ = fd;
  return fd;
}

void Memory::write(uint64_t offset, const void* src, uint64_t len) {
  if (offset > size_ || len > size_ - offset) throw std::out_of_range(std::string(name()) + ": write past the end");
  std::memcpy(data_ + offset, src, len);
  writes_counted_.wrote(offset, len);
}

void Memory::read(uint64_t offset, void* dst, uint64_t len) const {
  if (offset > size_ || len > size_ - offset) throw std::out_of_range(std::string(name()) + ": read past the end");
  std::memcpy(dst, data_ + offset, len);
}

void Memory::invalidate_dmi() {
  for (unsigned i = 0; i < socket.size(); ++i) socket[i]->invalidate_direct_mem_ptr(0, size_ - 1);
}

bool Memory::access(tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  const uint64_t len = gp.get_data_length();
  if (addr > size_ || len > size_ - addr) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (gp.get_streaming_width() != 0 && gp.get_streaming_width() < len) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  uint8_t* mem = data_ + addr;
  uint8_t* buf = gp.get_data_ptr();
  const uint8_t* be = gp.get_byte_enable_ptr();
  const unsigned be_len = gp.get_byte_enable_length();
  if (gp.is_read()) {
    if (be) {
      for (uint64_t i = 0; i < len; ++i)
        if (be[i % be_len]) buf[i] = mem[i];
    } else {
      std::memcpy(buf, mem, len);
    }
  } else if (gp.is_write()) {
    if (be) {
      for (uint64_t i = 0; i < len; ++i)
        if (be[i % be_len]) mem[i] = buf[i];
    } else {
      std::memcpy(mem, buf, len);
    }
    writes_counted_.wrote(addr, len);
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Memory::b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  if (is_functional(gp)) {  // a hart's cache model times it (base/cache_traffic.h)
    access(gp);
    return;
  }
  if (CacheTrafficExtension* c = cache_traffic(gp);
      c && (c->kind == CacheTrafficExtension::Timing || c->kind == CacheTrafficExtension::Replay)) {
    // A hart's fill, write-back or uncached access: counted and timed, no data.
    if (gp.get_address() > size_ || gp.get_data_length() > size_ - gp.get_address()) {
      gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint64_t delay_ps = to_ps(delay);
    time(gp.get_address(), gp.get_data_length(), *c, delay_ps);
    delay = from_ps(delay_ps);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (!access(gp)) {
    AVP_LOG(log_, Warn, "access past the end: offset 0x" << std::hex << gp.get_address() << std::dec << " length "
                                                         << gp.get_data_length());
    return;
  }
  if (gp.is_read() || gp.is_write()) {
    uint64_t delay_ps = to_ps(delay);
    count(gp.is_write(), gp.get_address(), gp.get_data_length(), delay_ps);
    delay = from_ps(delay_ps);
  }
  gp.set_dmi_allowed(dmi_enabled.get());
}

// Flattened: once or twice per cache miss, with the counts in one frame.
[[gnu::flatten]] void Memory::time(uint64_t offset, unsigned len, CacheTrafficExtension& c, uint64_t& delay_ps) {
  if (c.kind == CacheTrafficExtension::Replay) {  // counted already: the open rows only
    if (rows_) delay_ps += rows_->access(offset, len, delay_ps);
    return;
  }
  if (rows_ && c.deferred) c.replay = true;
  count(c.write, offset, len, delay_ps, !c.deferred);
}

void Memory::count(bool write, uint64_t offset, uint64_t bytes, uint64_t& delay_ps, bool rows) {
  if (rows_ && rows) delay_ps += rows_->access(offset, bytes, delay_ps);
  if (write) {
    writes_.inc();
    bytes_written_.inc(bytes);
    delay_ps += to_ps(write_latency.get());
  } else {
    reads_.inc();
    bytes_read_.inc(bytes);
    delay_ps += to_ps(read_latency.get());
  }
}

unsigned Memory::transport_dbg(int id, tlm::tlm_generic_payload& gp) {
  if (CacheTrafficExtension* c = cache_traffic(gp); c && c->kind == CacheTrafficExtension::Probe) {
    c->memory = gp.get_address() < size_;
    if (c->memory) {
      c->path = this;
      c->path_base = 0;
      c->path_size = size_;
    }
    return 0;
  }
  return access(gp) ? gp.get_data_length() : 0;
}

bool Memory::get_direct_mem_ptr(int id, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  if (!dmi_enabled.get() || gp.get_address() >= size_) return false;
  dmi_grants_.inc();
  dmi.set_dmi_ptr(data_);
  dmi.set_start_address(0);
  dmi.set_end_address(size_ - 1);
  dmi.set_granted_access(tlm::tlm_dmi::DMI_ACCESS_READ_WRITE);
  dmi.set_read_latency(read_latency.get());
  dmi.set_write_latency(write_latency.get());
  if (auto* w = gp.get_extension<PageWritesExtension>()) w->writes = &writes_counted_;
  return true;
}

}  // namespace avp

#include "sysdev/htif.h"

namespace avp {

namespace {
constexpr uint64_t kSysWrite = 64, kSysExit = 93;
}

Htif::Htif(sc_core::sc_module_name name, Access read, Access write)
    : sc_module(name),
      poll_interval(this, "poll_interval", sc_core::sc_time(1, sc_core::SC_US), "simulated time between two looks at tohost"),
      read_(std::move(read)),
      write_(std::move(write)),
      log_(this->name()),
      requests_(this, "requests", "tohost requests served", "requests") {
  if (poll_interval.get() == sc_core::SC_ZERO_TIME) throw ParamError(std::string(this->name()) + ".poll_interval: must be positive");
  SC_HAS_PROCESS(Htif);
  SC_THREAD(poll_thread);
}

void Htif::start(uint64_t tohost, uint64_t fromhost) {
  tohost_ = tohost;
  fromhost_ = fromhost;
  active_ = true;
  started_.notify(sc_core::SC_ZERO_TIME);
}

void Htif::poll_thread() {
  while (!active_) sc_core::wait(started_);
  for (;;) {
    uint64_t v = 0;
    if (!read_(tohost_, &v, 8)) {
      AVP_LOG(log_, Error, "tohost at 0x" << std::hex << tohost_ << " is not in memory: HTIF stopped");
      return;
    }
    if (v != 0) {
      uint64_t zero = 0;
      write_(tohost_, &zero, 8);
      requests_.inc();
      if (!serve(v)) return;
    }
    sc_core::wait(poll_interval.get());
  }
}

bool Htif::serve(uint64_t v) {
  const unsigned dev = static_cast<unsigned>(v >> 56), cmd = static_cast<unsigned>((v >> 48) & 0xFF);
  const uint64_t payload = v & ((1ull << 48) - 1);
  uint64_t reply = 0;
  if (dev == 0 && cmd == 0 && (payload & 1)) {
    if (on_exit) on_exit(static_cast<int>(payload >> 1));
    return false;
  }
  if (dev == 0 && cmd == 0) {
    const uint64_t ret = syscall(payload);
    if (ret == ~0ull - 1) return false;  // exit through the system call
    reply = 1;
  } else if (dev == 1 && cmd == 1) {
    if (put) put(static_cast<uint8_t>(payload));
    reply = (1ull << 56) | (1ull << 48);
  } else if (dev == 1 && cmd == 0) {
    reply = (1ull << 56) | 0xFFFFFFFFFFFFull;  // no console input: -1 in the payload's width
  } else {
    AVP_LOG(log_, Warn, "tohost 0x" << std::hex << v << ": unknown device " << std::dec << dev << " command " << cmd);
    return true;
  }
  write_(fromhost_, &reply, 8);
  return true;
}

uint64_t Htif::syscall(uint64_t magic) {
  uint64_t m[8] = {};
  if (!read_(magic, m, sizeof m)) {
    AVP_LOG(log_, Warn, "system call block at 0x" << std::hex << magic << " is not in memory");
    return ~0ull;
  }
  uint64_t ret = static_cast<uint64_t>(-38);  // -ENOSYS
  if (m[0] == kSysExit) {
    if (on_exit) on_exit(static_cast<int>(m[1]));
    return ~0ull - 1;
  }
  if (m[0] == kSysWrite && (m[1] == 1 || m[1] == 2) && m[3] <= (1u << 20)) {
    std::string buf(m[3], '\0');
    if (read_(m[2], buf.data(), static_cast<unsigned>(buf.size()))) {
      for (char c : buf)
        if (put) put(static_cast<uint8_t>(c));
      ret = m[3];
    } else {
      ret = static_cast<uint64_t>(-14);  // -EFAULT
    }
  }
  m[0] = ret;
  write_(magic, m, 8);
  return ret;
}

}  // namespace avp

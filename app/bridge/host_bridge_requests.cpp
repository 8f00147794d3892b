// The host bridge's requests, each run in its connection's SystemC thread so
// that accesses take the simulated time of the PCIe link and the device.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include "acceldev_driver.h"
#include "host_bridge.h"
#include "pcie/bar0_regs.h"
#include "pcie/config_space.h"
#include "platform/platform.h"
#include "base/local_time.h"

namespace avp {
namespace {

bool reg_size(uint64_t s, bool allow64) { return s == 1 || s == 2 || s == 4 || (allow64 && s == 8); }

// Requests that may come before HELLO / ATTACH.
bool opens_session(uint32_t op) { return op == AVPB_HELLO || op == AVPB_ATTACH; }

// Requests that belong to the socket (they pass a descriptor or end the connection).
bool socket_only(uint32_t op) {
  return opens_session(op) || op == AVPB_BYE || op == AVPB_RING || op == AVPB_RING_DOORBELL || op == AVPB_HOST_ALLOC ||
         op == AVPB_DRAM_ALLOC || op == AVPB_DEV_CREATE_BUFFER;
}

}  // namespace

void HostBridge::handle(Conn& c) {
  const avpb_request& q = c.req;
  avpb_reply r{};
  r.op = q.op;
  std::vector<uint8_t> out;
  int fd_to_pass = -1;
  int st = 0;
  std::string drop_reason;  // the client is disconnected after this reply
  bool close_passed = false;  // the descriptor passed is a new one, the server's copy goes
  if (c.from_ring && socket_only(q.op)) {
    st = -EINVAL;
  } else if (!c.session && !opens_session(q.op)) {
    st = -EPERM;
    drop_reason = "request " + std::to_string(q.op) + " before HELLO";
  } else if (c.session && opens_session(q.op)) {
    st = -EISCONN;
  } else if (q.op == AVPB_HELLO) {
    if (q.a[0] != AVPB_MAGIC || q.a[1] != AVPB_VERSION) {
      st = -EPROTO;
      char why[128];
      std::snprintf(why, sizeof why, "handshake with magic 0x%llx version %llu (this server speaks version %u)",
                    static_cast<unsigned long long>(q.a[0]), static_cast<unsigned long long>(q.a[1]), AVPB_VERSION);
      drop_reason = why;
    } else {
      auto s = std::make_shared<Session>();
      s->id = next_session_++;
      s->token = std::mt19937_64(s->id ^ reinterpret_cast<uintptr_t>(s.get()))();
      s->irq_seen = irq_count_;
      c.session = s;
      s->conns = 1;
      r.r[0] = AVPB_VERSION;
      r.r[1] = p_.host.host_mem.size();
      r.r[2] = s->id;
      r.r[3] = s->token;
    }
  } else if (q.op == AVPB_ATTACH) {
    st = -ENOENT;
    for (auto& [id, other] : conns_)
      if (other->session && other->session->id == q.a[0] && other->session->token == q.a[1]) {
        c.session = other->session;
        ++c.session->conns;
        st = 0;
        break;
      }
  } else if (q.op == AVPB_BYE) {
    c.dead = true;
  } else if (q.op == AVPB_SHUTDOWN) {
    shutdown_requested_ = true;
  } else if (q.op == AVPB_RING) {
    fd_to_pass = q.length ? -EINVAL : open_ring(c);
    st = std::min(fd_to_pass, 0);
    r.r[0] = sizeof(avpb_ring);
    close_passed = fd_to_pass >= 0;
  } else if (q.op == AVPB_HOST_ALLOC || q.op == AVPB_DRAM_ALLOC) {
    fd_to_pass = q.op == AVPB_HOST_ALLOC ? host_alloc(*c.session, q, r) : dram_alloc(*c.session, q, r);
    st = std::min(fd_to_pass, 0);
    close_passed = fd_to_pass >= 0;
  } else if (q.op == AVPB_SIM_TIME) {
    r.r[0] = sc_core::sc_time_stamp().value();
  } else if (q.op >= AVPB_DEV_OPEN && q.op <= AVPB_DEV_CLOSE_BUFFER) {
    st = handle_acceldev(c, r, fd_to_pass);
    close_passed = fd_to_pass >= 0;
  } else {
    st = handle_device_io(c, r, out);
  }
  const bool carries_payload = q.op == AVPB_BAR_WRITE || q.op == AVPB_UNIT_WRITE;
  if (st == 0 && !q.length != !carries_payload) st = -EINVAL;  // only the writes of bytes carry a payload
  r.status = st;
  r.length = static_cast<uint32_t>(out.size());
  r.sim_time_ps = sc_core::sc_time_stamp().value();
  send_reply(c, r, out.data(), r.length, st == 0 ? fd_to_pass : -1);
  if (close_passed) close(fd_to_pass);
  if (!drop_reason.empty()) drop(c, drop_reason);
}

int HostBridge::handle_device_io(Conn& c, avpb_reply& r, std::vector<uint8_t>& out) {
  const avpb_request& q = c.req;
  PcieRootComplex& rc = p_.host;
  switch (q.op) {
    case AVPB_CFG_READ:
    case AVPB_CFG_WRITE: {
      // Configuration space is 32-bit registers: narrower accesses are
      // read-modify-write of the containing register, as a host bridge does.
      const uint64_t off = q.a[0], size = q.a[1];
      if (!reg_size(size, false) || off >= 4096 || (off & (size - 1))) return -EINVAL;
      const unsigned shift = 8 * (off & 3);
      const uint32_t mask = size == 4 ? ~0u : ((1u << 8 * size) - 1) << shift;
      uint32_t v = ~0u;
      if (!rc.access(-1, false, off & ~3ull, &v, 4)) return -EIO;
      if (q.op == AVPB_CFG_READ) {
        r.r[0] = (v & mask) >> shift;
        return 0;
      }
      v = (v & ~mask) | ((static_cast<uint32_t>(q.a[2]) << shift) & mask);
      if ((off & ~3ull) == ConfigSpace::kCommand && driver_ && !command_keeps_driver(v)) return -EBUSY;
      return rc.access(-1, true, off & ~3ull, &v, 4) ? 0 : -EIO;
    }
    case AVPB_MMIO_READ:
    case AVPB_MMIO_WRITE: {
      const uint64_t bar = q.a[0], off = q.a[1], size = q.a[2];
      if ((bar != 0 && bar != 2) || !reg_size(size, true)) return -EINVAL;
      uint64_t v = q.op == AVPB_MMIO_WRITE ? q.a[3] : ~0ull;
      if (q.op == AVPB_MMIO_WRITE && bar == 0 && off < kAcceldevRegistersEnd && driver_) {
        const int st = driver_register_write(off, size, v);
        if (st) return st;
      }
      const bool ok = rc.access(static_cast<int>(bar), q.op == AVPB_MMIO_WRITE, off, &v, static_cast<unsigned>(size));
      if (q.op == AVPB_MMIO_READ) r.r[0] = size == 8 ? v : v & ((1ull << 8 * size) - 1);
      return ok ? 0 : -EIO;  // a failed read still answers all-ones, as an unsupported request does
    }
    case AVPB_BAR_INFO:
      if (q.a[0] != 0 && q.a[0] != 2) return -EINVAL;
      r.r[0] = q.a[0] == 0 ? p_.endpoint->config_space().bar0_size() : p_.endpoint->config_space().bar2_size();
      return 0;
    case AVPB_BAR_READ: {
      if (q.a[0] != 2 || q.a[2] > AVPB_MAX_PAYLOAD) return -EINVAL;
      out.resize(q.a[2]);
      if (!rc.bar2_read(q.a[1], out.data(), out.size())) {
        out.clear();
        return -EIO;
      }
      return 0;
    }
    case AVPB_BAR_WRITE:
      if (q.a[0] != 2 || c.payload.empty()) return -EINVAL;
      return rc.bar2_write(q.a[1], c.payload.data(), c.payload.size()) ? 0 : -EIO;
    case AVPB_UNIT_READ:
    case AVPB_UNIT_WRITE:
      return unit_access(c, out);
    case AVPB_DRAM_FREE:
      return dram_free(*c.session, q.a[0]);
    case AVPB_IRQ_WAIT: {
      Session& s = *c.session;
      const bool forever = q.a[0] == AVPB_IRQ_WAIT_FOREVER;
      const sc_core::sc_time deadline =
          sc_core::sc_time_stamp() + sc_core::sc_time(static_cast<double>(std::min<uint64_t>(q.a[0], 1'000'000'000'000'000ull)), sc_core::SC_NS);
      const uint64_t gen = starved_gen_;
      while (irq_count_ == s.irq_seen && (forever || sc_core::sc_time_stamp() < deadline) && gen == starved_gen_) {
        if (forever) sc_core::wait(irq_ev_ | starved_ev_);
        else sc_core::wait(deadline - sc_core::sc_time_stamp(), irq_ev_ | starved_ev_);
      }
      if (irq_count_ == s.irq_seen && gen != starved_gen_) return -EDEADLK;
      r.r[0] = irq_count_ - s.irq_seen;
      r.r[1] = rc.irq_level();
      s.irq_seen = irq_count_;
      return 0;
    }
    default:
      return -ENOSYS;
  }
}

// The command register as the started driver needs it: memory decoding, bus
// mastering and INTx on (its MMIO, the device's DMA, its interrupts).
bool HostBridge::command_keeps_driver(uint32_t command) {
  constexpr uint32_t on = ConfigSpace::kMemorySpace | ConfigSpace::kBusMaster;
  return (command & on) == on && !(command & ConfigSpace::kIntxDisable);
}

// Once the server's Acceldev driver has started it owns Acceldev's registers,
// as a bound kernel driver does: a program's raw write there is refused,
// except for the bits of INTR and INTR_ENABLE that belong to other units (the
// command processor's, AQL's, DMA's), which the device API uses. `v` is what
// may be written.
int HostBridge::driver_register_write(uint64_t off, uint64_t size, uint64_t& v) {
  constexpr uint32_t mine = AcceldevDriver::kInterrupts;
  if (size != 4 || (off != ACCELDEV_INTR && off != ACCELDEV_INTR_ENABLE)) return -EBUSY;
  if (off == ACCELDEV_INTR) v &= ~uint64_t{mine};  // write 1 to clear: none of the driver's
  else v = (v & ~uint64_t{mine}) | (p_.host.mmio_read32(ACCELDEV_INTR_ENABLE) & mine);
  return 0;
}

// A block of host memory for the client alone, owned by its session: whole
// pages (a grant maps nothing smaller), so the alignment is at least a page.
int HostBridge::host_alloc(Session& s, const avpb_request& q, avpb_reply& r) {
  constexpr uint64_t kPage = MemoryGrants::kPage;
  const uint64_t size = q.a[0], asked = q.a[1];
  if (size == 0 || size > p_.host.host_mem.size() || (asked & (asked - 1)) || asked > (1u << 30)) return -EINVAL;
  const uint64_t bytes = (size + kPage - 1) & ~(kPage - 1);
  int error = 0;
  const uint64_t at = p_.host.alloc_for(s.id, bytes, std::max(asked, kPage), error);
  if (!at) return -error;
  const int fd = host_grants_.grant(at, bytes);
  if (fd < 0) return fd;  // the block stays the session's until it ends
  for (uint64_t off = 0; off < bytes; off += kPage) s.host_pages.push_back(at + off);
  r.r[0] = at;
  r.r[1] = bytes;
  return fd;
}

// A block of device DRAM owned by the session and granted to it alone, as
// host memory is: whole pages, so no page of it holds another program's bytes.
// A session holds at most kMaxDramBlocks blocks (each costs the server a
// mapping; the kernel's limit on mappings is shared by every client).
int HostBridge::dram_alloc(Session& s, const avpb_request& q, avpb_reply& r) {
  constexpr uint64_t kPage = MemoryGrants::kPage;
  const uint64_t size = q.a[0], asked = q.a[1];
  if (size == 0 || size > p_.dram.size() || (asked & (asked - 1)) || asked > (1u << 30)) return -EINVAL;
  if (s.dram_blocks.size() >= kMaxDramBlocks) return -ENOMEM;
  const uint64_t bytes = (size + kPage - 1) & ~(kPage - 1);
  int error = 0;
  const uint64_t at = dram_alloc_.alloc(s.id, bytes, std::max(asked, kPage), error);
  if (!at) return -error;
  const int fd = dram_grants_.grant(at - p_.dram_base(), bytes);
  if (fd < 0) {
    dram_alloc_.free(s.id, at);
    return fd;
  }
  s.dram_blocks.emplace(at, bytes);
  r.r[0] = at;
  r.r[1] = bytes;
  r.r[2] = p_.dram_base();
  r.r[3] = p_.dram.size();
  return fd;
}

int HostBridge::dram_free(Session& s, uint64_t addr) {
  const auto b = s.dram_blocks.find(addr);
  if (b == s.dram_blocks.end()) return -EINVAL;
  dram_grants_.revoke_block(b->first - p_.dram_base(), b->second);
  dram_alloc_.free(s.id, addr);
  s.dram_blocks.erase(b);
  return 0;
}

// A timed access on the device interconnect tagged with the requested unit,
// so that core-local views and per-unit register sets answer as they would to
// that unit. The connection's thread waits the access's delay: the interconnect
// and the target take their simulated time, the PCIe link none (the access
// stands for what the unit itself would do).
int HostBridge::unit_access(Conn& c, std::vector<uint8_t>& out) {
  const avpb_request& q = c.req;
  const UnitId unit = static_cast<UnitId>(q.a[0]);
  if (q.a[0] > 0xFFFFFFFFull) return -ENODEV;
  const uint32_t index = unit_index(unit);
  uint32_t core = 0;
  switch (unit_kind(unit)) {
    case UnitKind::External:
    case UnitKind::Cmp:
      if (index != 0) return -ENODEV;
      break;
    case UnitKind::Hart:
      if (index >= p_.num_harts()) return -ENODEV;
      core = index / p_.harts_per_core.get();
      break;
    case UnitKind::Core:
      if (index >= p_.cores.get()) return -ENODEV;
      core = index;
      break;
    default:
      return -ENODEV;
  }
  const bool write = q.op == AVPB_UNIT_WRITE;
  const uint64_t len = write ? c.payload.size() : q.a[2];
  if (len == 0 || len > AVPB_MAX_PAYLOAD || q.a[1] + len < q.a[1]) return -EINVAL;
  if (!write) out.resize(len);
  LocalTime time;
  const tlm::tlm_response_status st = time.annotate([&](sc_core::sc_time& d) {
    return p_.device_port.access_as(unit, core, write, q.a[1], write ? c.payload.data() : out.data(), static_cast<unsigned>(len), d);
  });
  time.sync();
  if (st == tlm::TLM_OK_RESPONSE) return 0;
  out.clear();
  return st == tlm::TLM_ADDRESS_ERROR_RESPONSE || st == tlm::TLM_BURST_ERROR_RESPONSE ? -EFAULT : -EIO;
}

}  // namespace avp

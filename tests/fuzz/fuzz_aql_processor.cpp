// libFuzzer target: arbitrary bytes as the packets of an AQL queue, its
// kernel descriptor, signal values and queue set-up, for the packet processor
// in a small rig (host memory with PCIe AtomicOps, device DRAM, harts that
// finish every work-group at once). Every input must end, within a bounded
// simulated time, with the queue drained, stopped by a documented error (the
// same value in ERROR and queue_inactive_signal, AQL_ERROR raised), or
// legitimately stalled (an INVALID header, an unsatisfied barrier).
#include <cstdlib>
#include <cstring>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "aql/aql_processor.h"
#include "instant_harts.h"
#include "interconnect/router.h"
#include "memory/memory.h"
#include "pcie/pcie_endpoint.h"

namespace avp {
namespace {

using namespace aql;

constexpr uint64_t kWindow = 0x8000'0000'0000ull, kDram = 0x4000'0000;
// Host physical layout: amd_queue_t, ring (8 packets), 8 signals of 64 bytes.
constexpr uint64_t kQueue = 0x1000, kRing = 0x2000, kSignals = 0x3000, kHostSize = 0x10000;
constexpr uint64_t kDescriptor = kDram + 0x1000, kKernarg = kDram + 0x2000;
constexpr unsigned kRingSize = 8;

// Host memory as the root complex serves it: reads, writes and AtomicOps.
struct HostMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<HostMemory> socket{"socket"};
  std::vector<uint8_t> mem = std::vector<uint8_t>(kHostSize);
  explicit HostMemory(sc_core::sc_module_name n) : sc_module(n) { socket.register_b_transport(this, &HostMemory::b_transport); }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    const uint64_t a = gp.get_address(), n = gp.get_data_length();
    if (a + n > mem.size() || a + n < a) return gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    if (const auto* atomic = gp.get_extension<PcieAtomicExtension>()) {
      uint64_t old;
      std::memcpy(&old, &mem[a], 8);
      const uint64_t nv = atomic->op == PcieAtomicExtension::FetchAdd ? old + atomic->operand
                                                                      : (old == atomic->compare ? atomic->operand : old);
      std::memcpy(&mem[a], &nv, 8);
      std::memcpy(gp.get_data_ptr(), &old, 8);
    } else if (gp.is_write()) {
      std::memcpy(&mem[a], gp.get_data_ptr(), n);
    } else {
      std::memcpy(gp.get_data_ptr(), &mem[a], n);
    }
    delay += sc_core::sc_time(50, sc_core::SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
  template <class T> T& at(uint64_t pa) { return *reinterpret_cast<T*>(&mem[pa]); }
};

struct Rig {
  Router bus{"bus"};
  Memory dram{"dram", 1 << 20, sc_core::sc_time(10, sc_core::SC_NS)};
  HostMemory host{"host"};
  InstantHarts harts;
  uint32_t raised = 0;
  AqlProcessor aql{"aql", harts, {0x1800'0000, 1 << 20, kWindow, 0x1000}};
  Rig() {
    bus.map(bus.add_port("dram"), "dram", kDram, dram.size());
    bus.map(bus.add_port("host"), "host", kWindow, kHostSize);
    bus.init.bind(dram.socket);
    bus.init.bind(host.socket);
    aql.bus.bind(bus.targ);
    aql.irq.bind([this](uint32_t bits) { raised |= bits; });
  }
  void write_reg(uint32_t off, uint32_t v) { aql.registers().write(kRegsBase + off, 4, v); }
  uint32_t read_reg(uint32_t off) {
    uint64_t v = 0;
    aql.registers().read(kRegsBase + off, 4, v);
    return static_cast<uint32_t>(v);
  }
};

Rig* rig;

bool documented(uint32_t e) {
  switch (e) {
    case kErrPrivateSegment: case kErrDimensions: case kErrGroupSegment: case kErrKernelObject: case kErrInvalidPacket:
    case kErrWorkgroupSize: case kErrVendorPacket: case kErrMemory: case kErrIllegalInstruction: case kErrKernelFault:
      return true;
    default:
      return false;
  }
}

// Input: flags, packet count, 8 signal values, the kernel descriptor (64 bytes), then the packets.
enum Flags : uint8_t { kFixPointers = 1, kProfiling = 2, kFuzzQueueSize = 4, kInactiveSignal = 8, kKernargs = 16 };

void load(const uint8_t* data, size_t size) {
  std::vector<uint8_t> in(2 + 8 + 64 + 64 * kRingSize);
  std::memcpy(in.data(), data, std::min(size, in.size()));
  const uint8_t flags = in[0];
  const unsigned n = 1 + (in[1] & 7);
  HostMemory& h = rig->host;
  std::fill(h.mem.begin(), h.mem.end(), 0);
  auto& q = h.at<amd_queue_t>(kQueue);
  q.hsa_queue.base_address = kRing;
  q.hsa_queue.size = (flags & kFuzzQueueSize) ? in[2] : kRingSize;  // may be 0 or not a power of two
  q.write_dispatch_id = n;
  if (flags & kProfiling) q.queue_properties = kQueuePropertiesEnableProfiling;
  if (flags & kInactiveSignal) q.queue_inactive_signal = kSignals + 7 * 64;
  for (unsigned i = 0; i < 8; ++i) {
    auto& s = h.at<amd_signal_t>(kSignals + 64 * i);
    s.kind = 1;
    s.value = i == 7 ? 0 : in[2 + i] & 3;
    s.event_mailbox_ptr = (in[2 + i] & 4) ? kSignals + 64 * i + 60 : 0;
  }
  rig->dram.write(kDescriptor - kDram, &in[10], 64);
  for (unsigned i = 0; i < kRingSize; ++i) {
    uint8_t* p = &h.mem[kRing + 64 * i];
    if (i >= n) {
      p[0] = kInvalid;
      continue;
    }
    std::memcpy(p, &in[74 + 64 * i], 64);
    auto& d = *reinterpret_cast<hsa_kernel_dispatch_packet_t*>(p);
    // Bounded work: at most 256 x 4 x 4 work-groups.
    d.grid_size_x %= 257, d.grid_size_y %= 5, d.grid_size_z %= 5;
    if (!(flags & kFixPointers)) continue;
    const uint8_t pick = p[63];
    d.completion_signal = kSignals + 64 * (pick % 7);
    if ((p[0] & 0xFF) == kKernelDispatch) {
      d.kernel_object = kDescriptor + (pick & 0x80 ? 8 : 0);
      d.kernarg_address = (flags & kKernargs) ? kKernarg + (pick & 0x40 ? 4 : 0) : 0;
    } else {
      auto& b = *reinterpret_cast<hsa_barrier_packet_t*>(p);
      for (unsigned k = 0; k < 5; ++k) b.dep_signal[k] = (pick >> k) & 1 ? kSignals + 64 * k : 0;
    }
  }
}

}  // namespace
}  // namespace avp

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  avp::rig = new avp::Rig();
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace avp;
  if (size < 2) return 0;
  load(data, size);
  rig->raised = 0;
  // Registration and the doorbell come from a host thread (a queue error waits for its writes).
  sc_core::sc_spawn([] {
    rig->write_reg(kQueueAddrLo, static_cast<uint32_t>(kQueue));
    rig->write_reg(kQueueAddrHi, 0);
    rig->write_reg(kQueueEnable, 1);
    rig->aql.registers().write(kDoorbellBase, 4, 0);
  });
  auto& q = rig->host.at<amd_queue_t>(kQueue);
  int steps = 0;
  do sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));
  while (++steps < 100 && (rig->read_reg(kQueueStatus) & 1) && q.read_dispatch_id < q.write_dispatch_id);
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_US));  // the last packet's completion-signal update
  const uint32_t status = rig->read_reg(kQueueStatus), error = rig->read_reg(kQueueError);
  if (status & 2) {
    if (!documented(error) || !(rig->raised & (1u << 12))) __builtin_trap();
    if (q.queue_inactive_signal && rig->host.at<amd_signal_t>(q.queue_inactive_signal).value != int64_t{error})
      __builtin_trap();
  } else if (q.read_dispatch_id < q.write_dispatch_id) {
    // Still active with work left: only an unpublished packet or an unsatisfied barrier may hold it.
    const uint8_t type = rig->host.mem[kRing + 64 * (q.read_dispatch_id % q.hsa_queue.size)];
    if (type != kInvalid && type != kBarrierAnd && type != kBarrierOr) __builtin_trap();
  }
  for (uint64_t i = 0; i < q.read_dispatch_id; ++i)  // retired packets are reset to INVALID
    if (q.hsa_queue.size && rig->host.mem[kRing + 64 * (i % q.hsa_queue.size)] != kInvalid) __builtin_trap();
  rig->write_reg(kQueueEnable, 0);
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));  // a barrier poll in flight sees the queue stopped
  return 0;
}

// libsystemc.so refers to sc_main; libFuzzer's main() runs instead.
int sc_main(int, char**) { return 0; }

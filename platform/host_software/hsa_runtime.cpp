#include "hsa_runtime.h"

#include <algorithm>
#include <cstring>

#include "accel_device.h"
#include "pcie/bar0_regs.h"
#include "pcie/host_port.h"

namespace avp {

using namespace aql;

HsaRuntime::Queue HsaRuntime::create_queue(unsigned index, uint32_t size) {
  Queue q{index, rc_.alloc(sizeof(amd_queue_t), 64), rc_.alloc(uint64_t{size} * 64, 64), size};
  auto* aq = reinterpret_cast<amd_queue_t*>(rc_.host_ptr(q.amd_queue));
  aq->hsa_queue.base_address = q.ring;
  aq->hsa_queue.size = size;
  aq->hsa_queue.id = index;
  for (uint32_t i = 0; i < size; ++i) {
    const uint16_t invalid = kInvalid;
    std::memcpy(rc_.host_ptr(q.ring + 64ull * i), &invalid, 2);
  }
  rc_.cfg_write32(0x04, rc_.cfg_read32(0x04) | 0x0006);  // memory space, bus master (the processor reads host memory)
  rc_.mmio_write32(ACCELDEV_INTR_ENABLE, rc_.mmio_read32(ACCELDEV_INTR_ENABLE) | AVP_INTR_AQL_SIGNAL | AVP_INTR_AQL_ERROR);
  const uint32_t base = kRegsBase + kRegsStride * index;
  rc_.mmio_write32(base + kQueueAddrLo, static_cast<uint32_t>(q.amd_queue));
  rc_.mmio_write32(base + kQueueAddrHi, static_cast<uint32_t>(q.amd_queue >> 32));
  rc_.mmio_write32(base + kQueueEnable, 1);
  return q;
}

uint64_t HsaRuntime::create_signal(int64_t value) {
  const uint64_t s = rc_.alloc(sizeof(amd_signal_t), 64);
  auto* sig = reinterpret_cast<amd_signal_t*>(rc_.host_ptr(s));
  sig->kind = 1;
  sig->value = value;
  return s;
}

int64_t HsaRuntime::signal_value(uint64_t signal) { return reinterpret_cast<amd_signal_t*>(rc_.host_ptr(signal))->value; }

namespace {
bool holds(SignalCondition cond, int64_t v, int64_t value) {
  switch (cond) {
    case SignalCondition::kEq: return v == value;
    case SignalCondition::kNe: return v != value;
    case SignalCondition::kLt: return v < value;
    case SignalCondition::kGte: return v >= value;
  }
  return false;
}
}  // namespace

bool HsaRuntime::wait_signal(uint64_t signal, SignalCondition cond, int64_t value, const sc_core::sc_time& timeout) {
  const sc_core::sc_time deadline = sc_core::sc_time_stamp() + timeout;
  while (!holds(cond, signal_value(signal), value)) {
    if (sc_core::sc_time_stamp() >= deadline) return false;
    // Completions raise AQL_SIGNAL: sleep until an interrupt, then clear it and look again.
    if (!rc_.irq_level()) {
      sc_core::wait(deadline - sc_core::sc_time_stamp(), rc_.irq_event());
      continue;
    }
    const uint32_t intr = rc_.mmio_read32(ACCELDEV_INTR) & (AVP_INTR_AQL_SIGNAL | AVP_INTR_AQL_ERROR);
    if (intr) rc_.mmio_write32(ACCELDEV_INTR, intr);
  }
  return true;
}

CodeObjectError HsaRuntime::load_code_object(AccelDevice& dev, const std::string& path) {
  try {
    code_objects_.push_back(avp::load_code_object(dev, path));
  } catch (const CodeObjectLoadError& e) {
    load_error_ = e.what();
    return e.code;
  }
  load_error_.clear();
  return CodeObjectError::kNone;
}

const KernelInfo* HsaRuntime::find_kernel(const std::string& name) const {
  for (const CodeObject& co : code_objects_)
    if (const KernelInfo* k = co.find(name)) return k;
  return nullptr;
}

uint64_t HsaRuntime::alloc_kernarg(AccelDevice& dev, const KernelInfo& kernel, const void* args, uint64_t len) {
  if (len != kernel.kernarg_size) return 0;
  const uint64_t at = dev.alloc(std::max<uint64_t>(len, 1), std::max<uint64_t>(kernel.kernarg_align, 16));
  if (at && len && !dev.write(at, args, len)) {
    dev.free(at);
    return 0;
  }
  return at;
}

hsa_kernel_dispatch_packet_t HsaRuntime::kernel_packet(const KernelInfo& kernel, unsigned dims, const uint32_t (&grid)[3],
                                                       const uint16_t (&workgroup)[3], uint64_t kernarg, uint64_t completion_signal,
                                                       uint32_t dynamic_group_segment, uint32_t dynamic_private_segment) {
  hsa_kernel_dispatch_packet_t p{};
  p.header = kKernelDispatch | kHeaderBarrier;
  p.setup = static_cast<uint16_t>(dims);
  p.workgroup_size_x = workgroup[0];
  p.workgroup_size_y = workgroup[1];
  p.workgroup_size_z = workgroup[2];
  p.grid_size_x = grid[0];
  p.grid_size_y = grid[1];
  p.grid_size_z = grid[2];
  p.group_segment_size = dynamic_group_segment;
  p.private_segment_size = dynamic_private_segment;
  p.kernel_object = kernel.kernel_object;
  p.kernarg_address = kernarg;
  p.completion_signal = completion_signal;
  return p;
}

uint64_t HsaRuntime::publish(Queue& q, const void* packet) {
  auto* aq = reinterpret_cast<amd_queue_t*>(rc_.host_ptr(q.amd_queue));
  const uint64_t id = aq->write_dispatch_id;
  if (id - aq->read_dispatch_id >= q.size) return kQueueFull;
  uint8_t* slot = rc_.host_ptr(q.ring + (id % q.size) * 64);
  std::memcpy(slot + 2, static_cast<const uint8_t*>(packet) + 2, 62);
  std::memcpy(slot, packet, 2);  // the header last: the packet becomes valid at once
  aq->write_dispatch_id = id + 1;
  rc_.mmio_write32(kDoorbellBase + 8 * q.index + 4, static_cast<uint32_t>(id >> 32));
  rc_.mmio_write32(kDoorbellBase + 8 * q.index, static_cast<uint32_t>(id));
  return id;
}

uint64_t HsaRuntime::dispatch(Queue& q, const hsa_kernel_dispatch_packet_t& packet) { return publish(q, &packet); }

uint64_t HsaRuntime::barrier(Queue& q, bool is_and, const uint64_t (&deps)[5], uint64_t completion_signal) {
  hsa_barrier_packet_t p{};
  p.header = static_cast<uint16_t>((is_and ? kBarrierAnd : kBarrierOr) | kHeaderBarrier);
  for (int i = 0; i < 5; ++i) p.dep_signal[i] = deps[i];
  p.completion_signal = completion_signal;
  return publish(q, &p);
}

uint64_t HsaRuntime::agent_dispatch(Queue& q, uint16_t function, const uint64_t (&args)[4], uint64_t completion_signal) {
  hsa_agent_dispatch_packet_t p{};
  p.header = static_cast<uint16_t>(kAgentDispatch | kHeaderBarrier);
  p.type = function;
  for (int i = 0; i < 4; ++i) p.arg[i] = args[i];
  p.completion_signal = completion_signal;
  return publish(q, &p);
}

void HsaRuntime::set_profiling(const Queue& q, bool enable) {
  auto* aq = reinterpret_cast<amd_queue_t*>(rc_.host_ptr(q.amd_queue));
  aq->queue_properties = enable ? aq->queue_properties | kQueuePropertiesEnableProfiling
                                : aq->queue_properties & ~kQueuePropertiesEnableProfiling;
}

uint32_t HsaRuntime::queue_error(const Queue& q) { return rc_.mmio_read32(kRegsBase + kRegsStride * q.index + kQueueError); }

}  // namespace avp

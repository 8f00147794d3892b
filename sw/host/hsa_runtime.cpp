#include "hsa_runtime.h"

#include <cstring>

#include "pcie/bar0_regs.h"
#include "pcie/root_complex.h"

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

bool HsaRuntime::wait_signal_eq(uint64_t signal, int64_t value, const sc_core::sc_time& timeout) {
  const sc_core::sc_time deadline = sc_core::sc_time_stamp() + timeout;
  while (signal_value(signal) != value) {
    if (sc_core::sc_time_stamp() >= deadline) return false;
    // Completions raise AQL_SIGNAL; clear it and look again.
    if (!rc_.irq_level()) sc_core::wait(deadline - sc_core::sc_time_stamp(), rc_.irq_event());
    const uint32_t intr = rc_.mmio_read32(ACCELDEV_INTR) & (AVP_INTR_AQL_SIGNAL | AVP_INTR_AQL_ERROR);
    if (intr) rc_.mmio_write32(ACCELDEV_INTR, intr);
  }
  return true;
}

uint64_t HsaRuntime::publish(Queue& q, const void* packet) {
  auto* aq = reinterpret_cast<amd_queue_t*>(rc_.host_ptr(q.amd_queue));
  const uint64_t id = aq->write_dispatch_id;
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

uint32_t HsaRuntime::queue_error(const Queue& q) { return rc_.mmio_read32(kRegsBase + kRegsStride * q.index + kQueueError); }

}  // namespace avp

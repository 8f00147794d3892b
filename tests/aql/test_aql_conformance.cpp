// The AQL front end against the specification text (platform.md sections 5
// and 7, the seed's "Kernel Descriptor for GFX6-GFX9" and the HSA agent
// dispatch packet): 64-bit doorbells, the registration block's contents, the
// descriptor's max_flat_workgroup_size and reserved bits, and agent dispatch
// packets with their function table. Kernels are hand-written (`ret`).
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "accel_device.h"
#include "aql_empty_kernel.h"
#include "hsa_runtime.h"
#include "pcie/bar0_regs.h"
#include "platform.h"

using namespace avp;
using namespace avp::aql;

namespace {

const sc_core::sc_time kTimeout(1, sc_core::SC_MS);

struct Rig {
  Platform p;
  Rig() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
  void run(const std::function<void(AccelDevice&, HsaRuntime&, AqlEmptyKernel&)>& body) {
    sc_core::sc_spawn([&] {
      AccelDevice dev(p.host);
      ASSERT_TRUE(dev.open());
      HsaRuntime rt(p.host);
      AqlEmptyKernel k;
      ASSERT_TRUE(k.prepare(dev));
      body(dev, rt, k);
      sc_core::sc_stop();
    });
    sc_core::sc_start();
  }
  amd_queue_t& queue(const HsaRuntime::Queue& q) { return *reinterpret_cast<amd_queue_t*>(p.host.host_ptr(q.amd_queue)); }
  // Writes a packet into the ring without ringing the doorbell; returns its id.
  uint64_t enqueue(HsaRuntime::Queue& q, const void* packet) {
    amd_queue_t& aq = queue(q);
    const uint64_t id = aq.write_dispatch_id;
    std::memcpy(p.host.host_ptr(q.ring + (id % q.size) * 64), packet, 64);
    ++aq.write_dispatch_id;
    return id;
  }
  uint32_t reg(const HsaRuntime::Queue& q, uint32_t off) { return p.host.mmio_read32(kRegsBase + kRegsStride * q.index + off); }
  // Waits (polling, without clearing interrupt bits) until the queue stops with an error.
  uint32_t wait_error(const HsaRuntime::Queue& q) {
    for (int us = 0; us < 1000 && !(reg(q, kQueueStatus) & 2); ++us) sc_core::wait(1, sc_core::SC_US);
    return reg(q, kQueueError);
  }
};

hsa_agent_dispatch_packet_t agent_packet(uint16_t function, std::initializer_list<uint64_t> args, uint64_t signal) {
  hsa_agent_dispatch_packet_t p{};
  p.header = kAgentDispatch | kHeaderBarrier;
  p.type = function;
  unsigned i = 0;
  for (uint64_t a : args) p.arg[i++] = a;
  p.completion_signal = signal;
  return p;
}

}  // namespace

// Item 14: platform.md section 5, "8 bytes per queue (64-bit write of the packet id)".
TEST(AqlConformance, OneSixtyFourBitDoorbellWriteRingsTheQueue) {
  Rig t;
  t.run([&](AccelDevice&, HsaRuntime& rt, AqlEmptyKernel& k) {
    auto q = rt.create_queue(2, 8);
    const uint64_t done = rt.create_signal(1);
    sc_core::wait(20, sc_core::SC_US);  // the look at the ring that ENABLE started is over
    const auto packet = k.packet(done);
    const uint64_t id = t.enqueue(q, &packet);
    EXPECT_FALSE(rt.wait_signal_eq(done, 0, sc_core::sc_time(20, sc_core::SC_US)));  // no doorbell yet
    t.p.host.mmio_write64(kDoorbellBase + 8 * q.index, id);
    EXPECT_TRUE(rt.wait_signal_eq(done, 0, kTimeout));
    EXPECT_EQ(t.queue(q).read_dispatch_id, 1u);
    EXPECT_EQ(t.p.host.mmio_read64(kDoorbellBase + 8 * q.index), ~0ull);  // write-only: reads all-ones
  });
}

// Item 17: the registration block holds queue address, ring base, size, enable and status.
TEST(AqlConformance, TheRegistrationBlockHoldsAddressRingBaseSizeEnableAndStatus) {
  Rig t;
  t.run([&](AccelDevice&, HsaRuntime& rt, AqlEmptyKernel&) {
    auto q = rt.create_queue(1, 16);
    EXPECT_EQ(t.p.host.mmio_read64(kRegsBase + kRegsStride * q.index + kQueueAddrLo), q.amd_queue);
    EXPECT_EQ(t.reg(q, kQueueAddrLo), static_cast<uint32_t>(q.amd_queue));
    EXPECT_EQ(t.p.host.mmio_read64(kRegsBase + kRegsStride * q.index + kQueueRingBase), q.ring);
    EXPECT_EQ(t.reg(q, kQueueSize), 16u);
    EXPECT_EQ(t.reg(q, kQueueEnable), 1u);
    EXPECT_EQ(t.reg(q, kQueueStatus), 1u);  // active, no error
    // Ring base and size come from the hsa_queue_t: the host cannot write them.
    t.p.host.mmio_write32(kRegsBase + kRegsStride * q.index + kQueueSize, 4);
    EXPECT_EQ(t.reg(q, kQueueSize), 16u);
    t.p.host.mmio_write32(kRegsBase + kRegsStride * q.index + kQueueEnable, 0);
    EXPECT_EQ(t.reg(q, kQueueStatus), 0u);
    auto unused = HsaRuntime::Queue{3, 0, 0, 0};
    EXPECT_EQ(t.reg(unused, kQueueSize), 0u);  // never enabled
  });
}

// Item 15: bytes 8..11 of the descriptor are max_flat_workgroup_size.
TEST(AqlConformance, ALargerWorkgroupThanTheDescriptorsMaximumIsAQueueError) {
  Rig t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt, AqlEmptyKernel& k) {
    const uint32_t max_flat = 64;
    ASSERT_TRUE(dev.write(k.descriptor + 8, &max_flat, 4));
    auto ok = rt.create_queue(0, 8), bad = rt.create_queue(1, 8);
    const uint64_t ok_done = rt.create_signal(1), bad_done = rt.create_signal(1);
    rt.dispatch(ok, k.packet(ok_done, 128, 64));  // 64 work-items: allowed
    EXPECT_TRUE(rt.wait_signal_eq(ok_done, 0, kTimeout));
    rt.dispatch(bad, k.packet(bad_done, 128, 65));
    EXPECT_EQ(t.wait_error(bad), uint32_t{kErrWorkgroupSize});
    EXPECT_EQ(rt.signal_value(bad_done), 1);
  });
}

// Item 15: bits 96/97 are is_dynamic_call_stack/is_xnack_enabled; other reserved bits must be 0.
TEST(AqlConformance, DescriptorFlagBitsAreAcceptedAndReservedBitsRefused) {
  Rig t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt, AqlEmptyKernel& k) {
    const uint32_t flags = kKdIsDynamicCallStack | kKdIsXnackEnabled;
    ASSERT_TRUE(dev.write(k.descriptor + 12, &flags, 4));
    auto q = rt.create_queue(0, 8);
    const uint64_t done = rt.create_signal(1);
    rt.dispatch(q, k.packet(done));
    EXPECT_TRUE(rt.wait_signal_eq(done, 0, kTimeout));
    const uint8_t reserved = 1;  // bit 192 + 8 * 20: inside bytes 24..47 (reserved, must be 0)
    ASSERT_TRUE(dev.write(k.descriptor + 44, &reserved, 1));
    const uint64_t done2 = rt.create_signal(1);
    rt.dispatch(q, k.packet(done2));
    EXPECT_EQ(t.wait_error(q), uint32_t{kErrKernelObject});
  });
}

// Item 16: agent dispatch packets, the documented function table and completion signals.
TEST(AqlConformance, AgentFunctionsNopFillAndCopyRunAndSignalCompletion) {
  Rig t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt, AqlEmptyKernel&) {
    auto q = rt.create_queue(0, 8);
    const uint64_t a = dev.alloc(4096), b = dev.alloc(4096);
    std::vector<uint8_t> pattern(4096);
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 7 + 1);
    ASSERT_TRUE(dev.write(a, pattern.data(), pattern.size()));
    ASSERT_TRUE(dev.write(b, pattern.data(), pattern.size()));
    const uint64_t s_nop = rt.create_signal(1), s_fill = rt.create_signal(2), s_copy = rt.create_signal(1);
    rt.agent_dispatch(q, kAgentNop, {0, 0, 0, 0}, s_nop);
    rt.agent_dispatch(q, kAgentFill, {b + 16, 0xDEADBEEF, 100, 0}, s_fill);  // 100 words
    rt.agent_dispatch(q, kAgentCopy, {b + 1024, a + 3, 1000, 0}, s_copy);
    ASSERT_TRUE(rt.wait_signal_eq(s_copy, 0, kTimeout));
    EXPECT_EQ(rt.signal_value(s_nop), 0);
    EXPECT_EQ(rt.signal_value(s_fill), 1);  // decremented once
    std::vector<uint8_t> got(4096);
    ASSERT_TRUE(dev.read(b, got.data(), got.size()));
    for (size_t i = 0; i < 16; ++i) ASSERT_EQ(got[i], pattern[i]) << i;  // before the fill: untouched
    for (size_t w = 0; w < 100; ++w) {
      uint32_t v;
      std::memcpy(&v, &got[16 + 4 * w], 4);
      ASSERT_EQ(v, 0xDEADBEEFu) << w;
    }
    for (size_t i = 416; i < 1024; ++i) ASSERT_EQ(got[i], pattern[i]) << i;  // after the fill: untouched
    for (size_t i = 0; i < 1000; ++i) ASSERT_EQ(got[1024 + i], pattern[3 + i]) << i;
    for (size_t i = 2024; i < 4096; ++i) ASSERT_EQ(got[i], pattern[i]) << i;
    EXPECT_EQ(t.queue(q).read_dispatch_id, 3u);
    EXPECT_EQ(t.reg(q, kQueueStatus), 1u);
  });
}

TEST(AqlConformance, AnOverlappingAgentCopyMovesDataAsThroughABuffer) {
  Rig t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt, AqlEmptyKernel&) {
    auto q = rt.create_queue(0, 8);
    const uint64_t a = dev.alloc(16384);
    std::vector<uint8_t> pattern(16384);
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<uint8_t>(i * 13 + 5);
    ASSERT_TRUE(dev.write(a, pattern.data(), pattern.size()));
    const uint64_t done = rt.create_signal(1);
    rt.agent_dispatch(q, kAgentCopy, {a + 100, a, 10000, 0}, done);  // destination above the source, overlapping
    ASSERT_TRUE(rt.wait_signal_eq(done, 0, kTimeout));
    std::vector<uint8_t> got(16384);
    ASSERT_TRUE(dev.read(a, got.data(), got.size()));
    for (size_t i = 0; i < 10000; ++i) ASSERT_EQ(got[100 + i], pattern[i]) << i;
  });
}

TEST(AqlConformance, AgentPacketsWaitBehindABarrierLikeOtherPackets) {
  Rig t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt, AqlEmptyKernel&) {
    auto q = rt.create_queue(0, 8);
    const uint64_t dep = rt.create_signal(1), barrier_done = rt.create_signal(1), fill_done = rt.create_signal(1);
    const uint64_t buf = dev.alloc(64);
    rt.barrier(q, true, {dep, 0, 0, 0, 0}, barrier_done);
    rt.agent_dispatch(q, kAgentFill, {buf, 0x1234'5678, 4, 0}, fill_done);
    EXPECT_FALSE(rt.wait_signal_eq(fill_done, 0, sc_core::sc_time(30, sc_core::SC_US)));  // in order: blocked
    uint32_t v = 0;
    ASSERT_TRUE(dev.read(buf, &v, 4));
    EXPECT_NE(v, 0x1234'5678u);
    *reinterpret_cast<int64_t*>(t.p.host.host_ptr(dep + offsetof(amd_signal_t, value))) = 0;
    EXPECT_TRUE(rt.wait_signal_eq(fill_done, 0, kTimeout));
    ASSERT_TRUE(dev.read(buf, &v, 4));
    EXPECT_EQ(v, 0x1234'5678u);
  });
}

TEST(AqlConformance, UnknownAgentFunctionsAndBadAddressesStopTheirQueue) {
  Rig t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt, AqlEmptyKernel&) {
    const uint64_t buf = dev.alloc(4096), unmapped = 0x7000'0000'0000ull;
    struct Bad {
      hsa_agent_dispatch_packet_t packet;
      QueueError error;
    };
    const Bad cases[4] = {{agent_packet(7, {}, 0), kErrInvalidPacket},
                          {agent_packet(kAgentFill, {unmapped, 1, 4}, 0), kErrMemory},
                          {agent_packet(kAgentFill, {buf + 2, 1, 4}, 0), kErrInvalidPacket},
                          {agent_packet(kAgentCopy, {buf, unmapped, 64}, 0), kErrMemory}};
    std::vector<HsaRuntime::Queue> queues;
    std::vector<uint64_t> signals;
    for (unsigned i = 0; i < 4; ++i) {  // one queue each: an error stops only its queue
      queues.push_back(rt.create_queue(i, 8));
      hsa_agent_dispatch_packet_t p = cases[i].packet;
      p.completion_signal = rt.create_signal(1);
      signals.push_back(p.completion_signal);
      t.p.host.mmio_write64(kDoorbellBase + 8 * i, t.enqueue(queues[i], &p));
    }
    for (unsigned i = 0; i < 4; ++i) {
      EXPECT_EQ(t.wait_error(queues[i]), uint32_t{cases[i].error}) << "case " << i;
      EXPECT_EQ(rt.signal_value(signals[i]), 1) << "case " << i;
    }
    EXPECT_TRUE(t.p.host.mmio_read32(ACCELDEV_INTR) & AVP_INTR_AQL_ERROR);
  });
}

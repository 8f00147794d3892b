// The AQL front end against the specification text (platform.md sections 5
// and 7, the seed's "Kernel Descriptor for GFX6-GFX9" and the HSA agent
// dispatch packet): 64-bit doorbells, the registration block's contents, the
// descriptor's max_flat_workgroup_size and reserved bits, and agent dispatch
// packets with their function table. Kernels are hand-written (`ret`).
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "accel_device.h"
#include "aql_empty_kernel.h"
#include "hsa_runtime.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"

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

namespace {

// A kernel that stores a0..a7 at its code + 512, outside the code's 256-byte
// granule (auipc t0, 0; sd a0..a7, 512..568(t0); ret).
std::vector<uint32_t> registers_kernel() {
  auto sd = [](unsigned rs2, unsigned rs1, unsigned imm) {
    return (imm >> 5) << 25 | rs2 << 20 | rs1 << 15 | 3u << 12 | (imm & 31) << 7 | 0x23;
  };
  std::vector<uint32_t> code = {0x00000297};  // auipc t0, 0
  for (unsigned r = 0; r < 8; ++r) code.push_back(sd(10 + r, 5, 512 + 8 * r));
  code.push_back(AqlEmptyKernel::kRet);
  return code;
}

// The a0..a7 a dispatch of that kernel with these enables sees (the buffer holds ~0 before).
std::vector<uint64_t> initial_registers(AccelDevice& dev, HsaRuntime& rt, HsaRuntime::Queue& q, uint16_t properties,
                                        uint32_t rsrc2, const uint32_t grid[3], const uint16_t wg[3]) {
  const uint64_t kd_addr = dev.alloc(1024, 256), regs_addr = kd_addr + 64 + 512;
  kernel_descriptor_t kd{};
  kd.max_flat_workgroup_size = 1024;
  kd.kernel_code_entry_byte_offset = 64;
  kd.kernel_code_properties = properties;
  kd.compute_pgm_rsrc2 = rsrc2;
  const std::vector<uint32_t> code = registers_kernel();
  std::vector<uint64_t> regs(8, ~0ull);
  EXPECT_TRUE(dev.write(kd_addr, &kd, sizeof kd) && dev.write(kd_addr + 64, code.data(), 4 * code.size()) &&
              dev.write(regs_addr, regs.data(), 64));
  hsa_kernel_dispatch_packet_t p{};
  p.header = kKernelDispatch;
  p.setup = 3;
  p.grid_size_x = grid[0], p.grid_size_y = grid[1], p.grid_size_z = grid[2];
  p.workgroup_size_x = wg[0], p.workgroup_size_y = wg[1], p.workgroup_size_z = wg[2];
  p.kernel_object = kd_addr;
  if (properties & kEnableKernargSegmentPtr) p.kernarg_address = dev.alloc(64, 16);
  p.completion_signal = rt.create_signal(1);
  rt.dispatch(q, p);
  EXPECT_TRUE(rt.wait_signal_eq(p.completion_signal, 0, kTimeout));
  EXPECT_TRUE(dev.read(regs_addr, regs.data(), 64));
  return regs;
}

}  // namespace

// The seed's kernel_code_properties bits 455..457: ceil(grid / work-group) per
// dimension after the other enabled inputs, before the work-group ids; Y and Z
// only while fewer than 16 SGPRs precede them.
TEST(AqlConformance, GridWorkgroupCountsFollowTheOtherInputsInTheSeedsOrder) {
  Rig t;
  t.run([&](AccelDevice& dev, HsaRuntime& rt, AqlEmptyKernel&) {
    auto q0 = rt.create_queue(0, 8);
    const uint32_t grid[3] = {7, 4, 3};
    const uint16_t wg[3] = {7, 4, 3};  // one work-group, so its ids are 0
    const uint16_t counts = kEnableGridWorkgroupCountX | kEnableGridWorkgroupCountY | kEnableGridWorkgroupCountZ;
    // The dispatch id (2 SGPRs), the three counts, the X work-group id.
    std::vector<uint64_t> r = initial_registers(dev, rt, q0, kEnableDispatchId | counts, kRsrc2WorkgroupIdX, grid, wg);
    EXPECT_EQ(r[0], 0u);  // the first packet of the queue
    EXPECT_EQ(r[1], 1u);
    EXPECT_EQ(r[2], 1u);
    EXPECT_EQ(r[3], 1u);
    EXPECT_EQ(r[4], 0u);     // work-group id X
    EXPECT_EQ(r[5], 0u);     // the registers after the inputs start at 0
    // 36 / 7 rounds up to 6 work-groups (the last one partial), 12 / 4 = 3, 6 / 3 = 2.
    const uint32_t ragged[3] = {36, 12, 6};
    const uint16_t wg2[3] = {7, 4, 3};
    r = initial_registers(dev, rt, q0, counts, 0, ragged, wg2);
    EXPECT_EQ((std::vector<uint64_t>{r[0], r[1], r[2], r[3]}), (std::vector<uint64_t>{6, 3, 2, 0}));
    // Buffer 4 + dispatch 2 + queue 2 + kernarg 2 + id 2 + scratch 2 + size 1 = 15 SGPRs, X makes 16: no Y, Z
    // (a ninth register would fail the dispatch).
    const uint16_t inputs = kEnablePrivateSegmentBuffer | kEnableDispatchPtr | kEnableQueuePtr |
                            kEnableKernargSegmentPtr | kEnableDispatchId | kEnableFlatScratchInit |
                            kEnablePrivateSegmentSize;
    r = initial_registers(dev, rt, q0, inputs | counts, 0, ragged, wg2);
    EXPECT_EQ(r[0], 0u);  // no private segment buffer
    EXPECT_EQ(r[7], 6u);  // X after the seven other inputs
    // Without X: Y after those 15, then 16: no Z.
    r = initial_registers(dev, rt, q0, inputs | kEnableGridWorkgroupCountY | kEnableGridWorkgroupCountZ, 0, ragged, wg2);
    EXPECT_EQ(r[7], 3u);
    // Without the kernarg pointer (13 SGPRs): Y and Z both.
    r = initial_registers(dev, rt, q0, (inputs & ~kEnableKernargSegmentPtr) | kEnableGridWorkgroupCountY |
                                       kEnableGridWorkgroupCountZ, 0, ragged, wg2);
    EXPECT_EQ(r[6], 3u);
    EXPECT_EQ(r[7], 2u);
    // A reserved bit (458) still fails the dispatch.
    AqlEmptyKernel reserved;
    ASSERT_TRUE(reserved.prepare(dev));
    const uint16_t reserved_bit = 1u << 10;
    ASSERT_TRUE(dev.write(reserved.descriptor + offsetof(kernel_descriptor_t, kernel_code_properties), &reserved_bit, 2));
    auto q = rt.create_queue(1, 8);
    rt.dispatch(q, reserved.packet(rt.create_signal(1)));
    EXPECT_EQ(t.wait_error(q), uint32_t{kErrKernelObject});
  });
}

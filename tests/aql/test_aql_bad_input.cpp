// Bad input to the AQL packet processor: every malformed packet, bad size or
// unusable address stops its queue with the documented error (ERROR, STATUS,
// the queue_inactive_signal value, AQL_ERROR) and leaves the other queues
// working. Kernels are hand-written (`ret`): no cross compiler needed.
#include <gtest/gtest.h>

#include <functional>

#include "accel_device.h"
#include "aql_empty_kernel.h"
#include "hsa_runtime.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"

using namespace avp;
using namespace avp::aql;

namespace {

const sc_core::sc_time kTimeout(1, sc_core::SC_MS);
constexpr uint64_t kUnmapped = 0x7000'0000'0000ull;  // neither device memory nor host memory

struct Case {
  std::function<void(AqlEmptyKernel&, AccelDevice&)> setup;  // e.g. a kernel with kernarg bytes or faulting code
  std::function<void(hsa_kernel_dispatch_packet_t&)> corrupt;
};

// Runs a corrupted dispatch on queue 0 and a good one on queue 1; returns queue 0's error.
void expect_queue_error(const Case& c, QueueError expected) {
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_spawn([&] {
    AccelDevice dev(p.host);
    ASSERT_TRUE(dev.open());
    HsaRuntime rt(p.host);
    AqlEmptyKernel k, good_kernel;
    ASSERT_TRUE(k.prepare(dev));
    ASSERT_TRUE(good_kernel.prepare(dev));
    if (c.setup) c.setup(k, dev);
    auto bad = rt.create_queue(0, 8), good = rt.create_queue(1, 8);
    const uint64_t inactive = rt.create_signal(0), done = rt.create_signal(1), good_done = rt.create_signal(1);
    reinterpret_cast<amd_queue_t*>(p.host.host_ptr(bad.amd_queue))->queue_inactive_signal = inactive;
    hsa_kernel_dispatch_packet_t packet = k.packet(done);
    c.corrupt(packet);
    rt.dispatch(bad, packet);
    // Polled without the runtime's wait, which clears the AQL interrupt bits it sees.
    for (int us = 0; us < 1000 && p.host.mmio_read32(kRegsBase + kRegsStride * bad.index + kQueueStatus) != 2; ++us)
      sc_core::wait(1, sc_core::SC_US);
    EXPECT_EQ(rt.signal_value(inactive), int64_t{expected});
    const uint32_t regs = kRegsBase + kRegsStride * bad.index;
    EXPECT_EQ(p.host.mmio_read32(regs + kQueueError), uint32_t{expected});
    EXPECT_EQ(p.host.mmio_read32(regs + kQueueStatus), 2u);  // error, not active
    EXPECT_TRUE(p.host.mmio_read32(ACCELDEV_INTR) & AVP_INTR_AQL_ERROR);
    EXPECT_EQ(reinterpret_cast<amd_queue_t*>(p.host.host_ptr(bad.amd_queue))->read_dispatch_id, 0u);  // not retired
    EXPECT_EQ(rt.signal_value(done), 1);
    // The other queue still works.
    rt.dispatch(good, good_kernel.packet(good_done));
    EXPECT_TRUE(rt.wait_signal_eq(good_done, 0, kTimeout));
    EXPECT_EQ(p.host.mmio_read32(kRegsBase + kRegsStride * good.index + kQueueStatus), 1u);
    sc_core::sc_stop();
  });
  sc_core::sc_start();
}

void expect_packet_error(const std::function<void(hsa_kernel_dispatch_packet_t&)>& corrupt, QueueError expected) {
  expect_queue_error(Case{nullptr, corrupt}, expected);
}

}  // namespace

TEST(AqlBadInput, UnknownPacketTypeIsInvalidFormat) {
  expect_packet_error([](auto& p) { p.header = 6; }, kErrInvalidPacket);
}

TEST(AqlBadInput, AgentDispatchIsInvalidFormat) {
  expect_packet_error([](auto& p) { p.header = kAgentDispatch; }, kErrInvalidPacket);
}

TEST(AqlBadInput, VendorPacketIsAVendorFormatError) {
  expect_packet_error([](auto& p) { p.header = kVendor; }, kErrVendorPacket);
}

TEST(AqlBadInput, ReservedHeaderBitsAreInvalidFormat) {
  expect_packet_error([](auto& p) { p.header |= 1u << 13; }, kErrInvalidPacket);
}

TEST(AqlBadInput, ReservedFenceScopeIsInvalidFormat) {
  expect_packet_error([](auto& p) { p.header |= 3u << kReleaseShift; }, kErrInvalidPacket);
}

TEST(AqlBadInput, ZeroDimensionsAreADimensionError) {
  expect_packet_error([](auto& p) { p.setup = 0; }, kErrDimensions);
}

TEST(AqlBadInput, MoreThanThreeDimensionsAreADimensionError) {
  expect_packet_error([](auto& p) { p.setup = 4; }, kErrDimensions);
}

TEST(AqlBadInput, ZeroGridSizeIsADimensionError) {
  expect_packet_error([](auto& p) { p.grid_size_x = 0; }, kErrDimensions);
}

TEST(AqlBadInput, ZeroWorkgroupSizeIsADimensionError) {
  expect_packet_error([](auto& p) { p.setup = 2, p.grid_size_y = 4, p.workgroup_size_y = 0; }, kErrDimensions);
}

TEST(AqlBadInput, WorkgroupLargerThanGridIsADimensionError) {
  expect_packet_error([](auto& p) { p.grid_size_x = 8, p.workgroup_size_x = 16; }, kErrDimensions);
}

TEST(AqlBadInput, UnusedDimensionOtherThanOneIsADimensionError) {
  expect_packet_error([](auto& p) { p.grid_size_z = 2; }, kErrDimensions);
}

TEST(AqlBadInput, MoreThanTwoToThe64WorkgroupsIsADimensionError) {
  expect_packet_error([](auto& p) { p.setup = 3, p.grid_size_x = p.grid_size_y = p.grid_size_z = 0xFFFF'FFFF; }, kErrDimensions);
}

TEST(AqlBadInput, OversizedWorkgroupIsGroupTooLarge) {
  expect_packet_error([](auto& p) { p.grid_size_x = 4096, p.workgroup_size_x = 2048; }, kErrWorkgroupSize);
}

TEST(AqlBadInput, OversizedGroupSegmentIsAGroupMemoryError) {
  expect_packet_error([](auto& p) { p.group_segment_size = 64 * 1024 + 1; }, kErrGroupSegment);
}

TEST(AqlBadInput, OversizedPrivateSegmentIsAScratchError) {
  expect_packet_error([](auto& p) { p.private_segment_size = 16 * 1024 + 1; }, kErrPrivateSegment);
}

TEST(AqlBadInput, UnalignedKernelObjectIsACodeError) {
  expect_packet_error([](auto& p) { p.kernel_object += 8; }, kErrKernelObject);
}

TEST(AqlBadInput, NullKernelObjectIsACodeError) {
  expect_packet_error([](auto& p) { p.kernel_object = 0; }, kErrKernelObject);
}

TEST(AqlBadInput, UnreadableKernelObjectIsACodeError) {
  expect_packet_error([](auto& p) { p.kernel_object = kUnmapped; }, kErrKernelObject);
}

namespace {
// A kernel with 32 bytes of kernel arguments.
void with_kernargs(AqlEmptyKernel& k, AccelDevice& dev) { ASSERT_TRUE(k.prepare(dev, true)); }
}  // namespace

TEST(AqlBadInput, UnalignedKernargAddressIsInvalidFormat) {
  expect_queue_error({with_kernargs, [](auto& p) { p.kernarg_address = p.kernel_object + 8; }}, kErrInvalidPacket);
}

TEST(AqlBadInput, UnreadableKernargAddressIsAMemoryViolation) {
  expect_queue_error({with_kernargs, [](auto& p) { p.kernarg_address = kUnmapped; }}, kErrMemory);
}

TEST(AqlBadInput, NullKernargAddressWithArgumentsIsAMemoryViolation) {
  expect_queue_error({with_kernargs, [](auto& p) { p.kernarg_address = 0; }}, kErrMemory);
}

TEST(AqlBadInput, IllegalInstructionInAWorkgroupIsReported) {
  expect_queue_error({[](AqlEmptyKernel& k, AccelDevice& dev) { ASSERT_TRUE(k.prepare(dev, false, 0)); }, [](auto&) {}},
                     kErrIllegalInstruction);
}

TEST(AqlBadInput, BreakpointInAWorkgroupIsAKernelException) {
  expect_queue_error({[](AqlEmptyKernel& k, AccelDevice& dev) { ASSERT_TRUE(k.prepare(dev, false, 0x00100073)); }, [](auto&) {}},
                     kErrKernelFault);
}

TEST(AqlBadInput, UnreadableBarrierDependencyIsAMemoryViolation) {
  expect_packet_error(
      [](auto& p) {
        hsa_barrier_packet_t b{};
        b.header = kBarrierAnd;
        b.dep_signal[2] = kUnmapped;
        std::memcpy(&p, &b, sizeof b);
      },
      kErrMemory);
}

TEST(AqlBadInput, UnreadableQueueRegistrationIsAMemoryViolation) {
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_spawn([&] {
    AccelDevice dev(p.host);
    ASSERT_TRUE(dev.open());
    p.host.cfg_write32(0x04, p.host.cfg_read32(0x04) | 0x0006);
    const uint32_t regs = kRegsBase + kRegsStride * 2;
    p.host.mmio_write32(regs + kQueueAddrLo, 0);
    p.host.mmio_write32(regs + kQueueAddrHi, static_cast<uint32_t>(kUnmapped >> 32));
    p.host.mmio_write32(regs + kQueueEnable, 1);
    sc_core::wait(10, sc_core::SC_US);
    EXPECT_EQ(p.host.mmio_read32(regs + kQueueError), uint32_t{kErrMemory});
    EXPECT_EQ(p.host.mmio_read32(regs + kQueueStatus), 2u);
    EXPECT_TRUE(p.host.mmio_read32(ACCELDEV_INTR) & AVP_INTR_AQL_ERROR);
    sc_core::sc_stop();
  });
  sc_core::sc_start();
}

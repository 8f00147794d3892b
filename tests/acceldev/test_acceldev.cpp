// Acceldev acceptance scenarios (acceldev.md) through the host driver, MMIO
// misuse, reset during a RUN, 255 contexts, interrupt timing.
#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <vector>

#include "acceldev_bench.h"
#include "acceldev_driver.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"

using namespace avp;
using Kind = AcceldevContext::Kind;

TEST(Acceldev, BuffersAreZeroFilledAndFillRotatesTheValueByOffset) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int data = c->create_buffer(Kind::Data, 3 * 4096);
    const int code = c->create_buffer(Kind::Code, 4096);
    std::vector<uint8_t> bytes(3 * 4096, 0xEE);
    c->read(data, 0, bytes.data(), bytes.size());
    for (uint8_t b : bytes) ASSERT_EQ(b, 0);
    run_cmds(*c, code, {fill(0x44332211u, c->slot(data), 4094, 5), fence()});
    ASSERT_TRUE(c->wait(1));
    c->read(data, 0, bytes.data(), bytes.size());
    // Byte k of the range gets byte (offset + k) mod 4: offsets 4094..4098 -> 33 44 11 22 33, across a page.
    EXPECT_EQ(bytes[4093], 0);
    EXPECT_EQ(bytes[4094], 0x33);
    EXPECT_EQ(bytes[4095], 0x44);
    EXPECT_EQ(bytes[4096], 0x11);
    EXPECT_EQ(bytes[4097], 0x22);
    EXPECT_EQ(bytes[4098], 0x33);
    EXPECT_EQ(bytes[4099], 0);
  });
}

TEST(Acceldev, AFourByteRunIsValidAndAnUnalignedOffsetIsRejected) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int code = c->create_buffer(Kind::Code, 4096);
    EXPECT_TRUE(c->run(code, 0, 4));
    EXPECT_FALSE(c->run(code, 2, 20));
    run_cmds(*c, code, {fence()});
    EXPECT_TRUE(c->wait(1));
    EXPECT_FALSE(c->in_error());
  });
}

TEST(Acceldev, RunPastTheCodeBufferIsAMemErrorAndWaitFails) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int code = c->create_buffer(Kind::Code, 4096);
    ASSERT_TRUE(c->run(code, 4096 - 20, 40));  // the second command lies on an unmapped page
    EXPECT_FALSE(c->wait(1));
    EXPECT_TRUE(c->in_error());
    EXPECT_TRUE(t.drv.seen_interrupts() & ACCELDEV_INTR_MEM_ERROR);
  });
}

TEST(Acceldev, WaitChecksTheErrorBeforeFenceProgress) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int data = c->create_buffer(Kind::Data, 4096);
    const int code = c->create_buffer(Kind::Code, 4096);
    run_cmds(*c, code, {fence(), fill(1, c->slot(data), 4000, 200)});  // fence, then a FILL past the buffer
    while (!c->in_error()) t.drv.wait_interrupt();
    EXPECT_EQ(c->fence_counter(), 1u);
    EXPECT_FALSE(c->wait(1));
  });
}

TEST(Acceldev, OneContextErringLeavesTheOthersWorkingAndItsRunsAreSkipped) {
  Bench t;
  t.run([&] {
    auto bad = t.drv.open_context();
    auto good = t.drv.open_context();
    const int bad_code = bad->create_buffer(Kind::Code, 4096);
    const int data = good->create_buffer(Kind::Data, 4096);
    const int good_code = good->create_buffer(Kind::Code, 4096);
    run_cmds(*bad, bad_code, {{7, 0, 0, 0, 0}, fence()});  // unknown user command: CMD_ERROR on the context
    run_cmds(*good, good_code, {fill(0xFFFFFFFFu, good->slot(data), 0, 4096), fence()});
    EXPECT_TRUE(good->wait(1));
    EXPECT_FALSE(bad->wait(1));
    EXPECT_TRUE(t.drv.seen_interrupts() & ACCELDEV_INTR_CMD_ERROR);
    uint8_t b = 0;
    good->read(data, 4095, &b, 1);
    EXPECT_EQ(b, 0xFF);
    // A later RUN of the erring context is refused (EIO) and the device skips
    // one sent anyway: its fence counter stays 0.
    EXPECT_EQ(bad->run(bad_code, 0, 20).err(), EIO);
    const uint32_t raw_run[5] = {ACCELDEV_DEVICE_CMD_TYPE_RUN | bad->id() << 4,
                                 static_cast<uint32_t>(bad->buffer(bad_code)->page_table), 0, 0, 20};
    t.drv.submit(raw_run);
    run_cmds(*good, good_code, {fence()});
    EXPECT_TRUE(good->wait(2));
    EXPECT_EQ(bad->fence_counter(), 0u);
  });
}

TEST(Acceldev, UnboundSlotIsASlotError) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int code = c->create_buffer(Kind::Code, 4096);
    run_cmds(*c, code, {fill(1, 5, 0, 4), fence()});
    EXPECT_FALSE(c->wait(1));
    EXPECT_TRUE(t.drv.seen_interrupts() & ACCELDEV_INTR_SLOT_ERROR);
  });
}

TEST(Acceldev, All255ContextsAtOnceThenEveryIdIsReusable) {
  Bench t;
  t.run([&] {
    for (int round = 0; round < 2; ++round) {
      std::vector<std::unique_ptr<AcceldevContext>> ctxs;
      std::vector<int> codes;
      for (int i = 0; i < 255; ++i) {
        ctxs.push_back(t.drv.open_context());
        ASSERT_NE(ctxs.back(), nullptr);
        codes.push_back(ctxs.back()->create_buffer(Kind::Code, 4096));
      }
      EXPECT_EQ(t.drv.open_context(), nullptr);
      for (int i = 0; i < 255; ++i) run_cmds(*ctxs[i], codes[i], {fence()});
      for (auto& c : ctxs) EXPECT_TRUE(c->wait(1));
      for (auto& c : ctxs) c->close();
      for (int i = 0; i < 255; ++i) {
        const uint8_t* cfg = t.drv.config(i);
        for (int k = 0; k < ACCELDEV_CONTEXT_CONFIG_SIZE; ++k) ASSERT_EQ(cfg[k], 0) << "context " << i;
      }
    }
  });
}

TEST(Acceldev, DeviceCommandErrorsDropTheCommandWithoutMarkingAContext) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const uint32_t bad_type[5] = {9, 0, 0, 0, 0};
    const uint32_t bad_ctx[5] = {ACCELDEV_DEVICE_CMD_TYPE_RUN | 255u << 4, 0, 0, 0, 0};
    const uint32_t bad_slot[5] = {ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT | c->id() << 4, 16, 0, 0, 0};
    for (const uint32_t* w : {bad_type, bad_ctx, bad_slot}) {
      t.drv.submit(w);
      while (!(t.drv.take_interrupts() & ACCELDEV_INTR_CMD_ERROR)) sc_core::wait(t.p.host.irq_event());
    }
    EXPECT_FALSE(c->in_error());
  });
}

TEST(Acceldev, DeviceFenceSetsFenceLastAndRaisesFenceWaitOnlyOnAMatch) {
  Bench t;
  t.run([&] {
    t.p.host.mmio_write32(ACCELDEV_CMD_FENCE_WAIT, 2);
    const uint32_t f1[5] = {ACCELDEV_DEVICE_CMD_TYPE_FENCE, 1, 0, 0, 0}, f2[5] = {ACCELDEV_DEVICE_CMD_TYPE_FENCE, 2, 0, 0, 0};
    t.drv.submit(f1);
    sc_core::wait(sc_core::sc_time(2, sc_core::SC_US));
    EXPECT_EQ(t.p.host.mmio_read32(ACCELDEV_CMD_FENCE_LAST), 1u);
    EXPECT_FALSE(t.drv.take_interrupts() & ACCELDEV_INTR_FENCE_WAIT);
    t.drv.submit(f2);
    sc_core::wait(sc_core::sc_time(2, sc_core::SC_US));
    EXPECT_EQ(t.p.host.mmio_read32(ACCELDEV_CMD_FENCE_LAST), 2u);
    EXPECT_TRUE(t.drv.take_interrupts() & ACCELDEV_INTR_FENCE_WAIT);
  });
}

TEST(Acceldev, AnInterruptReachesTheHostAtTheSimulatedTimeTheDeviceRaisedIt) {
  Bench t;
  t.run([&] {
    t.p.host.mmio_write32(ACCELDEV_CMD_FENCE_WAIT, 5);
    const uint32_t f[5] = {ACCELDEV_DEVICE_CMD_TYPE_FENCE, 5, 0, 0, 0};
    t.drv.submit(f);  // returns when word 4 has reached the device
    const sc_core::sc_time submitted = sc_core::sc_time_stamp();
    sc_core::wait(t.p.host.irq_event());
    EXPECT_EQ(sc_core::sc_time_stamp() - submitted, t.p.acceldev->decode_latency.get());
  });
}

TEST(Acceldev, FeedingAFullQueueRaisesFeedErrorAndDropsOnlyThatCommand) {
  Bench t;
  t.run([&] {
    t.p.host.mmio_write32(ACCELDEV_ENABLE, 0);  // commands keep queueing while disabled
    const uint32_t nop[5] = {ACCELDEV_DEVICE_CMD_TYPE_NOP, 0, 0, 0, 0};
    for (int i = 0; i < 255; ++i)  // raw feeds: the driver would keep a slot for its own FENCE
      for (unsigned w = 0; w < 5; ++w) t.p.host.mmio_write32(ACCELDEV_CMD_MANUAL_FEED(w), nop[w]);
    EXPECT_EQ(t.p.host.mmio_read32(ACCELDEV_CMD_MANUAL_FREE), 0u);
    for (unsigned i = 0; i < 5; ++i) t.p.host.mmio_write32(ACCELDEV_CMD_MANUAL_FEED(i), nop[i]);
    EXPECT_TRUE(t.drv.take_interrupts() & ACCELDEV_INTR_FEED_ERROR);
    EXPECT_EQ(t.p.host.mmio_read32(ACCELDEV_CMD_MANUAL_FREE), 0u);
    t.p.host.mmio_write32(ACCELDEV_ENABLE, 1);
    sc_core::wait(sc_core::sc_time(20, sc_core::SC_US));
    EXPECT_EQ(t.p.host.mmio_read32(ACCELDEV_CMD_MANUAL_FREE), 255u);
  });
}

TEST(Acceldev, MmioMisuseReadsAllOnesAndChangesNothing) {
  Bench t;
  t.run([&] {
    t.p.host.mmio_write32(ACCELDEV_INTR_ENABLE, 0x5);
    EXPECT_EQ(t.p.host.mmio_read32(0x0050), 0xFFFFFFFFu);  // unused offset
    EXPECT_EQ(t.p.host.mmio_read32(0x0006), 0xFFFFFFFFu);  // unaligned
    t.p.host.mmio_write32(0x0050, 1);
    t.p.host.mmio_write32(0x0006, 0xFFFFFFFF);
    EXPECT_EQ(t.p.host.mmio_read32(ACCELDEV_INTR_ENABLE), 0x5u);
  });
  auto* misuse = dynamic_cast<const Counter*>(StatRegistry::instance().find("endpoint.mmio_misuse"));
  ASSERT_NE(misuse, nullptr);
  EXPECT_EQ(misuse->value(), 4u);
}

TEST(Acceldev, ResetInTheMiddleOfARunStopsItAndEmptiesEverything) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int data = c->create_buffer(Kind::Data, 4 << 20);
    const int code = c->create_buffer(Kind::Code, 4096);
    std::vector<std::vector<uint32_t>> cmds;
    for (int i = 0; i < 8; ++i) cmds.push_back(fill(0x5A5A5A5Au, c->slot(data), 0, 4 << 20));
    cmds.push_back(fence());
    run_cmds(*c, code, cmds);
    sc_core::wait(sc_core::sc_time(50, sc_core::SC_US));
    t.p.endpoint->reset();
    EXPECT_EQ(t.p.host.mmio_read32(ACCELDEV_ENABLE), 0u);
    EXPECT_EQ(t.p.host.mmio_read32(ACCELDEV_CMD_MANUAL_FREE), 255u);
    sc_core::wait(sc_core::sc_time(3, sc_core::SC_MS));
    EXPECT_EQ(c->fence_counter(), 0u);  // the run never reached its fence
    ASSERT_TRUE(t.drv.start());  // the driver brings the device back up before closing
  });
}

TEST(Pcie, MsiDeliversAMessageWriteInsteadOfTheIntxLevel) {
  Bench t;
  t.run([&] {
    t.p.host.cfg_write32(0x50 + 4, 0xFEE0'0000u & 0x0FFF'FFFF);  // MSI address (in host memory here)
    t.p.host.cfg_write32(0x50 + 8, 0);
    t.p.host.cfg_write32(0x50 + 12, 0x42);
    t.p.host.cfg_write32(0x50, 1u << 16);  // MSI enable
    EXPECT_EQ(t.p.host.cfg_read32(0x50) & 0xFF, 0x05u);  // MSI capability id
    t.p.host.mmio_write32(ACCELDEV_CMD_FENCE_WAIT, 9);
    const uint32_t f[5] = {ACCELDEV_DEVICE_CMD_TYPE_FENCE, 9, 0, 0, 0};
    t.drv.submit(f);
    sc_core::wait(t.p.host.irq_event());
    uint32_t data = 0;
    t.p.host.host_mem.read(0x0EE0'0000, &data, 4);
    EXPECT_EQ(data, 0x42u);
    EXPECT_FALSE(t.p.host.irq_level());  // no INTx while MSI is on
    EXPECT_TRUE(t.p.host.mmio_read32(ACCELDEV_INTR) & ACCELDEV_INTR_FENCE_WAIT);
  });
}

TEST(Pcie, ConfigSpaceIdentifiesTheDeviceAndSizesItsBars) {
  Bench t;
  t.run([&] {
    EXPECT_EQ(t.p.host.cfg_read32(0x00), AVP_PCI_VENDOR_ID | AVP_PCI_DEVICE_ID << 16);
    EXPECT_EQ(t.p.host.cfg_read32(0x08) >> 8, static_cast<uint32_t>(AVP_PCI_CLASS));
    t.p.host.cfg_write32(0x10, 0xFFFFFFFFu);
    EXPECT_EQ(t.p.host.cfg_read32(0x10), ~(AVP_BAR0_SIZE - 1));
    t.p.host.cfg_write32(0x18, 0xFFFFFFFFu);
    t.p.host.cfg_write32(0x1C, 0xFFFFFFFFu);
    const uint64_t bar2 = t.p.host.cfg_read32(0x18) | uint64_t{t.p.host.cfg_read32(0x1C)} << 32;
    EXPECT_EQ(bar2 & 0xF, 0xCu);  // 64-bit, prefetchable
    EXPECT_EQ(~(bar2 & ~0xFull) + 1, t.p.dram.size());
  });
}

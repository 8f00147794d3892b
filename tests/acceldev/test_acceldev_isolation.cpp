// Context isolation (docs/acceldev.md): work launched by an Acceldev context
// through CMP_SUBMIT reaches host memory only through that context's page
// tables. A kernel (isolation_probe.c) and command-buffer packets try every
// way out; each attempt puts the attacking context in error and leaves a
// victim context untouched. Positive controls show the context's own window.
#include <gtest/gtest.h>

#include <cerrno>
#include <functional>
#include <string>
#include <vector>

#include "accel_device.h"
#include "acceldev_bench.h"
#include "acceldev_driver.h"
#include "cmdbuf.h"
#include "kernel_loader.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"

using namespace avp;
using Kind = AcceldevContext::Kind;

namespace {

enum Mode : uint64_t { kRead, kWrite, kDmaIn, kDmaOut, kDmaInNoWait };
constexpr uint64_t kSecret = 0x5EC2E75EC2E75EC2ull, kOwn = 0x0123456789ABCDEFull;

uint64_t raw(uint64_t host_pa) { return ACCELDEV_HOST_WINDOW_BASE + host_pa; }

// A victim context with a secret in its data buffer and one fence done, the
// probe kernel in device memory and a result block there.
struct Scene {
  Bench& t;
  AccelDevice dev;
  LoadedKernel k;
  std::unique_ptr<AcceldevContext> victim;
  int victim_data = -1, victim_code = -1;
  uint64_t out = 0;  // device address of the kernel's result block

  explicit Scene(Bench& b) : t(b), dev(b.p.host) {}
  bool setup() {
    if (!dev.open() || !t.drv.start()) return false;  // the driver's interrupt mask
    if (!load_kernel_into(dev, AVP_ISOLATION_PROBE_ELF, "isolation", k)) return false;
    out = dev.alloc(4096);
    victim = t.drv.open_context();
    victim_data = victim->create_buffer(Kind::Data, 8192);
    victim_code = victim->create_buffer(Kind::Code, 4096);
    const std::vector<uint64_t> secret(1024, kSecret);
    if (!victim->write(victim_data, 0, secret.data(), 8192)) return false;
    run_cmds(*victim, victim_code, {fence()});
    return static_cast<bool>(victim->wait(1));
  }
  uint64_t config(unsigned ctx) const { return t.drv.config_base() + ACCELDEV_CONTEXT_CONFIG_SIZE * ctx; }
  uint64_t victim_page() const { return victim->buffer(victim_data)->pages[0]; }
  uint64_t victim_page_table() const { return victim->buffer(victim_data)->page_table; }
  uint64_t result(unsigned i) {
    uint64_t v = ~0ull;
    host_read(t.p, out + 8 * i, &v, 8);
    return v;
  }
  CommandBuffer probe(Mode mode, uint64_t addr, uint64_t value) const {
    CommandBuffer cb;
    append_kernel_setup(cb, k).run_instances(1, 1, {mode, addr, value, out}).finish();
    return cb;
  }
  // Runs `cb` (CMP_SUBMIT, then a fence) from a new context whose slot 0
  // holds the buffer at offset 0 and kOwn at offset 4096; the WAIT's errno.
  int launch(const CommandBuffer& cb, std::unique_ptr<AcceldevContext>& ctx, int* data_handle = nullptr) {
    const uint64_t zero[2] = {0, 0};
    host_write(t.p, out, zero, sizeof zero);
    ctx = t.drv.open_context();
    const int data = ctx->create_buffer(Kind::Data, 8192);
    const int code = ctx->create_buffer(Kind::Code, 4096);
    if (data_handle) *data_handle = data;
    if (!ctx->write(data, 0, cb.chunks().data(), cb.size_bytes()) || !ctx->write(data, 4096, &kOwn, 8)) return -1;
    std::vector<uint32_t> submit(5);
    encode_cmp_submit(submit.data(), static_cast<unsigned>(ctx->slot(data)), 0, static_cast<uint32_t>(cb.size_bytes()));
    run_cmds(*ctx, code, {submit, fence()});
    return ctx->wait(1).err();
  }
  // The victim is exactly as it was and still works.
  void expect_victim_untouched() {
    EXPECT_FALSE(victim->in_error());
    EXPECT_EQ(victim->fence_counter(), 1u);
    std::vector<uint64_t> words(1024);
    ASSERT_TRUE(victim->read(victim_data, 0, words.data(), 8192));
    for (uint64_t w : words) ASSERT_EQ(w, kSecret);
    uint64_t bound = 0;
    std::memcpy(&bound, t.drv.config(victim->id()) + 8 * victim->slot(victim_data), 8);
    EXPECT_EQ(bound, victim_page_table());
    run_cmds(*victim, victim_code, {fence()});
    EXPECT_TRUE(victim->wait(2));
  }
};

struct Attack {
  const char* name;
  std::function<CommandBuffer(const Scene&)> buffer;
  uint32_t intr;  // the attacker's interrupt bit
};

void PrintTo(const Attack& a, std::ostream* os) { *os << a.name; }

CommandBuffer kernel(const Scene& s, Mode m, uint64_t addr, uint64_t value = 0) { return s.probe(m, addr, value); }

const Attack kAttacks[] = {
    {"KernelReadsAnotherContextsConfigEntry",
     [](const Scene& s) { return kernel(s, kRead, raw(s.config(s.victim->id()) + ACCELDEV_CONFIG_FENCE_COUNTER)); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelWritesAnotherContextsStatusAndFence",
     [](const Scene& s) { return kernel(s, kWrite, raw(s.config(s.victim->id()) + ACCELDEV_CONFIG_FENCE_COUNTER), 1ull << 32); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelReadsAnotherContextsPageTable", [](const Scene& s) { return kernel(s, kRead, raw(s.victim_page_table())); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelReadsAnotherContextsBuffer", [](const Scene& s) { return kernel(s, kRead, raw(s.victim_page())); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelWritesAnotherContextsBuffer", [](const Scene& s) { return kernel(s, kWrite, raw(s.victim_page()), 0); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelReadsTheConfigArray", [](const Scene& s) { return kernel(s, kRead, raw(s.t.drv.config_base())); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelReadsARawHostAddress", [](const Scene& s) { return kernel(s, kRead, raw(0x3000'0000)); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelReadsPastTheSixteenSlots", [](const Scene& s) { return kernel(s, kRead, ACCELDEV_CONTEXT_WINDOW(16)); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelReadsAnUnboundSlot", [](const Scene& s) { return kernel(s, kRead, ACCELDEV_CONTEXT_WINDOW(7)); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelWritesPastItsOwnBuffer", [](const Scene& s) { return kernel(s, kWrite, ACCELDEV_CONTEXT_WINDOW(0) + 8192, 1); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelDmaFromAnotherContextsBuffer", [](const Scene& s) { return kernel(s, kDmaIn, raw(s.victim_page())); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelDmaIntoAnotherContextsBuffer", [](const Scene& s) { return kernel(s, kDmaOut, raw(s.victim_page()), 0); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelDmaThatOutlivesTheKernel", [](const Scene& s) { return kernel(s, kDmaInNoWait, raw(s.victim_page())); },
     ACCELDEV_INTR_MEM_ERROR},
    {"KernelWritesDeviceRegisters", [](const Scene& s) { return kernel(s, kWrite, AVP_CMP_REGS_BASE, 0); },
     ACCELDEV_INTR_CMD_ERROR},  // the register mirror is read-only: the kernel traps
    {"PacketLoadsFromAnotherContextsBuffer",
     [](const Scene& s) {
       CommandBuffer cb;
       cb.load_reg(AVP_CMP_RETURN_ADDR, raw(s.victim_page())).store_reg(AVP_CMP_RETURN_ADDR, s.out).finish();
       return cb;
     },
     ACCELDEV_INTR_MEM_ERROR},
    {"PacketCopiesFromAnotherContextsBuffer",
     [](const Scene& s) {
       CommandBuffer cb;
       cb.copy_mem(1, raw(s.victim_page()), s.out, 0).finish();
       return cb;
     },
     ACCELDEV_INTR_MEM_ERROR},
    {"PacketStoresIntoAnotherContextsConfigEntry",
     [](const Scene& s) {
       CommandBuffer cb;
       cb.write_reg(AVP_CMP_RETURN_ADDR, 1ull << 32)
           .store_reg(AVP_CMP_RETURN_ADDR, raw(s.config(s.victim->id()) + ACCELDEV_CONFIG_FENCE_COUNTER))
           .finish();
       return cb;
     },
     ACCELDEV_INTR_MEM_ERROR},
};

class AcceldevIsolation : public testing::TestWithParam<Attack> {};

TEST_P(AcceldevIsolation, PutsTheAttackerInErrorAndLeavesTheVictimUntouched) {
  Bench t;
  t.run([&] {
    Scene s(t);
    ASSERT_TRUE(s.setup());
    std::unique_ptr<AcceldevContext> attacker;
    EXPECT_EQ(s.launch(GetParam().buffer(s), attacker), EIO);
    EXPECT_TRUE(attacker->in_error());
    EXPECT_EQ(attacker->fence_counter(), 0u);
    EXPECT_EQ(t.drv.seen_interrupts() & 0x1C, GetParam().intr);
    EXPECT_NE(s.result(0), kSecret);  // nothing of the victim reached device memory
    s.expect_victim_untouched();
  });
}

INSTANTIATE_TEST_SUITE_P(WaysOut, AcceldevIsolation, testing::ValuesIn(kAttacks),
                         [](const testing::TestParamInfo<Attack>& i) { return std::string(i.param.name); });

// The context's own window works for loads, stores and DMA both ways.
TEST(AcceldevIsolation, AKernelReachesItsOwnBuffersThroughTheContextWindow) {
  Bench t;
  t.run([&] {
    Scene s(t);
    ASSERT_TRUE(s.setup());
    const uint64_t own = ACCELDEV_CONTEXT_WINDOW(0) + 4096;  // slot 0 (the attacker's first data buffer)
    std::unique_ptr<AcceldevContext> c;
    ASSERT_EQ(s.launch(s.probe(kRead, own, 0), c), 0);
    EXPECT_EQ(s.result(0), kOwn);
    EXPECT_EQ(s.result(1), 1u);
    c->close();
    int data = -1;
    ASSERT_EQ(s.launch(s.probe(kWrite, own + 8, 0xFEED), c, &data), 0);
    uint64_t v = 0;
    ASSERT_TRUE(c->read(data, 4096 + 8, &v, 8));
    EXPECT_EQ(v, 0xFEEDu);
    c->close();
    ASSERT_EQ(s.launch(s.probe(kDmaOut, own + 16, 0xD0D0), c, &data), 0);
    ASSERT_TRUE(c->read(data, 4096 + 16, &v, 8));
    EXPECT_EQ(v, 0xD0D0u);
    c->close();
    ASSERT_EQ(s.launch(s.probe(kDmaIn, own, 0), c), 0);
    EXPECT_EQ(s.result(0), kOwn);
    c->close();
    std::vector<uint64_t> zero(2, 0);
    host_write(t.p, s.out, zero.data(), 16);
    ASSERT_EQ(s.launch(s.probe(kDmaInNoWait, own, 0), c), 0);
    EXPECT_EQ(s.result(0), kOwn);  // the launch ended after its transfer
    EXPECT_EQ(t.drv.seen_interrupts() & 0x1C, 0u);
    s.expect_victim_untouched();
  });
}

// Buffers the host submits itself (not on behalf of a context) keep the
// platform's physical view of host memory.
TEST(AcceldevIsolation, HostSubmittedBuffersStillSeeHostPhysicalMemory) {
  Bench t;
  t.run([&] {
    Scene s(t);
    ASSERT_TRUE(s.setup());
    CommandBuffer cb;
    cb.copy_mem(1, raw(s.victim_page()), s.out, 0).finish();
    EXPECT_EQ(run_command_buffer(t.p, cb, s.out + 1024), 0u);
    EXPECT_EQ(s.result(0), kSecret);
  });
}

}  // namespace

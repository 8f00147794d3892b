// The CMP_SUBMIT user command (docs/pcie.md): a context runs a RefSi command
// buffer on the command processor, in order with its other user commands;
// every malformed command and every failure is an error of that context only.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "acceldev_bench.h"
#include "acceldev_driver.h"
#include "cmdbuf.h"
#include "kernel_loader.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"
#include "workloads.h"
#include "platform/workload.h"

using namespace avp;
using Kind = AcceldevContext::Kind;

namespace {

constexpr uint32_t kStoreAt = 0x4010'0000;  // device DRAM (base 0x4000_0000)

std::vector<uint32_t> cmp_submit(unsigned slot, uint32_t offset, uint32_t size) {
  std::vector<uint32_t> w(5);
  encode_cmp_submit(w.data(), slot, offset, size);
  return w;
}

// A context whose data buffer holds `cb` at `offset`.
struct CmdbufContext {
  std::unique_ptr<AcceldevContext> ctx;
  int data = -1, code = -1;
  CmdbufContext(AcceldevDriver& drv, const CommandBuffer& cb, uint64_t offset = 0, uint64_t size = 2 * 4096) {
    ctx = drv.open_context();
    data = ctx->create_buffer(Kind::Data, size);
    code = ctx->create_buffer(Kind::Code, 4096);
    ctx->write(data, offset, cb.chunks().data(), cb.size_bytes());
  }
  unsigned slot() const { return static_cast<unsigned>(ctx->slot(data)); }
};

uint64_t dram64(Platform& p, uint64_t addr) {
  uint64_t v = 0;
  EXPECT_TRUE(host_read(p, addr, &v, 8));
  return v;
}

}  // namespace

TEST(AcceldevCmp, ABufferRunsBeforeTheFollowingFillAndFence) {
  Bench t;
  t.run([&] {
    CommandBuffer cb;
    cb.store_imm(kStoreAt, 0x1122334455667788ull).store_imm(kStoreAt + 8, 0x99AABBCCDDEEFF00ull).finish();
    CmdbufContext c(t.drv, cb);
    const uint32_t cb_size = static_cast<uint32_t>(cb.size_bytes());
    run_cmds(*c.ctx, c.code, {cmp_submit(c.slot(), 0, cb_size), fill(0x5A5A5A5Au, c.slot(), 4096, 16), fence()});
    // What the context had done when the command processor finished the buffer.
    sc_core::sc_time cmp_done;
    uint32_t fences_then = ~0u;
    uint8_t filled_then = 0xFF;
    sc_core::sc_spawn([&] {
      while (t.p.cmp.completed_count() == 0) sc_core::wait(t.p.cmp.idle_event());
      cmp_done = sc_core::sc_time_stamp();
      fences_then = c.ctx->fence_counter();
      c.ctx->read(c.data, 4096, &filled_then, 1);
    });
    ASSERT_TRUE(c.ctx->wait(1));
    const sc_core::sc_time fenced = sc_core::sc_time_stamp();
    EXPECT_EQ(fences_then, 0u);
    EXPECT_EQ(filled_then, 0);
    EXPECT_LT(cmp_done, fenced);
    EXPECT_EQ(dram64(t.p, kStoreAt), 0x1122334455667788ull);
    EXPECT_EQ(dram64(t.p, kStoreAt + 8), 0x99AABBCCDDEEFF00ull);
    uint8_t filled = 0;
    c.ctx->read(c.data, 4096, &filled, 1);
    EXPECT_EQ(filled, 0x5A);
    EXPECT_FALSE(c.ctx->in_error());
    EXPECT_EQ(t.p.host.mmio_read32(AVP_CMP_ERR_CODE), 0u);
    EXPECT_EQ(t.p.host.mmio_read32(AVP_CB_DONE_COUNT), 1u);
    // The same run again takes exactly as long: the staging copy and the CMP are deterministic.
    const sc_core::sc_time first = fenced - cmp_done;
    ASSERT_TRUE(c.ctx->run(c.code, 0, 60));
    while (t.p.cmp.completed_count() < 2) sc_core::wait(t.p.cmp.idle_event());
    const sc_core::sc_time second_done = sc_core::sc_time_stamp();
    ASSERT_TRUE(c.ctx->wait(2));
    EXPECT_EQ(sc_core::sc_time_stamp() - second_done, first);
  });
}

TEST(AcceldevCmp, OldDriversSeeNoChangeForTheOtherTypes) {
  // Types 4..15 are still unknown: CMD_ERROR, as type 3 was before the extension.
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int code = c->create_buffer(Kind::Code, 4096);
    run_cmds(*c, code, {{4, 0, 0, 0, 0}, fence()});
    EXPECT_FALSE(c->wait(1));
    EXPECT_TRUE(t.drv.seen_interrupts() & ACCELDEV_INTR_CMD_ERROR);
  });
}

struct BadSubmit {
  const char* name;
  std::vector<uint32_t> (*command)(unsigned slot, uint32_t size);
  uint32_t intr;
};

void PrintTo(const BadSubmit& b, std::ostream* os) { *os << b.name; }

class AcceldevCmpError : public testing::TestWithParam<BadSubmit> {};

// Each malformed CMP_SUBMIT marks its context in error with the documented
// interrupt, runs nothing on the CMP, and leaves a second context working.
TEST_P(AcceldevCmpError, MarksOnlyItsContext) {
  Bench t;
  t.run([&] {
    CommandBuffer cb;
    cb.store_imm(kStoreAt, 0x77).finish();
    CmdbufContext bad(t.drv, cb), good(t.drv, cb);
    run_cmds(*bad.ctx, bad.code, {GetParam().command(bad.slot(), static_cast<uint32_t>(cb.size_bytes())), fence()});
    EXPECT_FALSE(bad.ctx->wait(1));
    EXPECT_EQ(bad.ctx->fence_counter(), 0u);
    EXPECT_EQ(t.drv.seen_interrupts() & 0x1C, GetParam().intr);
    EXPECT_EQ(t.p.cmp.completed_count(), 0u);
    run_cmds(*good.ctx, good.code, {cmp_submit(good.slot(), 0, static_cast<uint32_t>(cb.size_bytes())), fence()});
    EXPECT_TRUE(good.ctx->wait(1));
    EXPECT_FALSE(good.ctx->in_error());
    EXPECT_EQ(dram64(t.p, kStoreAt), 0x77u);
  });
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, AcceldevCmpError,
    testing::Values(
        BadSubmit{"UnboundSlot", [](unsigned, uint32_t n) { return cmp_submit(9, 0, n); }, ACCELDEV_INTR_SLOT_ERROR},
        BadSubmit{"OffsetNotAMultipleOf8", [](unsigned s, uint32_t n) { return cmp_submit(s, 4, n); }, ACCELDEV_INTR_CMD_ERROR},
        BadSubmit{"SizeNotAMultipleOf8", [](unsigned s, uint32_t n) { return cmp_submit(s, 0, n - 4); }, ACCELDEV_INTR_CMD_ERROR},
        BadSubmit{"SizeZero", [](unsigned s, uint32_t) { return cmp_submit(s, 0, 0); }, ACCELDEV_INTR_CMD_ERROR},
        BadSubmit{"SizeOverTheMaximum",
                  [](unsigned s, uint32_t) { return cmp_submit(s, 0, ACCELDEV_CMP_SUBMIT_MAX_SIZE + 8); },
                  ACCELDEV_INTR_CMD_ERROR},
        BadSubmit{"PastTheBufferIsANonPresentPage", [](unsigned s, uint32_t n) { return cmp_submit(s, 2 * 4096, n); },
                  ACCELDEV_INTR_MEM_ERROR},
        BadSubmit{"EndPastTheBuffer", [](unsigned s, uint32_t) { return cmp_submit(s, 4096, 8192); },
                  ACCELDEV_INTR_MEM_ERROR},
        BadSubmit{"ReservedBitsOfWord0",
                  [](unsigned s, uint32_t n) {
                    auto w = cmp_submit(s, 0, n);
                    w[0] |= 1u << 8;
                    return w;
                  },
                  ACCELDEV_INTR_CMD_ERROR},
        BadSubmit{"Word3NotZero",
                  [](unsigned s, uint32_t n) {
                    auto w = cmp_submit(s, 0, n);
                    w[3] = 1;
                    return w;
                  },
                  ACCELDEV_INTR_CMD_ERROR},
        BadSubmit{"Word4NotZero",
                  [](unsigned s, uint32_t n) {
                    auto w = cmp_submit(s, 0, n);
                    w[4] = 1;
                    return w;
                  },
                  ACCELDEV_INTR_CMD_ERROR}),
    [](const testing::TestParamInfo<BadSubmit>& i) { return std::string(i.param.name); });

TEST(AcceldevCmp, ACommandProcessorErrorIsACmdErrorOfThatContextOnly) {
  Bench t;
  t.run([&] {
    CommandBuffer failing, fine;
    failing.store_imm(kStoreAt, 1).write_reg(AVP_CMP_ENTRY_PT_FN, 0);  // no FINISH
    fine.store_imm(kStoreAt + 8, 2).finish();
    CmdbufContext bad(t.drv, failing), good(t.drv, fine);
    run_cmds(*bad.ctx, bad.code, {cmp_submit(bad.slot(), 0, static_cast<uint32_t>(failing.size_bytes())), fence()});
    EXPECT_FALSE(bad.ctx->wait(1));
    EXPECT_EQ(bad.ctx->fence_counter(), 0u);
    EXPECT_EQ(t.drv.seen_interrupts() & 0x1C, static_cast<uint32_t>(ACCELDEV_INTR_CMD_ERROR));
    // The CMP reports its own error as usual.
    EXPECT_EQ(t.p.host.mmio_read32(AVP_CMP_ERR_CODE), static_cast<uint32_t>(AVP_CMP_ERR_NO_FINISH));
    EXPECT_TRUE(t.p.host.mmio_read32(ACCELDEV_INTR) & AVP_INTR_CMP_ERROR);
    run_cmds(*good.ctx, good.code, {cmp_submit(good.slot(), 0, static_cast<uint32_t>(fine.size_bytes())), fence()});
    EXPECT_TRUE(good.ctx->wait(1));
    EXPECT_EQ(dram64(t.p, kStoreAt), 1u);
    EXPECT_EQ(dram64(t.p, kStoreAt + 8), 2u);
  });
}

// The context's buffer fails while a buffer the host submitted through the
// CMP's own queue completes meanwhile: the CMP_SUBMIT is still a failure (it
// follows its own buffer's end, not the CMP's completed count).
TEST(AcceldevCmp, AFailedSubmitIsNotCountedDoneBecauseAHostBufferCompleted) {
  Bench t;
  t.run([&] {
    CommandBuffer failing, host;
    for (int i = 0; i < 64; ++i) failing.store_imm(kStoreAt + 8 * i, i);  // long enough to still run, then no FINISH
    host.store_imm(kStoreAt + 0x1000, 0xB0B).finish();
    ASSERT_TRUE(host_write(t.p, kStoreAt + 0x2000, host.chunks().data(), host.size_bytes()));
    CmdbufContext c(t.drv, failing);
    run_cmds(*c.ctx, c.code, {cmp_submit(c.slot(), 0, static_cast<uint32_t>(failing.size_bytes())), fence()});
    while (t.p.cmp.idle()) sc_core::wait(sc_core::sc_time(10, sc_core::SC_NS));
    ASSERT_TRUE(t.p.cmp.submit(kStoreAt + 0x2000, host.size_bytes()));
    EXPECT_EQ(c.ctx->wait(1).err(), EIO);
    EXPECT_EQ(c.ctx->fence_counter(), 0u);
    EXPECT_EQ(t.p.cmp.completed_count(), 1u);  // the host's buffer
    EXPECT_EQ(dram64(t.p, kStoreAt + 0x1000), 0xB0Bu);
    EXPECT_EQ(t.drv.seen_interrupts() & 0x1C, static_cast<uint32_t>(ACCELDEV_INTR_CMD_ERROR));
  });
}

#ifdef AVP_KERNEL_ADD_ELF
// Runs the workload on a fresh platform (one per test process); its exit code.
int run_acceldev_kernel(const std::vector<std::string>& args) {
  register_acceldev_examples();
  const Workload* w = find_workload("acceldev-kernel");
  if (!w) return -1;
  Bench t;
  int rc = -1;
  sc_core::sc_spawn([&] {
    rc = w->run(t.p, {args});
    sc_core::sc_stop();
  });
  sc_core::sc_start();
  return rc;
}

TEST(AcceldevCmp, TheAcceldevKernelWorkloadLaunchesVecadd) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(run_acceldev_kernel({"300", AVP_KERNEL_ADD_ELF}), 0);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("acceldev-kernel: 300 elements from context 0"), std::string::npos);
}
TEST(AcceldevCmp, TheAcceldevKernelWorkloadRefusesANonNumber) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_acceldev_kernel({"x"}), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("acceldev-kernel: argument 'x' is not a number in 1..1048576"),
            std::string::npos);
}
TEST(AcceldevCmp, TheAcceldevKernelWorkloadReportsAMissingElf) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_acceldev_kernel({"1", "/nonexistent.elf"}), 2);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("acceldev-kernel: "), std::string::npos);
}
#endif

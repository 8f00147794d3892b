// The host driver's semantics as the original driver's tests rely on them
// (acceldev.md, "The driver operations tests rely on"; docs/host-api.md):
// errno returns, RUN refused on a context in error, close waiting for
// scheduled runs before the id is reused, concurrent callers, bad handles,
// and waits that always end.
#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

#include "acceldev_bench.h"
#include "acceldev_driver.h"
#include "base/stats.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"

using namespace avp;
using Kind = AcceldevContext::Kind;

namespace {

uint64_t stat(const char* name) {
  auto* c = dynamic_cast<const Counter*>(StatRegistry::instance().find(name));
  return c ? c->value() : ~0ull;
}

std::vector<uint32_t> unknown_command() { return {7, 0, 0, 0, 0}; }

// Waits until `n` spawned threads have called done().
struct Join {
  int left;
  sc_core::sc_event ev;
  explicit Join(int n) : left(n) {}
  void done() {
    --left;
    ev.notify(sc_core::SC_ZERO_TIME);
  }
  void wait() {
    while (left > 0) sc_core::wait(ev);
  }
};

}  // namespace

TEST(AcceldevDriver, RunOnAContextInErrorIsRefusedWithEioAndNothingIsSent) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int code = c->create_buffer(Kind::Code, 4096);
    run_cmds(*c, code, {unknown_command(), fence()});
    EXPECT_EQ(c->wait(1).err(), EIO);
    const uint64_t commands = stat("acceldev.device_commands");
    EXPECT_EQ(c->run(code, 0, 20).err(), EIO);
    EXPECT_EQ(c->run(code, 0, 4).err(), EIO);
    sc_core::wait(sc_core::sc_time(10, sc_core::SC_US));
    EXPECT_EQ(stat("acceldev.device_commands"), commands);  // nothing reached the device
    EXPECT_EQ(stat("acceldev.skipped_runs"), 0u);
    // Bad arguments are EINVAL even then; the context is still usable for reading.
    EXPECT_EQ(c->run(code, 2, 20).err(), EINVAL);
    EXPECT_EQ(c->wait(1).err(), EIO);
  });
}

TEST(AcceldevDriver, CloseWaitsForScheduledRunsSoANewContextWithTheSameIdStartsClean) {
  Bench t;
  t.run([&] {
    auto old = t.drv.open_context();
    const unsigned id = old->id();
    const int data = old->create_buffer(Kind::Data, 4 << 20);
    const int code = old->create_buffer(Kind::Code, 4096);
    // A long FILL, then a fence: still running when close() is called.
    run_cmds(*old, code, {fill(0x5A5A5A5Au, old->slot(data), 0, 4 << 20), fence(), fence()});
    old->close();
    EXPECT_EQ(old->run(code, 0, 20).err(), EBADF);
    EXPECT_EQ(old->create_buffer(Kind::Code, 4096), -EBADF);
    auto fresh = t.drv.open_context();
    ASSERT_EQ(fresh->id(), id);
    EXPECT_FALSE(fresh->in_error());
    EXPECT_EQ(fresh->fence_counter(), 0u);
    const int fresh_code = fresh->create_buffer(Kind::Code, 4096);
    run_cmds(*fresh, fresh_code, {fence()});
    EXPECT_TRUE(fresh->wait(1));
    sc_core::wait(sc_core::sc_time(5, sc_core::SC_MS));  // long after the old FILL would have ended
    EXPECT_EQ(fresh->fence_counter(), 1u);
    EXPECT_FALSE(fresh->in_error());
    EXPECT_EQ(t.drv.seen_interrupts() & (ACCELDEV_INTR_SLOT_ERROR | ACCELDEV_INTR_MEM_ERROR), 0u);
  });
}

TEST(AcceldevDriver, ClosingABufferWaitsForRunsThenUnbindsItsSlot) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int data = c->create_buffer(Kind::Data, 4 << 20);
    const int code = c->create_buffer(Kind::Code, 4096);
    const int slot = c->slot(data);
    run_cmds(*c, code, {fill(0x01010101u, slot, 0, 4 << 20), fence()});
    ASSERT_TRUE(c->close_buffer(data));
    EXPECT_EQ(c->fence_counter(), 1u);  // the run scheduled before the close has ended
    uint64_t bound = ~0ull;
    std::memcpy(&bound, t.drv.config(c->id()) + 8 * slot, 8);
    EXPECT_EQ(bound, 0u);
    EXPECT_EQ(c->slot(data), -EINVAL);
    EXPECT_EQ(c->close_buffer(data).err(), EINVAL);
    // The slot is free again and a FILL into the closed slot is a SLOT_ERROR.
    const int again = c->create_buffer(Kind::Data, 4096);
    EXPECT_EQ(c->slot(again), slot);
  });
}

TEST(AcceldevDriver, UnknownAndForeignHandlesAreErrorsNotExceptions) {
  Bench t;
  t.run([&] {
    auto a = t.drv.open_context();
    auto b = t.drv.open_context();
    const int a_code = a->create_buffer(Kind::Code, 4096);
    const int a_data = a->create_buffer(Kind::Data, 4096);
    const int b_code = b->create_buffer(Kind::Code, 4096);
    uint32_t word = 0;
    for (int h : {b_code, 12345, -1}) {
      EXPECT_EQ(a->run(h, 0, 20).err(), EINVAL) << h;
      EXPECT_EQ(a->write(h, 0, &word, 4).err(), EINVAL) << h;
      EXPECT_EQ(a->read(h, 0, &word, 4).err(), EINVAL) << h;
      EXPECT_EQ(a->close_buffer(h).err(), EINVAL) << h;
      EXPECT_EQ(a->slot(h), -EINVAL) << h;
      EXPECT_EQ(a->buffer(h), nullptr) << h;
    }
    EXPECT_EQ(a->run(a_data, 0, 20).err(), EINVAL);  // a data buffer is not a code buffer
    EXPECT_EQ(a->write(a_code, 4094, &word, 4).err(), EINVAL);  // past the buffer
    EXPECT_EQ(a->read(a_code, ~0ull, &word, 4).err(), EINVAL);
    EXPECT_EQ(a->create_buffer(Kind::Data, 0), -EINVAL);
    EXPECT_EQ(a->create_buffer(Kind::Data, (4 << 20) + 1), -EINVAL);
    for (int s = 1; s < 16; ++s) ASSERT_GE(a->create_buffer(Kind::Data, 4096), 0);
    EXPECT_EQ(a->create_buffer(Kind::Data, 4096), -ENOSPC);
    EXPECT_EQ(a->slot(a_code), -EINVAL);
    EXPECT_TRUE(b->run(b_code, 0, 0));  // b is untouched by a's mistakes
  });
}

TEST(AcceldevDriver, ThreeHundredRunsThatRaiseNoInterruptAllComplete) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const int nops = c->create_buffer(Kind::Code, 4096);
    const int last = c->create_buffer(Kind::Code, 4096);
    std::vector<std::vector<uint32_t>> cmds(20, std::vector<uint32_t>{ACCELDEV_USER_CMD_TYPE_NOP, 0, 0, 0, 0});
    run_cmds(*c, nops, cmds);  // run 1
    for (int i = 1; i < 300; ++i) ASSERT_TRUE(c->run(nops, 0, 20 * 20)) << i;
    run_cmds(*c, last, {fence()});
    EXPECT_TRUE(c->wait(1));
    EXPECT_EQ(stat("acceldev.feed_errors"), 0u);
    EXPECT_EQ(stat("acceldev.user_commands"), 300u * 20 + 1);
  });
}

TEST(AcceldevDriver, AWaitInterruptedBySignalFailsWithEintr) {
  Bench t;
  t.run([&] {
    auto c = t.drv.open_context();
    const sc_core::sc_time t0 = sc_core::sc_time_stamp();
    sc_core::sc_spawn([&] {
      sc_core::wait(sc_core::sc_time(3, sc_core::SC_US));
      c->interrupt_waits();
    });
    EXPECT_EQ(c->wait(1).err(), EINTR);  // nothing will ever reach fence 1
    EXPECT_EQ(sc_core::sc_time_stamp() - t0, sc_core::sc_time(3, sc_core::SC_US));
    c->close();
    EXPECT_EQ(c->wait(1).err(), EBADF);
  });
}

// 40 host threads, one context each, fill their own buffers and wait on their
// fences at the same time; context 13 errs on purpose. Every other context
// ends with its own data and fences; the erring one with EIO.
TEST(AcceldevDriver, FortyThreadsWithAContextEachDoNotDisturbEachOther) {
  Bench t;
  t.run([&] {
    constexpr int kThreads = 40, kBad = 13;
    std::vector<int> result(kThreads, -1), fences(kThreads, -1), bad_bytes(kThreads, -1);
    Join join(kThreads);
    for (int i = 0; i < kThreads; ++i) {
      sc_core::sc_spawn([&, i] {
        auto c = t.drv.open_context();
        const uint32_t v = 0x01010101u * static_cast<uint32_t>(i + 1);
        const int data = c->create_buffer(Kind::Data, 3 * 4096 + 100);
        const int code = c->create_buffer(Kind::Code, 4096);
        std::vector<std::vector<uint32_t>> cmds = {fill(v, c->slot(data), 0, 3 * 4096 + 100), fence(),
                                                   fill(~v, c->slot(data), 4000, 200), fence()};
        if (i == kBad) cmds.insert(cmds.begin() + 2, unknown_command());
        std::vector<uint32_t> words;
        for (const auto& w : cmds) words.insert(words.end(), w.begin(), w.end());
        if (c->write(code, 0, words.data(), 4 * words.size()) && c->run(code, 0, 4 * words.size()))
          result[i] = c->wait(2).err();
        fences[i] = static_cast<int>(c->fence_counter());
        std::vector<uint8_t> bytes(3 * 4096 + 100);
        if (c->read(data, 0, bytes.data(), bytes.size())) {
          bad_bytes[i] = 0;
          for (size_t k = 0; k < bytes.size(); ++k) {
            const uint32_t want = (k >= 4000 && k < 4200) ? ~v : v;
            bad_bytes[i] += bytes[k] != static_cast<uint8_t>(want >> (8 * (k % 4)));
          }
        }
        c->close();
        join.done();
      });
    }
    join.wait();
    for (int i = 0; i < kThreads; ++i) {
      if (i == kBad) {
        EXPECT_EQ(result[i], EIO);
        EXPECT_EQ(fences[i], 1);
        continue;
      }
      EXPECT_EQ(result[i], 0) << "context of thread " << i;
      EXPECT_EQ(fences[i], 2) << "context of thread " << i;
      EXPECT_EQ(bad_bytes[i], 0) << "context of thread " << i;
    }
    EXPECT_EQ(stat("acceldev.feed_errors"), 0u);
    EXPECT_EQ(stat("acceldev.context_errors"), 1u);
  });
}

// Four threads share one context: each fills its own buffer three times and
// all wait for the context's twelve fences.
TEST(AcceldevDriver, SeveralThreadsOnOneContext) {
  Bench t;
  t.run([&] {
    constexpr int kThreads = 4, kRuns = 3;
    auto c = t.drv.open_context();
    std::vector<int> result(kThreads, -1), bad_bytes(kThreads, -1);
    Join join(kThreads);
    for (int i = 0; i < kThreads; ++i) {
      sc_core::sc_spawn([&, i] {
        const int data = c->create_buffer(Kind::Data, 8192);
        const int code = c->create_buffer(Kind::Code, 4096);
        bool ok = true;
        for (int r = 0; r < kRuns; ++r) {
          const uint32_t v = 0x11111111u * static_cast<uint32_t>(i + 1) + static_cast<uint32_t>(r);
          const std::vector<uint32_t> words = [&] {
            std::vector<uint32_t> w = fill(v, c->slot(data), 0, 8192);
            const std::vector<uint32_t> f = fence();
            w.insert(w.end(), f.begin(), f.end());
            return w;
          }();
          ok = ok && c->write(code, 40 * r, words.data(), 40) && c->run(code, 40 * r, 40);
        }
        result[i] = ok ? c->wait(kThreads * kRuns).err() : -1;
        std::vector<uint32_t> words(2048);
        if (c->read(data, 0, words.data(), 8192)) {
          bad_bytes[i] = 0;
          for (uint32_t w : words) bad_bytes[i] += w != 0x11111111u * static_cast<uint32_t>(i + 1) + (kRuns - 1);
        }
        join.done();
      });
    }
    join.wait();
    for (int i = 0; i < kThreads; ++i) {
      EXPECT_EQ(result[i], 0) << i;
      EXPECT_EQ(bad_bytes[i], 0) << i;
    }
    EXPECT_EQ(c->fence_counter(), static_cast<uint32_t>(kThreads * kRuns));
    EXPECT_FALSE(c->in_error());
  });
}

// The Acceldev tests' bench: a platform and a started host driver, with the
// test body as a SystemC process.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "acceldev_driver.h"
#include "pcie/bar0_regs.h"
#include "platform/platform.h"

struct Bench {
  avp::Platform p;
  avp::AcceldevDriver drv{p.host};
  Bench() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }
  // Runs `body` in a SystemC thread; a body that never ends (a call waiting
  // for an event that never comes) starves the simulation and fails here.
  void run(const std::function<void()>& body) {
    bool finished = false;
    sc_core::sc_spawn([&] {
      ASSERT_TRUE(drv.start());
      body();
      finished = true;
      sc_core::sc_stop();
    });
    sc_core::sc_start();
    EXPECT_TRUE(finished) << "the test body waited forever (simulation starved at "
                          << sc_core::sc_time_stamp() << ")";
  }
};

inline std::vector<uint32_t> fill(uint32_t value, int slot, uint32_t start, uint32_t len) {
  return {ACCELDEV_USER_CMD_TYPE_FILL, value, static_cast<uint32_t>(slot), start, len};
}
inline std::vector<uint32_t> fence() { return {ACCELDEV_USER_CMD_TYPE_FENCE, 0, 0, 0, 0}; }

// Writes user commands into code buffer `code` and runs them.
inline void run_cmds(avp::AcceldevContext& c, int code, const std::vector<std::vector<uint32_t>>& cmds) {
  std::vector<uint32_t> words;
  for (const auto& w : cmds) words.insert(words.end(), w.begin(), w.end());
  ASSERT_TRUE(c.write(code, 0, words.data(), 4 * words.size()));
  ASSERT_TRUE(c.run(code, 0, 4 * words.size()));
}


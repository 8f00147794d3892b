// A platform and a host thread for command-processor tests.
#pragma once
#include <functional>
#include <vector>

#include <systemc>

#include "cmdbuf.h"
#include "platform/platform.h"

namespace avp::test {

struct CmpBench {
  Platform p;
  std::vector<unsigned> irqs;
  CmpBench() {
    p.cmp.irq.bind([this](uint32_t bits) {
      for (unsigned b = 0; b < 32; ++b)
        if (bits >> b & 1) irqs.push_back(b);
    });
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // completes the multi-socket bindings
  }
  // Runs `body` as the host thread until it returns.
  void run(const std::function<void()>& body) {
    sc_core::sc_spawn([&] {
      body();
      sc_core::sc_stop();
    });
    sc_core::sc_start();
  }
  uint64_t dram(uint64_t off) const { return p.dram_base() + off; }
  void place(uint64_t addr, const CommandBuffer& cb) { ASSERT_TRUE(p.device_port.write_debug(addr, cb.chunks().data(), cb.size_bytes())); }
  // Places hand-encoded instructions (tests/cmp/rv_asm.h) at addr.
  void put_code(uint64_t addr, const std::vector<uint32_t>& code) {
    ASSERT_TRUE(p.device_port.write_debug(addr, code.data(), code.size() * 4));
  }
  void poke(uint64_t addr, uint64_t v) { ASSERT_TRUE(p.device_port.write_debug(addr, &v, 8)); }
  uint64_t peek(uint64_t addr) {
    uint64_t v = 0;
    EXPECT_TRUE(p.device_port.read_debug(addr, &v, 8));
    return v;
  }
  void wait_idle() {
    while (!p.cmp.idle()) sc_core::wait(p.cmp.idle_event());
  }
  unsigned count(unsigned bit) const {
    unsigned n = 0;
    for (unsigned b : irqs) n += b == bit;
    return n;
  }
};

}  // namespace avp::test

// The host system (docs/full-system.md): a write of the accelerator's
// endpoint into host memory drops the host harts' decoded code there, as a
// hart's own store does. A host hart calls a function in one page again and
// again, storing its result; the endpoint's bus-master DMA then writes other
// code over the function, and the hart runs the new code, with no fence.i.
// The negative control writes the same bytes behind the bus's back (a
// backdoor write, which nothing observes): the hart keeps running the code
// it decoded, so the test would see a missing invalidation.
#include <gtest/gtest.h>

#include <functional>

#include "platform/host_system.h"
#include "pcie/config_space.h"
#include "platform/platform.h"
#include "rv_asm.h"
#include "sysdev/host_system_map.h"

using namespace avp;
namespace enc = avp::test::rv;

namespace {

constexpr uint64_t kFunc = 0x1000, kMailbox = 0x2000;  // offsets in host memory (PCI bus addresses)
constexpr uint32_t s0 = 8, s1 = 9, s2 = 18, t2 = 7;

uint32_t auipc(uint32_t rd, uint32_t imm20) { return imm20 << 12 | rd << 7 | 0x17; }
uint32_t lui(uint32_t rd, uint32_t imm20) { return imm20 << 12 | rd << 7 | 0x37; }
uint32_t jalr(uint32_t rd, uint32_t rs1) { return enc::i_type(0x67, 0, rd, rs1, 0); }

// At host DRAM's start: s1 = the function, s2 = the mailbox; then forever
// a0 = func(), mailbox = a0, until a0 is 2; then it spins.
const std::vector<uint32_t> kLoop = {
    auipc(s0, 0), lui(enc::t1, kFunc >> 12), enc::add(s1, s0, enc::t1), enc::add(s2, s1, enc::t1),
    jalr(enc::ra, s1), enc::sd(enc::a0, s2, 0), enc::addi(t2, enc::zero, 2), enc::bne(enc::a0, t2, -12), enc::j(0)};
const uint32_t kReturns1[] = {enc::addi(enc::a0, enc::zero, 1), enc::ret()};
const uint32_t kReturns2[] = {enc::addi(enc::a0, enc::zero, 2), enc::ret()};

struct HostBench {
  Platform p;
  HostSystem host{"host_system", p, 1};
  uint64_t mailbox() {
    uint64_t v = 0;
    p.host.host_mem.read(kMailbox, &v, 8);
    return v;
  }
  // A bus-master write of the endpoint into host memory (from a SystemC thread).
  bool endpoint_write(uint64_t pa, const void* data, unsigned len) {
    p.host.cfg_write32(ConfigSpace::kCommand, ConfigSpace::kMemorySpace | ConfigSpace::kBusMaster);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    std::vector<uint8_t> bytes(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + len);
    return p.endpoint->host_access(true, pa, bytes.data(), len, delay);
  }
  // Starts the loop on host hart 0 and runs `body` in a SystemC thread.
  void run(const std::function<void()>& body) {
    p.host.host_mem.write(0, kLoop.data(), 4 * kLoop.size());
    p.host.host_mem.write(kFunc, kReturns1, sizeof kReturns1);
    bool finished = false;
    sc_core::sc_spawn([&] {
      HartLaunch l;
      l.pc = AVP_HOST_DRAM_BASE;
      l.firmware = true;
      l.instruction_limit = ~0ull;
      host.harts.start_bare_metal(0, l, [](const HartExit& e) { ADD_FAILURE() << "the hart stopped: " << e.describe(); });
      for (int i = 0; i < 100 && mailbox() != 1; ++i) sc_core::wait(1, sc_core::SC_US);
      ASSERT_EQ(mailbox(), 1u) << "the hart never ran the first function";
      body();
      sc_core::wait(50, sc_core::SC_US);  // thousands of calls
      finished = true;
      sc_core::sc_stop();
    });
    sc_core::sc_start();
    EXPECT_TRUE(finished);
  }
};

}  // namespace

TEST(HostDmaCode, AnEndpointWriteOverDecodedCodeRunsTheNewCode) {
  HostBench b;
  uint64_t flushes_before = 0;
  b.run([&] {
    flushes_before = b.host.harts.totals().code_flushes;
    ASSERT_TRUE(b.endpoint_write(kFunc, kReturns2, sizeof kReturns2));
  });
  EXPECT_EQ(b.mailbox(), 2u) << "the hart still runs the code the DMA overwrote";
  EXPECT_EQ(b.host.harts.totals().code_flushes, flushes_before + 1);
}

TEST(HostDmaCode, NegativeControlABackdoorWriteLeavesTheDecodedCode) {
  HostBench b;
  b.run([&] { b.p.host.host_mem.write(kFunc, kReturns2, sizeof kReturns2); });
  EXPECT_EQ(b.mailbox(), 1u) << "the hart decoded the function again: the test cannot see a missing invalidation";
}

// A DMA write beside the code (the mailbox's page) drops nothing.
TEST(HostDmaCode, AnEndpointWriteIntoDataKeepsTheCode) {
  HostBench b;
  uint64_t flushes_before = 0;
  b.run([&] {
    flushes_before = b.host.harts.totals().code_flushes;
    const uint64_t data = 7;
    ASSERT_TRUE(b.endpoint_write(kMailbox + 64, &data, sizeof data));
  });
  EXPECT_EQ(b.mailbox(), 1u);
  EXPECT_EQ(b.host.harts.totals().code_flushes, flushes_before);
}

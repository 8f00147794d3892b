// A memory's page write generations (base/page_writes.h): every write that
// reaches it (timed, debug, host-side) counts on the pages it touches, a DMI
// grant to a request that asks carries them, and handing out the raw
// storage leaves them untracked.
#include <gtest/gtest.h>

#include "base/page_writes.h"
#include "platform/platform.h"

using namespace avp;

namespace {
struct Granted {
  const PageWrites* writes = nullptr;
  uint8_t* ptr = nullptr;
  uint64_t start = 0;
  const uint8_t* at(uint64_t addr) const { return ptr + (addr - start); }
};

Granted dmi_with_writes(Platform& p, uint64_t addr) {
  tlm::tlm_generic_payload gp;
  PageWritesExtension ext;
  gp.set_extension(&ext);
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  tlm::tlm_dmi dmi;
  const bool ok = p.device_port.socket->get_direct_mem_ptr(gp, dmi);
  gp.clear_extension(&ext);
  EXPECT_TRUE(ok);
  return {ext.writes, dmi.get_dmi_ptr(), dmi.get_start_address()};
}
}  // namespace

TEST(PageWrites, AMemoryCountsEveryWriteOnThePagesItTouches) {
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const uint64_t page = p.dram_base() + 0x2000;
  const Granted g = dmi_with_writes(p, page);
  ASSERT_NE(g.writes, nullptr);
  ASSERT_TRUE(g.writes->holds(g.at(page), 0x1000));
  EXPECT_TRUE(g.writes->tracked());
  const auto gen = [&](uint64_t addr, uint64_t len = 0x1000) { return g.writes->generation(g.at(addr), len); };
  uint64_t before = gen(page), all = g.writes->writes();
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  uint64_t v = 0x1234;
  ASSERT_EQ(p.device_port.read(page, &v, 8, d), tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(p.device_port.write(page + 0x1000, &v, 8, d), tlm::TLM_OK_RESPONSE);  // the next page
  ASSERT_EQ(p.device_port.write(page - 8, &v, 8, d), tlm::TLM_OK_RESPONSE);       // the one before
  EXPECT_EQ(gen(page), before);
  EXPECT_EQ(g.writes->writes(), all + 2);
  EXPECT_NE(gen(page + 0xFFC, 8), gen(page + 0xFFC, 4));  // the sum over both pages
  ASSERT_EQ(p.device_port.write(page + 0x800, &v, 8, d), tlm::TLM_OK_RESPONSE);  // timed
  EXPECT_NE(gen(page), before);
  before = gen(page);
  const uint64_t next = gen(page + 0x1000);
  ASSERT_TRUE(p.device_port.write_debug(page + 0xFFC, &v, 8));  // debug, across into the next page
  EXPECT_NE(gen(page), before);
  EXPECT_NE(gen(page + 0x1000), next);
  before = gen(page);
  p.dram.write(0x2010, &v, 8);  // host-side (a loader)
  EXPECT_NE(gen(page), before);
  // Writes through the raw storage are not counted: the pages are untracked from then on.
  p.dram.data()[0x2020] = 1;
  EXPECT_FALSE(g.writes->tracked());
}

TEST(PageWrites, SharedStorageIsUntracked) {
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const Granted g = dmi_with_writes(p, p.dram_base());
  ASSERT_NE(g.writes, nullptr);
  EXPECT_TRUE(g.writes->tracked());
  ASSERT_GE(p.dram.share(), 0);
  EXPECT_FALSE(g.writes->tracked());
}

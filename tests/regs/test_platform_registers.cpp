// Every register block of the assembled platform, generically: the register
// map `accel-vp info --registers` prints, and misuse of every register of
// every BAR0 window (wrong size, write of read-only, read of write-only,
// unmapped offsets) reads all-ones, changes no readable register and is
// counted, through the host's real MMIO path.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "accel_vp_cli.h"
#include "base/payload.h"
#include "base/stats.h"
#include "harts/perf_regs.h"
#include "platform/platform.h"

using namespace avp;

namespace {

struct Element {
  const RegisterBase* reg;
  unsigned idx;
  uint64_t offset;
};

std::vector<Element> bar0_elements(Platform& p) {
  std::vector<Element> out;
  for (const auto& w : p.endpoint->windows())
    for (const RegisterBase* r : w.block->registers())
      for (unsigned i = 0; i < r->count(); ++i) out.push_back({r, i, r->offset() + i * r->stride()});
  return out;
}

uint64_t misuse_count() {
  return dynamic_cast<const Counter*>(StatRegistry::instance().find("endpoint.mmio_misuse"))->value();
}

}  // namespace

TEST(PlatformRegisters, MisuseOfAnyBar0RegisterChangesNothing) {
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_spawn([&] {
    p.host.cfg_write32(0x04, 0x6);  // memory space, bus master
    const std::vector<Element> all = bar0_elements(p);
    ASSERT_GT(all.size(), 40u);
    auto snapshot = [&] {
      std::map<uint64_t, uint64_t> v;
      for (const Element& e : all)
        if (e.reg->readable())
          v[e.offset] = e.reg->bytes() == 8 ? p.host.mmio_read64(e.offset) : p.host.mmio_read32(e.offset);
      return v;
    };
    const auto before = snapshot();
    uint64_t expected = misuse_count();
    unsigned tried = 0;
    for (const Element& e : all) {
      const std::string what = e.reg->element_name(e.idx);
      if (!e.reg->writable()) {
        p.host.mmio_write32(e.offset, 0xFFFFFFFF);
        ++expected;
      }
      if (!e.reg->readable()) {
        EXPECT_EQ(p.host.mmio_read32(e.offset), 0xFFFFFFFFu) << what;
        ++expected;
      }
      // A 64-bit access to a 32-bit register (where it does not cover two registers' worth of one).
      if (e.reg->bytes() == 4 && e.offset % 8 == 0) {
        EXPECT_EQ(p.host.mmio_read64(e.offset), ~0ull) << what;
        ++expected;
      }
      ++tried;
      EXPECT_EQ(misuse_count(), expected) << what;
    }
    for (uint64_t unmapped : {0x00ACull, 0x0FFCull, 0x1FFCull, 0x2FFCull, 0x3FFCull, 0x4FFCull, 0x8000ull, 0xFFFCull}) {
      EXPECT_EQ(p.host.mmio_read32(unmapped), 0xFFFFFFFFu) << std::hex << unmapped;
      p.host.mmio_write32(unmapped, 0x12345678);
      expected += 2;
    }
    EXPECT_EQ(misuse_count(), expected);
    EXPECT_EQ(snapshot(), before);
    EXPECT_EQ(tried, all.size());
    sc_core::sc_stop();
  });
  sc_core::sc_start();
}

TEST(PlatformRegisters, InfoPrintsTheMapOfEveryBlock) {
  const auto r = test::run_accel_vp("info --registers");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* line : {"BAR0 0x0..0x7: BAR0 interrupt status", "0x0000  32-bit  W1C  reset 0x0  INTR",
                           "BAR0 0x8..0xfff: BAR0 Acceldev", "CMD_MANUAL_FEED[3]", "BAR0 0x1000..0x1fff: BAR0 CMP host interface",
                           "0x1000  64-bit   RW  reset 0x0  CB_ADDR", "BAR0 0x2000..0x3fff: BAR0 AQL",
                           "0x3018  64-bit   WO  reset 0x0  AQL_DOORBELL[3]", "0x2038  64-bit   RO  reset 0x0  AQL_RING_BASE[1]",
                           "BAR0 0x4000..0xffff: BAR0 info", "0x4000  32-bit   RO  reset 0x31505641  INFO_MAGIC",
                           "INFO_XINTF_UUID[2]", "console (misuse: bus error)", "0x0008  32-bit   RO  reset 0x0  STATUS",
                           "bus 0x20100000: perf (misuse: bus error)", "0x01f8  64-bit   RW  reset 0x0  stats_control"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
}

TEST(PlatformRegisters, PerfCounterBlockAnswersHartsAndRefusesOthersTheirCounters) {
  Platform p;
  RegisterBlock& perf = p.harts.perf.registers();
  auto access = [&](UnitId unit, tlm::tlm_command cmd, uint64_t offset, unsigned len, uint64_t& value) {
    tlm::tlm_generic_payload gp;
    gp.set_command(cmd);
    gp.set_address(offset);
    gp.set_data_ptr(reinterpret_cast<unsigned char*>(&value));
    gp.set_data_length(len);
    gp.set_streaming_width(len);
    set_unit(gp, unit);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    perf.access(gp, delay);
    EXPECT_EQ(delay, p.harts.clock_period.get());  // one hart clock per access
    return gp.get_response_status();
  };
  const UnitId hart0 = make_unit(UnitKind::Hart, 0);
  uint64_t v = 0;
  EXPECT_EQ(access(hart0, tlm::TLM_READ_COMMAND, AVP_PERF_HART_INSTRET, 8, v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(access(hart0, tlm::TLM_READ_COMMAND, AVP_PERF_HART_INSTRET + 4, 4, v), tlm::TLM_OK_RESPONSE);  // upper half
  // The per-hart part answers harts only; the totals answer anyone.
  EXPECT_EQ(access(kHostUnit, tlm::TLM_READ_COMMAND, AVP_PERF_HART_INSTRET, 8, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(access(make_unit(UnitKind::Hart, 999), tlm::TLM_READ_COMMAND, 0, 8, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  v = 7;
  EXPECT_EQ(access(kHostUnit, tlm::TLM_READ_COMMAND, AVP_PERF_INSTRUCTIONS, 8, v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0u);  // nothing ran
  EXPECT_EQ(access(kHostUnit, tlm::TLM_READ_COMMAND, 0x1F0, 8, v), tlm::TLM_OK_RESPONSE);  // reserved totals read 0
  // Misuse is a bus error: writes of counters, bad sizes.
  EXPECT_EQ(access(hart0, tlm::TLM_WRITE_COMMAND, AVP_PERF_INSTRUCTIONS, 8, v), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(access(hart0, tlm::TLM_READ_COMMAND, AVP_PERF_INSTRUCTIONS, 2, v), tlm::TLM_BURST_ERROR_RESPONSE);
  // STATS_CONTROL reads the number of dumps so far.
  EXPECT_EQ(access(hart0, tlm::TLM_READ_COMMAND, AVP_PERF_STATS_CONTROL, 8, v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, StatRegistry::instance().dumps().size());
}

// The TCDM core-local view resolves the accessing core; the global view does not.
#include <gtest/gtest.h>

#include "base/cache_traffic.h"
#include "base/unit.h"
#include "platform/platform.h"
#include "traffic_probe.h"

using namespace avp;

namespace {
tlm::tlm_response_status access_as(Platform& p, UnitId unit, uint32_t core, tlm::tlm_command cmd, uint64_t addr,
                                   uint64_t* v) {
  tlm::tlm_generic_payload gp;
  set_unit(gp, unit, core);
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(v));
  gp.set_data_length(8);
  gp.set_streaming_width(8);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  p.device_port.socket->b_transport(gp, d);
  return gp.get_response_status();
}
}  // namespace

TEST(MemoryViews, CoreLocalViewReachesTheAccessingCoresSlice) {
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const uint64_t slice = p.tcdm_slice.get();
  uint64_t v = 0x1111;
  ASSERT_EQ(access_as(p, make_unit(UnitKind::Hart, 5), 1, tlm::TLM_WRITE_COMMAND, 0x1000'0040, &v), tlm::TLM_OK_RESPONSE);
  uint64_t back = 0;
  p.tcdm.read(slice + 0x40, &back, 8);
  EXPECT_EQ(back, 0x1111u);
  ASSERT_EQ(access_as(p, make_unit(UnitKind::Hart, 0), 0, tlm::TLM_READ_COMMAND, 0x1000'0040, &back), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(back, 0u);  // core 0's slice is untouched
  ASSERT_EQ(access_as(p, kHostUnit, 0, tlm::TLM_READ_COMMAND, 0x1800'0000 + slice + 0x40, &back), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(back, 0x1111u);
}

TEST(MemoryViews, UnitsOutsideCoresCannotUseTheCoreLocalView) {
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  uint64_t v = 0;
  EXPECT_EQ(access_as(p, kHostUnit, 0, tlm::TLM_READ_COMMAND, 0x1000'0000, &v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(access_as(p, kCmpUnit, 0, tlm::TLM_READ_COMMAND, 0x1000'0000, &v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(MemoryViews, CoreLocalDmiCoversOnlyTheCoresSlice) {
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  tlm::tlm_generic_payload gp;
  set_unit(gp, make_unit(UnitKind::Hart, 4), 1);
  gp.set_address(0x1000'0000);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(p.device_port.socket->get_direct_mem_ptr(gp, dmi));
  EXPECT_EQ(dmi.get_start_address(), 0x1000'0000u);
  EXPECT_EQ(dmi.get_end_address(), 0x1000'0000u + p.tcdm_slice.get() - 1);
  EXPECT_EQ(dmi.get_dmi_ptr(), p.tcdm.data() + p.tcdm_slice.get());
}

TEST(MemoryViews, DefaultAddressMapMatchesThePlatformSpec) {
  Platform p;
  using Span = std::pair<uint64_t, uint64_t>;
  std::map<std::string, Span> m;
  for (const auto& r : p.bus.ranges()) m[r.name] = {r.base, r.size};
  EXPECT_EQ(m["tcim"], Span(0x1000, 60 * 1024));
  EXPECT_EQ(m["tcdm_local"], Span(0x1000'0000, 4 << 20));
  EXPECT_EQ(m["tcdm"], Span(0x1800'0000, 2 * (4 << 20)));
  EXPECT_EQ(m["dram"], Span(0x4000'0000, 2ull << 30));
}

TEST(MemoryViews, OnlyPathsTheRouterWrapsAreAnsweredForDirectTiming) {
  // base/timing_path.h: a hart's probe of global TCDM or DRAM answers a direct
  // timing path; the core-local view and the CMP windows forward probes
  // without wrapping the path, so their traffic keeps going by TLM.
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const auto probe = [&p](uint64_t addr) { return avp::test::probe_at(p.device_port.socket, addr); };
  const CacheTrafficExtension dram = probe(p.dram_base() + 0x40);
  ASSERT_NE(dram.path, nullptr);
  EXPECT_EQ(dram.path_base, p.dram_base());
  EXPECT_EQ(dram.path_size, p.dram.size());
  EXPECT_NE(probe(0x1800'0040).path, nullptr);
  const CacheTrafficExtension local = probe(0x1000'0040);
  EXPECT_TRUE(local.memory);
  EXPECT_EQ(local.path, nullptr);
  EXPECT_EQ(probe(0x8000'0000'0000ull).path, nullptr);  // the host window: not memory of the device
}

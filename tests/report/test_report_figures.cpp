// Report figures that follow from the configuration, computed in-process on a
// platform: a DMA transfer's time, idle units at exactly 0, MMIO latency from
// the link parameters, and the VCD of the interrupt lines at the expected times.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "base/params.h"
#include "base/vcd.h"
#include "cmdbuf.h"
#include "dma/dma_regs.h"
#include "pcie/bar0_regs.h"
#include "ideal_memory.h"
#include "platform/platform.h"
#include "report/run_report.h"

using namespace avp;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

// A platform and a host thread; the link is PCIe gen 1 x1 (0.25 bytes/ns), so
// a 4-byte posted write takes (4 + 24) / 0.25 = 112 ns on the wire.
struct Bench {
  Platform* p;
  explicit Bench(bool slow_link) {
    if (slow_link) {
      ParamRegistry::instance().add_preset("link.generation", "1", "test");
      ParamRegistry::instance().add_preset("link.lanes", "1", "test");
    }
    p = new Platform;  // one per process, kept to the end (SystemC elaborates once)
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  void run(const std::function<void()>& body) {
    sc_core::sc_spawn([&] {
      body();
      sc_core::sc_stop();
    });
    sc_core::sc_start();
  }
  nlohmann::json report() const {
    nlohmann::json m;
    m["simulated_time_ns"] = sc_core::sc_time_stamp().to_seconds() * 1e9;
    return build_report(m);
  }
};

double ns(const sc_time& t) { return t.to_seconds() * 1e9; }

}  // namespace

TEST(ReportFigures, DmaTransferOfKnownSizeTakesTheComputedTimeAndIdleUnitsAreZero) {
  avp::test::use_ideal_memory();  // a fixed DRAM latency: the closed form below
  Bench b(false);
  Platform& p = *b.p;
  sc_time issued;
  b.run([&] {
    sc_time d = sc_core::SC_ZERO_TIME;
    auto w = [&](uint64_t off, uint64_t v) { p.device_port.write(AVP_DMA_BASE + off, &v, 8, d); };
    w(AVP_DMASRCADDR, p.dram_base() + 0x10000);
    w(AVP_DMADSTADDR, p.dram_base() + 0x20000);
    w(AVP_DMAXFERSIZE0, 4096);
    w(AVP_DMACTRL, AVP_DMACTRL_START | AVP_DMACTRL_DIMS(1));
    issued = sc_core::sc_time_stamp() + d;
    w(AVP_DMADONESEQ, 1);
    sc_core::wait(sc_time(1000, SC_NS));  // idle time after the transfer
  });
  const nlohmann::json r = b.report();
  // setup 50 ns + DRAM read 50 ns + DRAM write 50 ns + 4096 B at 16 B/ns = 406 ns.
  const double expect = 50 + 50 + 50 + 4096 / 16.0;
  const auto& lat = r["units"]["dma"]["histograms"]["transfer_latency"];
  EXPECT_EQ(lat["count"], 1);
  EXPECT_DOUBLE_EQ(lat["min"].get<double>(), expect);
  EXPECT_DOUBLE_EQ(lat["max"].get<double>(), expect);
  EXPECT_DOUBLE_EQ(r["units"]["dma.ch0"]["utilisation"]["busy"]["busy_ns"].get<double>(), expect);
  const double sim = ns(sc_core::sc_time_stamp());
  EXPECT_DOUBLE_EQ(r["units"]["dma.ch0"]["utilisation"]["busy"]["fraction"].get<double>(), expect / sim);
  // The transfer occupies channel 0's queue from issue to completion.
  const auto& occ = r["units"]["dma.ch0"]["occupancy"]["queue_occupancy"];
  EXPECT_EQ(occ["max"], 1);
  EXPECT_DOUBLE_EQ(occ["mean"].get<double>(), expect / sim);
  EXPECT_EQ(occ["time_at_level_ns"][1][0], 1);
  EXPECT_DOUBLE_EQ(occ["time_at_level_ns"][1][1].get<double>(), expect);
  EXPECT_DOUBLE_EQ(occ["time_at_level_ns"][0][1].get<double>(), sim - expect);
  // Idle units: exactly zero.
  for (const char* ch : {"dma.ch1", "dma.ch2", "dma.ch3"}) {
    EXPECT_EQ(r["units"][ch]["utilisation"]["busy"]["fraction"].get<double>(), 0.0) << ch;
    EXPECT_EQ(r["units"][ch]["occupancy"]["queue_occupancy"]["mean"].get<double>(), 0.0) << ch;
    EXPECT_EQ(r["units"][ch]["occupancy"]["queue_occupancy"]["max"], 0) << ch;
  }
  EXPECT_EQ(r["units"]["cmp"]["utilisation"]["busy"]["fraction"].get<double>(), 0.0);
  EXPECT_EQ(r["units"]["cmp"]["occupancy"]["queue_occupancy"]["mean"].get<double>(), 0.0);
  EXPECT_EQ(r["units"]["harts.hart0"]["utilisation"]["busy"]["fraction"].get<double>(), 0.0);
  EXPECT_EQ(r["units"]["link.up"]["utilisation"]["busy"]["fraction"].get<double>(), 0.0);
  EXPECT_EQ(r["units"]["aql.q0"]["occupancy"]["queue_occupancy"]["max"], 0);
  EXPECT_EQ(r["units"]["aql"]["utilisation"]["busy"]["fraction"].get<double>(), 0.0);
  EXPECT_EQ(r["units"]["harts"]["histograms"]["instance_time"]["count"], 0);
}

TEST(ReportFigures, MmioAndLinkLatenciesFollowFromTheLinkParameters) {
  Bench b(true);
  Platform& p = *b.p;
  b.run([&] {
    p.host.cfg_write32(0x04, 0x0006);  // memory space, bus master
    p.host.mmio_write32(ACCELDEV_INTR_ENABLE, 0);
    (void)p.host.mmio_read32(AVP_INFO_MAGIC);
  });
  const nlohmann::json r = b.report();
  // Posted write: 28 wire bytes at 0.25 B/ns. Read: 24-byte request, 400 ns
  // completion latency, 28-byte completion with data.
  const auto& w = r["units"]["host.bar0"]["histograms"]["write_latency"];
  const auto& rd = r["units"]["host.bar0"]["histograms"]["read_latency"];
  EXPECT_EQ(w["count"], 1);
  EXPECT_DOUBLE_EQ(w["max"].get<double>(), 112);
  EXPECT_EQ(rd["count"], 1);
  EXPECT_DOUBLE_EQ(rd["max"].get<double>(), 96 + 400 + 112);
  EXPECT_EQ(r["units"]["host.bar2"]["histograms"]["read_latency"]["count"], 0);
  // The link: config write, BAR0 write and the read request downstream; the completion upstream.
  const auto& down = r["units"]["link.down"]["histograms"]["transfer_latency"];
  EXPECT_EQ(down["count"], 3);
  EXPECT_DOUBLE_EQ(down["min"].get<double>(), 96);
  EXPECT_DOUBLE_EQ(down["max"].get<double>(), 112);
  EXPECT_DOUBLE_EQ(r["units"]["link.up"]["histograms"]["transfer_latency"]["max"].get<double>(), 112);
  EXPECT_DOUBLE_EQ(r["units"]["link.down"]["histograms"]["read_latency"]["max"].get<double>(), 608);
  EXPECT_EQ(r["units"]["link.up"]["histograms"]["read_latency"]["count"], 0);
}

namespace {
// Times (ps) at which a VCD signal takes each value, from the dump text.
std::vector<std::pair<uint64_t, char>> transitions(const std::string& vcd, const std::string& scope, const std::string& name) {
  std::istringstream in(vcd);
  std::string line, code;
  std::vector<std::string> scopes;
  while (std::getline(in, line) && line != "$enddefinitions $end") {
    std::istringstream l(line);
    std::string a, b, c, d, e;
    l >> a >> b >> c >> d >> e;
    if (a == "$scope") scopes.push_back(c);
    if (a == "$upscope") scopes.pop_back();
    if (a == "$var" && e == name && !scopes.empty() && scopes.back() == scope) code = d;
  }
  EXPECT_FALSE(code.empty()) << scope << "." << name;
  std::vector<std::pair<uint64_t, char>> out;
  uint64_t t = 0;
  bool initial = false;  // inside $dumpvars: the values at time 0, not transitions
  while (std::getline(in, line)) {
    if (line == "$dumpvars") initial = true;
    if (line == "$end") initial = false;
    if (initial || line.empty() || line[0] == '$') continue;
    if (line[0] == '#') t = std::stoull(line.substr(1));
    else if (line.substr(1) == code) out.push_back({t, line[0]});
  }
  return out;
}
}  // namespace

TEST(ReportFigures, VcdRecordsTheInterruptLinesAtTheirSimulatedTimes) {
  Vcd::instance().enable(true);
  Bench b(true);
  Platform& p = *b.p;
  CommandBuffer cb;
  cb.finish();
  const uint64_t at = p.dram_base() + 0x1000;
  ASSERT_TRUE(p.device_port.write_debug(at, cb.chunks().data(), cb.size_bytes()));
  sc_time raised, clear_issued;
  b.run([&] {
    p.host.cfg_write32(0x04, 0x0006);
    p.host.mmio_write32(ACCELDEV_INTR_ENABLE, AVP_INTR_CMDBUF_DONE);
    p.host.mmio_write32(AVP_CB_ADDR_LO, static_cast<uint32_t>(at));
    p.host.mmio_write32(AVP_CB_ADDR_HI, static_cast<uint32_t>(at >> 32));
    p.host.mmio_write32(AVP_CB_SIZE, static_cast<uint32_t>(cb.size_bytes()));
    p.host.mmio_write32(AVP_CB_SUBMIT, 1);
    while (!p.host.irq_level()) sc_core::wait(p.host.irq_event());
    raised = sc_core::sc_time_stamp();  // INTx reaches the host at once (level, no message)
    clear_issued = sc_core::sc_time_stamp();
    p.host.mmio_write32(ACCELDEV_INTR, AVP_INTR_CMDBUF_DONE);  // write 1 to clear, 112 ns on the wire
  });
  const std::string vcd = Vcd::instance().to_string();
  const uint64_t rise = static_cast<uint64_t>(ns(raised) * 1000 + 0.5);
  const uint64_t fall = static_cast<uint64_t>((ns(clear_issued) + 112) * 1000 + 0.5);
  for (const char* sig : {"intx", "irq"}) {
    const auto t = transitions(vcd, "endpoint", sig);
    ASSERT_EQ(t.size(), 2u) << sig << "\n" << vcd;
    EXPECT_EQ(t[0], std::make_pair(rise, '1')) << sig;
    EXPECT_EQ(t[1], std::make_pair(fall, '0')) << sig;
  }
  const auto done = transitions(vcd, "intr", "cmdbuf_done");
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0], std::make_pair(rise, '1'));
  EXPECT_EQ(done[1], std::make_pair(fall, '0'));
  EXPECT_TRUE(transitions(vcd, "intr", "cmp_error").empty());
  EXPECT_TRUE(transitions(vcd, "endpoint", "msi").empty());  // declared, never fired (MSI is off)
}

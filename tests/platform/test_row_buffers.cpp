// DRAM banks with open rows (models/memory/row_buffers.h): hits add nothing,
// a closed bank adds the activation, another open row the precharge as well;
// rows interleave over the banks and a burst pays per row it touches; no
// banks adds nothing; bad parameters are refused by name; in the platform,
// the DRAM defaults to DDR4-3200 x64 and its accesses pay it and count it. With a row cycle
// (tRC), a bank's activations keep tRC apart in simulated time, whatever
// order they are simulated in, while other banks and open rows do not wait.
#include <gtest/gtest.h>

#include <tuple>

#include "base/local_time.h"
#include "base/unit.h"
#include "memory/row_buffers.h"
#include "platform/platform.h"

using namespace avp;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

struct Owner : sc_core::sc_module {
  explicit Owner(const char* name) : sc_core::sc_module(sc_core::sc_module_name(name)) {}
};

uint64_t counter(const std::string& name) {
  auto* c = dynamic_cast<const Counter*>(StatRegistry::instance().find(name));
  return c ? c->value() : ~0ull;
}

void preset(const std::string& name, const std::string& value) {
  ParamRegistry::instance().add_preset(name, value, "test");
}

const sc_time kT0 = sc_core::SC_ZERO_TIME;

// Two banks of 1 KiB rows (tRCD 10 ns, tRP 20 ns, tRC 50 ns), refreshed
// every 1000 ns for 100 ns, for the memory named `name`.
void preset_refreshed_banks(const std::string& name) {
  preset(name + ".banks", "2");
  preset(name + ".row_bytes", "1024");
  preset(name + ".activate_latency", "10 ns");
  preset(name + ".precharge_latency", "20 ns");
  preset(name + ".row_cycle", "50 ns");
  preset(name + ".refresh_interval", "1000 ns");
  preset(name + ".refresh_latency", "100 ns");
}

// The defaults of the memories these tests make on their own: no banks (the
// tests preset the rest).
const DramStandard kNoBanks{sc_time(50, SC_NS), sc_time(50, SC_NS), 0, 2048, sc_time(15, SC_NS),
                            sc_time(15, SC_NS), kT0, kT0, kT0, 0, 1};

// The latency the host sees for an 8-byte read at `addr` (SystemC time 0).
sc_time host_read_time(Platform& p, uint64_t addr) {
  uint64_t v = 0;
  tlm::tlm_generic_payload gp;
  set_unit(gp, kHostUnit, 0);
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
  gp.set_data_length(8);
  gp.set_streaming_width(8);
  sc_time d = sc_core::SC_ZERO_TIME;
  p.device_port.socket->b_transport(gp, d);
  EXPECT_EQ(gp.get_response_status(), tlm::TLM_OK_RESPONSE);
  return d;
}

// RowBuffers::access in sc_time, as the expectations are written.
sc_time access(RowBuffers& rows, uint64_t offset, uint64_t bytes, const sc_time& ahead) {
  return from_ps(rows.access(offset, bytes, to_ps(ahead)));
}

const Histogram* histogram(const std::string& name) {
  return dynamic_cast<const Histogram*>(StatRegistry::instance().find(name));
}

}  // namespace

TEST(RowBuffers, OpenRowsDecideTheLatency) {
  preset("rowmem.banks", "4");
  preset("rowmem.row_bytes", "1024");
  preset("rowmem.activate_latency", "10 ns");
  preset("rowmem.precharge_latency", "20 ns");
  Owner owner("rowmem");
  RowBuffers rows(&owner, kNoBanks);
  EXPECT_EQ(access(rows, 0, 64, kT0), sc_time(10, SC_NS));     // bank 0 had no row open
  EXPECT_EQ(access(rows, 64, 64, kT0), sc_time(0, SC_NS));     // the same row
  EXPECT_EQ(access(rows, 1024, 64, kT0), sc_time(10, SC_NS));  // the next row is bank 1's
  EXPECT_EQ(access(rows, 4096, 8, kT0), sc_time(30, SC_NS));   // bank 0 again, its second row: precharge and activate
  EXPECT_EQ(access(rows, 0, 8, kT0), sc_time(30, SC_NS));      // and back
  EXPECT_EQ(access(rows, 1000, 48, kT0), sc_time(0, SC_NS));   // across rows 0 and 1: both open
  EXPECT_EQ(access(rows, 3000, 2048, kT0), sc_time(50, SC_NS));  // rows 2, 3 (banks with none open), 4 (bank 0: row 0)
  EXPECT_EQ(counter("rowmem.row_hits"), 3u);
  EXPECT_EQ(counter("rowmem.row_activations"), 4u);
  EXPECT_EQ(counter("rowmem.row_conflicts"), 3u);
  ParamRegistry::instance().clear_presets();
}

TEST(RowBuffers, NoBanksAddNothing) {
  Owner owner("plain");
  RowBuffers rows(&owner, kNoBanks);
  EXPECT_EQ(access(rows, 0, 64, kT0), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(access(rows, 1 << 20, 64, kT0), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(counter("plain.row_hits") + counter("plain.row_activations") + counter("plain.row_conflicts"), 0u);
}

TEST(RowBuffers, BadParametersAreRefusedNamingThem) {
  for (const auto& [name, value] : {std::pair{"bad1.row_bytes", "1000"}, {"bad2.row_bytes", "32"}, {"bad3.banks", "5000"},
                                     {"bad4.row_cycle", "45 ns"}}) {  // a row cycle without banks
    preset(name, value);
    const std::string module = std::string(name).substr(0, 4);
    Owner owner(module.c_str());
    try {
      RowBuffers rows(&owner, kNoBanks);
      ADD_FAILURE() << name << "=" << value << " was accepted";
    } catch (const ParamError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
    ParamRegistry::instance().clear_presets();
  }
}

TEST(RowBuffers, TheDramDefaultsToDdr43200) {
  Platform p;
  EXPECT_EQ(p.dram.read_latency.get(), sc_time(13.75, SC_NS));
  EXPECT_EQ(p.dram.write_latency.get(), sc_time(10, SC_NS));
  const auto param = [](const std::string& name) { return ParamRegistry::instance().find(name)->value_string(); };
  EXPECT_EQ(param("dram.banks"), "16");
  EXPECT_EQ(param("dram.row_bytes"), "8192");
  EXPECT_EQ(param("dram.activate_latency"), "13.750 ns");
  EXPECT_EQ(param("dram.precharge_latency"), "13.750 ns");
  EXPECT_EQ(param("dram.row_cycle"), "45.750 ns");
  EXPECT_EQ(param("bus.dram.bandwidth"), "25.6");
  EXPECT_EQ(param("bus.dram.channels"), "1");
}

// Turning the banks off needs nothing else: the default row cycle then applies to nothing.
TEST(RowBuffers, TheDramWithoutBanksKeepsItsLatency) {
  preset("dram.banks", "0");
  preset("bus.dram.bandwidth", "0");
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const uint64_t dram = p.base_of("dram");
  EXPECT_EQ(host_read_time(p, dram + 0x100), host_read_time(p, dram + 0x100 + 16 * 8192));
  EXPECT_EQ(counter("dram.row_hits") + counter("dram.row_activations") + counter("dram.row_conflicts"), 0u);
  ParamRegistry::instance().clear_presets();
}

// The row buffers alone: 2 KiB rows, no row cycle, no port bandwidth (its queue would add to the reads).
TEST(RowBuffers, TheDramPaysAndCountsThem) {
  preset("dram.banks", "8");
  preset("dram.row_bytes", "2048");
  preset("dram.activate_latency", "12 ns");
  preset("dram.precharge_latency", "18 ns");
  preset("dram.row_cycle", "0 ns");
  preset("bus.dram.bandwidth", "0");
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const uint64_t dram = p.base_of("dram");
  const auto read_time = [&](uint64_t offset) { return host_read_time(p, dram + offset); };
  const sc_time opened = read_time(0x100);
  const sc_time hit = read_time(0x108);
  const sc_time conflict = read_time(0x100 + 8 * 2048);  // bank 0's next row (8 banks of 2 KiB rows)
  EXPECT_EQ(opened - hit, sc_time(12, SC_NS));
  EXPECT_EQ(conflict - hit, sc_time(30, SC_NS));
  EXPECT_EQ(counter("dram.row_hits"), 1u);
  EXPECT_EQ(counter("dram.row_activations"), 1u);
  EXPECT_EQ(counter("dram.row_conflicts"), 1u);
  ParamRegistry::instance().clear_presets();
}

TEST(RowBuffers, ABankOpensItsRowsOneRowCycleApart) {
  preset("cycmem.banks", "2");
  preset("cycmem.row_bytes", "1024");
  preset("cycmem.activate_latency", "10 ns");
  preset("cycmem.precharge_latency", "20 ns");
  preset("cycmem.row_cycle", "50 ns");
  Owner owner("cycmem");
  RowBuffers rows(&owner, kNoBanks);
  const sc_time t0 = kT0, ns = sc_time(1, SC_NS);
  EXPECT_EQ(access(rows, 0, 64, t0), 10 * ns);          // bank 0 activates at 0
  EXPECT_EQ(access(rows, 64, 64, t0), kT0);             // its open row: no activation, no wait
  EXPECT_EQ(access(rows, 1024, 64, t0), 10 * ns);       // bank 1 works in parallel
  EXPECT_EQ(access(rows, 2048, 64, t0), 80 * ns);       // bank 0's next row: waits to 50, then precharge and activate
  EXPECT_EQ(access(rows, 0, 64, 200 * ns), 30 * ns);    // long after: no wait
  const Histogram* wait = histogram("cycmem.bank_wait");
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->count(), 4u);  // one sample per activation
  EXPECT_DOUBLE_EQ(wait->max(), 50.0);
  EXPECT_DOUBLE_EQ(wait->sum(), 50.0);
  ParamRegistry::instance().clear_presets();
}

// Harts run ahead of SystemC time: an activation simulated later may be
// earlier in simulated time. It takes the gap before the other if that gap
// is a row cycle long, and waits after it otherwise.
TEST(RowBuffers, ActivationsKeepTheirSimulatedTimesNotTheirOrder) {
  preset("ordmem.banks", "1");
  preset("ordmem.row_bytes", "1024");
  preset("ordmem.activate_latency", "10 ns");
  preset("ordmem.precharge_latency", "0 ns");
  preset("ordmem.row_cycle", "50 ns");
  Owner owner("ordmem");
  RowBuffers rows(&owner, kNoBanks);
  const sc_time ns = sc_time(1, SC_NS);
  EXPECT_EQ(access(rows, 0, 64, 100 * ns), 10 * ns);     // activates at 100
  EXPECT_EQ(access(rows, 1024, 64, 0 * ns), 10 * ns);    // at 0: 100 is a row cycle later, no wait
  EXPECT_EQ(access(rows, 2048, 64, 60 * ns), 100 * ns);  // at 60: too close to 100 (and 0 is fine): waits to 150
  EXPECT_EQ(access(rows, 3072, 64, 200 * ns), 10 * ns);  // at 200: clear of 150
  EXPECT_EQ(access(rows, 0, 64, 220 * ns), 40 * ns);     // at 220: waits to 250
  ParamRegistry::instance().clear_presets();
}

TEST(RowBuffers, TheDramsBanksAreBusyForTheirRowCycle) {
  preset("dram.banks", "8");
  preset("dram.row_bytes", "2048");
  preset("bus.dram.bandwidth", "0");
  preset("dram.activate_latency", "12 ns");
  preset("dram.precharge_latency", "18 ns");
  preset("dram.row_cycle", "45 ns");
  Platform p;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const uint64_t dram = p.base_of("dram");
  const auto read_time = [&](uint64_t offset) { return host_read_time(p, dram + offset); };
  const sc_time opened = read_time(0x100);
  const sc_time other_bank = read_time(0x100 + 2048);        // bank 1, at the same time: no wait
  const sc_time conflict = read_time(0x100 + 8 * 2048);      // bank 0's next row, at the same time
  EXPECT_EQ(other_bank, opened);
  EXPECT_EQ(conflict - opened, sc_time(45 + 18, SC_NS));      // the row cycle, then the precharge
  ParamRegistry::instance().clear_presets();
}

namespace {

// The latencies of `accesses` (offset, time) to a fresh memory named `name`,
// in the order given, reported in the order of `accesses`.
struct Timed {
  uint64_t offset;
  sc_time at;
};
std::vector<sc_time> latencies(const char* name, const std::vector<Timed>& accesses, const std::vector<size_t>& order) {
  preset(std::string(name) + ".banks", "2");
  preset(std::string(name) + ".row_bytes", "1024");
  preset(std::string(name) + ".activate_latency", "10 ns");
  preset(std::string(name) + ".precharge_latency", "20 ns");
  preset(std::string(name) + ".row_cycle", "50 ns");
  Owner owner(name);
  RowBuffers rows(&owner, kNoBanks);
  std::vector<sc_time> out(accesses.size());
  for (size_t i : order) out[i] = access(rows, accesses[i].offset, 64, accesses[i].at);
  ParamRegistry::instance().clear_presets();
  return out;
}

}  // namespace

// Two initiators run ahead of SystemC time and use bank 0 in turn: A its
// row 0 at 0 and 400, B its row 1 at 100 and 200. Whichever is simulated
// first, the accesses simulated after both see the rows of their own time,
// as in time order: row 1 open at 250 (B's), row 0 at 500 (A's at 400).
TEST(RowBuffers, LaterAccessesSeeTheRowsOfTheirTimeWhateverTheOrder) {
  const sc_time ns = sc_time(1, SC_NS);
  const std::vector<Timed> accesses = {{0, 0 * ns},         {64, 400 * ns},       {2048, 100 * ns},
                                       {2048 + 64, 200 * ns}, {2048 + 128, 250 * ns}, {128, 500 * ns}};
  const auto in_order = latencies("inorder", accesses, {0, 2, 3, 4, 1, 5});
  EXPECT_EQ(in_order, (std::vector<sc_time>{10 * ns, 30 * ns, 30 * ns, kT0, kT0, kT0}));
  // A and B themselves pay what the accesses simulated before them show:
  // simulated first, A keeps its row to 400; B simulated first finds bank 0 closed.
  EXPECT_EQ(latencies("a_first", accesses, {0, 1, 2, 3, 4, 5}),
            (std::vector<sc_time>{10 * ns, kT0, 30 * ns, kT0, kT0, kT0}));
  EXPECT_EQ(latencies("b_first", accesses, {2, 3, 0, 1, 4, 5}),
            (std::vector<sc_time>{10 * ns, 30 * ns, 10 * ns, kT0, kT0, kT0}));
}

// An access to the row an earlier-arriving activation is about to open
// (waiting for the bank's row cycle) waits for it rather than opening the
// row a second time; the row that is still open until then serves its hits.
TEST(RowBuffers, AnAccessWaitsForTheActivationOpeningItsRow) {
  const sc_time ns = sc_time(1, SC_NS);
  const std::vector<Timed> accesses = {{0, 0 * ns}, {2048, 10 * ns}, {2048 + 64, 20 * ns}, {64, 30 * ns}};
  const auto in_order = latencies("pending", accesses, {0, 1, 2, 3});
  // Row 1 waits for the row cycle to 50, then precharge and activate; the
  // access at 20 waits for that activation's start; row 0 is open until 50.
  EXPECT_EQ(in_order, (std::vector<sc_time>{10 * ns, 70 * ns, 30 * ns, 0 * ns}));
  // The hit at 30 simulated before the activation arriving at 10: the same.
  EXPECT_EQ(latencies("pending_hit_first", accesses, {0, 3, 1, 2}), in_order);
}

// Activations older than a row cycle before SystemC time are dropped, but
// the row open then stays known: a run of accesses over simulated time keeps
// its rows open across any number of row cycles.
TEST(RowBuffers, OldActivationsArePrunedKeepingTheOpenRow) {
  preset("prunemem.banks", "1");
  preset("prunemem.row_bytes", "1024");
  preset("prunemem.activate_latency", "10 ns");
  preset("prunemem.precharge_latency", "20 ns");
  preset("prunemem.row_cycle", "50 ns");
  Owner owner("prunemem");
  RowBuffers rows(&owner, kNoBanks);
  const sc_time ns = sc_time(1, SC_NS);
  EXPECT_EQ(access(rows, 0, 64, kT0), 10 * ns);
  sc_core::sc_start(1000, SC_NS);
  EXPECT_EQ(access(rows, 64, 64, kT0), kT0);           // still open at 1000
  EXPECT_EQ(access(rows, 1024, 64, kT0), 30 * ns);      // another row: no wait, 0 is long gone
  EXPECT_EQ(access(rows, 0, 64, 10 * ns), 70 * ns);     // back: waits for the row cycle to 1050
  EXPECT_EQ(counter("prunemem.row_conflicts"), 2u);
  ParamRegistry::instance().clear_presets();
}

// Refresh every 1000 ns for 100 ns: an access arriving during one waits for
// its end, every bank's row closes at it, and no activation starts within it.
TEST(RowBuffers, RefreshClosesTheRowsAndDelaysAccessesDuringIt) {
  preset_refreshed_banks("refmem");
  Owner owner("refmem");
  RowBuffers rows(&owner, kNoBanks);
  const sc_time ns = sc_time(1, SC_NS);
  EXPECT_EQ(access(rows, 0, 64, 10 * ns), 10 * ns);         // no refresh at 0: bank 0 opens row 0
  EXPECT_EQ(access(rows, 64, 64, 990 * ns), kT0);           // still open before the refresh
  EXPECT_EQ(access(rows, 128, 64, 1040 * ns), 70 * ns);     // waits to 1100, the row closed: activation
  EXPECT_EQ(access(rows, 192, 64, 1200 * ns), kT0);         // open again
  EXPECT_EQ(access(rows, 1024, 64, 1500 * ns), 10 * ns);    // bank 1 opens its row 0
  EXPECT_EQ(access(rows, 2048, 64, 1980 * ns), 30 * ns);    // bank 0's row 1 just before the next refresh: conflict
  // Bank 0's row 2 at 1990: tRC would start it at 2030, within the refresh:
  // it starts at 2100, and the refresh closed row 1 (no precharge).
  EXPECT_EQ(access(rows, 4096, 64, 1990 * ns), 120 * ns);
  EXPECT_EQ(access(rows, 1024 + 64, 64, 2150 * ns), 10 * ns);  // bank 1's row 0 was closed by the refresh too
  EXPECT_EQ(counter("refmem.refreshes"), 2u);
  EXPECT_EQ(counter("refmem.refresh_delayed"), 1u);
  const Histogram* wait = histogram("refmem.refresh_wait");
  ASSERT_NE(wait, nullptr);
  EXPECT_DOUBLE_EQ(wait->sum(), 60.0);
  EXPECT_EQ(counter("refmem.row_activations"), 5u);
  EXPECT_EQ(counter("refmem.row_conflicts"), 1u);
  EXPECT_EQ(counter("refmem.row_hits"), 2u);
  ParamRegistry::instance().clear_presets();
}

// A refresh that another bank's access saw first still closes the row a
// bank had open before it: that bank's next access to the row activates it.
TEST(RowBuffers, ARefreshSeenThroughAnotherBankClosesEveryBanksRow) {
  preset_refreshed_banks("refseen");
  Owner owner("refseen");
  RowBuffers rows(&owner, kNoBanks);
  const sc_time ns = sc_time(1, SC_NS);
  EXPECT_EQ(access(rows, 0, 64, 900 * ns), 10 * ns);      // bank 0 opens row 0
  EXPECT_EQ(access(rows, 64, 64, 950 * ns), kT0);         // a hit before the refresh
  EXPECT_EQ(access(rows, 1024, 64, 1500 * ns), 10 * ns);  // bank 1, after the refresh at 1000 (counted)
  EXPECT_EQ(access(rows, 128, 64, 1600 * ns), 10 * ns);   // bank 0's row 0 was closed by it: activation
  EXPECT_EQ(access(rows, 192, 64, 1700 * ns), kT0);       // and open since
  EXPECT_EQ(access(rows, 256, 64, 1650 * ns), kT0);       // an access arriving before the latest: open at 1650 too
  EXPECT_EQ(counter("refseen.refreshes"), 1u);
  EXPECT_EQ(counter("refseen.row_activations"), 3u);
  EXPECT_EQ(counter("refseen.row_hits"), 3u);
  ParamRegistry::instance().clear_presets();
}

// Without banks, refresh still makes accesses during it wait; without
// refresh (the default) it has no statistics.
TEST(RowBuffers, RefreshWithoutBanksOnlyDelays) {
  preset("refplain.refresh_interval", "7.8 us");
  preset("refplain.refresh_latency", "350 ns");
  Owner owner("refplain");
  RowBuffers rows(&owner, kNoBanks);
  const sc_time ns = sc_time(1, SC_NS);
  EXPECT_EQ(access(rows, 0, 64, 7800 * ns), 350 * ns);
  EXPECT_EQ(access(rows, 0, 64, 8150 * ns), kT0);
  EXPECT_EQ(access(rows, 0, 64, 7799 * ns), kT0);
  EXPECT_EQ(counter("refplain.refresh_delayed"), 1u);
  ParamRegistry::instance().clear_presets();
  Owner plain("norefresh");
  RowBuffers none(&plain, kNoBanks);
  EXPECT_EQ(StatRegistry::instance().find("norefresh.refreshes"), nullptr);
}

TEST(RowBuffers, BadRefreshParametersAreRefusedNamingThem) {
  for (const auto& [name, value, other] :
       {std::tuple{"badr1.refresh_latency", "350 ns", ""},                               // no interval
        std::tuple{"badr2.refresh_latency", "8 us", "badr2.refresh_interval=7.8 us"}}) {  // not less than it
    preset(name, value);
    if (*other) {
      const std::string o = other;
      preset(o.substr(0, o.find('=')), o.substr(o.find('=') + 1));
    }
    const std::string module = std::string(name).substr(0, 5);
    Owner owner(module.c_str());
    try {
      RowBuffers rows(&owner, kNoBanks);
      ADD_FAILURE() << name << "=" << value << " was accepted";
    } catch (const ParamError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
    ParamRegistry::instance().clear_presets();
  }
}

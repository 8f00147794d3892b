// avp::LocalTime, the one local-time pattern: offset arithmetic, the quantum,
// annotate (b_transport chains) and sync against the SystemC kernel.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include <systemc>

#include "base/local_time.h"

using namespace avp;
using sc_core::SC_NS;
using sc_core::SC_PS;
using sc_core::sc_time;

// Statistics sample ps_to_ns where they sampled SystemC's conversion: the
// same doubles, so their sums and buckets stay what they were.
TEST(LocalTime, PsToNsIsSystemCsConversionBitForBit) {
  uint64_t v = 1;
  for (int i = 0; i < 4000; ++i, v = v * 6364136223846793005ull + 1442695040888963407ull) {
    for (const uint64_t ps : {v >> 20, v >> 40, v & 0xffffff, static_cast<uint64_t>(i)}) {
      const double ns = ps_to_ns(ps), reference = from_ps(ps).to_seconds() * 1e9;
      ASSERT_EQ(std::memcmp(&ns, &reference, sizeof ns), 0) << ps << " ps: " << ns << " vs " << reference;
    }
  }
  EXPECT_EQ(systemc_ps(), sc_core::sc_time_stamp().value());
}

TEST(LocalTime, AddsInPicosecondsAndCountsTheQuantumFromTheLastSync) {
  LocalTime t;
  EXPECT_EQ(t.ps(), 0u);
  t.add_ps(1ull << 62);
  EXPECT_FALSE(t.quantum_used());  // no quantum set: never used up
  t.set(sc_core::SC_ZERO_TIME);
  t.add(sc_time(2, SC_NS));
  t.add_ps(500);
  EXPECT_EQ(t.ps(), 2500u);
  EXPECT_EQ(t.offset(), sc_time(2500, SC_PS));
  EXPECT_FALSE(t.quantum_used());
  t.set_quantum(sc_time(3, SC_NS));
  EXPECT_FALSE(t.quantum_used());
  t.add_ps(499);
  EXPECT_FALSE(t.quantum_used());
  t.add_ps(1);
  EXPECT_TRUE(t.quantum_used());
  t.set(sc_time(7, SC_PS));
  EXPECT_EQ(t.ps(), 7u);
  EXPECT_EQ(to_ps(from_ps(123456789012ull)), 123456789012ull);
}

TEST(LocalTime, AQuantumStartedAheadOfSystemCTimeEndsOneQuantumAfterItsStart) {
  // The parallel schedule's run-ahead: SystemC time 4 ns before the quantum's
  // start, the initiator 300 ps into it; then SystemC time moves 4 ns on.
  LocalTime t;
  t.set_quantum(sc_time(1, SC_NS));
  t.start_quantum(4000, 300);
  EXPECT_EQ(t.ps(), 4300u);
  t.add_ps(699);
  EXPECT_FALSE(t.quantum_used());
  t.add_ps(1);
  EXPECT_TRUE(t.quantum_used());  // at 5 ns: one quantum after the start, not after SystemC time
  t.systemc_moved(4000);
  EXPECT_EQ(t.ps(), 1000u);  // the same local time
  EXPECT_TRUE(t.quantum_used());
  t.start_quantum(0, 300);  // not behind: as set() after a sync
  EXPECT_EQ(t.ps(), 300u);
  t.add_ps(699);
  EXPECT_FALSE(t.quantum_used());
  t.add_ps(1);
  EXPECT_TRUE(t.quantum_used());
}

TEST(LocalTime, AnnotateHandsTheOffsetToTheCallAndKeepsWhatItAdds) {
  LocalTime t;
  t.add_ps(1000);
  const int r = t.annotate([](sc_time& delay) {
    EXPECT_EQ(delay, sc_time(1000, SC_PS));
    delay += sc_time(3, SC_NS);  // what a target annotates
    return 42;
  });
  EXPECT_EQ(r, 42);
  EXPECT_EQ(t.ps(), 4000u);
  // A call that throws still leaves its annotation behind.
  EXPECT_THROW(t.annotate([](sc_time& delay) {
    delay += sc_time(1, SC_NS);
    throw std::runtime_error("refused");
  }),
               std::runtime_error);
  EXPECT_EQ(t.ps(), 5000u);
}

TEST(LocalTime, SyncWaitsTheOffsetAwayAndAZeroOffsetYieldsOneDelta) {
  struct Results {
    sc_time after_sync, after_zero_sync;
    uint64_t deltas_before = 0, deltas_after = 0, ps_after = 1;
    sc_time annotation_after;
  } r;
  sc_core::sc_spawn([&r] {
    LocalTime t;
    t.add(sc_time(1500, SC_PS));
    EXPECT_EQ(t.now(), sc_time(1500, SC_PS));
    t.sync();
    r.after_sync = sc_core::sc_time_stamp();
    r.ps_after = t.ps();
    r.deltas_before = sc_core::sc_delta_count();
    t.sync();
    r.deltas_after = sc_core::sc_delta_count();
    r.after_zero_sync = sc_core::sc_time_stamp();
    sc_time annotation(2, SC_NS);
    LocalTime::sync(annotation);
    r.annotation_after = annotation;
  });
  sc_core::sc_start();
  EXPECT_EQ(r.after_sync, sc_time(1500, SC_PS));
  EXPECT_EQ(r.ps_after, 0u);
  EXPECT_EQ(r.after_zero_sync, sc_time(1500, SC_PS));
  EXPECT_EQ(r.deltas_after, r.deltas_before + 1);
  EXPECT_EQ(r.annotation_after, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_time(3500, SC_PS));
}

// Run-ahead (base/run_ahead.h): past a quantum's end without a wait only
// inside a bounded simulation loop and only while nothing else can run
// before the local time (timed notifications due later, no two at one time);
// catch_up then waits to where the skipped wait would have left SystemC time.
TEST(LocalTime, RunsOnOnlyWhenNothingCanRunFirstAndCatchesUpBeforeItIsSeen) {
  struct Results {
    bool unbounded = true, alone = false, before_a_timed_wait = false, after_a_timed_wait = true,
         before_two_due_together = true;
    uint64_t ps_after_run_on = 0, ps_after_catch_up = 0, ps_after_rebase = 0;
    bool used_after_run_on = true, used_a_quantum_later = false, used_after_rebase = true;
    sc_time stamp_after_run_on, stamp_after_catch_up;
  } r;
  const sc_time start = sc_core::sc_time_stamp();
  sc_core::sc_spawn([&r] {
    LocalTime t;
    t.set_quantum(sc_time(1, SC_NS));
    t.add_ps(1500);
    r.unbounded = t.run_on();  // no simulation loop has said where sc_start stops
  });
  sc_core::sc_start(sc_time(10, SC_NS));

  RunAhead::bound(sc_time(100, SC_NS));
  sc_core::sc_spawn([&r] {
    LocalTime t;
    t.set_quantum(sc_time(1, SC_NS));
    t.add_ps(1500);
    r.alone = t.run_on();
    r.stamp_after_run_on = sc_core::sc_time_stamp();
    r.ps_after_run_on = t.ps();
    r.used_after_run_on = t.quantum_used();  // the next quantum counts from 1500 ps
    t.add_ps(999);
    const bool before_end = t.quantum_used();
    t.add_ps(1);
    r.used_a_quantum_later = !before_end && t.quantum_used();
    t.catch_up();  // to 1500 ps: where the wait run_on skipped would have ended
    r.stamp_after_catch_up = sc_core::sc_time_stamp();
    r.ps_after_catch_up = t.ps();
    // A wait inside a call moves SystemC time past the run-on point: the quantum counts from there.
    t.add_ps(1500);
    t.run_on();
    t.annotate([](sc_time& delay) { LocalTime::sync(delay); });
    r.ps_after_rebase = t.ps();
    r.used_after_rebase = t.quantum_used();
  });
  sc_core::sc_start(sc_time(100, SC_NS));

  // Each case on its own: a timed wait due later than the local time, one
  // due before it, and two due later at one and the same time.
  const auto beside = [](std::vector<sc_time> waits, bool& result) {
    RunAhead::bound(sc_time(100, SC_NS));
    for (const sc_time& w : waits) sc_core::sc_spawn([w] { sc_core::wait(w); });
    sc_core::sc_spawn([&result] {
      sc_core::wait(sc_core::SC_ZERO_TIME);  // after the waits above were made
      LocalTime t;
      t.set_quantum(sc_time(1, SC_NS));
      t.add_ps(1500);
      result = t.run_on();
    });
    sc_core::sc_start(sc_time(100, SC_NS));
  };
  beside({sc_time(50, SC_NS)}, r.before_a_timed_wait);
  beside({sc_time(1, SC_NS)}, r.after_a_timed_wait);
  beside({sc_time(50, SC_NS), sc_time(50, SC_NS)}, r.before_two_due_together);

  EXPECT_FALSE(r.unbounded);
  EXPECT_TRUE(r.alone);
  EXPECT_TRUE(r.before_a_timed_wait);
  EXPECT_FALSE(r.after_a_timed_wait);
  EXPECT_FALSE(r.before_two_due_together);
  EXPECT_EQ(r.stamp_after_run_on - start, sc_time(10, SC_NS));  // no wait: SystemC time stayed
  EXPECT_EQ(r.ps_after_run_on, 1500u);
  EXPECT_FALSE(r.used_after_run_on);
  EXPECT_TRUE(r.used_a_quantum_later);
  EXPECT_EQ(r.stamp_after_catch_up - start, sc_time(11500, SC_PS));
  EXPECT_EQ(r.ps_after_catch_up, 1000u);  // 2500 ps of local time, 1500 of them waited
  EXPECT_EQ(r.ps_after_rebase, 0u);
  EXPECT_FALSE(r.used_after_rebase);
}

// Models that keep accesses by simulated time drop what no later access can
// see by earliest_arrival_ps: SystemC time, or while an initiator runs on
// alone, the time it ran on from -- in that process only, until it waits.
TEST(LocalTime, EarliestArrivalIsWhereAnInitiatorRunsOnFromWhileItIsAlone) {
  struct Results {
    uint64_t before_run_on = 0, alone = 0, alone_again = 0, other_process = 0, after_catch_up = 0, beside = 0;
    uint64_t systemc = 0, systemc_after_catch_up = 0;
  } r;
  sc_core::sc_event seen;
  RunAhead::bound(sc_time(100, SC_NS));
  sc_core::sc_spawn([&r, &seen] {
    sc_core::wait(seen);  // notified at once: runs in the same delta cycle as the initiator that ran on
    r.other_process = earliest_arrival_ps();
  });
  sc_core::sc_spawn([&r, &seen] {
    sc_core::wait(sc_core::SC_ZERO_TIME);  // after the process above waits
    LocalTime t;
    t.set_quantum(sc_time(1, SC_NS));
    t.add_ps(1500);
    r.systemc = systemc_ps();
    r.before_run_on = earliest_arrival_ps();
    t.run_on();
    r.alone = earliest_arrival_ps();
    t.add_ps(1000);
    t.run_on();
    r.alone_again = earliest_arrival_ps();
    seen.notify();
    t.catch_up();
    r.systemc_after_catch_up = systemc_ps();
    r.after_catch_up = earliest_arrival_ps();
    t.add_ps(1000);
    t.run_on_before(~0ull);  // beside waits that resume earlier: not alone
    r.beside = earliest_arrival_ps();
  });
  sc_core::sc_start(sc_time(100, SC_NS));

  EXPECT_EQ(r.before_run_on, r.systemc);
  EXPECT_EQ(r.alone, r.systemc + 1500);
  EXPECT_EQ(r.alone_again, r.systemc + 2500);
  EXPECT_EQ(r.other_process, r.systemc);
  EXPECT_EQ(r.systemc_after_catch_up, r.systemc + 2500);
  EXPECT_EQ(r.after_catch_up, r.systemc + 2500);
  EXPECT_EQ(r.beside, r.systemc + 2500);
}

// Beside waits a caller names (harts spinning in wait loops): each may be
// passed over up to its own limit, the others bound the run-on as always.
TEST(LocalTime, RunOnLimitPassesOverNamedWaitsUpToTheirLimits) {
  struct Case {
    std::vector<uint64_t> waits_ns;               // timed waits made before the check, from its start
    std::vector<RunAhead::Passable> passable_ns;  // from the check's start, in ns
    uint64_t limit_ns = 0;                        // the limit found, from the check's start (0: none)
    bool runs_on_at_1500_ps = false;
  };
  std::vector<Case> cases = {
      {{1}, {}, 1, false},                  // a wait due before the local time bounds it
      {{1}, {{1, 5}}, 5, true},             // named: passed over up to 5 ns
      {{1, 3}, {{1, 5}}, 3, true},          // beside another wait, due at 3 ns
      {{1}, {{1, 0}}, 1, false},            // a limit before its due time passes nothing
      {{2, 2}, {{2, 9}}, 0, false},         // two due together: no run-on at all
      {{1, 4}, {{1, 9}, {4, 6}}, 6, true},  // two named
  };
  for (Case& c : cases) {
    RunAhead::bound(sc_time(100, SC_NS));
    const uint64_t start = sc_core::sc_time_stamp().value();
    for (const uint64_t w : c.waits_ns) sc_core::sc_spawn([w] { sc_core::wait(sc_time(static_cast<double>(w), SC_NS)); });
    sc_core::sc_spawn([&c, start] {
      sc_core::wait(sc_core::SC_ZERO_TIME);  // after the waits above were made
      std::vector<RunAhead::Passable> passable;
      for (const RunAhead::Passable& p : c.passable_ns) passable.push_back({start + p.due_ps * 1000, start + p.before_ps * 1000});
      const uint64_t limit = RunAhead::run_on_limit(passable.data(), static_cast<unsigned>(passable.size()));
      c.limit_ns = limit ? (limit - start) / 1000 : 0;
      LocalTime t;
      t.set_quantum(sc_time(1, SC_NS));
      t.add_ps(1500);
      c.runs_on_at_1500_ps = t.run_on_before(limit);
    });
    const uint64_t want_limit = c.limit_ns;
    const bool want_run_on = c.runs_on_at_1500_ps;
    sc_core::sc_start(sc_time(100, SC_NS));
    EXPECT_EQ(c.limit_ns, want_limit) << "waits " << c.waits_ns.size() << ", named " << c.passable_ns.size();
    EXPECT_EQ(c.runs_on_at_1500_ps, want_run_on) << "waits " << c.waits_ns.size() << ", named " << c.passable_ns.size();
  }
}

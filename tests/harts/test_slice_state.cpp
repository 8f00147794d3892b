// A hart's state in the parallel quantum schedule (harts/slice_state.h):
// how a slice ends and what it leaves to the hart's thread, the quantum
// grid's boundaries, and the deferred Timing transactions' stall for a hart
// running on and for a parked one.
#include <gtest/gtest.h>

#include <mutex>
#include <stdexcept>

#include "harts/slice_state.h"

namespace {

using namespace avp;
using End = SliceState::End;

constexpr uint64_t kQuantum = 10000;  // ps

TEST(SliceStateTest, ASliceBeginsUnendedAndLeaves) {
  SliceState s;
  EXPECT_FALSE(s.in_slice());
  s.end_at_block();
  s.begin(true, true);
  EXPECT_TRUE(s.in_slice());
  EXPECT_EQ(s.end(), End::Serial);  // a slice that stops before its first block leaves the serial step
  s.leave();
  EXPECT_FALSE(s.in_slice());
  EXPECT_EQ(s.end(), End::Serial);
}

TEST(SliceStateTest, TakesTheSharedLockOnlyInASliceBesideOthers) {
  SliceState s;
  std::mutex shared;
  EXPECT_FALSE(s.lock(shared).owns_lock());  // the serial schedule: one host thread
  s.begin(false, false);
  EXPECT_FALSE(s.lock(shared).owns_lock());  // a slice alone in its batch
  s.begin(false, true);
  EXPECT_FALSE(s.lock(shared).owns_lock());  // several slices, all on one host thread
  s.leave();
  s.begin(true, true);
  {
    const auto lk = s.lock(shared);
    EXPECT_TRUE(lk.owns_lock());
    EXPECT_FALSE(shared.try_lock());
  }
  EXPECT_TRUE(shared.try_lock());  // released with its lock
  shared.unlock();
}

TEST(SliceStateTest, DefersTrafficOnlyInABatchWithOtherSlices) {
  SliceState s;
  EXPECT_FALSE(s.defers_traffic());  // the serial schedule times it in place
  s.begin(false, false);
  EXPECT_FALSE(s.defers_traffic());  // alone in its batch: in place, as serially
  s.begin(false, true);
  EXPECT_TRUE(s.defers_traffic());  // others in the batch, on one host thread or several alike
  s.begin(true, true);
  EXPECT_TRUE(s.defers_traffic());
  s.leave();
  EXPECT_FALSE(s.defers_traffic());
}

TEST(SliceStateTest, ResumesTheBlockTheLoopLeftAtTheGivenInstruction) {
  SliceState s;
  DecodedBlock a, b;
  s.begin(true, true);
  s.left(a);
  s.left(b);  // the last block left is the one to resume
  s.resume_at(3);
  EXPECT_EQ(s.end(), End::Resume);
  EXPECT_EQ(&s.resume_block(), &b);
  EXPECT_EQ(s.resume_index(), 3u);
  s.begin(true, true);
  s.left(a);  // a later slice's leaving does not move the resume point until it resumes
  EXPECT_EQ(&s.resume_block(), &b);
}

TEST(SliceStateTest, KeepsTheTrapAndTheError) {
  SliceState s;
  s.begin(true, true);
  s.trapped({13, 0x8000});
  EXPECT_EQ(s.end(), End::Trap);
  EXPECT_EQ(s.trap().cause, 13u);
  EXPECT_EQ(s.trap().tval, 0x8000u);
  s.begin(true, true);
  try {
    throw std::runtime_error("bus error in a slice");
  } catch (...) {
    s.failed(std::current_exception());
  }
  EXPECT_EQ(s.end(), End::Error);
  try {
    s.rethrow();
    FAIL() << "rethrow returned";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "bus error in a slice");
  }
}

TEST(SliceStateTest, ACodeWriteIsTakenOnce) {
  SliceState s;
  s.begin(true, true);
  EXPECT_FALSE(s.code_written());
  s.note_code_write(0x80001000, 4);
  EXPECT_TRUE(s.code_written());
  s.end_at_code_write();
  EXPECT_EQ(s.end(), End::Code);
  const auto [addr, len] = s.take_code_write();
  EXPECT_EQ(addr, 0x80001000u);
  EXPECT_EQ(len, 4u);
  EXPECT_FALSE(s.code_written());
}

TEST(SliceStateTest, GridBoundaryIsTheLastMultipleOfTheQuantumAheadOfNow) {
  SliceState s;
  // SystemC at 20000 ps, the hart 12500 ps ahead: the boundary at 30000, 2500 ps beyond it.
  EXPECT_EQ(s.grid_boundary(20000, 12500, kQuantum), 30000u);
  EXPECT_EQ(s.grid_ahead(), 2500u);
  // Exactly on a boundary: nothing beyond it.
  EXPECT_EQ(s.grid_boundary(20000, 20000, kQuantum), 40000u);
  EXPECT_EQ(s.grid_ahead(), 0u);
  // Several quanta ahead: the last boundary, not the next.
  EXPECT_EQ(s.grid_boundary(5000, 37000, kQuantum), 40000u);
  EXPECT_EQ(s.grid_ahead(), 2000u);
}

TEST(SliceStateTest, NoGridBoundaryAheadLeavesTheLastOne) {
  SliceState s;
  ASSERT_EQ(s.grid_boundary(20000, 12500, kQuantum), 30000u);
  // Still inside the quantum that began at 20000: no boundary after now.
  EXPECT_EQ(s.grid_boundary(20000, 9999, kQuantum), 0u);
  EXPECT_EQ(s.grid_boundary(25000, 0, kQuantum), 0u);
  EXPECT_EQ(s.grid_ahead(), 2500u);
}

TEST(SliceStateTest, OnlyAUsedQuantumAtABlockBoundaryWaitsForTheGrid) {
  SliceState s;
  s.begin(true, true);
  s.end_at_block();
  EXPECT_TRUE(s.only_grid_wait(true, false, false));
  EXPECT_FALSE(s.only_grid_wait(false, false, false));  // stopped at the instruction stop only
  EXPECT_FALSE(s.only_grid_wait(true, true, false));    // the limit is the thread's to report
  EXPECT_FALSE(s.only_grid_wait(true, false, true));    // the switch to timed is the thread's
  for (End e : {End::Serial, End::Resume, End::Trap, End::Code}) {
    s.begin(true, true);
    switch (e) {
      case End::Resume: {
        DecodedBlock b;
        s.left(b);
        s.resume_at(0);
        break;
      }
      case End::Trap:
        s.trapped({2, 0});
        break;
      case End::Code:
        s.end_at_code_write();
        break;
      default:
        break;
    }
    EXPECT_EQ(s.end(), e);
    EXPECT_FALSE(s.only_grid_wait(true, false, false)) << static_cast<int>(e);
  }
}

TEST(SliceStateTest, DeferredTrafficIsKeptInOrderUntilReplayed) {
  SliceState s;
  s.defer({0x80000000, 64, false, false, true}, 1000);
  s.defer({0x80000040, 64, true, false, false}, 1500);
  ASSERT_EQ(s.deferred().size(), 2u);
  EXPECT_EQ(s.deferred()[0].pa, 0x80000000u);
  EXPECT_EQ(s.deferred()[0].offset_ps, 1000u);
  EXPECT_TRUE(s.deferred()[1].write);
  EXPECT_FALSE(s.deferred()[1].waits);
  EXPECT_EQ(s.deferred()[1].offset_ps, 1500u);
  EXPECT_EQ(s.replayed(700, false), 700u);  // a hart running on stalls now
  EXPECT_TRUE(s.deferred().empty());
}

TEST(SliceStateTest, AParkedHartTakesItsReplayedStallWhenUnparked) {
  SliceState s;
  ASSERT_EQ(s.grid_boundary(0, 10300, kQuantum), 10000u);
  s.defer({0x80000000, 64, false, false, true}, 10300);
  EXPECT_EQ(s.replayed(400, true), 0u);
  s.defer({0x80000080, 64, false, false, true}, 10300);
  EXPECT_EQ(s.replayed(250, true), 0u);  // two replays before the boundary add up
  EXPECT_EQ(s.unpark_ahead(), 300u + 400u + 250u);
  EXPECT_EQ(s.unpark_ahead(), 300u);  // the stall is taken once
}

}  // namespace

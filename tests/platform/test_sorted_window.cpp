// SortedWindow: entries by key, inserted near the end, dropped from the front.
#include <gtest/gtest.h>

#include "base/sorted_window.h"

namespace avp {
namespace {

struct Entry {
  uint64_t time;
  int tag;
};
using Window = SortedWindow<Entry, &Entry::time>;

TEST(SortedWindow, BoundsFollowTheKeysWithEqualKeysInInsertionOrder) {
  Window w;
  EXPECT_EQ(w.lower_bound(5), w.end());
  for (int i = 0; i < 4; ++i) w.insert(w.upper_bound(10 * i), Entry{10u * i, i});
  w.insert(w.upper_bound(10), Entry{10, 9});  // after the other entry at 10
  EXPECT_EQ(w.size(), 5u);
  EXPECT_EQ(w[w.lower_bound(10)].tag, 1);
  EXPECT_EQ(w[w.upper_bound(10) - 1].tag, 9);
  EXPECT_EQ(w[w.lower_bound(11)].time, 20u);
  EXPECT_EQ(w.upper_bound(30), w.end());  // after every entry: no search
  EXPECT_EQ(w.lower_bound(0), w.first());
}

TEST(SortedWindow, DroppedEntriesAreOutsideEveryBoundAndTheFrontIsCompacted) {
  Window w;
  for (uint64_t t = 0; t < 8; ++t) w.insert(w.end(), Entry{t, static_cast<int>(t)});
  w.drop_before(w.lower_bound(3));  // 3 of 8 dropped: skipped, not yet compacted
  EXPECT_EQ(w.first(), 3u);
  EXPECT_EQ(w.size(), 5u);
  EXPECT_EQ(w.lower_bound(0), w.first());
  w.drop_before(w.lower_bound(5));  // 5 of 8 dropped: compacted
  EXPECT_EQ(w.first(), 0u);
  EXPECT_EQ(w.size(), 3u);
  EXPECT_EQ(w[w.first()].time, 5u);
  w.erase(w.lower_bound(6));
  EXPECT_EQ(w[w.upper_bound(5)].time, 7u);
}

}  // namespace
}  // namespace avp

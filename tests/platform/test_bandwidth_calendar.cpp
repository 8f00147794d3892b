// The port bandwidth calendar: a transfer takes the port's free time from its
// arrival on, whatever order the simulation issues transfers in.
#include <gtest/gtest.h>

#include "interconnect/bandwidth_calendar.h"

using avp::BandwidthCalendar;

TEST(BandwidthCalendar, InOrderTransfersQueueLikeABusyUntilPort) {
  BandwidthCalendar c;
  EXPECT_EQ(c.reserve(0, 10), 10u);
  EXPECT_EQ(c.reserve(0, 10), 20u);  // waits for the first
  EXPECT_EQ(c.reserve(5, 10), 30u);
  EXPECT_EQ(c.reserve(100, 10), 110u);  // the port was idle
  EXPECT_EQ(c.intervals(), 2u);         // [0, 30) merged, [100, 110)
}

TEST(BandwidthCalendar, AnEarlierTransferIssuedLaterUsesTheGapsBeforeLaterReservations) {
  BandwidthCalendar c;
  // An initiator ran ahead and reserved slots at 100 and 200.
  c.reserve(100, 10);
  c.reserve(200, 10);
  // Another one, simulated next, arrives earlier: it does not queue behind them.
  EXPECT_EQ(c.reserve(0, 10), 10u);
  EXPECT_EQ(c.reserve(95, 10), 115u);   // 5 in [95, 100), the other 5 after [100, 110)
  EXPECT_EQ(c.reserve(150, 50), 200u);  // exactly fills [150, 200)
  EXPECT_EQ(c.reserve(150, 1), 211u);   // [150, 210) is busy throughout
  EXPECT_EQ(c.intervals(), 3u);         // [0, 10), [95, 115), [150, 211)
}

TEST(BandwidthCalendar, ForgettingThePastKeepsLaterReservations) {
  BandwidthCalendar c;
  c.reserve(0, 10);
  c.reserve(50, 10);
  c.forget_before(20);
  EXPECT_EQ(c.intervals(), 1u);
  EXPECT_EQ(c.reserve(55, 1), 61u);
}

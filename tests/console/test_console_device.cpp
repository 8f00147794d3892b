// The console device alone: per-hart lines emitted on '\n', FLUSH, the line
// limit and the end of the simulation, with the time of the completing write;
// STATUS; and every kind of misuse answered with its error response.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "base/payload.h"
#include "base/unit.h"
#include "console/console_device.h"
#include "console/console_regs.h"

using namespace avp;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

struct Line {
  unsigned hart;
  sc_time when;
  std::string text;
};

struct Bench : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Bench> init{"init"};
  std::vector<Line> lines;
  ConsoleDevice console;
  explicit Bench(sc_core::sc_module_name name = "bench")
      : sc_module(name),
        console("console", 4, [this](unsigned h, const sc_time& t, const std::string& s) { lines.push_back({h, t, s}); }) {
    init.bind(console.socket);
  }
  tlm::tlm_response_status access(UnitId unit, tlm::tlm_command cmd, uint64_t off, uint32_t& v, unsigned len = 4,
                                  sc_time delay = sc_core::SC_ZERO_TIME) {
    tlm::tlm_generic_payload gp;
    set_unit(gp, unit);
    prepare_payload(gp, cmd, off, &v, len);
    init->b_transport(gp, delay);
    last_delay = delay;
    return gp.get_response_status();
  }
  void put(unsigned hart, const std::string& s, sc_time delay = sc_core::SC_ZERO_TIME) {
    for (char c : s) {
      uint32_t v = static_cast<unsigned char>(c);
      ASSERT_EQ(access(make_unit(UnitKind::Hart, hart), tlm::TLM_WRITE_COMMAND, AVP_CONSOLE_TXDATA, v, 4, delay),
                tlm::TLM_OK_RESPONSE);
    }
  }
  uint32_t status(unsigned hart) {
    uint32_t v = 0;
    EXPECT_EQ(access(make_unit(UnitKind::Hart, hart), tlm::TLM_READ_COMMAND, AVP_CONSOLE_STATUS, v), tlm::TLM_OK_RESPONSE);
    return v;
  }
  sc_time last_delay;
};

}  // namespace

TEST(ConsoleDevice, InterleavedHartsGetWholeLinesWithTheTimeOfTheNewline) {
  Bench b;
  b.put(1, "he");
  b.put(2, "other ");
  b.put(1, "llo");
  EXPECT_TRUE(b.lines.empty());
  EXPECT_EQ(b.status(1), AVP_CONSOLE_STATUS_READY | 5u);
  b.put(1, "\n", sc_time(40, SC_NS));
  b.put(2, "line\n", sc_time(70, SC_NS));
  ASSERT_EQ(b.lines.size(), 2u);
  EXPECT_EQ(b.lines[0].hart, 1u);
  EXPECT_EQ(b.lines[0].text, "hello");
  EXPECT_EQ(b.lines[0].when, sc_time(42, SC_NS));  // annotated delay + the 2 ns access latency
  EXPECT_EQ(b.lines[1].hart, 2u);
  EXPECT_EQ(b.lines[1].text, "other line");
  EXPECT_EQ(b.lines[1].when, sc_time(72, SC_NS));
  EXPECT_EQ(b.status(1), AVP_CONSOLE_STATUS_READY);
  EXPECT_EQ(b.last_delay, sc_time(2, SC_NS));
}

TEST(ConsoleDevice, FlushEmitsPendingBytesOnly) {
  Bench b;
  uint32_t v = 1;
  const UnitId hart0 = make_unit(UnitKind::Hart, 0);
  EXPECT_EQ(b.access(hart0, tlm::TLM_WRITE_COMMAND, AVP_CONSOLE_FLUSH, v), tlm::TLM_OK_RESPONSE);
  EXPECT_TRUE(b.lines.empty());  // nothing pending: no empty line
  b.put(0, "no newline");
  EXPECT_EQ(b.access(hart0, tlm::TLM_WRITE_COMMAND, AVP_CONSOLE_FLUSH, v), tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(b.lines.size(), 1u);
  EXPECT_EQ(b.lines[0].text, "no newline");
  b.put(0, "\n");  // an empty line is still a line
  ASSERT_EQ(b.lines.size(), 2u);
  EXPECT_EQ(b.lines[1].text, "");
}

TEST(ConsoleDevice, LongLinesAreSplitAtTheLimit) {
  Bench b;
  b.put(3, std::string(AVP_CONSOLE_LINE_MAX + 5, 'x'));
  ASSERT_EQ(b.lines.size(), 1u);
  EXPECT_EQ(b.lines[0].text.size(), AVP_CONSOLE_LINE_MAX);
  EXPECT_EQ(b.console.pending(3), "xxxxx");
}

TEST(ConsoleDevice, PendingBytesBecomeALineAtTheEndOfTheSimulation) {
  Bench b;
  b.put(2, "unterminated");
  sc_core::sc_start(sc_time(5, SC_NS));
  EXPECT_TRUE(b.lines.empty());
  sc_core::sc_stop();  // runs the end-of-simulation callbacks, as a workload's end does
  ASSERT_EQ(b.lines.size(), 1u);
  EXPECT_EQ(b.lines[0].hart, 2u);
  EXPECT_EQ(b.lines[0].text, "unterminated");
}

TEST(ConsoleDevice, MisuseGetsErrorResponses) {
  Bench b;
  const UnitId hart0 = make_unit(UnitKind::Hart, 0);
  uint32_t v = 'x';
  EXPECT_EQ(b.access(hart0, tlm::TLM_WRITE_COMMAND, AVP_CONSOLE_TXDATA, v, 1), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(b.access(hart0, tlm::TLM_WRITE_COMMAND, AVP_CONSOLE_TXDATA + 2, v, 4), tlm::TLM_BURST_ERROR_RESPONSE);
  EXPECT_EQ(b.access(hart0, tlm::TLM_READ_COMMAND, AVP_CONSOLE_TXDATA, v), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(b.access(hart0, tlm::TLM_READ_COMMAND, AVP_CONSOLE_FLUSH, v), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(b.access(hart0, tlm::TLM_WRITE_COMMAND, AVP_CONSOLE_STATUS, v), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(b.access(hart0, tlm::TLM_WRITE_COMMAND, 0x20, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.access(kHostUnit, tlm::TLM_WRITE_COMMAND, AVP_CONSOLE_TXDATA, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.access(make_unit(UnitKind::Hart, 4), tlm::TLM_WRITE_COMMAND, AVP_CONSOLE_TXDATA, v),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);  // beyond the harts the console was built for
  EXPECT_TRUE(b.lines.empty());
  EXPECT_EQ(b.console.pending(0), "");
}

// The system devices alone, through TLM as a hart would reach them: CLINT
// (mtime at its frequency, MTIP at the simulated time mtime reaches
// mtimecmp, MSIP), PLIC (priorities, enables, thresholds, claim/complete),
// the NS16550A UART (loopback receive, interrupts) and the power-off device,
// with their error responses.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "base/params.h"
#include "base/payload.h"
#include "base/stable_read.h"
#include "base/stats.h"
#include "harts/hart_state.h"
#include "sysdev/clint.h"
#include "sysdev/plic.h"
#include "sysdev/poweroff_device.h"
#include "sysdev/sysdev_regs.h"
#include "sysdev/uart16550.h"
#include "sysdev/uart_backend.h"

using namespace avp;
using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

struct IrqEvent {
  unsigned hart, irq;
  bool level;
  sc_time when;
};

// Records every line change under the hart and mip bit the platform wires the line to (system_devices.cpp).
void record_lines(Clint& clint, std::vector<IrqEvent>& ev) {
  for (unsigned h = 0; h < clint.harts(); ++h) {
    clint.msip[h].bind([&ev, h](bool l) { ev.push_back({h, rv::kMSI, l, sc_core::sc_time_stamp()}); });
    clint.mtip[h].bind([&ev, h](bool l) { ev.push_back({h, rv::kMTI, l, sc_core::sc_time_stamp()}); });
  }
}

void record_lines(Plic& plic, std::vector<IrqEvent>& ev) {
  for (unsigned c = 0; c < plic.contexts(); ++c)
    plic.context[c].bind([&ev, c](bool l) { ev.push_back({c / 2, (c & 1) ? rv::kSEI : rv::kMEI, l, sc_core::sc_time_stamp()}); });
}

template <typename Device>
struct Bench : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Bench> init{"init"};
  Device& dev;
  Bench(Device& d) : sc_module("bench"), dev(d) { init.bind(d.socket); }
  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t off, void* v, unsigned len, sc_time delay = sc_core::SC_ZERO_TIME) {
    tlm::tlm_generic_payload gp;
    prepare_payload(gp, cmd, off, v, len);
    init->b_transport(gp, delay);
    return gp.get_response_status();
  }
  template <typename T>
  T rd(uint64_t off, sc_time delay = sc_core::SC_ZERO_TIME) {
    T v{};
    EXPECT_EQ(access(tlm::TLM_READ_COMMAND, off, &v, sizeof v, delay), tlm::TLM_OK_RESPONSE) << "offset 0x" << std::hex << off;
    return v;
  }
  // A stable-read probe (base/stable_read.h) of `len` bytes at `off`: the answer, the value in `v`.
  StableReadExtension probe(uint64_t off, unsigned len, uint64_t& v) {
    tlm::tlm_generic_payload gp;
    v = 0;
    prepare_payload(gp, tlm::TLM_READ_COMMAND, off, &v, len);
    StableReadExtension s;
    gp.set_extension(&s);
    if (init->transport_dbg(gp) != len) s.answer = StableReadExtension::Unstable;
    gp.clear_extension(&s);
    return s;
  }
  void repeat(uint64_t off, unsigned len, uint64_t times) {
    tlm::tlm_generic_payload gp;
    uint64_t v = 0;
    prepare_payload(gp, tlm::TLM_READ_COMMAND, off, &v, len);
    StableReadExtension s;
    s.kind = StableReadExtension::Repeat;
    s.times = times;
    gp.set_extension(&s);
    EXPECT_EQ(init->transport_dbg(gp), len);
    gp.clear_extension(&s);
  }
  template <typename T>
  void wr(uint64_t off, T v, sc_time delay = sc_core::SC_ZERO_TIME) {
    EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, off, &v, sizeof v, delay), tlm::TLM_OK_RESPONSE) << "offset 0x" << std::hex << off;
  }
};

// A TCP client of a "tcp:0" backend (its description ends with the port it listens on).
int dial_backend(const UartBackend& tcp) {
  const std::string d = tcp.description();
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(std::stoi(d.substr(d.rfind(' ') + 1))));
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  return fd;
}

}  // namespace

TEST(Clint, MtimeCountsAtItsFrequencyAndTheTimerFiresWhenItReachesMtimecmp) {
  ParamRegistry::instance().add_preset("clint.frequency", "10000000", "test");  // 10 MHz: one tick per 100 ns
  Clint clint("clint", 2);
  Bench<Clint> b(clint);
  std::vector<IrqEvent> ev;
  record_lines(clint, ev);
  EXPECT_EQ(b.rd<uint64_t>(AVP_CLINT_MTIME), 0u);
  EXPECT_EQ(b.rd<uint64_t>(AVP_CLINT_MTIMECMP(1)), ~0ull);  // reset value: never
  sc_core::sc_start(sc_time(1, SC_US));
  EXPECT_EQ(b.rd<uint64_t>(AVP_CLINT_MTIME), 10u);
  EXPECT_EQ(b.rd<uint64_t>(AVP_CLINT_MTIME, sc_time(250, SC_NS)), 12u);  // at the access's local time
  EXPECT_EQ(clint.mtime_at(sc_time(2, SC_US)), 20u);
  b.wr<uint64_t>(AVP_CLINT_MTIMECMP(1), 35);  // reached at 3.5 us
  EXPECT_TRUE(ev.empty());
  sc_core::sc_start(sc_time(3, SC_US));
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].hart, 1u);
  EXPECT_EQ(ev[0].irq, static_cast<unsigned>(rv::kMTI));
  EXPECT_TRUE(ev[0].level);
  EXPECT_EQ(ev[0].when, sc_time(3500, SC_NS));
  b.wr<uint32_t>(AVP_CLINT_MTIMECMP(1) + 4, 1);  // upper half: far in the future, the line drops at once
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_FALSE(ev[1].level);
  EXPECT_EQ(b.rd<uint64_t>(AVP_CLINT_MTIMECMP(1)), (1ull << 32) | 35);
  // Writing mtime moves the counter (and the deadline with it).
  b.wr<uint64_t>(AVP_CLINT_MTIME, 1000);
  EXPECT_EQ(b.rd<uint64_t>(AVP_CLINT_MTIME), 1000u);
  b.wr<uint64_t>(AVP_CLINT_MTIMECMP(0), 1001);
  sc_core::sc_start(sc_time(150, SC_NS));
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev[2].hart, 0u);
  EXPECT_EQ(ev[2].when, sc_time(4000 + 100, SC_NS));
}

TEST(Clint, MsipRaisesAndClearsTheSoftwareInterruptAndBadAccessesFail) {
  Clint clint("clint", 3);
  Bench<Clint> b(clint);
  std::vector<IrqEvent> ev;
  record_lines(clint, ev);
  b.wr<uint32_t>(AVP_CLINT_MSIP(2), 0xFFFFFFFF);
  EXPECT_EQ(b.rd<uint32_t>(AVP_CLINT_MSIP(2)), 1u);  // bits 31:1 read as zero
  b.wr<uint32_t>(AVP_CLINT_MSIP(2), 0);
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_EQ(ev[0].irq, static_cast<unsigned>(rv::kMSI));
  EXPECT_TRUE(ev[0].level);
  EXPECT_FALSE(ev[1].level);
  uint32_t v = 1;
  EXPECT_EQ(b.access(tlm::TLM_WRITE_COMMAND, AVP_CLINT_MSIP(3), &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // no hart 3
  EXPECT_EQ(b.access(tlm::TLM_READ_COMMAND, AVP_CLINT_MTIMECMP(3), &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(b.access(tlm::TLM_READ_COMMAND, 0x2, &v, 2), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // 16-bit access
  EXPECT_EQ(b.access(tlm::TLM_READ_COMMAND, 0x8000, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// What a hart polling a register may skip (docs/harts.md, "Polling loops"):
// mtime (64-bit) is a clock sampled after the access latency, MSIP and
// MTIMECMP are constant, half of mtime is neither; skipped reads are counted.
TEST(Clint, DeclaresMtimeAClockAndTheOtherRegistersConstant) {
  Clint clint("clint_stable", 2);
  Bench<Clint> b(clint);
  b.wr<uint64_t>(AVP_CLINT_MTIMECMP(1), 77);
  uint64_t v = 0;
  StableReadExtension s = b.probe(AVP_CLINT_MTIME, 8, v);
  ASSERT_EQ(s.answer, StableReadExtension::Clock);
  EXPECT_EQ(s.delay, clint.access_latency.get());
  EXPECT_EQ(s.clock->value_at(sc_time(1234, SC_NS)), clint.mtime_at(sc_time(1234, SC_NS)));
  EXPECT_EQ(b.probe(AVP_CLINT_MTIMECMP(1), 8, v).answer, StableReadExtension::Constant);
  EXPECT_EQ(v, 77u);
  EXPECT_EQ(b.probe(AVP_CLINT_MSIP(0), 4, v).answer, StableReadExtension::Constant);
  EXPECT_EQ(b.probe(AVP_CLINT_MTIME, 4, v).answer, StableReadExtension::Unstable);  // half a clock
  EXPECT_EQ(b.probe(0x8000, 4, v).answer, StableReadExtension::Unstable);            // no register
  const Counter* accesses = dynamic_cast<const Counter*>(StatRegistry::instance().find("clint_stable.accesses"));
  ASSERT_NE(accesses, nullptr);
  const uint64_t before = accesses->value();
  b.repeat(AVP_CLINT_MTIME, 8, 40);
  EXPECT_EQ(accesses->value(), before + 40);
}

// LSR is constant until a byte arrives or is read; RBR and IIR reads have effects.
TEST(Uart, DeclaresTheLineStatusConstantAndReceiveAndInterruptIdentificationNot) {
  Uart16550 uart("uart_stable");
  Bench<Uart16550> b(uart);
  uint64_t v = 0;
  EXPECT_EQ(b.probe(AVP_UART_LSR, 1, v).answer, StableReadExtension::Constant);
  EXPECT_EQ(v, AVP_UART_LSR_THRE | AVP_UART_LSR_TEMT);
  EXPECT_EQ(b.probe(AVP_UART_MCR, 4, v).answer, StableReadExtension::Constant);  // a wider aligned read
  EXPECT_EQ(b.probe(AVP_UART_LSR, 4, v).answer, StableReadExtension::Unstable);  // misaligned: an error
  EXPECT_EQ(b.probe(AVP_UART_RBR, 1, v).answer, StableReadExtension::Unstable);
  EXPECT_EQ(b.probe(AVP_UART_IIR, 1, v).answer, StableReadExtension::Unstable);
  EXPECT_EQ(b.probe(AVP_UART_LSR + 8, 1, v).answer, StableReadExtension::Unstable);
  b.wr<uint8_t>(AVP_UART_MCR, AVP_UART_MCR_LOOP);
  b.wr<uint8_t>(AVP_UART_THR, 'k');  // received in loopback: DR is set from now on
  EXPECT_EQ(b.probe(AVP_UART_LSR, 1, v).answer, StableReadExtension::Constant);
  EXPECT_EQ(v & AVP_UART_LSR_DR, AVP_UART_LSR_DR);
  b.wr<uint8_t>(AVP_UART_LCR, AVP_UART_LCR_DLAB);
  EXPECT_EQ(b.probe(AVP_UART_RBR, 1, v).answer, StableReadExtension::Constant);  // the divisor latch
}

TEST(Plic, ClaimGivesTheHighestPriorityAboveTheThresholdAndCompleteRearmsALevel) {
  Plic plic("plic", 2);
  Bench<Plic> b(plic);
  std::vector<IrqEvent> ev;
  record_lines(plic, ev);
  const unsigned m1 = 2, s1 = 3;  // contexts of hart 1
  b.wr<uint32_t>(AVP_PLIC_PRIORITY(3), 2);
  b.wr<uint32_t>(AVP_PLIC_PRIORITY(5), 6);
  b.wr<uint32_t>(AVP_PLIC_PRIORITY(0), 7);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_PRIORITY(0)), 0u);  // source 0 does not exist
  b.wr<uint32_t>(AVP_PLIC_PRIORITY(6), 0xFF);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_PRIORITY(6)), 7u);  // 3 bits
  plic.set_source(3, true);
  plic.set_source(5, true);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_PENDING), (1u << 3) | (1u << 5));
  EXPECT_TRUE(ev.empty());  // nothing enabled
  b.wr<uint32_t>(AVP_PLIC_ENABLE(s1), (1u << 3) | (1u << 5) | 1u);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_ENABLE(s1)), (1u << 3) | (1u << 5));
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].hart, 1u);
  EXPECT_EQ(ev[0].irq, static_cast<unsigned>(rv::kSEI));
  EXPECT_TRUE(ev[0].level);
  b.wr<uint32_t>(AVP_PLIC_THRESHOLD(s1), 6);  // priority 6 is not above 6
  ASSERT_EQ(ev.size(), 2u);
  EXPECT_FALSE(ev[1].level);
  b.wr<uint32_t>(AVP_PLIC_THRESHOLD(s1), 1);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_CLAIM(s1)), 5u);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_CLAIM(s1)), 3u);  // 5 is in service
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_CLAIM(s1)), 0u);
  EXPECT_FALSE(ev.back().level);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_CLAIM(m1)), 0u);  // the M context enables nothing
  plic.set_source(3, false);
  b.wr<uint32_t>(AVP_PLIC_CLAIM(s1), 3);  // completed, line low: not pending again
  b.wr<uint32_t>(AVP_PLIC_CLAIM(s1), 5);  // completed, line still high: pending again
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_PENDING), 1u << 5);
  EXPECT_TRUE(ev.back().level);
  // Completing a source the context does not enable is ignored.
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_CLAIM(s1)), 5u);
  b.wr<uint32_t>(AVP_PLIC_CLAIM(m1), 5);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_PENDING), 0u);
  uint32_t v = 0;
  EXPECT_EQ(b.access(tlm::TLM_READ_COMMAND, AVP_PLIC_THRESHOLD(4), &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // 2 harts: 4 contexts
  EXPECT_EQ(b.access(tlm::TLM_READ_COMMAND, AVP_PLIC_PRIORITY(1), &v, 2), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(Plic, APulseIsLatchedUntilClaimed) {
  Plic plic("plic", 1);
  Bench<Plic> b(plic);
  b.wr<uint32_t>(AVP_PLIC_PRIORITY(2), 1);
  b.wr<uint32_t>(AVP_PLIC_ENABLE(0), 1u << 2);
  plic.pulse_source(2);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_CLAIM(0)), 2u);
  plic.pulse_source(2);  // in service: dropped
  b.wr<uint32_t>(AVP_PLIC_CLAIM(0), 2);
  EXPECT_EQ(b.rd<uint32_t>(AVP_PLIC_CLAIM(0)), 0u);
}

TEST(Uart, TransmitsReceivesInLoopbackAndSignalsInterrupts) {
  Uart16550 uart("uart");
  Bench<Uart16550> b(uart);
  std::vector<bool> lines;
  uart.irq.bind([&](bool level) { lines.push_back(level); });
  EXPECT_EQ(b.rd<uint8_t>(AVP_UART_LSR), AVP_UART_LSR_THRE | AVP_UART_LSR_TEMT);
  EXPECT_EQ(b.rd<uint8_t>(AVP_UART_IIR), 0x01);  // no interrupt
  b.wr<uint8_t>(AVP_UART_MCR, AVP_UART_MCR_LOOP);
  b.wr<uint8_t>(AVP_UART_IER, AVP_UART_IER_RDA);
  b.wr<uint8_t>(AVP_UART_THR, 'k');
  EXPECT_EQ(uart.transmitted(), "k");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0]);
  EXPECT_EQ(b.rd<uint8_t>(AVP_UART_IIR), 0x04);  // received data available
  EXPECT_EQ(b.rd<uint8_t>(AVP_UART_LSR) & AVP_UART_LSR_DR, AVP_UART_LSR_DR);
  EXPECT_EQ(b.rd<uint8_t>(AVP_UART_RBR), 'k');
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_FALSE(lines[1]);
  // THR-empty interrupt: raised when enabled with THR empty, cleared by reading IIR.
  b.wr<uint8_t>(AVP_UART_IER, AVP_UART_IER_THRE);
  EXPECT_TRUE(lines.back());
  EXPECT_EQ(b.rd<uint8_t>(AVP_UART_IIR), 0x02);
  EXPECT_FALSE(lines.back());
  // Divisor latch: DLAB switches registers 0 and 1.
  b.wr<uint8_t>(AVP_UART_LCR, AVP_UART_LCR_DLAB | 3);
  b.wr<uint8_t>(AVP_UART_THR, 0x12);
  EXPECT_EQ(b.rd<uint8_t>(AVP_UART_RBR), 0x12);
  EXPECT_EQ(uart.transmitted(), "k");
  uint8_t v = 0;
  EXPECT_EQ(b.access(tlm::TLM_READ_COMMAND, 8, &v, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_THROW(uart.connect("serial:9"), std::runtime_error);
  EXPECT_THROW(uart.connect("tcp:99999"), std::runtime_error);
}

// A firmware printing in a loop: the lines kept (for the manifest) are capped
// in number and length, the rest counted.
TEST(Uart, KeepsAtMostItsCapsOfOutputAndCountsTheRest) {
  Uart16550 uart("uart_caps");
  Bench<Uart16550> b(uart);
  b.wr<uint8_t>(AVP_UART_MCR, AVP_UART_MCR_LOOP);  // nothing to the backend
  for (size_t i = 0; i < 2 * Uart16550::kKeptChars; ++i) b.wr<uint8_t>(AVP_UART_THR, 'y');
  for (size_t i = 0; i < Uart16550::kKeptLines + 5; ++i) b.wr<uint8_t>(AVP_UART_THR, '\n');
  ASSERT_EQ(uart.lines().size(), Uart16550::kKeptLines);
  EXPECT_EQ(uart.lines()[0].text, std::string(Uart16550::kKeptChars, 'y'));
  EXPECT_EQ(uart.lines_dropped(), 5u);
  EXPECT_EQ(uart.transmitted().size(), 2 * Uart16550::kKeptChars + Uart16550::kKeptLines + 5);
}

// A TCP client that disconnects while the firmware prints: no SIGPIPE (which
// would end the simulator with no message), the UART waits for the next
// client, which gets what is printed after it connects.
TEST(UartBackend, TcpClientThatDisconnectsIsDroppedAndTheNextOneServed) {
  UartBackend tcp("tcp:0");
  const auto dial = [&] { return dial_backend(tcp); };
  int fd = dial();
  tcp.put('a');
  char c = 0;
  ASSERT_EQ(recv(fd, &c, 1, 0), 1);
  EXPECT_EQ(c, 'a');
  const linger hard{1, 0};  // the peer resets the connection: later sends fail with EPIPE/ECONNRESET
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
  close(fd);
  for (int i = 0; i < 1000; ++i) tcp.put('x');  // reaches here only without SIGPIPE
  fd = dial();
  tcp.put('b');
  ASSERT_EQ(recv(fd, &c, 1, 0), 1);
  EXPECT_EQ(c, 'b');
  close(fd);
}

// Live input (here a TCP client) that has nothing for 100 looks in a row is
// looked at every idle_poll_interval (1 ms) instead of every poll_interval
// (10 us), until a look finds some: a key typed then is received at the next
// look on the 1 ms grid, and looks go back to every 10 us. An idle interval
// below the poll interval is a parameter error.
TEST(Uart, LiveInputIdleForAHundredLooksIsLookedAtEveryMillisecond) {
  ParamRegistry::instance().clear_presets();
  ParamRegistry::instance().load_yaml_text("uart_slow:\n  idle_poll_interval: 5 us\n", "test.yaml");
  EXPECT_THROW(Uart16550("uart_slow"), ParamError);  // before the simulation starts: no module after that
  ParamRegistry::instance().clear_presets();

  Uart16550 uart("uart_idle");
  Bench<Uart16550> b(uart);
  uart.connect("tcp:0");
  const int fd = dial_backend(uart.backend());
  std::vector<sc_time> raised;
  uart.irq.bind([&](bool level) {
    if (level) raised.push_back(sc_core::sc_time_stamp());
  });
  const sc_time start = sc_core::sc_time_stamp();
  b.wr<uint8_t>(AVP_UART_IER, AVP_UART_IER_RDA);
  sc_core::sc_start(sc_time(5000, SC_US));  // looks at 0, 10, .., 990 us, then 1990, 2990, 3990, 4990 us
  const auto type = [&](char c) {
    ASSERT_EQ(send(fd, &c, 1, 0), 1);
    usleep(3000);  // the backend asks the socket at most once per host millisecond while it had nothing
  };
  type('a');
  sc_core::sc_start(sc_time(1500, SC_US));
  ASSERT_EQ(raised.size(), 1u);
  EXPECT_EQ(raised[0] - start, sc_time(5990, SC_US));
  EXPECT_EQ(b.rd<uint8_t>(AVP_UART_RBR), 'a');
  type('b');  // looks are every 10 us again after the one that found input
  sc_core::sc_start(sc_time(15, SC_US));
  ASSERT_EQ(raised.size(), 2u);
  EXPECT_LT(raised[1] - start, sc_time(6500, SC_US) + sc_time(15, SC_US));
  close(fd);

}

TEST(PowerOff, PassFailAndResetEndTheRunWithTheirCodes) {
  PowerOffDevice dev("poweroff");
  Bench<PowerOffDevice> b(dev);
  std::vector<std::pair<int, std::string>> ends;
  dev.on_poweroff = [&](int code, const std::string& what, const sc_time&) { ends.push_back({code, what}); };
  b.wr<uint32_t>(0, AVP_POWEROFF_PASS);
  b.wr<uint32_t>(0, (42u << 16) | AVP_POWEROFF_FAIL);
  b.wr<uint32_t>(0, AVP_POWEROFF_RESET);
  ASSERT_EQ(ends.size(), 3u);
  EXPECT_EQ(ends[0], std::make_pair(0, std::string("power off")));
  EXPECT_EQ(ends[1], std::make_pair(42, std::string("power off")));
  EXPECT_EQ(ends[2], std::make_pair(0, std::string("reset")));
  uint32_t v = 0x1234;
  EXPECT_EQ(b.access(tlm::TLM_WRITE_COMMAND, 0, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  v = AVP_POWEROFF_PASS;
  EXPECT_EQ(b.access(tlm::TLM_WRITE_COMMAND, 4, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(ends.size(), 3u);
}

// OpenSBI's SiFive test driver writes 16 bits; QEMU's sifive_test takes 16- and 32-bit accesses.
TEST(PowerOff, SixteenBitWritesAsFirmwareDoes) {
  PowerOffDevice dev("poweroff16");
  Bench<PowerOffDevice> b(dev);
  std::vector<std::pair<int, std::string>> ends;
  dev.on_poweroff = [&](int code, const std::string& what, const sc_time&) { ends.push_back({code, what}); };
  b.wr<uint16_t>(0, AVP_POWEROFF_PASS);
  b.wr<uint16_t>(0, AVP_POWEROFF_FAIL);  // no code bits: still a failure
  b.wr<uint32_t>(0, AVP_POWEROFF_FAIL);
  b.wr<uint16_t>(0, AVP_POWEROFF_RESET);
  ASSERT_EQ(ends.size(), 4u);
  EXPECT_EQ(ends[0], std::make_pair(0, std::string("power off")));
  EXPECT_EQ(ends[1], std::make_pair(1, std::string("power off")));
  EXPECT_EQ(ends[2], std::make_pair(1, std::string("power off")));
  EXPECT_EQ(ends[3], std::make_pair(0, std::string("reset")));
  EXPECT_EQ(b.rd<uint16_t>(0), 0);
  uint8_t byte = 0x55;
  EXPECT_EQ(b.access(tlm::TLM_WRITE_COMMAND, 0, &byte, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  uint64_t wide = AVP_POWEROFF_PASS;
  EXPECT_EQ(b.access(tlm::TLM_WRITE_COMMAND, 0, &wide, 8), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(ends.size(), 4u);
}

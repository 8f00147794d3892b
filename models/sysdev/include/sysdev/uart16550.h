// NS16550A-compatible UART (byte registers, sysdev_regs.h) on a UartBackend.
// Transmission is immediate (THR is always empty again after a write); the
// 16-byte receive FIFO is filled from the backend every `poll_interval` of
// simulated time while a backend with input is connected, and every
// `idle_poll_interval` once 100 looks in a row found nothing to receive (only
// live input can have nothing yet: a file gives bytes or its end), until one
// finds some. Bytes wait on the host side until the FIFO has room, so input
// is never overrun or lost.
// Interrupts (received data, THR empty) drive `irq` (a PLIC source).
// Reads of every register but RBR (which takes a byte) and IIR (which
// clears the THR-empty indication) are constant between two effects
// (base/stable_read.h): LSR's DR changes only as bytes arrive (poll_thread) or
// are read, and THRE/TEMT are always set, as transmission is immediate.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "base/interrupt_line.h"
#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "sysdev/uart_backend.h"

namespace avp {

class Uart16550 : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Uart16550> socket;
  Param<sc_core::sc_time> access_latency, poll_interval, idle_poll_interval;
  LevelLine irq;

  explicit Uart16550(sc_core::sc_module_name name);
  ~Uart16550() override;

  // Connects the backend ("stdio", "tcp:PORT", "pty"); throws std::runtime_error.
  void connect(const std::string& spec);
  const UartBackend& backend() const { return *backend_; }
  // Called when the user asks to quit from the UART's terminal (Ctrl-A x).
  std::function<void()> on_quit;
  // A byte for the connected output that does not come from the UART (HTIF console).
  void backend_output(uint8_t c) { backend_->put(c); }
  // The first kKeptBytes bytes transmitted (tests).
  const std::string& transmitted() const { return tx_log_; }
  // Transmitted lines ('\r' dropped) with the simulated times of their first byte and
  // of their '\n' (the manifest's "uart"): the first kKeptLines lines, each cut
  // to kKeptChars, so a firmware printing in a loop cannot exhaust the host;
  // the lines not kept are counted (the manifest's "uart_dropped").
  struct Line {
    sc_core::sc_time start, when;
    std::string text;
  };
  const std::vector<Line>& lines() const { return lines_; }
  uint64_t lines_dropped() const { return lines_dropped_; }
  static constexpr unsigned kFifo = 16;
  static constexpr size_t kKeptLines = 10000, kKeptChars = 1024, kKeptBytes = 1 << 20;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  bool register_access(const tlm::tlm_generic_payload& gp) const;  // a legal access to a byte register
  bool read(unsigned off, uint8_t& v, bool debug);
  bool write(unsigned off, uint8_t v);
  uint8_t iir() const;
  void update_irq();
  void poll_thread();
  bool fill();  // whether there was anything to receive (the backend's bytes, or bytes waiting on the host side)

  std::unique_ptr<UartBackend> backend_;
  std::deque<uint8_t> rx_, host_;  // receive FIFO, bytes waiting on the host side
  bool input_ended_ = false;
  uint8_t ier_ = 0, lcr_ = 0, mcr_ = 0, scr_ = 0, dll_ = 0, dlm_ = 0, fcr_ = 0;
  bool thre_pending_ = false;  // THR-empty interrupt condition (cleared by reading IIR or writing THR)
  bool line_ = false, line_started_ = false;
  std::string tx_log_, line_text_;
  std::vector<Line> lines_;
  uint64_t lines_dropped_ = 0;
  sc_core::sc_time now_, line_start_;  // local time of the access being served, of the line's first byte
  sc_core::sc_event connected_;
  Logger log_;
  Counter tx_bytes_, rx_bytes_, errors_;
};

}  // namespace avp

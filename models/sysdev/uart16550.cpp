#include "sysdev/uart16550.h"

#include <cstring>

#include "base/stable_read.h"
#include "sysdev/sysdev_regs.h"

namespace avp {

Uart16550::Uart16550(sc_core::sc_module_name name)
    : sc_module(name),
      socket("socket"),
      access_latency(this, "access_latency", sc_core::sc_time(2, sc_core::SC_NS), "latency of a UART register access"),
      poll_interval(this, "poll_interval", sc_core::sc_time(10, sc_core::SC_US),
                    "simulated time between two looks at the connected input (stdin, TCP, pty)"),
      idle_poll_interval(this, "idle_poll_interval", sc_core::sc_time(1, sc_core::SC_MS),
                         "simulated time between two looks at live input once 100 looks in a row found none"),
      backend_(std::make_unique<UartBackend>()),
      log_(this->name()),
      tx_bytes_(this, "tx_bytes", "bytes transmitted", "bytes"),
      rx_bytes_(this, "rx_bytes", "bytes received", "bytes"),
      errors_(this, "errors", "accesses answered with an error", "accesses") {
  if (poll_interval.get() == sc_core::SC_ZERO_TIME) throw ParamError(std::string(this->name()) + ".poll_interval: must be positive");
  if (idle_poll_interval.get() < poll_interval.get())
    throw ParamError(std::string(this->name()) + ".idle_poll_interval: " + idle_poll_interval.get().to_string() +
                     " is less than " + this->name() + ".poll_interval " + poll_interval.get().to_string());
  socket.register_b_transport(this, &Uart16550::b_transport);
  socket.register_transport_dbg(this, &Uart16550::transport_dbg);
  SC_HAS_PROCESS(Uart16550);
  SC_THREAD(poll_thread);
}

Uart16550::~Uart16550() = default;

void Uart16550::connect(const std::string& spec) {
  backend_ = std::make_unique<UartBackend>(spec);
  connected_.notify(sc_core::SC_ZERO_TIME);
}

void Uart16550::poll_thread() {
  // Nothing to poll until a backend with input is connected (plain runs never are).
  while (!backend_->has_input()) sc_core::wait(connected_);
  // An idle console (a prompt nobody types at) is looked at seldom: each
  // look is a SystemC event that the harts cannot run ahead past.
  constexpr unsigned kEmptyLooksBeforeIdle = 100;
  unsigned empty = 0;  // looks in a row that found nothing to receive
  while (!input_ended_ || !host_.empty()) {
    empty = fill() ? 0 : empty + 1;
    sc_core::wait(empty >= kEmptyLooksBeforeIdle ? idle_poll_interval.get() : poll_interval.get());
  }
}

bool Uart16550::fill() {
  int n = 0;
  if (!input_ended_ && host_.size() < 4096) {
    uint8_t buf[256];
    n = backend_->get(buf, sizeof buf);
    if (n < 0) input_ended_ = true;
    for (int i = 0; i < n; ++i) host_.push_back(buf[i]);
    if (backend_->take_quit_request() && on_quit) on_quit();
  }
  const bool anything = n != 0 || !host_.empty();
  bool any = false;
  while (!host_.empty() && rx_.size() < kFifo) {
    rx_.push_back(host_.front());
    host_.pop_front();
    rx_bytes_.inc();
    any = true;
  }
  if (any) update_irq();
  return anything;
}

uint8_t Uart16550::iir() const {
  const uint8_t fifo = (fcr_ & 1) ? 0xC0 : 0;
  if ((ier_ & AVP_UART_IER_RDA) && !rx_.empty()) return fifo | 0x04;
  if ((ier_ & AVP_UART_IER_THRE) && thre_pending_) return fifo | 0x02;
  return fifo | 0x01;
}

void Uart16550::update_irq() {
  const bool level = !(iir() & 1);
  if (level == line_) return;
  line_ = level;
  irq.signal(level);
}

bool Uart16550::read(unsigned off, uint8_t& v, bool debug) {
  const bool dlab = lcr_ & AVP_UART_LCR_DLAB;
  switch (off) {
    case AVP_UART_RBR:
      if (dlab) { v = dll_; break; }
      v = rx_.empty() ? 0 : rx_.front();
      if (!debug && !rx_.empty()) {
        rx_.pop_front();
        if (!host_.empty()) {  // the FIFO has room again: the next waiting byte moves in
          rx_.push_back(host_.front());
          host_.pop_front();
          rx_bytes_.inc();
        }
      }
      break;
    case AVP_UART_IER: v = dlab ? dlm_ : ier_; break;
    case AVP_UART_IIR:
      v = iir();
      if (!debug && (v & 0x0F) == 0x02) thre_pending_ = false;  // reading IIR clears a THR-empty indication
      break;
    case AVP_UART_LCR: v = lcr_; break;
    case AVP_UART_MCR: v = mcr_; break;
    case AVP_UART_LSR: v = AVP_UART_LSR_THRE | AVP_UART_LSR_TEMT | (rx_.empty() ? 0 : AVP_UART_LSR_DR); break;
    case AVP_UART_MSR: v = (mcr_ & AVP_UART_MCR_LOOP) ? 0 : 0xB0; break;  // CTS, DSR, DCD asserted
    case AVP_UART_SCR: v = scr_; break;
    default: return false;
  }
  if (!debug) update_irq();
  return true;
}

bool Uart16550::write(unsigned off, uint8_t v) {
  const bool dlab = lcr_ & AVP_UART_LCR_DLAB;
  switch (off) {
    case AVP_UART_THR:
      if (dlab) { dll_ = v; break; }
      tx_bytes_.inc();
      if (tx_log_.size() < kKeptBytes) tx_log_ += static_cast<char>(v);
      if (v == '\n') {
        if (lines_.size() < kKeptLines) lines_.push_back({line_start_, now_, line_text_});
        else ++lines_dropped_;
        line_text_.clear();
        line_started_ = false;
      } else if (v != '\r') {
        if (!line_started_) line_start_ = now_;
        line_started_ = true;
        if (line_text_.size() < kKeptChars) line_text_ += static_cast<char>(v);
      }
      if (mcr_ & AVP_UART_MCR_LOOP) {
        if (rx_.size() < kFifo) rx_.push_back(v);
      } else {
        backend_->put(v);
      }
      thre_pending_ = true;  // sent at once: the holding register is empty again
      break;
    case AVP_UART_IER:
      if (dlab) { dlm_ = v; break; }
      if ((v & AVP_UART_IER_THRE) && !(ier_ & AVP_UART_IER_THRE)) thre_pending_ = true;
      ier_ = v & 0x0F;
      break;
    case AVP_UART_FCR:
      fcr_ = v & 0xC9;
      // Receive FIFO reset: deliberately keeps the received bytes (docs/platform.md), so
      // input typed or scripted before the firmware (re)initialises the UART is not lost.
      break;
    case AVP_UART_LCR: lcr_ = v; break;
    case AVP_UART_MCR: mcr_ = v & 0x1F; break;
    case AVP_UART_LSR: case AVP_UART_MSR: break;  // read-only: writes are ignored
    case AVP_UART_SCR: scr_ = v; break;
    default: return false;
  }
  update_irq();
  return true;
}

void Uart16550::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += access_latency.get();
  now_ = sc_core::sc_time_stamp() + delay;
  const uint64_t off = gp.get_address();
  const unsigned len = gp.get_data_length();
  bool ok = register_access(gp);
  uint8_t v = 0;
  if (ok && gp.is_read()) {
    ok = read(static_cast<unsigned>(off), v, false);
    std::memset(gp.get_data_ptr(), 0, len);
    gp.get_data_ptr()[0] = v;
  } else if (ok) {
    ok = write(static_cast<unsigned>(off), gp.get_data_ptr()[0]);
  }
  if (ok) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  errors_.inc();
  AVP_LOG(log_, Warn, (gp.is_read() ? "read" : "write") << " of " << len << " bytes at offset 0x" << std::hex << off
                                                        << ": not a UART register (registers 0..7, aligned)");
  gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// Byte registers; wider aligned accesses reach the register at their address (as with reg-io-width 4).
bool Uart16550::register_access(const tlm::tlm_generic_payload& gp) const {
  const uint64_t off = gp.get_address();
  const unsigned len = gp.get_data_length();
  return (len == 1 || len == 2 || len == 4) && off < 8 && !(off & (len - 1)) && !gp.get_byte_enable_ptr();
}

unsigned Uart16550::transport_dbg(tlm::tlm_generic_payload& gp) {
  StableReadExtension* stable = stable_read(gp);
  if (stable && stable->kind == StableReadExtension::Repeat) return gp.get_data_length();  // a read counts nothing
  const unsigned len = gp.get_data_length();
  uint8_t v = 0;
  if (!gp.is_read() || !register_access(gp) || (!stable && len != 1) ||
      !read(static_cast<unsigned>(gp.get_address()), v, true))
    return 0;
  std::memset(gp.get_data_ptr(), 0, len);
  gp.get_data_ptr()[0] = v;
  const unsigned off = static_cast<unsigned>(gp.get_address());
  const bool dlab = lcr_ & AVP_UART_LCR_DLAB;
  if (stable && off != AVP_UART_IIR && (off != AVP_UART_RBR || dlab)) stable->answer = StableReadExtension::Constant;
  return len;
}

}  // namespace avp

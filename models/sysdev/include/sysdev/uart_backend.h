// Where the UART's bytes go and come from: the simulator's stdin/stdout, a
// TCP port (one client at a time) or a pseudo-terminal. Reads never block.
// Input that arrives in host time (anything but a regular file) is looked at
// at most once per host millisecond while it has nothing: the UART polls far
// more often in simulated time, and each look is a system call.
// On stdio with a terminal as stdin, the terminal is in raw mode while the
// backend exists (base/raw_terminal.h) and Ctrl-A is an escape as in QEMU:
// Ctrl-A x asks to quit, Ctrl-A h prints the keys, Ctrl-A Ctrl-A sends Ctrl-A.
#pragma once
#include <cstdint>
#include <string>

namespace avp {

class UartBackend {
 public:
  // "stdio", "tcp:PORT" or "pty"; throws std::runtime_error with the reason.
  explicit UartBackend(const std::string& spec);
  UartBackend();  // output to stdout, no input
  ~UartBackend();
  UartBackend(const UartBackend&) = delete;
  UartBackend& operator=(const UartBackend&) = delete;

  void put(uint8_t c);
  // Up to `max` bytes that are available now; -1 when the input has ended for good.
  int get(uint8_t* buf, unsigned max);
  bool has_input() const { return mode_ != Mode::None; }
  // The input is a terminal in the foreground, in raw mode: a person types.
  bool interactive() const { return interactive_; }
  // True once after Ctrl-A x was typed on an interactive terminal.
  bool take_quit_request();
  const std::string& description() const { return description_; }

 private:
  enum class Mode { None, Stdio, Tcp, Pty };
  void accept_client();
  Mode mode_ = Mode::None;
  int in_ = -1, out_ = 1, listen_ = -1;
  bool eof_ = false;
  bool interactive_ = false;  // stdin is a terminal in raw mode: Ctrl-A escapes
  bool stdin_tty_ = false;    // stdin is a terminal (asked once: a system call)
  // Input that arrives in host time (a terminal, pipe, socket or pty, not a
  // regular file): after a look that found nothing, the next one waits for
  // kLiveInputPollNs of host time, however often the UART polls.
  bool live_ = false;
  int64_t idle_until_ns_ = 0;
  static constexpr int64_t kLiveInputPollNs = 1'000'000;
  bool input_ready();
  bool escape_ = false, quit_ = false;
  int filter_escapes(uint8_t* buf, int n);
  std::string description_ = "stdout";
};

}  // namespace avp

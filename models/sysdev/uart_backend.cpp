#include "sysdev/uart_backend.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "base/raw_terminal.h"

namespace avp {

UartBackend::UartBackend() = default;

UartBackend::UartBackend(const std::string& spec) {
  if (spec == "stdio") {
    mode_ = Mode::Stdio;
    in_ = 0;
    out_ = 1;
    description_ = "stdin/stdout";
    // A run in the background (`timeout`, `&`) leaves the terminal alone: it
    // must not change its mode (SIGTTOU) nor read it (SIGTTIN would stop it).
    stdin_tty_ = isatty(in_);
    interactive_ = stdin_tty_ && in_foreground(in_) && enter_raw_terminal(in_);
    struct stat st {};
    live_ = fstat(in_, &st) != 0 || !S_ISREG(st.st_mode);
  } else if (spec.rfind("tcp:", 0) == 0) {
    char* end = nullptr;
    const unsigned long port = std::strtoul(spec.c_str() + 4, &end, 10);
    if (spec.size() == 4 || *end || port > 65535) throw std::runtime_error("--uart " + spec + ": expected tcp:PORT with PORT 0..65535");
    listen_ = socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(port));
    if (listen_ < 0 || bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listen_, 1) != 0)
      throw std::runtime_error("--uart " + spec + ": cannot listen: " + std::strerror(errno));
    socklen_t len = sizeof a;
    getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
    fcntl(listen_, F_SETFL, O_NONBLOCK);
    mode_ = Mode::Tcp;
    out_ = -1;
    live_ = true;
    description_ = "tcp port " + std::to_string(ntohs(a.sin_port));
  } else if (spec == "pty") {
    const int fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0 || grantpt(fd) != 0 || unlockpt(fd) != 0)
      throw std::runtime_error(std::string("--uart pty: cannot open a pseudo-terminal: ") + std::strerror(errno));
    fcntl(fd, F_SETFL, O_NONBLOCK);
    mode_ = Mode::Pty;
    in_ = out_ = fd;
    live_ = true;
    description_ = std::string("pseudo-terminal ") + ptsname(fd);
  } else {
    throw std::runtime_error("--uart " + spec + ": expected stdio, tcp:PORT or pty");
  }
}

UartBackend::~UartBackend() {
  if (mode_ == Mode::Tcp && in_ >= 0) close(in_);
  if (listen_ >= 0) close(listen_);
  if (mode_ == Mode::Pty) close(in_);
  if (interactive_) restore_terminal();
}

bool UartBackend::take_quit_request() {
  const bool q = quit_;
  quit_ = false;
  return q;
}

int UartBackend::filter_escapes(uint8_t* buf, int n) {
  static const char kHelp[] = "\r\nC-a x    quit the simulation (outputs written, as Ctrl-C elsewhere)\r\n"
                              "C-a h    this help\r\nC-a C-a  send C-a\r\n";
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    const uint8_t c = buf[i];
    if (!escape_ && c == 0x01) {
      escape_ = true;
      continue;
    }
    if (!escape_) {
      buf[kept++] = c;
      continue;
    }
    escape_ = false;
    if (c == 'x' || c == 'X') quit_ = true;
    else if (c == 'h' || c == 'H' || c == '?') (void)!write(2, kHelp, sizeof kHelp - 1);
    else if (c == 0x01) buf[kept++] = c;
  }
  return kept;
}

void UartBackend::accept_client() {
  if (listen_ < 0 || in_ >= 0) return;
  const int fd = accept(listen_, nullptr, nullptr);
  if (fd < 0) return;
  fcntl(fd, F_SETFL, O_NONBLOCK);
  in_ = out_ = fd;
}

void UartBackend::put(uint8_t c) {
  if (mode_ == Mode::Tcp) accept_client();
  if (out_ == 1) {
    // Line by line: a write per byte was a system call per byte (11.7k in a
    // Linux boot). A line's rest follows within one chunk of the session
    // (session.cpp) or when the UART looks for input, whichever is first.
    std::fputc(c, stdout);
    if (c == '\n') std::fflush(stdout);
  } else if (out_ >= 0) {
    // A slow or absent reader loses bytes rather than stopping the simulation;
    // a TCP client that has gone is dropped (MSG_NOSIGNAL: no SIGPIPE) and
    // the UART waits for the next one.
    const ssize_t n = mode_ == Mode::Tcp ? send(out_, &c, 1, MSG_NOSIGNAL) : write(out_, &c, 1);
    if (n < 0 && mode_ == Mode::Tcp && errno != EAGAIN && errno != EINTR) {
      close(in_);
      in_ = out_ = -1;
    }
  }
}

bool UartBackend::input_ready() {
  int64_t now = 0;
  if (live_) {
    now = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    if (now < idle_until_ns_) return false;
  }
  if (mode_ == Mode::Tcp) accept_client();
  pollfd p{in_, POLLIN, 0};
  const bool ready = in_ >= 0 && !(mode_ == Mode::Stdio && stdin_tty_ && !in_foreground(in_)) &&  // the terminal's input is the foreground job's
                     poll(&p, 1, 0) > 0;
  if (!ready && live_) idle_until_ns_ = now + kLiveInputPollNs;
  return ready;
}

int UartBackend::get(uint8_t* buf, unsigned max) {
  if (out_ == 1) std::fflush(stdout);  // a prompt before the input it waits for
  if (mode_ == Mode::None || eof_) return -1;
  if (!input_ready()) return 0;
  const ssize_t n = read(in_, buf, max);
  if (n > 0) return interactive_ ? filter_escapes(buf, static_cast<int>(n)) : static_cast<int>(n);
  if (mode_ == Mode::Pty || (n < 0 && (errno == EAGAIN || errno == EINTR))) return 0;  // a pty without a peer: EIO
  if (mode_ == Mode::Tcp) {  // the client left: wait for the next one
    close(in_);
    in_ = out_ = -1;
    return 0;
  }
  eof_ = true;
  return -1;
}

}  // namespace avp

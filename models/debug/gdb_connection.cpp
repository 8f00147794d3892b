#include "debug/gdb_connection.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/params.h"

namespace avp::gdb {

namespace {
constexpr int kCloseAckTimeoutMs = 500;
}

Connection::Connection(unsigned port) {
  listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  if (listen_fd_ >= 0) setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  if (listen_fd_ < 0 || bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listen_fd_, 1) != 0) {
    const std::string why = std::strerror(errno);
    if (listen_fd_ >= 0) ::close(listen_fd_);
    throw ParamError("--gdb " + std::to_string(port) + ": cannot listen on 127.0.0.1 (" + why + ")");
  }
  socklen_t len = sizeof a;
  getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len);
  port_ = ntohs(a.sin_port);
}

Connection::~Connection() {
  close();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

bool Connection::accept() {
  fd_ = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd_ < 0) return false;
  int one = 1;
  setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return true;
}

bool Connection::accept_pending() {
  pollfd p{listen_fd_, POLLIN, 0};
  return listen_fd_ >= 0 && fd_ < 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLIN) && accept();
}

void Connection::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  inputs_.clear();
}

Connection::Read Connection::read_some(int timeout_ms) {
  if (fd_ < 0) return Read::Closed;
  pollfd p{fd_, POLLIN, 0};
  int r;
  do r = poll(&p, 1, timeout_ms);
  while (r < 0 && errno == EINTR);
  if (r == 0) return Read::Nothing;
  char buf[4096];
  const ssize_t n = recv(fd_, buf, sizeof buf, 0);
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return Read::Nothing;
  if (n <= 0) {
    close();
    return Read::Closed;
  }
  for (ssize_t i = 0; i < n && fd_ >= 0; ++i) {
    switch (framer_.feed(buf[i])) {
      case PacketFramer::Event::Packet:
        if (!no_ack_) write_all("+");
        inputs_.push_back({false, framer_.payload()});
        break;
      case PacketFramer::Event::BadChecksum:
        // In no-ack mode there is no way to ask again: the packet is dropped.
        if (!no_ack_) write_all("-");
        break;
      case PacketFramer::Event::Oversized:
        if (!no_ack_) write_all("+");
        send("E07");  // the packet is larger than the PacketSize we advertised
        break;
      case PacketFramer::Event::Interrupt:
        inputs_.push_back({true, {}});
        break;
      case PacketFramer::Event::Ack:
        acked_ = true;
        break;
      case PacketFramer::Event::Nak:
        if (!no_ack_ && !last_frame_.empty()) write_all(last_frame_);
        break;
      case PacketFramer::Event::None:
        break;
    }
  }
  return fd_ >= 0 ? Read::Data : Read::Closed;
}

Connection::Input Connection::receive(std::string& payload) {
  while (inputs_.empty())
    if (read_some(-1) == Read::Closed) return Input::Closed;
  Input_ in = std::move(inputs_.front());
  inputs_.pop_front();
  if (in.interrupt) return Input::Interrupt;
  payload = std::move(in.payload);
  return Input::Packet;
}

bool Connection::poll_interrupt() {
  while (fd_ >= 0 && read_some(0) == Read::Data) {
  }
  // A Ctrl-C counts; packets that came with it wait for the next receive().
  for (auto it = inputs_.begin(); it != inputs_.end(); ++it)
    if (it->interrupt) {
      inputs_.erase(it);
      return true;
    }
  return false;
}

bool Connection::write_all(const std::string& bytes) {
  size_t done = 0;
  while (fd_ >= 0 && done < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd_, POLLOUT, 0};
      int r;
      do r = poll(&p, 1, kSendTimeoutMs);
      while (r < 0 && errno == EINTR);
      if (r > 0) continue;
      std::fprintf(stderr, "accel-vp: the debugger stopped reading for %d ms: disconnected, the simulation runs on\n",
                   kSendTimeoutMs);
    }
    close();
  }
  return fd_ >= 0;
}

void Connection::send(std::string_view payload) {
  last_frame_ = frame(payload);
  acked_ = no_ack_;
  write_all(last_frame_);
}

void Connection::close_after(std::string_view payload) {
  if (fd_ < 0) return;
  send(payload);
  // Closing with the ack unread would reset the connection, which may
  // discard the reply before the debugger reads it: wait a little for it.
  for (int waited = 0; fd_ >= 0 && !acked_ && waited < kCloseAckTimeoutMs; waited += 50) read_some(50);
  if (fd_ >= 0) shutdown(fd_, SHUT_WR);
  close();
}

}  // namespace avp::gdb

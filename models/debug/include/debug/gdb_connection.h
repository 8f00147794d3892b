// The debugger's TCP connection: listens on 127.0.0.1, frames the byte
// stream (gdb_packet.h), acknowledges packets ('+', or '-' for a bad
// checksum), retransmits the last reply on '-', answers an oversized packet
// with an error, and never lets the debugger block the simulation beyond
// what the protocol asks: the socket is non-blocking, a reply the client
// does not accept within kSendTimeoutMs drops the connection, and acks are
// never waited for (they are consumed with the next packet).
#pragma once
#include <deque>
#include <string>
#include <string_view>

#include "gdb_packet.h"

namespace avp::gdb {

class Connection {
 public:
  static constexpr int kSendTimeoutMs = 2000;

  // Listens on 127.0.0.1:port (0: any free port, see port()); ParamError when it cannot.
  explicit Connection(unsigned port);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  unsigned port() const { return port_; }

  // Blocks until a debugger connects; false when accept fails.
  bool accept();
  // Without blocking: accept() when a debugger is waiting to connect.
  bool accept_pending();
  bool connected() const { return fd_ >= 0; }
  void set_no_ack() { no_ack_ = true; }

  enum class Input { Packet, Interrupt, Closed };
  // Blocks until the next packet (payload) or Ctrl-C; Closed when the
  // debugger went away (or was dropped).
  Input receive(std::string& payload);
  // Sends one reply (kept for a retransmit); a client that stops reading is dropped.
  void send(std::string_view payload);
  // Without blocking: whether a Ctrl-C arrived (packets that arrive meanwhile are kept).
  bool poll_interrupt();
  // Sends a last reply, waits briefly for its ack (ack mode only), closes.
  void close_after(std::string_view payload);
  void close();

 private:
  enum class Read { Data, Nothing, Closed };
  Read read_some(int timeout_ms);  // reads what is available into the framer's queue
  bool write_all(const std::string& bytes);

  int listen_fd_ = -1, fd_ = -1;
  unsigned port_ = 0;
  bool no_ack_ = false;
  PacketFramer framer_;
  struct Input_ {
    bool interrupt;       // Ctrl-C
    std::string payload;  // a complete packet
  };
  std::deque<Input_> inputs_;  // in arrival order, not yet served
  bool acked_ = true;                // the last reply was acknowledged
  std::string last_frame_;
};

}  // namespace avp::gdb

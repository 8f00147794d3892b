// A GDB remote-serial-protocol server for the harts. Each hart is a thread;
// software and hardware breakpoints, data watchpoints (watchpoints.h), single
// step, continue, interrupt
// (Ctrl-C), integer/FP/CSR registers with an RV64GC target description,
// memory through the hart's own view (windows included). While the debugger
// holds the target the whole simulation stands still: the server runs in the
// simulation thread of the hart that stopped and blocks on the socket.
#pragma once
#include <cstdint>
#include <set>
#include <string>

#include "harts/hart_cluster.h"
#include "watchpoints.h"

namespace avp {

class GdbServer : public HartDebugHook {
 public:
  // Listens on 127.0.0.1:port (0: any free port, see port()).
  GdbServer(HartCluster& harts, unsigned port);
  ~GdbServer() override;
  unsigned port() const { return port_; }
  // Blocks until a debugger connects, then serves it until it continues.
  void attach();
  // The program ended (exit code): tells a waiting debugger and closes.
  void finish(int exit_code);

  void before_instruction(Hart& hart, const rv::Insn& insn, uint64_t pc) override;

 private:
  enum class Resume { Continue, Step, Detach, Kill };
  Resume serve(const std::string& stop_reply);
  std::string watch_hit(const Hart& h, const rv::Insn& insn) const;
  // Whether `h` stops before `insn` at `pc` (watch_field: the watchpoint part of the stop reply).
  bool wants_stop(Hart& h, const rv::Insn& insn, uint64_t pc, std::string& watch_field);
  void stop(Hart& h, const std::string& watch_field);  // reports a stop of `h` and serves until it resumes
  std::string breakpoint_packet(const std::string& p);
  std::string handle(const std::string& packet, bool& resume, Resume& how);
  std::string read_registers(Hart& h);
  bool read_register(Hart& h, unsigned n, uint64_t& v);
  bool write_register(Hart& h, unsigned n, uint64_t v);
  std::string read_memory(Hart& h, uint64_t addr, uint64_t len);
  std::string xfer_features(const std::string& annex, uint64_t offset, uint64_t len);
  bool receive(std::string& packet);  // false: connection closed
  void send(const std::string& payload);
  bool interrupt_pending();
  Hart& thread_hart(int tid);
  std::string stop_reply_ = "T05thread:1;";  // the last stop, repeated for '?'

  HartCluster& harts_;
  int listen_fd_ = -1, fd_ = -1;
  unsigned port_ = 0;
  bool no_ack_ = false, attached_ = false, interrupted_ = false;
  std::set<uint64_t> breakpoints_;
  Watchpoints watchpoints_;
  int g_thread_ = 1, step_hart_ = -1;
  uint64_t polls_ = 0;
};

}  // namespace avp

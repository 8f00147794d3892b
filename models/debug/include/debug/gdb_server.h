// A GDB remote-serial-protocol server for the harts. Each hart is a thread;
// software breakpoints, hardware breakpoints and data watchpoints on the
// harts' debug triggers (watchpoints.h), single step, continue, interrupt
// (Ctrl-C), integer/FP/CSR registers and the
// privilege mode with an RV64GC target description, memory through the
// hart's own view (windows included), monitor commands (gdb_monitor.cpp).
// While the debugger holds the target the whole simulation stands still: the
// server runs in the simulation thread of the hart that stopped and waits for
// packets. The protocol itself (framing, checksums, parsing) is gdb_packet.h,
// the socket gdb_connection.h.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gdb_connection.h"
#include "harts/hart_cluster.h"
#include "watchpoints.h"

namespace avp {

class GdbServer : public HartDebugHook {
 public:
  // Listens on 127.0.0.1:port (0: any free port, see port()).
  GdbServer(HartCluster& harts, unsigned port);
  ~GdbServer() override;
  unsigned port() const { return conn_.port(); }
  // The harts GDB sees as threads 1..n (default: all of them).
  void set_threads(unsigned n) { threads_ = n; }
  // Blocks until a debugger connects, then serves it until it continues
  // (with set_first_instruction_stop: as attach_at_first_instruction).
  void attach();
  void set_first_instruction_stop(bool on) { first_instruction_stop_ = on; }
  // QEMU's -s without -S: the run starts at once (attach() and
  // attach_at_first_instruction() do not wait) and poll_attach(), called
  // between chunks of the run, takes a debugger that connected meanwhile.
  void attach_while_running();
  // With attach_while_running: a debugger waiting to connect is accepted,
  // every hart stops where it is (all at the end of one chunk of the run)
  // and the debugger is served until it resumes. Nothing otherwise.
  void poll_attach();
  // Waits for the debugger when the first hart is about to execute its first
  // instruction (QEMU's -S): the harts are set up, the pc is their entry.
  void attach_at_first_instruction();
  // The program ended (exit code): tells a waiting debugger and closes.
  void finish(int exit_code);
  // Answers `monitor` commands (qRcmd) other than the built-in ones: the
  // platform adds its own (reset, windows, stats); returns false for an unknown command.
  using MonitorHandler = std::function<bool(const std::string& command, std::string& output)>;
  void set_monitor(MonitorHandler h) { monitor_ = std::move(h); }

  void before_instruction(Hart& hart, const rv::Insn& insn, uint64_t pc) override;

 private:
  enum class Resume { Continue, Step, Detach, Kill };
  Resume serve(bool report_stop);
  void detach_hooks();
  std::string watch_hit(Hart& h, const rv::Insn& insn, uint64_t pc);  // data watchpoints only
  // Whether `h` stops before `insn` at `pc` (watch_field: the watchpoint part of the stop reply).
  bool wants_stop(Hart& h, const rv::Insn& insn, uint64_t pc, std::string& watch_field);
  void stop(Hart& h, const std::string& watch_field);  // reports a stop of `h` and serves until it resumes
  // The reply to one parsed request; `resume` set when the target is to run.
  std::string handle(const gdb::Request& r, bool& resume, Resume& how);
  std::string point_request(const gdb::Request& r);
  std::string monitor_request(const std::string& command);  // gdb_monitor.cpp
  bool builtin_monitor(const std::string& command, std::string& output);
  void accept_and_serve(Hart* first);
  std::string read_registers(Hart& h);
  bool read_register(Hart& h, uint64_t n, uint64_t& v);
  bool write_register(Hart& h, uint64_t n, const std::vector<uint8_t>& value);
  std::string read_memory(Hart& h, uint64_t addr, uint64_t len);
  // GDB's addresses are the hart's own (QEMU's rule): virtual, through satp,
  // while the hart runs below M mode with translation on; physical otherwise.
  // Page by page; false when a page does not translate or is not memory.
  bool access_memory(Hart& h, uint64_t addr, uint8_t* data, uint64_t len, bool write);
  std::string xfer_features(const std::string& annex, uint64_t offset, uint64_t len);
  bool valid_thread(int64_t tid) const { return tid >= 1 && static_cast<uint64_t>(tid) <= threads_; }
  Hart& current_hart() { return harts_.hart(static_cast<unsigned>(g_thread_ - 1)); }
  std::string stop_reply_ = "T05thread:1;";  // the last stop, repeated for '?'

  HartCluster& harts_;
  gdb::Connection conn_;
  unsigned threads_;
  bool attached_ = false, interrupted_ = false, wait_first_ = false, first_instruction_stop_ = false;
  bool while_running_ = false;
  // Each hart's registers at the first instruction the server saw it run (monitor reset).
  std::vector<std::optional<rv::HartState>> start_states_;
  std::set<uint64_t> breakpoints_;
  Watchpoints watchpoints_;
  int64_t g_thread_ = 1;
  int step_hart_ = -1;
  uint64_t polls_ = 0;
  MonitorHandler monitor_;
};

}  // namespace avp

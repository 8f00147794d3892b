// HTIF (Spike's host-target interface) for programs with `tohost`/`fromhost`
// symbols: a poller looks at tohost every `poll_interval` of simulated time
// and serves, as Spike does, device 0 (exit with code payload >> 1 when bit 0
// is set, else the proxied system call write(fd 1/2) at the magic-memory
// address in the payload) and device 1 (console: command 1 puts a character).
// Each served request clears tohost and acknowledges through fromhost.
// Console input (device 1, command 0) and other system calls are answered
// with -1 (not supported).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include <systemc>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"

namespace avp {

class Htif : public sc_core::sc_module {
 public:
  Param<sc_core::sc_time> poll_interval;
  using Access = std::function<bool(uint64_t addr, void* data, unsigned len)>;
  std::function<void(uint8_t c)> put;       // console output
  std::function<void(int code)> on_exit;    // the program's exit

  Htif(sc_core::sc_module_name name, Access read, Access write);
  // Starts serving tohost/fromhost at these addresses.
  void start(uint64_t tohost, uint64_t fromhost);

 private:
  void poll_thread();
  bool serve(uint64_t v);  // false: the program has exited
  uint64_t syscall(uint64_t magic);
  Access read_, write_;
  uint64_t tohost_ = 0, fromhost_ = 0;
  sc_core::sc_event started_;
  bool active_ = false;
  Logger log_;
  Counter requests_;
};

}  // namespace avp

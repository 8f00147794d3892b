// Loops that wait (docs/harts.md, "Polling loops"): U-Boot's udelay, Linux's
// __delay and OpenSBI's delays spin on `rdtime` until it passes a deadline,
// with no other effect; OpenSBI's secondary harts spin on a WFI that does not
// sleep (an interrupt is pending) until another hart writes their state. One
// iteration of such a loop, from its time read or WFI around to it again, is
// evaluated here without executing it: the registers and stores it leaves as
// functions of the time value it read, and the first time value at which it
// would leave its path (a WFI loop reads no time: it stays on its path until
// something else changes what it reads).
// The hart (hart_wait_loop.cpp) then skips whole iterations, adding what each
// adds to its counters, and lands where the loop would have been.
//
// A loop may also wait on a device register (docs/harts.md, "Polling
// loops"): a UART's line status, or the CLINT's mtime read as memory. It
// starts with the load of that register, which the device declares stable
// (base/stable_read.h): a constant, or a clock that is read as the time.
//
// An iteration qualifies when everything it reads besides the time is the
// same in every iteration: the registers it reads before writing them and the
// memory it loads before storing it are unchanged at its end, and do not
// depend on the time, and the device registers it loads are declared
// constant. Each value is tracked with its dependence on the time value v
// (none, v + c, or other); a branch may depend on the time only as v + c
// against a value without it, so that the set of time values keeping it on
// the path is an interval. Stores must reach memory directly (no device), loads
// memory or a stable device register, at addresses without time in them, and
// no system, atomic, floating-point or extension instruction may appear but
// the one time read.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harts/rv_insn.h"

namespace avp {

// What the evaluation reads of the hart, without any effect.
class WaitLoopView {
 public:
  virtual ~WaitLoopView() = default;
  // The decoded instructions of the block that starts at `pc` ({nullptr, 0}: none decoded).
  virtual std::pair<const rv::Insn*, size_t> block_at(uint64_t pc) const = 0;
  // `n` bytes at virtual address `va` of memory the hart reaches directly; false for anything else.
  virtual bool read(uint64_t va, void* to, unsigned n) const = 0;
  // Whether a store of `n` bytes at `va` reaches memory directly and no decoded code.
  virtual bool plain_store(uint64_t va, unsigned n) const = 0;
  // What the device at `va` declares of a read of `n` bytes there (base/stable_read.h); for Constant, `value`.
  enum class DeviceRead : uint8_t { Unstable, Constant, Clock };
  virtual DeviceRead device_read(uint64_t va, unsigned n, uint64_t& value) const = 0;
};

// Memory an iteration reads or leaves.
struct WaitLoopStore {
  uint64_t va = 0;
  unsigned size = 0;
  uint64_t value = 0;   // its low `size` bytes
  bool offset = false;  // the time read plus a constant (a stored value)
};

struct WaitLoopIteration {
  std::string refused;  // why the loop does not qualify ("": it does)
  uint64_t insns = 0;   // instructions per iteration, the time read included
  uint64_t time = 0;    // the time value it was evaluated with
  // The smallest time value above `time` at which the iteration leaves its
  // path (~0: none below 2^64).
  uint64_t exit_from = ~0ull;
  // Its inputs: the registers it reads before writing them (a mask), and
  // the memory it loads before storing it (with what it read).
  uint32_t reads = 0;
  std::vector<WaitLoopStore> loads;
  // The device registers it reads, once per read: constant (what it read),
  // or marked offset, the clock read as the time at its start.
  std::vector<WaitLoopStore> device_loads;
  // What it leaves: the registers at its end (before the next time read)
  // and its stores, one per address. Those in x_offset, and stores marked
  // offset, are the time read plus a constant; unless `closed`, some others
  // depend on the time in other ways.
  uint64_t x[32] = {};
  uint32_t writes = 0;  // the registers it writes (a mask): the others keep their values
  uint32_t x_offset = 0;
  std::vector<WaitLoopStore> stores;
  bool closed = true;
  // What it leaves when it reads `t` instead (closed iterations only).
  uint64_t x_at(unsigned r, uint64_t t) const { return x[r] + ((t - time) & (0 - uint64_t{x_offset >> r & 1})); }
  uint64_t stored_at(const WaitLoopStore& s, uint64_t t) const { return s.offset ? s.value + (t - time) : s.value; }
};

// The iteration that starts with the time read `read` (CSRRS/CSRRC rd, time,
// x0), a WFI or a load of a stable device register at `pc`, with the
// registers `x`, the time read (or the clock load) reading the time value
// `time`; at most `max_insns` instructions long.
WaitLoopIteration evaluate_wait_loop(const WaitLoopView& view, const rv::Insn& read, uint64_t pc,
                                     const uint64_t (&x)[32], uint64_t time, unsigned max_insns);

// Whether either loop stores what the other loads or stores (their
// addresses are physical: Hart::skip_wait_loop skips only untranslated loops).
bool loops_touch(const WaitLoopIteration& a, const WaitLoopIteration& b);

// Whether `d` reads the time CSR and nothing else.
bool reads_time_only(const rv::Insn& d);
// Whether a wait loop may start at `d` besides a device load: a time read,
// or a WFI (one that does not sleep, as an interrupt is pending and enabled:
// such a loop spins until something else changes what it reads).
bool starts_wait_loop(const rv::Insn& d);
// The bytes `d` loads (0: not an integer load).
unsigned load_bytes(const rv::Insn& d);

}  // namespace avp

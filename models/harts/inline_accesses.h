// The loads' and stores' fast paths in translated code (block_translator.h,
// InlineLoads, InlineStores): what the helpers' fast paths do, emitted
// inline, so the common access (on a D-cache line found without a set
// search, in the region the hart reads or writes directly) needs no call,
// with the D-cache's quick hits done as CacheModel does them.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "harts/block_translator.h"
#include "x86_asm.h"

namespace avp {

// An access's code before its helper call, which falls through when it did
// the access, else jumps to `elsewhere` when the region in use does not
// hold it (emit_access_again, out of the way) or to `to_helper`.
struct InlineAccess {
  std::vector<size_t> elsewhere, to_helper;
  size_t check = 0;  // where it starts, to try again in another region
  unsigned bytes = 0;
  const RegionAgain* again = nullptr;
  // A loop's access: what its code was made from, to be made again on the
  // region before (emit_access_again); else both null.
  unsigned op = 0;
  const InlineLoads* loads = nullptr;
  const InlineStores* stores = nullptr;
};

// emit_access_again's ways out besides falling through: the access done
// (on to the code after its fast path) or the helper's call.
struct AccessAgain {
  std::vector<size_t> done, to_helper;
};

// An access's code for `elsewhere`, placed where the caller likes: for a
// loop's access, while translation is off, the access's code on the region
// before, which it leaves where it is (a loop's two regions in turn -- a
// matrix's rows and another's columns, claimed in the parallel schedule --
// swapped at each access took 11.5 % of a run); then the region-again
// routine, and the access's code again when it found a region that holds
// it; else falls through (to the helper). With translation on, which region
// stays in use is seen (the kept page an access finds is a TLB hit): the
// routine swaps them.
AccessAgain emit_access_again(x86::Asm& a, const InlineAccess& fast);

// With the address in rsi and the hart in rdi: the load (rv::LB .. rv::LWU)
// leaves its value in rax; an access outside the region in use first looks
// for one that holds it (HartHotState::region_again) and tries again. The
// helper checks again: the checks change nothing when they fail. rsi and
// rdi are kept. `in_loop`: the block loops to its start, where the
// D-cache's way-or-previous hits are done here rather than by a call of
// the shared routine (a loop's accesses to two lines in turn -- a copy's
// source and destination, a matrix row and column -- or a new line each
// pass), the code about 100 bytes longer (kept out of other blocks: a
// Linux boot's many accesses run a few times each); its way out of the
// region in use also tries the region before (emit_access_again).
InlineAccess emit_inline_load(x86::Asm& a, const InlineLoads& l, unsigned op, bool in_loop);

// With the address in rsi, the value in rdx and the hart in rdi: the store
// (rv::SB .. rv::SD) as the store helper's fast path does it (InlineStores),
// the region found again as a load's is. The helper checks again: the
// checks change nothing when they fail. rsi, rdx and rdi are kept.
// `in_loop` as for emit_inline_load.
InlineAccess emit_inline_store(x86::Asm& a, const InlineStores& s, unsigned op, bool in_loop);

// CacheModel::hit_previous's test: `line` is the cache's line before the
// last (with `last`: the last line) and that line's way (left in `way`)
// still holds it; else one of the jumps added to `no` is taken. Nothing is
// updated.
void emit_previous_holds(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line, x86::Reg way,
                         std::vector<size_t>& no, bool last = false);

// CacheModel::hit_way's test: way `hint` (32-bit, zero-extended) exists and
// holds `line` (its address left in `way`); else one of the jumps added to
// `no` is taken. Nothing is updated.
void emit_hinted_holds(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line, x86::Reg hint, x86::Reg way,
                       std::vector<size_t>& no);

// The end of a shared routine that answers in ZF (shared_routines.h):
// returns with ZF set from here, and with ZF clear from the jumps in `no`;
// the routine's bytes.
std::vector<uint8_t> finish_zf_routine(x86::Asm& a, const std::vector<size_t>& no);

// CacheModel::hit_previous, else hit_way with the way index `load_hint`
// puts in `hint` (32-bit, zero-extended), for the line in `line` (the order
// of CacheQuickState::quick_hit: a line is in one way only, so both find
// the same way and do the same bookkeeping; the line before the last first,
// as two lines accessed in turn -- a copy's source and destination, a row
// and a column -- then hit without reading the hint or computing the way):
// on a hit the cache's last two lines and ways, its clock and the way's last
// use are updated as they do (not the hit count) and the code falls through
// with the way in `way`; returns the jumps taken when neither hits (nothing
// changed). Uses `tmp`.
std::vector<size_t> emit_way_or_previous_hit(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line,
                                             x86::Reg hint, x86::Reg way, x86::Reg tmp,
                                             const std::function<void()>& load_hint);

}  // namespace avp

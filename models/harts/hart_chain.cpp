// The hart's hot path in the serial schedule and in slices: a threaded
// interpreter over decoded blocks (run_insns), blocks that chain to the
// blocks that ran after them (run_chain), and retiring counted per block
// (settle_to, HartHotState::retire). Simulated results are those of the observed
// loop (hart_exec.cpp), instruction by instruction.
#include <algorithm>

#include "harts/hart.h"
#include "harts/hart_cluster.h"
#include "rv_semantics.h"

namespace avp {

using namespace rv;

// Instruction-cache timing of a block about to run: one access per line it
// spans; a miss fills the line from the memory that holds the code (no fill
// for code outside cacheable memory, such as the host window). Inlined for
// the common cases, HartHotState::fetch_quick_hit; `quick` the lines that
// did when it was tried already (kQuickUntried: not).
[[gnu::always_inline]] inline void Hart::fetch_timing(const Block& b, uint32_t quick) {
  if (b.fetch_gen != hot_.dmi_gen) {
    locate_fetch(b);
    quick = kQuickUntried;  // it failed on the block's old lines, having done none
  }
  if (quick == kQuickUntried && hot_.fetch_quick_hit(b, quick)) return;
  uint64_t t = quick * icache_.hit_time();
  for (uint32_t i = quick; i < b.lines; ++i) {
    bool miss = false;
    t += i < 2 ? icache_.access_line(b.first_line + i, false, miss, b.fetch_way[i])
               : icache_.access_line(b.first_line + i, false, miss);
    if (miss && b.fetch_cached && !hot_.functional)  // warming (harts.warm_caches): no traffic
      t += bus_timing_.traffic((b.first_line + i) << b.fetch_line_bits, false, 1u << b.fetch_line_bits, true);
  }
  if (b.fetch_uncached && !hot_.functional) t += uncached_fetch_time(b);
  hot_.time.add_ps(t);
  hot_.stall_ps[StallFetch] += t;
}

void Hart::locate_fetch(const Block& b) {
  b.fetch_cached = false;
  for (const DmiRegion& r : dmi_.all()) b.fetch_cached |= b.ppc - r.base < r.size;
  if (!b.fetch_cached) b.fetch_cached = bus_timing_.cacheable(b.ppc, 4, true);
  b.fetch_gen = hot_.dmi_gen;
  b.fetch_line_bits = static_cast<uint8_t>(icache_.line_bits());
  b.first_line = b.ppc >> b.fetch_line_bits;
  b.lines = static_cast<uint32_t>(((b.ppc + b.bytes - 1) >> b.fetch_line_bits) - b.first_line + 1);
  if (b.fetch_uncached) b.lines = 0;  // no I-cache line: uncached_fetch_time
  b.fetch_hit_ps = b.lines * icache_.hit_time();
}

// Code on an NC or IO page (Svpbmt) is not cached: each entry of the block
// reads the line-sized pieces it spans over the bus.
uint64_t Hart::uncached_fetch_time(const Block& b) {
  const unsigned bits = icache_.line_bits();
  uint64_t t = 0;
  for (uint64_t line = b.ppc >> bits; line <= (b.ppc + b.bytes - 1) >> bits; ++line)
    t += bus_timing_.traffic(line << bits, false, 1u << bits, true);
  return t;
}

// (A block translate_fetch_again replaces has had no quick try: quick is
// kQuickUntried whenever its translation is not held.)
[[gnu::always_inline]] inline const Hart::Block& Hart::enter_block(const Block& b, uint32_t quick) {
  const Block& e = b.key && !fetch_translation_held(b) ? translate_fetch_again(b) : b;
  if (hot_.block_abort) hot_.block_abort = false;  // stored only when set: see update_irq_gate
  if (fetch_timed()) fetch_timing(e, quick);
  hot_.history.record(&e);
  return e;
}

uint64_t Hart::settled_time_ps() const {
  const uint64_t ps = hot_.time.ps();
  if (!hot_.lazy) return ps;
  const auto n = static_cast<uint32_t>(cur_ - hot_.lazy->insns.data());
  return n > hot_.settled ? ps + hot_.lazy->ps_before[n] - hot_.lazy->ps_before[hot_.settled] : ps;
}

void Hart::settle_to(uint32_t n) {
  const uint64_t* cost_ps = cluster_.cost_ps();
  const uint64_t* cost_cycles = cluster_.cost_cycles();
  for (uint32_t i = hot_.settled; i < n; ++i) {
    const Insn& d = hot_.lazy->insns[i];
    ++hot_.s.minstret;
    hot_.s.events[d.event] += d.event != kEvInt;  // HartState::events
    hot_.s.extra_cycles += cost_cycles[d.cls] - 1;
    hot_.time.add_ps(cost_ps[d.cls]);
  }
  if (n > hot_.settled) hot_.settled = n;
  if (hot_.settled && !hot_.part_settled) hot_.part_settled = true;  // for the block's code (the gate)
}

void Hart::note_block_costs(Block& b) const {
  b.ps_before.reserve(b.insns.size() + 1);
  for (const Insn& d : b.insns) {
    b.ps_before.push_back(b.own_ps);
    b.own_ps += cluster_.cost_ps()[d.cls];
    b.extra_cycles += cluster_.cost_cycles()[d.cls] - 1;
    if (d.event == kEvInt) continue;  // not counted (HartState::events)
    unsigned i = 0;
    while (i < b.events && b.event_id[i] != d.event) ++i;
    if (i == b.events) b.event_id[b.events++] = d.event;
    ++b.event_n[i];
  }
  b.ps_before.push_back(b.own_ps);
}

// Every check the run loop (Hart::run) makes between two blocks, other than
// the flushes, which only a block that sets hot_.block_abort asks for.
[[gnu::always_inline]] inline bool Hart::chain_goes_on() const {
  return !(hot_.chain_ends() || (hot_.s.mip & hot_.s.mie) || observed());
}

// In a slice, a block not decoded yet ends the chain (nullptr): decoding reads
// memory through the bus.
[[gnu::always_inline]] inline const Hart::Block* Hart::next_block(const Block& b) {
  const uint64_t pc = hot_.s.pc;
  const bool same_regime = b.key == hot_.fetch_key;
  if (same_regime) {
    if (b.link_pc[0] == pc) return b.link[0];
    if (b.link_pc[1] == pc) return b.link[1];
  }
  const Block* next = slice_.in_slice() ? decoded_block(pc) : &block_at(pc);
  if (same_regime && next) BlockCache::link(b, *next);
  return next;
}

// The next block, in a slice only if entering it needs no page-table walk.
[[gnu::always_inline]] inline const Hart::Block* Hart::next_enterable_block(const Block& b) {
  const Block* next = next_block(b);
  return next && slice_.in_slice() && !fetch_translation_kept(*next) ? nullptr : next;
}

// Threaded dispatch: each handler jumps to the next instruction's handler
// (one indirect jump per instruction, predicted per handler), and nothing
// retires until the block ends or settle() is asked (cur_ is the instruction
// executing). Loads, stores and the out-of-line instructions may stop the
// hart or abort the block; the others cannot. With `chain`, the blocks that
// follow run too, while chain_goes_on(). Not inlined: the handler table
// holds the addresses of its labels.
void Hart::run_insns(const Block* blk, uint32_t from, bool chain) {
  static const void* const kHandler[NUM_OPS] = {
#define AVP_HANDLER_ADDRESS(op) &&op_##op,
      AVP_RV_OPS(AVP_HANDLER_ADDRESS)
#undef AVP_HANDLER_ADDRESS
  };
  uint64_t* const x = hot_.s.x;
  hot_.chain_closed = !chain;
  for (;;) {
    const Insn* first = blk->insns.data();
    const Insn* end = first + blk->insns.size();
    const Insn* it = first + from;
    uint64_t pc = hot_.s.pc;
    hot_.lazy = blk;
    hot_.settled = from;
    if (hot_.part_settled) hot_.part_settled = false;  // stored only when set: the code loads the whole gate
    try {
      if (from == 0 && !blk->code) translated_again(*blk);  // entered through a link: counted here
      if (from == 0 && blk->code) {  // translated (hart_translate.cpp): the same steps in host code
        hot_.refresh_insn_bound();
        const JitStep r = blk->code(x);
        hot_.from_code();  // what a functional run's code counted down; the block it ended in
        pc = r.value;
        if (r.status >> 32 == kExitEnterFailed) {
          hot_.lazy = nullptr;  // the block that ended is counted, the next one not entered
          goto enter_failed;
        }
        if (hot_.lazy != blk) {  // the code went on to the blocks after it and ended in this one
          blk = hot_.lazy;
          first = blk->insns.data();
          end = first + blk->insns.size();
        }
        it = first + static_cast<uint32_t>(r.status);
        if (r.status >> 32 == kExitRetired) goto retired;
        if (r.status >> 32 == kExitDone) goto done;
        if (r.status >> 32 == kExitAborted) {
          --it;  // the last one that ran
          goto aborted;
        }
        if (std::exchange(kernel_needed_, false)) {  // a helper's NeedsKernel: as the handler below, without unwinds
          left_for_kernel(*blk, static_cast<uint32_t>(it - first));
          return;
        }
        if (std::exchange(threaded_from_load_, false)) {  // the load at it has not started
          pc = hot_.s.pc;
          goto threaded;
        }
        if (std::exchange(trap_pending_, false)) {  // a helper's trap: as the handler below, without its unwinds
          take_trap_left(*blk, static_cast<uint32_t>(it - first), pending_trap_);
          return;
        }
        std::rethrow_exception(std::exchange(translated_error_, nullptr));
      }
#define AVP_DISPATCH()      \
  do {                      \
    hot_.s.pc = pc;             \
    cur_ = it;              \
    goto* kHandler[it->op]; \
  } while (0)
#define AVP_NEXT()              \
  do {                          \
    if (++it == end) goto done; \
    AVP_DISPATCH();             \
  } while (0)
#define AVP_NEXT_CHECKED()                   \
  do {                                       \
    if (hot_.block_abort || hot_.stop) goto aborted; \
    AVP_NEXT();                              \
  } while (0)
#define AVP_OPERANDS()                          \
  const Insn& d = *it;                          \
  [[maybe_unused]] const uint64_t a = x[d.rs1]; \
  [[maybe_unused]] const uint64_t b = x[d.rs2]
    threaded:
      AVP_DISPATCH();
// A result in rd, then the next instruction (NEXT: AVP_NEXT, or AVP_NEXT_CHECKED after a load).
#define AVP_RESULT_THEN(op, e, NEXT) \
  op_##op : {                        \
    AVP_OPERANDS();                  \
    x[d.rd] = (e);                   \
    x[0] = 0;                        \
    pc += d.len;                     \
    NEXT();                          \
  }
#define AVP_RESULT(op, e) AVP_RESULT_THEN(op, e, AVP_NEXT)
#define AVP_LOAD(op, e) AVP_RESULT_THEN(op, e, AVP_NEXT_CHECKED)
      AVP_RV_RESULT_OPS(AVP_RESULT)
      AVP_RV_LOAD_OPS(AVP_LOAD)
#undef AVP_LOAD
#undef AVP_RESULT
#undef AVP_RESULT_THEN
#define AVP_STORE(op, T)                    \
  op_##op : {                               \
    AVP_OPERANDS();                         \
    store<T>(a + d.imm, static_cast<T>(b)); \
    pc += d.len;                            \
    AVP_NEXT_CHECKED();                     \
  }
      AVP_RV_STORE_OPS(AVP_STORE)
#undef AVP_STORE
#define AVP_BRANCH(op, c)               \
  op_##op : {                           \
    AVP_OPERANDS();                     \
    pc = (c) ? pc + d.imm : pc + d.len; \
    AVP_NEXT();                         \
  }
      AVP_RV_BRANCH_OPS(AVP_BRANCH)
#undef AVP_BRANCH
#define AVP_JUMP(op, t)          \
  op_##op : {                    \
    AVP_OPERANDS();              \
    const uint64_t target = (t); \
    x[d.rd] = pc + d.len;        \
    x[0] = 0;                    \
    pc = target;                 \
    AVP_NEXT();                  \
  }
      AVP_RV_JUMP_OPS(AVP_JUMP)
#undef AVP_JUMP
    op_FENCE : {
      pc += it->len;
      AVP_NEXT();
    }
#define AVP_HANDLER_LABEL(op) op_##op:
      AVP_RV_OTHER_OPS(AVP_HANDLER_LABEL)
#undef AVP_HANDLER_LABEL
    op_ILLEGAL : {
      if (slice_.in_slice() && other_needs_kernel(*it)) {  // as exec_other would throw, without the unwind
        left_for_kernel(*blk, static_cast<uint32_t>(it - first));
        return;
      }
      // An ECALL's trap without a throw, as translated code's (translated_other)
      // and the handler below: the block a slice left for the kernel at a
      // system call is resumed here (4-hart Linux boot: 4.3 k throws).
      if (it->op == ECALL) {
        if (const std::optional<TrapException> t = ecall()) {
          take_trap_left(*blk, static_cast<uint32_t>(it - first), *t);
          return;
        }
        pc += it->len;
        AVP_NEXT_CHECKED();
      }
      pc = exec_other(*it, pc);
      AVP_NEXT_CHECKED();
    }
#undef AVP_OPERANDS
#undef AVP_NEXT_CHECKED
#undef AVP_NEXT
#undef AVP_DISPATCH
    } catch (const TrapException&) {
      trap_left(*blk, static_cast<uint32_t>(it - first));
      throw;
    } catch (const NeedsKernel&) {  // before the instruction did anything
      left_for_kernel(*blk, static_cast<uint32_t>(it - first));
      return;
    } catch (...) {  // an error
      settle_to(static_cast<uint32_t>(it - first));
      hot_.lazy = nullptr;
      slice_.left(*blk);
      throw;
    }
  aborted:
    ++it;
    history_.end_block_early(static_cast<uint32_t>(it - first));
  done:
    if (hot_.settled == 0 && it == end) hot_.retire(*blk);
    else settle_to(static_cast<uint32_t>(it - first));
  retired:
    hot_.lazy = nullptr;
    if (!hot_.stop) hot_.s.pc = pc;
    if (!chain || !chain_goes_on()) return;
    blk = next_enterable_block(*blk);
    if (!blk) return;
    blk = &enter_block(*blk);
    from = 0;
  }
enter_failed:  // as enter_block above throwing, or a slice's chain ending before the block (no error)
  if (translated_error_) std::rethrow_exception(std::exchange(translated_error_, nullptr));
}

// Translated code going on to block `block` (BlockChain::enter). A block
// links only to blocks of its own fetch regime, so code of untranslated
// fetches (kTranslatedFetch false) need not ask whether the TLB still holds
// the next block's page.
template <bool kTranslatedFetch>
const uint8_t* Hart::translated_enter(void* hart, const void* block, uint64_t pc) noexcept {
  Hart& h = *static_cast<HartHotState*>(hart)->hart;
  const HartHotState::HelperCall call{h.hot_};
  const Block& b = *static_cast<const Block*>(block);
  // As run_insns between two blocks: the one that ended is counted, the next entered.
  h.hot_.s.pc = pc;
  if (kTranslatedFetch && !h.fetch_translation_held(b)) {
    // In a slice, the chain ends before the block unless the TLB still
    // holds its page: a page-table walk is the kernel's. After a change of
    // translation (b not live), the run loop enters it: the check may
    // replace it (translate_fetch_again).
    if (h.slice_.in_slice() ? !h.renew_fetch_translation(b) : !b.live) {
      h.hot_.lazy = nullptr;
      return nullptr;
    }
    return h.enter_translated(b, kQuickUntried);
  }
  // The common case without a call: enter_block with an I-cache that hits
  // quickly (block_abort is clear: the chain's checks found it so, and a
  // store to it here would stall the next block's load of the whole gate).
  uint32_t quick = 0;
  if (h.fetch_timed() && !h.hot_.fetch_quick_hit(b, quick)) return h.enter_translated(b, quick);
  h.hot_.history.record(&b);
  h.hot_.lazy = &b;
  h.hot_.settled = 0;
  return reinterpret_cast<const uint8_t*>(b.code) + kTranslatedInnerEntry;
}

template const uint8_t* Hart::translated_enter<false>(void*, const void*, uint64_t) noexcept;
template const uint8_t* Hart::translated_enter<true>(void*, const void*, uint64_t) noexcept;

const uint8_t* Hart::enter_translated(const Block& b, uint32_t quick) noexcept {
  hot_.lazy = nullptr;  // the block that ended is counted; the next one is not entered until this succeeds
  try {
    enter_block(b, quick);  // b itself: a live block is never replaced
  } catch (...) {
    failed();
    return nullptr;
  }
  hot_.lazy = &b;
  hot_.settled = 0;
  return reinterpret_cast<const uint8_t*>(b.code) + kTranslatedInnerEntry;
}

uint32_t Hart::index_of_pc(const Block& b) const {
  uint32_t n = 0;
  for (uint64_t pc = b.pc; n + 1 < b.insns.size() && pc != hot_.s.pc; ++n) pc += b.insns[n].len;
  return n;
}

void Hart::left_for_kernel(const Block& b, uint32_t at) {
  settle_to(at);  // the instruction at `at` has not started
  hot_.lazy = nullptr;
  slice_.left(b);
  slice_.resume_at(at);
}

void Hart::trap_left(const Block& b, uint32_t at) {
  settle_to(at);  // the instruction at `at` has not retired
  hot_.lazy = nullptr;
  trapped_in(b);
}

void Hart::take_trap_left(const Block& b, uint32_t at, const TrapException& t) {
  trap_left(b, at);
  if (slice_.in_slice()) throw t;  // the slice keeps it
  take_trap(t.cause, t.tval);
}

void Hart::trapped_in(const Block& b) {
  // The trapping instruction (at hot_.s.pc) is the last one the history keeps.
  history_.end_block_early(index_of_pc(b) + 1);
}

void Hart::run_block(const Block& block, uint32_t from, bool resumed) {
  // A block a slice left has been timed and recorded already.
  const Block& b = resumed ? block : enter_block(block);
  // Debuggers, tracers and armed triggers see every instruction; without them the loop has no hook branches.
  if (!observed()) return run_insns(&b, from, false);
  try {
    run_observed(b, from);
  } catch (const TrapException&) {
    trapped_in(b);
    throw;
  }
}

void Hart::run_chain(const Block& first) {
  update_irq_gate();  // also after a write of mip or mie that was not the hart's (a debugger's, through state())
  run_insns(&enter_block(first), 0, true);
}

}  // namespace avp

#include "harts/block_translator.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <vector>

#include "inline_accesses.h"
#include "rv_semantics.h"
#include "translated_chain.h"
#include "translated_divide.h"
#include "x86_asm.h"

namespace avp {

#if defined(__x86_64__)

bool block_translation_available() { return true; }

namespace {

using rv::Insn;
using x86::Reg;

// Operations translated code calls rather than inlines (as rv_semantics.h defines them).
uint64_t op_mulhsu(uint64_t a, uint64_t b) { return rv::sem::mulhsu(a, b); }

constexpr Reg kGuestRegs = x86::R15;  // the guest register file (x)
// Callee-saved host registers that hold the block's most used guest registers.
constexpr Reg kCached[] = {x86::RBX, x86::RBP, x86::R12, x86::R13, x86::R14};
constexpr Reg kSaved[] = {x86::R15, x86::R14, x86::R13, x86::R12, x86::RBP, x86::RBX};  // pushed in this order

bool is_load(unsigned op) { return op >= rv::LB && op <= rv::LWU; }
bool is_store(unsigned op) { return op >= rv::SB && op <= rv::SD; }
bool is_branch(unsigned op) { return op >= rv::BEQ && op <= rv::BGEU; }
// Instructions the code does itself, neither through a helper nor as a no-op.
bool is_inline(unsigned op) { return op >= rv::LUI && op < rv::FENCE && !is_load(op) && !is_store(op); }
bool reads_rs2(unsigned op) {
  return is_branch(op) || is_store(op) || (op >= rv::ADD && op <= rv::AND) || (op >= rv::ADDW && op <= rv::SRAW) ||
         (op >= rv::MUL && op <= rv::REMUW);
}
bool reads_rs1(unsigned op) { return op != rv::LUI && op != rv::AUIPC && op != rv::JAL; }
bool writes_rd(unsigned op) { return !is_branch(op) && !is_store(op); }

class Translator {
 public:
  Translator(const Insn* insns, size_t n, uint64_t pc, const TranslationHelpers& h, const BlockRetire* r,
             const BlockChain* c)
      : insns_(insns), n_(n), pc_(pc), helpers_(h), retire_(r), chain_(r ? c : nullptr) {}

  const DirectJumps& jumps() const { return jumps_; }
  std::vector<uint8_t>& translate() {
    loops_to_start_ = branches_to_start();
    counted_ = counted_loop();
    choose_cached();
    if (counted_) loop_.left = free_cached();
    for (Reg r : kSaved) a_.push(r);
    a_.alu_imm(x86::SUB, x86::RSP, kFrameSize);  // the stack stays 16-byte aligned at calls
    for (const int32_t slot : {kLoopGranted, kLoopPrimed})  // no counted loop (translated_chain.h)
      a_.alu_mem_imm(x86::AND, x86::RSP, slot, 0);
    a_.mov(kGuestRegs, x86::RDI);
    if (a_.size() != kTranslatedInnerEntry) {  // the encoding changed: no code
      a_.bytes().clear();
      return a_.bytes();
    }
    note_written_first();
    reload(true);
    if (counted_) a_.zero(loop_.left);
    body_ = a_.size();
    uint64_t pc = pc_;
    bool ended = false;
    for (uint32_t i = 0; i < n_ && !ended; ++i) {
      ended = instruction(i, pc);
      pc += insns_[i].len;
    }
    if (!ended) exit(pc);
    const bool shared_tail = !to_tail_.empty();
    if (shared_tail && a_.drop_last_jmp(to_tail_.back())) to_tail_.pop_back();  // the tail follows
    for (size_t f : to_tail_) a_.bind(f);
    tail(shared_tail);
    std::vector<size_t> settled;
    for (const EndStub& q : end_stubs_) emit_end_stub(a_, *chain_, q, retired_, settled);
    if (!settled.empty()) unretire(settled);
    if (chain_ && chain_->self) {
      jumps_.entry = static_cast<uint32_t>(a_.size());
      to_frame_exit_.push_back(emit_direct_entry(a_, *chain_));
    }
    for (const Cold& c : colds_) cold(c);  // before the stubs: their helper calls add stubs
    for (const Stub& s : stubs_) stub(s);
    for (size_t f : to_epilogue_) a_.bind(f);
    write_back();
    for (size_t f : to_frame_exit_) a_.bind(f);
    a_.alu_imm(x86::ADD, x86::RSP, kFrameSize);
    for (size_t i = std::size(kSaved); i-- > 0;) a_.pop(kSaved[i]);
    a_.ret();
    return a_.bytes();
  }

 private:
  // An access whose fast path is in the code (`resume`: after it).
  struct Cold {
    InlineAccess fast;
    uint32_t index;
    uint64_t pc;
    size_t resume;
  };
  // An out-of-line exit after helper call `index` reported something other than kExitDone.
  struct Stub {
    size_t fixup;
    uint32_t index;
    uint64_t next_pc;
    bool load, other;  // other: the helper returned the next pc
    bool diverted;     // other: the next pc is not the next instruction's
  };

  void choose_cached() {
    unsigned uses[32] = {};
    for (size_t i = 0; i < n_; ++i) {
      const Insn& d = insns_[i];
      if (!is_inline(d.op) && !is_load(d.op) && !is_store(d.op)) continue;
      if (reads_rs1(d.op)) ++uses[d.rs1];
      if (reads_rs2(d.op)) ++uses[d.rs2];
      if (writes_rd(d.op)) ++uses[d.rd];
    }
    uses[0] = 0;
    for (Reg host : kCached) {
      if (counted_ && host == kCached[std::size(kCached) - 1]) break;  // left for the passes' count
      const unsigned g = static_cast<unsigned>(std::max_element(uses, uses + 32) - uses);
      if (uses[g] < 2) break;  // one access: memory is as good
      host_[g] = static_cast<int8_t>(host);
      uses[g] = 0;
    }
  }
  // The guest registers kept in host registers that the block writes before
  // it reads them and before anything that may leave it early (a helper, a
  // trap; inline instructions cannot): their values at entry are never used
  // nor written back, so the entry does not load them.
  void note_written_first() {
    bool read[32] = {};
    for (size_t i = 0; i < n_ && is_inline(insns_[i].op); ++i) {
      const Insn& d = insns_[i];
      if (reads_rs1(d.op)) read[d.rs1] = true;
      if (reads_rs2(d.op)) read[d.rs2] = true;
      if (writes_rd(d.op) && !read[d.rd]) written_first_[d.rd] = true;
    }
  }
  // The registers kept in host registers, from memory (`at_entry`: not those written first).
  void reload(bool at_entry = false) {
    for (unsigned g = 1; g < 32; ++g)
      if (host_[g] >= 0 && !(at_entry && written_first_[g])) a_.load(static_cast<Reg>(host_[g]), kGuestRegs, 8 * g);
  }
  // The registers written so far; with `all`, every one in a host register.
  void write_back(bool all = false) {
    for (unsigned g = 1; g < 32; ++g)
      if (host_[g] >= 0 && (all || written_[g])) a_.store(kGuestRegs, 8 * g, static_cast<Reg>(host_[g]));
  }
  // With rax the next pc: on to the next block through the links (the
  // lookup, where direct jumps lead until aimed: DirectJumps), or to the
  // code after this (the exit as retired) when the chain ends here.
  void chain(std::vector<size_t> end) {
    jumps_.lookup = static_cast<uint32_t>(a_.size());
    for (size_t f : unaimed_) a_.bind(f);
    for (size_t f : emit_chain_links(a_, *chain_)) end.push_back(f);
    for (size_t f : to_enter_) a_.bind(f);
    write_back();  // the next block reloads what it keeps in registers
    to_frame_exit_.push_back(emit_enter_next(a_, *chain_));
    for (size_t f : end) a_.bind(f);
    for (size_t f : to_retired_) a_.bind(f);
    retired_ = a_.size();
  }
  // A block end with a next pc of its own (DirectJumps), rax holding it:
  // the retire and the chain's checks, then the registers written back and
  // the direct jump (aimed later). An end of the same pc again goes to the
  // first one's; false, with nothing done, when the block has no direct
  // jumps or no more.
  bool own_tail(uint64_t pc) {
    if (!retire_ || !chain_ || !chain_->self) return false;
    for (size_t i = 0; i < std::size(jumps_.pc); ++i)
      if (jumps_.at[i] && jumps_.pc[i] == pc) {
        a_.bind(a_.jmp(), own_tails_[i]);
        return true;
      }
    const size_t i = std::count_if(std::begin(jumps_.at), std::end(jumps_.at), [](uint32_t at) { return at != 0; });
    if (i == std::size(jumps_.pc)) return false;
    own_tails_[i] = a_.size();
    if (const std::optional<size_t> settled = retire_unless_settled()) to_plain_.push_back(*settled);
    for (size_t f : emit_chain_stops(a_, *chain_, end_stubs_, false, count_step(), calls_helpers_))
      to_retired_.push_back(f);
    write_back();
    unaimed_.push_back(a_.jmp());
    jumps_.pc[i] = pc;
    jumps_.at[i] = static_cast<uint32_t>(unaimed_.back());
    return true;
  }
  // Whether the block's last instruction is a branch or jump to its start.
  bool branches_to_start() const {
    if (n_ == 0) return false;
    const Insn& last = insns_[n_ - 1];
    uint64_t pc = pc_;
    for (size_t i = 0; i + 1 < n_; ++i) pc += insns_[i].len;
    return (is_branch(last.op) || last.op == rv::JAL) && pc + last.imm == pc_;
  }
  // Whether the block is a counted loop (translated_chain.h, CountedLoop):
  // it branches to its own start and enters itself in the code, and every
  // instruction before the branch is done inline (an access by its fast
  // path; its other ways call a helper after retiring the counted passes,
  // Translator::cold); if so, loop_ describes it. It keeps one guest
  // register fewer in a host register: the count of its passes takes that one.
  bool counted_loop() {
    if (!chain_ || !chain_->inline_enter || !chain_->self || !loops_to_start_) return false;
    loop_ = {chain_, retire_, n_, x86::RSP, 0};
    for (size_t i = 0; i + 1 < n_; ++i) {
      const unsigned op = insns_[i].op;
      if (is_inline(op) || op == rv::FENCE) continue;
      const InlineLoads* fast = nullptr;
      if (is_load(op)) fast = helpers_.inline_loads;
      else if (is_store(op) && helpers_.inline_stores) fast = &helpers_.inline_stores->region;
      if (!fast) return false;
      if (fast->timed) loop_.hit_ps += fast->hit_ps;
    }
    return true;
  }
  // A kCached register no guest register is kept in (one is, in a counted loop).
  Reg free_cached() const {
    for (Reg r : kCached)
      if (std::find(std::begin(host_), std::end(host_), static_cast<int8_t>(r)) == std::end(host_)) return r;
    return x86::RSP;
  }
  // What run_insns adds when the block ran to its end (HartHotState::retire),
  // into the hart in r8, unless a helper has counted part of the block:
  // returns the jump taken then. A block that calls no helper needs no
  // test: settled is 0 whenever code is entered at a block's start. A
  // chained block's checks find it in the gate instead (part_settled), out
  // of the hot path, and take the retire back (unretire). The passes of a
  // counted loop are retired first (none when settled: a helper was called,
  // after they were).
  std::optional<size_t> retire_unless_settled() {
    const BlockRetire& r = *retire_;
    hart_into(x86::R8);
    std::optional<size_t> settled;
    if (calls_helpers_ && !chain_) {
      a_.alu_mem_imm(x86::CMP, x86::R8, r.settled, 0, false);
      settled = a_.jcc(x86::NE);
    }
    if (counted_) emit_counted_passes(a_, loop_, x86::R8);
    for_each_retired(chain_, r, n_, [this](int32_t field, uint64_t v, x86::Reg kept) {
      if (kept == x86::RSP) return add_to_hart(x86::ADD, field, v);
      // minstret and the time in registers as well, for the chain's checks (translated_chain.h).
      a_.load(kept, x86::R8, field);
      if (v <= INT32_MAX) a_.alu_imm(x86::ADD, kept, static_cast<int32_t>(v));
      else a_.mov_imm(x86::RCX, v), a_.alu(x86::ADD, kept, x86::RCX);
      a_.store(x86::R8, field, kept);
    });
    return settled;
  }
  // What the retire takes from a functional run's count (chain_count_step; 0 in a timed run).
  int32_t count_step() const {
    return chain_ && chain_->count >= 0 ? static_cast<int32_t>(chain_count_step(*chain_, *retire_, n_)) : 0;
  }
  // The hart's (r8) field `op` (ADD or SUB) v.
  void add_to_hart(x86::Alu op, int32_t field, uint64_t v) {
    if (v <= INT32_MAX) {  // the usual case: one instruction
      a_.alu_mem_imm(op, x86::R8, field, static_cast<int32_t>(v));
      return;
    }
    a_.mov_imm(x86::RCX, v);
    a_.alu_to_mem(op, x86::R8, field, x86::RCX);
  }
  // Where the gate found that a helper counted part of the block (the
  // jumps `settled`; r8 the hart, rax the next pc): the retire's additions
  // taken back (a counted loop's passes had been retired before the
  // helper), then the exit as settled, the run loop counting the rest.
  void unretire(const std::vector<size_t>& settled) {
    for (size_t f : settled) a_.bind(f);
    for_each_retired(chain_, *retire_, n_,
                     [this](int32_t field, uint64_t v, x86::Reg) { add_to_hart(x86::SUB, field, v); });
    a_.mov_imm(x86::RDX, n_);
    to_epilogue_.push_back(a_.jmp());
  }
  // A branch to the block's own start: the tail's steps at the branch, with
  // nothing to look up (emit_self_loop), so each such branch has its own
  // host branches to predict. A block a helper settled leaves as settled.
  // A counted loop's pass while the grant lasts is only the count.
  void self_loop() {
    if (counted_) {
      a_.test(loop_.left, loop_.left);
      const size_t ungranted = a_.jcc(x86::E);
      a_.alu_imm(x86::SUB, loop_.left, 1);
      a_.bind(a_.jmp(), body_);
      a_.bind(ungranted);
    }
    a_.mov_imm(x86::RAX, pc_);
    if (const std::optional<size_t> settled = retire_unless_settled()) to_plain_.push_back(*settled);
    for (size_t f : emit_self_loop(a_, *chain_, body_, count_step(), calls_helpers_, counted_ ? &loop_ : nullptr,
                                   to_enter_, end_stubs_))
      to_retired_.push_back(f);
  }
  // The hart into host register r (TranslationHelpers::hart_from_regs).
  void hart_into(Reg r) { a_.lea(r, kGuestRegs, helpers_.hart_from_regs); }
  // Guest register g into host register r.
  void into(Reg r, unsigned g) {
    if (g == 0) a_.zero(r);
    else if (host_[g] == r) return;  // there already
    else if (host_[g] >= 0) a_.mov(r, static_cast<Reg>(host_[g]));
    else a_.load(r, kGuestRegs, 8 * g);
  }
  // Guest register g as a source operand: its host register, or loaded into tmp.
  Reg source(unsigned g, Reg tmp) {
    if (g != 0 && host_[g] >= 0) return static_cast<Reg>(host_[g]);
    into(tmp, g);
    return tmp;
  }
  void result(unsigned g, Reg r) {
    if (g == 0) return;
    written_[g] = true;
    if (host_[g] == r) return;  // computed in place
    if (host_[g] >= 0) a_.mov(static_cast<Reg>(host_[g]), r);
    else a_.store(kGuestRegs, 8 * g, r);
  }
  // The block ran to its end: the next pc in rax, then its own tail or the shared one.
  void exit(uint64_t next_pc) {
    if (next_pc == pc_ && chain_ && chain_->inline_enter && chain_->self) return self_loop();
    a_.mov_imm(x86::RAX, next_pc);
    if (!own_tail(next_pc)) to_tail_.push_back(a_.jmp());
  }
  // The shared tail with the next pc the code computed in rax; `likely`: the
  // one it most often is, which gets its own tail.
  void exit_to_rax(std::optional<uint64_t> likely = std::nullopt) {
    if (likely && retire_ && chain_ && chain_->self) {
      if (rv::sem::sx32(*likely) == *likely) {
        a_.alu_imm(x86::CMP, x86::RAX, static_cast<int32_t>(*likely));
      } else {
        a_.mov_imm(x86::RDX, *likely);
        a_.alu(x86::CMP, x86::RAX, x86::RDX);
      }
      to_tail_.push_back(a_.jcc(x86::NE));
      return exit(*likely);
    }
    to_tail_.push_back(a_.jmp());
  }
  // The shared tail (`entered`: a block end goes there) and what the own
  // tails share: the exits as retired (the chain ended) and as settled.
  void tail(bool entered) {
    if (!retire_) {
      a_.mov_imm(x86::RDX, n_);
      to_epilogue_.push_back(a_.jmp());
      return;
    }
    std::vector<size_t> end;
    if (entered) {
      if (const std::optional<size_t> settled = retire_unless_settled()) to_plain_.push_back(*settled);
      if (chain_) end = emit_chain_stops(a_, *chain_, end_stubs_, false, count_step(), calls_helpers_);
    }
    if (chain_) chain(end);
    a_.mov_imm(x86::RDX, n_ | uint64_t{kExitRetired} << 32);
    to_epilogue_.push_back(a_.jmp());
    if (to_plain_.empty()) return;
    for (size_t f : to_plain_) a_.bind(f);
    a_.mov_imm(x86::RDX, n_);
    to_epilogue_.push_back(a_.jmp());
  }
  // Division i: one x86 division gives the quotient and the remainder, so a
  // DIV and a REM of the same operands later in the block (REM then DIV, as
  // compilers emit for a number's digits, or the order RISC-V suggests for
  // fusing) divide once; the later one's result waits in r9, which the
  // inline operations between them leave alone.
  void divide(uint32_t i) {
    const Insn& d = insns_[i];
    if (i == fused_) {
      fused_ = kNone;
      return a_.mov(x86::RAX, x86::R9);
    }
    into(x86::RCX, d.rs2);
    into(x86::RAX, d.rs1);
    const uint32_t later = other_half(i);
    if (later == kNone) return emit_divide(a_, d.op);
    emit_divide(a_, d.op, true);
    const bool rem = is_remainder(d.op);
    a_.mov(x86::R9, rem ? x86::RAX : x86::RDX);
    if (rem) a_.mov(x86::RAX, x86::RDX);
    fused_ = later;
  }
  // The instruction after division i that divides the same operands for the
  // other result (its DIV for a REM, its REM for a DIV), with only inline
  // operations between that write neither operand; kNone if none. Division
  // i must not write its operands either.
  uint32_t other_half(uint32_t i) const {
    static constexpr std::pair<unsigned, unsigned> kHalves[] = {
        {rv::DIV, rv::REM}, {rv::DIVU, rv::REMU}, {rv::DIVW, rv::REMW}, {rv::DIVUW, rv::REMUW}};
    const Insn& d = insns_[i];
    unsigned other = 0;
    for (const auto& [div, rem] : kHalves)
      if (d.op == div || d.op == rem) other = d.op == div ? rem : div;
    if (d.rd != 0 && (d.rd == d.rs1 || d.rd == d.rs2)) return kNone;
    for (uint32_t j = i + 1; j < n_; ++j) {
      const Insn& e = insns_[j];
      if (e.op == other) return e.rs1 == d.rs1 && e.rs2 == d.rs2 ? j : kNone;
      // Not a call (MULHSU's, a helper's, a fast path's: they may use r9), nor a division (its own pair would take r9).
      if (!is_inline(e.op) || is_division(e.op) || e.op == rv::MULHSU) return kNone;
      if (e.rd != 0 && (e.rd == d.rs1 || e.rd == d.rs2) && writes_rd(e.op)) return kNone;
    }
    return kNone;
  }
  void call_pure(uint64_t (*fn)(uint64_t, uint64_t), const Insn& d) {
    into(x86::RDI, d.rs1);
    into(x86::RSI, d.rs2);
    a_.call(reinterpret_cast<const void*>(fn));
  }
  // The helper of access i at pc: (hart, address, pc, insn) for a load,
  // (hart, address, value, pc, insn) for a store; rsi, rdx and rdi set.
  void call_access_helper(uint32_t i, uint64_t pc) {
    const Insn& d = insns_[i];
    const bool load = is_load(d.op);
    a_.mov_imm(load ? x86::RDX : x86::RCX, pc);
    a_.mov_imm(load ? x86::RCX : x86::R8, reinterpret_cast<uint64_t>(&d));
    a_.call(load ? reinterpret_cast<const void*>(helpers_.load[d.op - rv::LB])
                 : reinterpret_cast<const void*>(helpers_.store[d.op - rv::SB]));
    checked(i, pc + d.len, load, false);
  }
  // An access's ways other than its fast path, after the block's code, so
  // that the fast path falls through: another region, else the helper; then
  // back to after the fast path.
  void cold(const Cold& c) {
    const AccessAgain again = emit_access_again(a_, c.fast);
    for (size_t f : again.done) a_.bind(f, c.resume);
    for (size_t f : c.fast.to_helper) a_.bind(f);
    for (size_t f : again.to_helper) a_.bind(f);
    if (counted_) emit_counted_passes(a_, loop_, x86::RDI);  // the helper sees the hart as it is
    call_access_helper(c.index, c.pc);
    hart_into(x86::RDI);  // as the fast path leaves it
    a_.bind(a_.jmp(), c.resume);
  }
  void stub(const Stub& s) {
    a_.bind(s.fixup);
    if (!s.diverted) {
      a_.alu_imm(x86::CMP, x86::RDX, kExitTrapped);
      const size_t aborted = a_.jcc(x86::NE);
      a_.mov_imm(x86::RDX, s.index | uint64_t{kExitTrapped} << 32);
      to_epilogue_.push_back(a_.jmp());
      a_.bind(aborted);
    }
    if (s.load) result(insns_[s.index].rd, x86::RAX);
    if (!s.other) a_.mov_imm(x86::RAX, s.next_pc);
    a_.mov_imm(x86::RDX, (s.index + 1) | uint64_t{kExitAborted} << 32);
    to_epilogue_.push_back(a_.jmp());
  }
  void checked(uint32_t i, uint64_t next_pc, bool load, bool other) {
    a_.test(x86::RDX, x86::RDX);
    stubs_.push_back({a_.jcc(x86::NE), i, next_pc, load, other, false});
  }

  bool instruction(uint32_t i, uint64_t pc);
  // An F or D instruction done in the code (InlineFp), if it has code for
  // it: the jumps to its helper call (nothing changed) are added to
  // `to_other`, those taken when it is done to `done`.
  void fp(const Insn& d, std::vector<size_t>& to_other, std::vector<size_t>& done);
  void fp_arith(const Insn& d, std::vector<size_t>& to_other, std::vector<size_t>& done);
  void fp_at_least(x86::Xmm v, uint64_t least, bool single, std::vector<size_t>& to_other);
  void fp_zero(x86::Xmm v, bool single, std::vector<size_t>& to_other);
  void fp_two_sum(bool subtract, bool single);
  void box(x86::Reg r);
  void fp_boxed(unsigned r, std::vector<size_t>& to_other);
  int32_t f_reg(unsigned r) const;
  size_t fp_if_nx(bool accrued);
  void fp_not_nan(unsigned r, bool single, std::vector<size_t>& to_other);
  static constexpr uint64_t kInfinityBits = 0x7FF0000000000000ull, kInfinityBits32 = 0x7F800000;
  static constexpr uint64_t kTwiceLeastNormal32 = 0x01000000;
  bool control(const Insn& d, uint64_t pc);
  // r op= guest register rs2 (from its host register, memory or, for x0, an immediate 0).
  void with_rs2(x86::Alu op, x86::Reg r, unsigned rs2, bool w = true);
  void alu(uint32_t i, uint64_t pc);
  x86::Reg destination(const Insn& d) const;

  const Insn* insns_;
  const size_t n_;
  const uint64_t pc_;
  const TranslationHelpers& helpers_;
  const BlockRetire* retire_;
  const BlockChain* chain_;  // only with retire_
  x86::Asm a_;
  int8_t host_[32] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  bool written_[32] = {};
  bool written_first_[32] = {};  // note_written_first
  std::vector<Cold> colds_;
  std::vector<Stub> stubs_;
  std::vector<size_t> to_tail_, to_epilogue_;
  std::vector<size_t> to_frame_exit_;  // registers written back already
  std::vector<size_t> to_enter_;       // the tail's entering of the block in rcx (registers not written back)
  std::vector<size_t> to_retired_;     // the tail's exit as retired (the chain ended)
  size_t retired_ = 0;                 // where it is
  std::vector<EndStub> end_stubs_;
  size_t body_ = 0;                     // where the code continues after loading the registers
  DirectJumps jumps_;
  size_t own_tails_[2] = {};            // where the own tail of jumps_.pc[i] starts (own_tail)
  std::vector<size_t> unaimed_;         // the direct jumps, to the lookup until aimed
  std::vector<size_t> to_plain_;        // the exits as settled (a helper counted part of the block)
  static constexpr uint32_t kNone = ~0u;
  uint32_t fused_ = kNone;  // the division whose result is in r9 (Translator::divide)
  bool calls_helpers_ = false;  // the hart's load, store or other helper, which may settle the block
  bool loops_to_start_ = false;  // branches_to_start
  bool counted_ = false;        // a counted loop (counted_loop)
  bool hart_in_rdi_ = false;    // rdi holds the hart (the accesses' fast paths need it there)
  CountedLoop loop_{};                  // with counted_
};

// One instruction; true when it ended the block (the code has left).
bool Translator::instruction(uint32_t i, uint64_t pc) {
  const Insn& d = insns_[i];
  const uint64_t next = pc + d.len;
  if (!is_load(d.op) && !is_store(d.op) && !(is_inline(d.op) && d.op != rv::MULHSU)) hart_in_rdi_ = false;  // a call
  if (is_load(d.op) || is_store(d.op)) {
    into(x86::RSI, d.rs1);
    if (d.imm) a_.alu_imm(x86::ADD, x86::RSI, static_cast<int32_t>(d.imm));
    const bool load = is_load(d.op);
    if (!load) into(x86::RDX, d.rs2);
    if (!hart_in_rdi_) hart_into(x86::RDI);
    hart_in_rdi_ = true;  // the fast paths keep it; after a helper call it is computed again (Translator::cold)
    calls_helpers_ = true;  // here, or in the cold code after the tail, which tests settled
    // The fast path in the code, if any, falls through when done; its other
    // ways and the helper call are out of the way (Translator::cold).
    if (load ? helpers_.inline_loads != nullptr : helpers_.inline_stores != nullptr) {
      InlineAccess fast = load ? emit_inline_load(a_, *helpers_.inline_loads, d.op, loops_to_start_)
                               : emit_inline_store(a_, *helpers_.inline_stores, d.op, loops_to_start_);
      colds_.push_back({std::move(fast), i, pc, a_.size()});
    } else {
      call_access_helper(i, pc);
      hart_in_rdi_ = false;
    }
    if (load) result(d.rd, x86::RAX);
    return false;
  }
  if (is_branch(d.op) || d.op == rv::JAL || d.op == rv::JALR) return control(d, pc), true;
  if (is_inline(d.op)) {
    alu(i, pc);
    return false;
  }
  if (d.op == rv::FENCE) return false;  // memory is coherent
  // An F or D instruction the code may do itself (InlineFp), else as the rest.
  std::vector<size_t> fp_other, fp_done;
  if (helpers_.inline_fp) fp(d, fp_other, fp_done);
  for (size_t f : fp_other) a_.bind(f);
  // Everything else runs in the hart (exec_other), which reads and writes the registers in memory.
  // All of them go there: a block that loops in its own code comes back here
  // with registers that instructions after this one wrote.
  write_back(true);
  hart_into(x86::RDI);
  a_.mov_imm(x86::RSI, pc);
  a_.mov_imm(x86::RDX, reinterpret_cast<uint64_t>(&d));
  calls_helpers_ = true;
  a_.call(reinterpret_cast<const void*>(helpers_.other));
  reload();
  checked(i, 0, false, true);
  if (i + 1 == n_) {  // its next pc is the block's, most often the next instruction's
    exit_to_rax(next);
    if (!fp_done.empty()) {
      for (size_t f : fp_done) a_.bind(f);
      exit(next);
    }
    return true;
  }
  a_.mov_imm(x86::RCX, next);
  a_.alu(x86::CMP, x86::RAX, x86::RCX);
  stubs_.push_back({a_.jcc(x86::NE), i, 0, false, true, true});
  for (size_t f : fp_done) a_.bind(f);
  return false;
}

void Translator::fp(const Insn& d, std::vector<size_t>& to_other, std::vector<size_t>& done) {
  using namespace x86;
  const InlineFp& p = *helpers_.inline_fp;
  enum Kind { Load, Store, ToX, FromX, Sign, Compare, Classify, MinMax, Arith, Fused, Convert, ToInt, Precision } kind;
  switch (d.op) {
    case rv::FLD: case rv::FLW: kind = Load; break;
    case rv::FSD: case rv::FSW: kind = Store; break;
    case rv::FMV_X_D: case rv::FMV_X_W: kind = ToX; break;
    case rv::FMV_D_X: case rv::FMV_W_X: kind = FromX; break;
    case rv::FADD_D: case rv::FSUB_D: case rv::FMUL_D: case rv::FDIV_D: case rv::FSQRT_D:
    case rv::FADD_S: case rv::FSUB_S: case rv::FMUL_S: case rv::FDIV_S: case rv::FSQRT_S: kind = Arith; break;
    case rv::FMADD_D: case rv::FMSUB_D: case rv::FNMSUB_D: case rv::FNMADD_D:
    case rv::FMADD_S: case rv::FMSUB_S: case rv::FNMSUB_S: case rv::FNMADD_S: kind = Fused; break;
    case rv::FCVT_D_W: case rv::FCVT_D_L: case rv::FCVT_S_W: case rv::FCVT_S_L:
    case rv::FCVT_D_WU: case rv::FCVT_D_LU: case rv::FCVT_S_WU: case rv::FCVT_S_LU: kind = Convert; break;
    case rv::FSGNJ_D: case rv::FSGNJN_D: case rv::FSGNJX_D:
    case rv::FSGNJ_S: case rv::FSGNJN_S: case rv::FSGNJX_S: kind = Sign; break;
    case rv::FEQ_D: case rv::FLT_D: case rv::FLE_D: case rv::FEQ_S: case rv::FLT_S: case rv::FLE_S: kind = Compare; break;
    case rv::FCVT_W_D: case rv::FCVT_L_D: case rv::FCVT_W_S: case rv::FCVT_L_S:
    case rv::FCVT_WU_D: case rv::FCVT_LU_D: case rv::FCVT_WU_S: case rv::FCVT_LU_S: kind = ToInt; break;
    case rv::FCVT_S_D: case rv::FCVT_D_S: kind = Precision; break;
    case rv::FCLASS_D: case rv::FCLASS_S: kind = Classify; break;
    case rv::FMIN_D: case rv::FMAX_D: case rv::FMIN_S: case rv::FMAX_S: kind = MinMax; break;
    default: return;
  }
  // A float operand (NaN-boxed, else the hart reads a NaN), or a double's.
  const bool single = d.op == rv::FSGNJ_S || d.op == rv::FSGNJN_S || d.op == rv::FSGNJX_S || d.op == rv::FEQ_S ||
                      d.op == rv::FLT_S || d.op == rv::FLE_S || d.op == rv::FCVT_W_S || d.op == rv::FCVT_L_S ||
                      d.op == rv::FCVT_WU_S || d.op == rv::FCVT_LU_S || d.op == rv::FCVT_D_S || d.op == rv::FMIN_S ||
                      d.op == rv::FMAX_S || d.op == rv::FCLASS_S;
  // The conversions between F and D values and unsigned integers.
  const bool is_unsigned = d.op == rv::FCVT_D_WU || d.op == rv::FCVT_D_LU || d.op == rv::FCVT_S_WU ||
                           d.op == rv::FCVT_S_LU || d.op == rv::FCVT_WU_D || d.op == rv::FCVT_LU_D ||
                           d.op == rv::FCVT_WU_S || d.op == rv::FCVT_LU_S;
  // Rounding to nearest even (rm 0, or 7 with frm 0); a conversion to an
  // integer also toward zero (rm 1), as C's casts do.
  const bool rounds = kind >= Arith;
  if ((kind == Load && !helpers_.inline_loads) || (kind == Store && !helpers_.inline_stores) ||
      (kind == Fused && !p.fma) || (rounds && d.rm != 0 && d.rm != 7 && !(kind == ToInt && d.rm == 1)))
    return;
  // mstatus.FS (bits 13-14): Dirty for a result in f (which then leaves it
  // as it is) and for an operation that may raise a flag, else not Off.
  const bool writes_f = kind != Store && kind != ToX && kind != Compare && kind != Classify;
  a_.load32(RAX, kGuestRegs, p.mstatus);
  a_.alu_imm(AND, RAX, 0x6000, false);
  if (writes_f) a_.alu_imm(CMP, RAX, 0x6000, false);
  to_other.push_back(a_.jcc(writes_f ? NE : E));
  if (rounds && d.rm == 7) {
    a_.load32(RCX, kGuestRegs, p.frm);
    a_.test(RCX, RCX, false);
    to_other.push_back(a_.jcc(NE));
  }
  switch (kind) {
    case Load: case Store: {
      into(RSI, d.rs1);
      if (d.imm) a_.alu_imm(ADD, RSI, static_cast<int32_t>(d.imm));
      if (kind == Store) a_.load(RDX, kGuestRegs, f_reg(d.rs2));
      hart_into(RDI);
      const bool wide = d.op == rv::FLD || d.op == rv::FSD;
      const InlineAccess fast =
          kind == Load ? emit_inline_load(a_, *helpers_.inline_loads, wide ? rv::LD : rv::LWU, loops_to_start_)
                       : emit_inline_store(a_, *helpers_.inline_stores, wide ? rv::SD : rv::SW, loops_to_start_);
      std::vector<size_t> hit{a_.jmp()};
      const AccessAgain again = emit_access_again(a_, fast);
      hit.insert(hit.end(), again.done.begin(), again.done.end());
      for (const std::vector<size_t>* helper : {&fast.to_helper, &again.to_helper})
        to_other.insert(to_other.end(), helper->begin(), helper->end());
      to_other.push_back(a_.jmp());  // what falls through to the helper call
      if (kind == Store) {
        done.insert(done.end(), hit.begin(), hit.end());
        return;
      }
      for (size_t f : hit) a_.bind(f);
      if (!wide) box(RAX);
      a_.store(kGuestRegs, f_reg(d.rd), RAX);
      break;
    }
    case ToX:  // fmv.x.w: the low word, sign-extended
      a_.load(RAX, kGuestRegs, f_reg(d.rs1));
      if (d.op == rv::FMV_X_W) a_.movsxd(RAX, RAX);
      result(d.rd, RAX);
      break;
    case FromX:  // fmv.w.x: the low word, NaN-boxed
      into(RAX, d.rs1);
      if (d.op == rv::FMV_W_X) {
        a_.alu(OR, RAX, RAX, false);  // zero-extends
        box(RAX);
      }
      a_.store(kGuestRegs, f_reg(d.rd), RAX);
      break;
    case Convert: {
      // An integer's double or float is finite, and 0 or at least 1. It
      // rounds (NX) only beyond 2^53 (2^24) in magnitude, which a 32-bit
      // integer's double never is: else NX accrued, or the integer within.
      // An unsigned one is converted as the signed 64-bit integer of its
      // value: a 32-bit one zero-extended, a 64-bit one below 2^63 (from
      // there on the helper's, as the host has no unsigned conversion).
      const bool to_float = d.op == rv::FCVT_S_W || d.op == rv::FCVT_S_L || d.op == rv::FCVT_S_WU ||
                            d.op == rv::FCVT_S_LU;
      const bool wide = d.op == rv::FCVT_D_L || d.op == rv::FCVT_S_L || d.op == rv::FCVT_D_LU || d.op == rv::FCVT_S_LU;
      into(RAX, d.rs1);
      if (is_unsigned) {
        if (wide) {
          a_.test(RAX, RAX);
          to_other.push_back(a_.jcc(L));
        } else {
          a_.alu(OR, RAX, RAX, false);  // zero-extends
        }
        if (d.op != rv::FCVT_D_WU) {
          const size_t accrued = fp_if_nx(true);
          a_.mov_imm(RDX, uint64_t{1} << (to_float ? 24 : 53));
          a_.alu(CMP, RAX, RDX);
          to_other.push_back(a_.jcc(AE));
          a_.bind(accrued);
        }
      } else if (d.op != rv::FCVT_D_W) {
        const size_t accrued = fp_if_nx(true);
        const unsigned bits = to_float ? 24 : 53;
        if (wide) a_.mov(RCX, RAX);
        else a_.movsxd(RCX, RAX);
        a_.mov_imm(RDX, uint64_t{1} << bits);
        a_.alu(ADD, RCX, RDX);  // [-2^bits, 2^bits) to [0, 2^(bits+1))
        a_.alu(ADD, RDX, RDX);
        a_.alu(CMP, RCX, RDX);
        to_other.push_back(a_.jcc(AE));
        a_.bind(accrued);
      }
      a_.cvtsi2s(XMM0, RAX, wide || is_unsigned, to_float);
      if (to_float) {
        a_.mov_from_xmm(RAX, XMM0, true);
        box(RAX);
        a_.store(kGuestRegs, f_reg(d.rd), RAX);
      } else {
        a_.store_scalar(kGuestRegs, f_reg(d.rd), XMM0, false);
      }
      break;
    }
    case Sign: {  // rs1's magnitude, the sign of rs2 (FSGNJ), of ~rs2 (FSGNJN) or rs1's xor rs2's (FSGNJX)
      const bool negated = d.op == rv::FSGNJN_D || d.op == rv::FSGNJN_S;
      const bool xored = d.op == rv::FSGNJX_D || d.op == rv::FSGNJX_S;
      const uint8_t sign = single ? 31 : 63;
      if (single) {
        fp_boxed(d.rs1, to_other);
        fp_boxed(d.rs2, to_other);
      }
      a_.load(RAX, kGuestRegs, f_reg(d.rs1));
      a_.load(RCX, kGuestRegs, f_reg(d.rs2));
      if (negated) a_.alu_imm(XOR, RCX, -1, !single);
      a_.shift_imm(SHR, RCX, sign, !single);
      a_.shift_imm(SHL, RCX, sign, !single);
      if (!xored) {
        a_.shift_imm(SHL, RAX, 1, !single);
        a_.shift_imm(SHR, RAX, 1, !single);
      }
      a_.alu(xored ? XOR : OR, RAX, RCX, !single);  // a float's upper half: zeroed
      if (single) box(RAX);
      a_.store(kGuestRegs, f_reg(d.rd), RAX);
      break;
    }
    case MinMax:  // neither NaN nor both zeros (-0 is below +0): the host's minimum or maximum
      for (unsigned r : {d.rs1, d.rs2}) fp_not_nan(r, single, to_other);
      a_.load(RAX, kGuestRegs, f_reg(d.rs1));
      a_.alu_from_mem(OR, RAX, kGuestRegs, f_reg(d.rs2), !single);
      a_.alu(ADD, RAX, RAX, !single);
      to_other.push_back(a_.jcc(E));
      a_.load_scalar(XMM0, kGuestRegs, f_reg(d.rs1), single);
      a_.sse_scalar(d.op == rv::FMIN_D || d.op == rv::FMIN_S ? SSE_MIN : SSE_MAX, XMM0, kGuestRegs, f_reg(d.rs2), single);
      a_.mov_from_xmm(RAX, XMM0, single);
      if (single) box(RAX);
      a_.store(kGuestRegs, f_reg(d.rd), RAX);
      break;
    case Compare: {  // no NaN: no flag, and ucomis orders as the comparison does
      for (unsigned r : {d.rs1, d.rs2}) fp_not_nan(r, single, to_other);
      a_.load_scalar(XMM0, kGuestRegs, f_reg(d.rs1), single);
      a_.ucomis(XMM0, kGuestRegs, f_reg(d.rs2), single);
      const bool eq = d.op == rv::FEQ_D || d.op == rv::FEQ_S, lt = d.op == rv::FLT_D || d.op == rv::FLT_S;
      a_.setcc_rax(eq ? E : lt ? B : BE);
      result(d.rd, RAX);
      break;
    }
    case Classify: {
      // One bit of ten: for a value that is not NaN, bit c of a negative
      // one and bit 7 - c of a positive one, c = 0 infinite, 1 normal, 2
      // subnormal, 3 zero (by the magnitude, compared shifted left once);
      // for a NaN bit 8 (signalling) or 9 (quiet). A float must be NaN-boxed.
      if (single) fp_boxed(d.rs1, to_other);
      const uint64_t infinity = single ? kInfinityBits32 : kInfinityBits;
      const unsigned fraction_bits = single ? 23 : 52;
      a_.load(RAX, kGuestRegs, f_reg(d.rs1));
      a_.mov(RCX, RAX);
      a_.alu(ADD, RCX, RCX, !single);
      a_.mov_imm(RDX, infinity << 1);
      a_.alu(CMP, RCX, RDX, !single);
      const size_t nan = a_.jcc(A);
      a_.mov_imm(RDX, 0);
      const size_t infinite = a_.jcc(E);
      a_.mov_imm(RDX, uint64_t{1} << (fraction_bits + 1));
      a_.alu(CMP, RCX, RDX, !single);
      a_.mov_imm(RDX, 1);  // moves leave the flags
      const size_t normal = a_.jcc(AE);
      a_.mov_imm(RDX, 2);
      a_.test(RCX, RCX, !single);
      const size_t subnormal = a_.jcc(NE);
      a_.mov_imm(RDX, 3);
      a_.bind(infinite);
      a_.bind(normal);
      a_.bind(subnormal);
      a_.shift_imm(SHR, RAX, single ? 31 : 63, !single);  // the sign: 1 keeps c, 0 makes it 7 - c (c xor 7)
      a_.alu_imm(SUB, RAX, 1);
      a_.alu(XOR, RDX, RAX);
      a_.alu_imm(AND, RDX, 7);
      const size_t shift = a_.jmp();
      a_.bind(nan);
      a_.shift_imm(SHR, RAX, static_cast<uint8_t>(fraction_bits - 1));  // the quiet bit
      a_.alu_imm(AND, RAX, 1);
      a_.mov(RDX, RAX);
      a_.alu_imm(ADD, RDX, 8);
      a_.bind(shift);
      a_.mov(RCX, RDX);
      a_.mov_imm(RAX, 1);
      a_.shift_cl(SHL, RAX);
      result(d.rd, RAX);
      break;
    }
    case Precision: {
      if (single) {  // a float's double: exact, unless a NaN
        fp_boxed(d.rs1, to_other);
        a_.cvt_precision(XMM0, kGuestRegs, f_reg(d.rs1), true);
        fp_at_least(XMM0, 0, false, to_other);
        a_.store(kGuestRegs, f_reg(d.rd), RAX);
        break;
      }
      // A double's float: as the arithmetic's results (NX accrued, or exact: its double is the operand).
      a_.cvt_precision(XMM0, kGuestRegs, f_reg(d.rs1), false);
      const size_t accrued = fp_if_nx(true);
      a_.cvt_precision(XMM1, XMM0, true);
      a_.ucomis(XMM1, kGuestRegs, f_reg(d.rs1), false);
      to_other.push_back(a_.jcc(NE));
      a_.bind(accrued);
      fp_at_least(XMM0, kTwiceLeastNormal32, true, to_other);
      box(RAX);
      a_.store(kGuestRegs, f_reg(d.rd), RAX);
      break;
    }
    case ToInt: {
      // The host's answer for NaN and out of range (and for INT64_MIN
      // itself) is INT64_MIN: the hart's then; so is a 32-bit one out of
      // range. An unsigned one is the host's signed 64-bit integer when
      // that is in range: below 2^32, or not negative (2^63 and beyond go
      // to the helper, as the host has no unsigned conversion); a value
      // between -1 and 0 gives 0 and raises NX only, as the hart's does.
      const bool narrow = d.op == rv::FCVT_W_D || d.op == rv::FCVT_W_S || d.op == rv::FCVT_WU_D ||
                          d.op == rv::FCVT_WU_S;
      if (single) fp_boxed(d.rs1, to_other);
      a_.cvts2si(RAX, kGuestRegs, f_reg(d.rs1), d.rm == 1, single);
      if (is_unsigned && narrow) {
        a_.mov_imm(RDX, uint64_t{1} << 32);
        a_.alu(CMP, RAX, RDX);
        to_other.push_back(a_.jcc(AE));
      } else if (is_unsigned) {
        a_.test(RAX, RAX);
        to_other.push_back(a_.jcc(L));
      } else {
        a_.mov_imm(RDX, uint64_t{1} << 63);
        a_.alu(CMP, RAX, RDX);
        to_other.push_back(a_.jcc(E));
      }
      if (narrow && !is_unsigned) {
        a_.movsxd(RCX, RAX);
        a_.alu(CMP, RCX, RAX);
        to_other.push_back(a_.jcc(NE));
      }
      // Inexact: NX accrued, or the integer's double must be the operand.
      const size_t accrued = fp_if_nx(true);
      a_.cvtsi2s(XMM0, RAX, true, single);
      a_.ucomis(XMM0, kGuestRegs, f_reg(d.rs1), single);
      to_other.push_back(a_.jcc(NE));
      a_.bind(accrued);
      if (narrow && is_unsigned) a_.movsxd(RAX, RAX);  // the 32-bit result sign-extended, as RV64 writes it
      result(d.rd, RAX);
      break;
    }
    case Arith: case Fused:
      return fp_arith(d, to_other, done);
  }
  done.push_back(a_.jmp());
}

// f[r] holds a NaN-boxed float (its high word all ones), else to the helper.
void Translator::fp_boxed(unsigned r, std::vector<size_t>& to_other) {
  using namespace x86;
  a_.load(RCX, kGuestRegs, f_reg(r));
  a_.shift_imm(SHR, RCX, 32);
  a_.alu_imm(CMP, RCX, -1, false);
  to_other.push_back(a_.jcc(NE));
}

// f[r] holds a double (single: a NaN-boxed float) that is not NaN, else to the helper.
void Translator::fp_not_nan(unsigned r, bool single, std::vector<size_t>& to_other) {
  using namespace x86;
  const uint64_t infinity = single ? kInfinityBits32 : kInfinityBits;
  if (single) fp_boxed(r, to_other);
  a_.load(RCX, kGuestRegs, f_reg(r));
  a_.alu(ADD, RCX, RCX, !single);
  if (single) {
    a_.alu_imm(CMP, RCX, static_cast<int32_t>((infinity << 1) + 1), false);
  } else {
    a_.mov_imm(RDX, (infinity << 1) + 1);
    a_.alu(CMP, RCX, RDX);
  }
  to_other.push_back(a_.jcc(AE));
}

// Where f[r] is, from the x registers.
int32_t Translator::f_reg(unsigned r) const { return helpers_.inline_fp->f + static_cast<int32_t>(8 * r); }

// The jump taken when NX is accrued in fflags (`accrued`), or when it is not.
size_t Translator::fp_if_nx(bool accrued) {
  using namespace x86;
  a_.load32(RCX, kGuestRegs, helpers_.inline_fp->fflags);
  a_.test_imm(RCX, 1);
  return a_.jcc(accrued ? NE : E);
}

// r's low word NaN-boxed: its high word all ones.
void Translator::box(x86::Reg r) {
  a_.mov_imm(x86::RCX, 0xFFFFFFFF00000000ull);
  a_.alu(x86::OR, r, x86::RCX);
}

// The value in `v` (a double, or single: a float) is finite with a
// magnitude of at least `least` (a power of two's bits), else to the helper:
// the magnitude (shifted left by one) minus that bound's is below
// infinity's minus it. Leaves its bits in rax (a float's zero-extended).
void Translator::fp_at_least(x86::Xmm v, uint64_t least, bool single, std::vector<size_t>& to_other) {
  using namespace x86;
  const uint64_t infinity = single ? kInfinityBits32 : kInfinityBits;
  a_.mov_from_xmm(RAX, v, single);
  a_.mov(RCX, RAX);
  a_.alu(ADD, RCX, RCX, !single);
  if (single) {
    a_.alu_imm(SUB, RCX, static_cast<int32_t>(least << 1), false);
    a_.alu_imm(CMP, RCX, static_cast<int32_t>((infinity << 1) - (least << 1)), false);
  } else {
    a_.mov_imm(RDX, least << 1);
    a_.alu(SUB, RCX, RDX);
    a_.mov_imm(RDX, (infinity << 1) - (least << 1));
    a_.alu(CMP, RCX, RDX);
  }
  to_other.push_back(a_.jcc(AE));
}

// The value in `v` is +0 or -0, else to the helper.
void Translator::fp_zero(x86::Xmm v, bool single, std::vector<size_t>& to_other) {
  using namespace x86;
  a_.mov_from_xmm(RCX, v, single);
  a_.alu(ADD, RCX, RCX, !single);
  to_other.push_back(a_.jcc(NE));
}

// xmm0 = xmm1 + xmm2 (`subtract`: - xmm2), and xmm5 the sum's rounding
// error, exactly (Knuth's TwoSum, which holds for any finite operands in
// round-to-nearest: z = s - x, error (x - (s - z)) + (y - z)). Uses xmm3, xmm4.
void Translator::fp_two_sum(bool subtract, bool single) {
  using namespace x86;
  a_.movapd(XMM0, XMM1);
  a_.sse_scalar(subtract ? SSE_SUB : SSE_ADD, XMM0, XMM2, single);
  a_.movapd(XMM3, XMM0);
  a_.sse_scalar(SSE_SUB, XMM3, XMM1, single);  // z, about +-y
  a_.movapd(XMM4, XMM0);
  a_.sse_scalar(SSE_SUB, XMM4, XMM3, single);  // s - z, about x
  a_.movapd(XMM5, XMM1);
  a_.sse_scalar(SSE_SUB, XMM5, XMM4, single);
  a_.movapd(XMM4, XMM2);
  a_.sse_scalar(subtract ? SSE_ADD : SSE_SUB, XMM4, XMM3, single);  // y -+ z
  a_.sse_scalar(subtract ? SSE_SUB : SSE_ADD, XMM5, XMM4, single);
}

// The arithmetic and the fused forms, double or single (the checks before
// done: FS Dirty, rounding to nearest even). A float operand must be
// NaN-boxed (else the hart reads a NaN). With NX accrued, the host's
// operation whose result is finite and at least twice the smallest normal
// raised no other flag (a division by zero or an invalid operation gives an
// infinity or a NaN). Without it, only an exact result raises none: a sum
// whose TwoSum error is 0, a product whose error (the fused a * b - p) is
// 0, a fused form whose product is exact and whose sum then is; the
// product's error is representable only while the exponents' sum is not
// near the bottom, hence its bound. Quotients and roots wait for NX.
void Translator::fp_arith(const Insn& d, std::vector<size_t>& to_other, std::vector<size_t>& done) {
  using namespace x86;
  // The operation by its S form's code, and the precision.
  static constexpr std::pair<unsigned, unsigned> kDoubles[] = {
      {rv::FADD_D, rv::FADD_S},     {rv::FSUB_D, rv::FSUB_S},     {rv::FMUL_D, rv::FMUL_S},
      {rv::FDIV_D, rv::FDIV_S},     {rv::FSQRT_D, rv::FSQRT_S},   {rv::FMADD_D, rv::FMADD_S},
      {rv::FMSUB_D, rv::FMSUB_S},   {rv::FNMSUB_D, rv::FNMSUB_S}, {rv::FNMADD_D, rv::FNMADD_S}};
  unsigned op = d.op;
  for (const auto& [dop, sop] : kDoubles)
    if (d.op == dop) op = sop;
  const bool single = op == d.op;
  const bool fused = op >= rv::FMADD_S && op <= rv::FNMADD_S;
  const uint64_t twice_least_normal = single ? kTwiceLeastNormal32 : 0x0020000000000000ull;
  const uint64_t exact_product = single ? 0x0D800000 : 0x03F0000000000000ull;  // 2^-100, 2^-960
  const std::vector<unsigned> sources = op == rv::FSQRT_S ? std::vector<unsigned>{d.rs1}
                                        : fused           ? std::vector<unsigned>{d.rs1, d.rs2, d.rs3}
                                                          : std::vector<unsigned>{d.rs1, d.rs2};
  if (single)
    for (unsigned r : sources) fp_boxed(r, to_other);
  const auto store = [&] {
    if (single) box(RAX);
    a_.store(kGuestRegs, f_reg(d.rd), RAX);
    done.push_back(a_.jmp());
  };
  const size_t not_accrued = fp_if_nx(false);
  if (op == rv::FSQRT_S) {
    a_.sse_scalar(SSE_SQRT, XMM0, kGuestRegs, f_reg(d.rs1), single);
  } else if (!fused) {
    static constexpr std::pair<unsigned, SseOp> kOps[] = {
        {rv::FADD_S, SSE_ADD}, {rv::FSUB_S, SSE_SUB}, {rv::FMUL_S, SSE_MUL}, {rv::FDIV_S, SSE_DIV}};
    a_.load_scalar(XMM0, kGuestRegs, f_reg(d.rs1), single);
    for (const auto& [o, sse] : kOps)
      if (op == o) a_.sse_scalar(sse, XMM0, kGuestRegs, f_reg(d.rs2), single);
  } else {  // rs1 * rs2 + rs3, negated as the op says: the 231 form into rs3's value
    static constexpr FmaOp kFused[] = {VFMADD231, VFMSUB231, VFNMADD231, VFNMSUB231};
    a_.load_scalar(XMM0, kGuestRegs, f_reg(d.rs3), single);
    a_.load_scalar(XMM1, kGuestRegs, f_reg(d.rs1), single);
    a_.fma_scalar(kFused[op - rv::FMADD_S], XMM0, XMM1, kGuestRegs, f_reg(d.rs2), single);
  }
  fp_at_least(XMM0, twice_least_normal, single, to_other);
  store();
  a_.bind(not_accrued);
  if (op == rv::FADD_S || op == rv::FSUB_S) {
    a_.load_scalar(XMM1, kGuestRegs, f_reg(d.rs1), single);
    a_.load_scalar(XMM2, kGuestRegs, f_reg(d.rs2), single);
    fp_two_sum(op == rv::FSUB_S, single);
  } else if (helpers_.inline_fp->fma && (fused || op == rv::FMUL_S)) {
    a_.load_scalar(XMM1, kGuestRegs, f_reg(d.rs1), single);
    a_.movapd(XMM0, XMM1);
    a_.sse_scalar(SSE_MUL, XMM0, kGuestRegs, f_reg(d.rs2), single);  // p
    a_.movapd(XMM5, XMM0);
    a_.fma_scalar(VFMSUB231, XMM5, XMM1, kGuestRegs, f_reg(d.rs2), single);  // a * b - p
    fp_at_least(XMM0, exact_product, single, to_other);
    fp_zero(XMM5, single, to_other);
    if (!fused) return store();
    if (op == rv::FNMSUB_S || op == rv::FNMADD_S) {  // 0 - p: p is not 0
      a_.xorpd(XMM1, XMM1);
      a_.sse_scalar(SSE_SUB, XMM1, XMM0, single);
    } else {
      a_.movapd(XMM1, XMM0);
    }
    a_.load_scalar(XMM2, kGuestRegs, f_reg(d.rs3), single);
    fp_two_sum(op == rv::FMSUB_S || op == rv::FNMADD_S, single);
  } else {
    to_other.push_back(a_.jmp());
    return;
  }
  fp_at_least(XMM0, twice_least_normal, single, to_other);
  fp_zero(XMM5, single, to_other);
  store();
}

bool Translator::control(const Insn& d, uint64_t pc) {
  const uint64_t next = pc + d.len;
  if (d.op == rv::JAL) {
    a_.mov_imm(x86::RAX, next);
    result(d.rd, x86::RAX);
    exit(pc + d.imm);
    return true;
  }
  if (d.op == rv::JALR) {
    into(x86::RAX, d.rs1);  // the target before rd changes (rd may be rs1)
    if (d.imm) a_.alu_imm(x86::ADD, x86::RAX, static_cast<int32_t>(d.imm));
    a_.alu_imm(x86::AND, x86::RAX, -2);
    a_.mov_imm(x86::RCX, next);
    result(d.rd, x86::RCX);
    exit_to_rax();
    return true;
  }
  static constexpr x86::Cond kCond[] = {x86::E, x86::NE, x86::L, x86::GE, x86::B, x86::AE};
  with_rs2(x86::CMP, source(d.rs1, x86::RAX), d.rs2);
  const x86::Cond cond = kCond[d.op - rv::BEQ];
  if (counted_ && pc + d.imm == pc_) {  // a counted pass falls through to its jump back: one taken branch a pass
    const size_t not_taken = a_.jcc(static_cast<x86::Cond>(cond ^ 1));  // x86 pairs each condition with its inverse
    exit(pc_);
    a_.bind(not_taken);
    exit(next);
    return true;
  }
  const size_t taken = a_.jcc(cond);
  exit(next);
  a_.bind(taken);
  exit(pc + d.imm);
  return true;
}

// Where an instruction computes its result: in rd's host register when rd
// has one and the instruction's code can work there (not in the forms tied
// to rax: setcc, the wide multiplies, divisions and calls), unless rd is
// rs2 but not rs1 (loading rs1 there would lose rs2 before it is read; a
// shift by a register reads rs2 into rcx first, so it may); else in rax.
Reg Translator::destination(const Insn& d) const {
  switch (d.op) {
    case rv::SLTI: case rv::SLTIU: case rv::SLT: case rv::SLTU: case rv::MULH: case rv::MULHU: case rv::MULHSU:
    case rv::DIV: case rv::DIVU: case rv::REM: case rv::REMU: case rv::DIVW: case rv::DIVUW: case rv::REMW:
    case rv::REMUW:
      return x86::RAX;
    default:
      break;
  }
  const bool shift_by_register = d.op == rv::SLL || d.op == rv::SRL || d.op == rv::SRA || d.op == rv::SLLW ||
                                 d.op == rv::SRLW || d.op == rv::SRAW;
  if (d.rd == 0 || host_[d.rd] < 0) return x86::RAX;
  if (reads_rs2(d.op) && !shift_by_register && d.rd == d.rs2 && d.rd != d.rs1) return x86::RAX;
  return static_cast<Reg>(host_[d.rd]);
}

void Translator::with_rs2(x86::Alu op, x86::Reg r, unsigned rs2, bool w) {
  if (rs2 == 0) a_.alu_imm(op, r, 0, w);
  else if (host_[rs2] < 0) a_.alu_from_mem(op, r, kGuestRegs, 8 * static_cast<int32_t>(rs2), w);
  else a_.alu(op, r, static_cast<Reg>(host_[rs2]), w);
}

void Translator::alu(uint32_t i, uint64_t pc) {
  using namespace x86;
  const Insn& d = insns_[i];
  const auto imm = static_cast<int32_t>(d.imm);
  const auto shamt = static_cast<uint8_t>(d.imm);
  // Moves (mv: add rd, x0, rs or addi rd, rs, 0) copy a register; li (addi rd, x0, imm) sets one.
  if (d.op == rv::ADDI && d.rs1 == 0) {
    const Reg r = destination(d);
    a_.mov_imm(r, static_cast<uint64_t>(d.imm));
    return result(d.rd, r);
  }
  if ((d.op == rv::ADDI && imm == 0) || (d.op == rv::ADD && (d.rs1 == 0 || d.rs2 == 0)))
    return result(d.rd, source(d.op == rv::ADD && d.rs1 == 0 ? d.rs2 : d.rs1, RAX));
  const Reg r = destination(d);
  switch (d.op) {
    case rv::LUI: a_.mov_imm(r, static_cast<uint64_t>(d.imm)); break;
    case rv::AUIPC: a_.mov_imm(r, pc + d.imm); break;
    case rv::MULHSU: call_pure(op_mulhsu, d); break;
    case rv::DIV: case rv::DIVU: case rv::REM: case rv::REMU:
    case rv::DIVW: case rv::DIVUW: case rv::REMW: case rv::REMUW: divide(i); break;
    case rv::SLL: case rv::SRL: case rv::SRA: case rv::SLLW: case rv::SRLW: case rv::SRAW: {
      into(RCX, d.rs2);
      into(r, d.rs1);
      const bool w = d.op <= rv::SRA;
      const Shift s = (d.op == rv::SLL || d.op == rv::SLLW) ? SHL : (d.op == rv::SRL || d.op == rv::SRLW) ? SHR : SAR;
      a_.shift_cl(s, r, w);  // x86 masks the count as RISC-V does (63 or 31)
      if (!w) a_.movsxd(r, r);
      break;
    }
    default: {
      into(r, d.rs1);
      switch (d.op) {
        case rv::ADDI: if (imm) a_.alu_imm(ADD, r, imm); break;
        case rv::SLTI: a_.alu_imm(CMP, RAX, imm); a_.setcc_rax(L); break;
        case rv::SLTIU: a_.alu_imm(CMP, RAX, imm); a_.setcc_rax(B); break;
        case rv::XORI: a_.alu_imm(XOR, r, imm); break;
        case rv::ORI: a_.alu_imm(OR, r, imm); break;
        case rv::ANDI: a_.alu_imm(AND, r, imm); break;
        case rv::SLLI: a_.shift_imm(SHL, r, shamt & 63); break;
        case rv::SRLI: a_.shift_imm(SHR, r, shamt & 63); break;
        case rv::SRAI: a_.shift_imm(SAR, r, shamt & 63); break;
        case rv::ADDIW: a_.alu_imm(ADD, r, imm, false); a_.movsxd(r, r); break;
        case rv::SLLIW: a_.shift_imm(SHL, r, shamt & 31, false); a_.movsxd(r, r); break;
        case rv::SRLIW: a_.shift_imm(SHR, r, shamt & 31, false); a_.movsxd(r, r); break;
        case rv::SRAIW: a_.shift_imm(SAR, r, shamt & 31, false); a_.movsxd(r, r); break;
        case rv::ADD: with_rs2(ADD, r, d.rs2); break;
        case rv::SUB: with_rs2(SUB, r, d.rs2); break;
        case rv::XOR: with_rs2(XOR, r, d.rs2); break;
        case rv::OR: with_rs2(OR, r, d.rs2); break;
        case rv::AND: with_rs2(AND, r, d.rs2); break;
        case rv::SLT: with_rs2(CMP, RAX, d.rs2); a_.setcc_rax(L); break;
        case rv::SLTU: with_rs2(CMP, RAX, d.rs2); a_.setcc_rax(x86::B); break;
        case rv::ADDW: with_rs2(ADD, r, d.rs2, false); a_.movsxd(r, r); break;
        case rv::SUBW: with_rs2(SUB, r, d.rs2, false); a_.movsxd(r, r); break;
        default: {
          const Reg b = source(d.rs2, RCX);
          switch (d.op) {
            case rv::MUL: a_.imul(r, b); break;
            case rv::MULW: a_.imul(r, b, false); a_.movsxd(r, r); break;
            case rv::MULH: a_.mul_wide(b, true); a_.mov(RAX, RDX); break;
            case rv::MULHU: a_.mul_wide(b, false); a_.mov(RAX, RDX); break;
          }
        }
      }
    }
  }
  result(d.rd, r);
}

}  // namespace

TranslatedBlock translate_block(const rv::Insn* insns, size_t n, uint64_t pc, const TranslationHelpers& helpers,
                                const BlockRetire* retire, const BlockChain* chain, CodeArena& arena,
                                DirectJumps* jumps) {
  Translator t(insns, n, pc, helpers, retire, chain);
  const std::vector<uint8_t>& code = t.translate();
  if (code.empty()) return nullptr;
  const auto translated = reinterpret_cast<TranslatedBlock>(arena.add(code.data(), code.size()));
  if (translated && jumps) *jumps = t.jumps();
  return translated;
}

#else

bool block_translation_available() { return false; }

TranslatedBlock translate_block(const rv::Insn*, size_t, uint64_t, const TranslationHelpers&, const BlockRetire*,
                                const BlockChain*, CodeArena&, DirectJumps*) {
  return nullptr;
}

#endif

}  // namespace avp

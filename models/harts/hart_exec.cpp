// Execution of the integer, multiply, load/store and control-flow instructions.
#include "harts/hart.h"
#include "harts/hart_cluster.h"

namespace avp {

using namespace rv;

namespace {
inline int64_t sx32(uint64_t v) { return static_cast<int32_t>(v); }
inline uint64_t mulhu(uint64_t a, uint64_t b) { return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64); }
inline uint64_t mulh(int64_t a, int64_t b) { return static_cast<uint64_t>((static_cast<__int128>(a) * b) >> 64); }
inline uint64_t mulhsu(int64_t a, uint64_t b) {
  return static_cast<uint64_t>((static_cast<__int128>(a) * static_cast<__int128>(static_cast<unsigned __int128>(b))) >> 64);
}
}  // namespace

// Inlined into run_block below: the per-instruction call is a measurable part of the ISS loop.
[[gnu::always_inline]] inline uint64_t Hart::exec(const Insn& d, uint64_t pc) {
  uint64_t* x = s_.x;
  const uint64_t a = x[d.rs1], b = x[d.rs2];
  const uint64_t next = pc + d.len;
  uint64_t r = 0;
  switch (d.op) {
    case LUI: r = static_cast<uint64_t>(d.imm); break;
    case AUIPC: r = pc + d.imm; break;
    case JAL: x[d.rd] = next; x[0] = 0; return pc + d.imm;
    case JALR: { uint64_t t = (a + d.imm) & ~1ull; x[d.rd] = next; x[0] = 0; return t; }
    case BEQ: return a == b ? pc + d.imm : next;
    case BNE: return a != b ? pc + d.imm : next;
    case BLT: return static_cast<int64_t>(a) < static_cast<int64_t>(b) ? pc + d.imm : next;
    case BGE: return static_cast<int64_t>(a) >= static_cast<int64_t>(b) ? pc + d.imm : next;
    case BLTU: return a < b ? pc + d.imm : next;
    case BGEU: return a >= b ? pc + d.imm : next;
    case LB: r = static_cast<int8_t>(load<uint8_t>(a + d.imm)); break;
    case LH: r = static_cast<int16_t>(load<uint16_t>(a + d.imm)); break;
    case LW: r = static_cast<int32_t>(load<uint32_t>(a + d.imm)); break;
    case LD: r = load<uint64_t>(a + d.imm); break;
    case LBU: r = load<uint8_t>(a + d.imm); break;
    case LHU: r = load<uint16_t>(a + d.imm); break;
    case LWU: r = load<uint32_t>(a + d.imm); break;
    case SB: store<uint8_t>(a + d.imm, static_cast<uint8_t>(b)); return next;
    case SH: store<uint16_t>(a + d.imm, static_cast<uint16_t>(b)); return next;
    case SW: store<uint32_t>(a + d.imm, static_cast<uint32_t>(b)); return next;
    case SD: store<uint64_t>(a + d.imm, b); return next;
    case ADDI: r = a + d.imm; break;
    case SLTI: r = static_cast<int64_t>(a) < d.imm; break;
    case SLTIU: r = a < static_cast<uint64_t>(d.imm); break;
    case XORI: r = a ^ d.imm; break;
    case ORI: r = a | d.imm; break;
    case ANDI: r = a & d.imm; break;
    case SLLI: r = a << d.imm; break;
    case SRLI: r = a >> d.imm; break;
    case SRAI: r = static_cast<int64_t>(a) >> d.imm; break;
    case ADD: r = a + b; break;
    case SUB: r = a - b; break;
    case SLL: r = a << (b & 63); break;
    case SLT: r = static_cast<int64_t>(a) < static_cast<int64_t>(b); break;
    case SLTU: r = a < b; break;
    case XOR: r = a ^ b; break;
    case SRL: r = a >> (b & 63); break;
    case SRA: r = static_cast<int64_t>(a) >> (b & 63); break;
    case OR: r = a | b; break;
    case AND: r = a & b; break;
    case ADDIW: r = sx32(a + d.imm); break;
    case SLLIW: r = sx32(static_cast<uint32_t>(a) << d.imm); break;
    case SRLIW: r = sx32(static_cast<uint32_t>(a) >> d.imm); break;
    case SRAIW: r = static_cast<int32_t>(a) >> d.imm; break;
    case ADDW: r = sx32(a + b); break;
    case SUBW: r = sx32(a - b); break;
    case SLLW: r = sx32(static_cast<uint32_t>(a) << (b & 31)); break;
    case SRLW: r = sx32(static_cast<uint32_t>(a) >> (b & 31)); break;
    case SRAW: r = static_cast<int32_t>(a) >> (b & 31); break;
    case MUL: r = a * b; break;
    case MULH: r = mulh(static_cast<int64_t>(a), static_cast<int64_t>(b)); break;
    case MULHSU: r = mulhsu(static_cast<int64_t>(a), b); break;
    case MULHU: r = mulhu(a, b); break;
    case DIV:
      if (b == 0) r = ~0ull;
      else if (a == (1ull << 63) && b == ~0ull) r = a;
      else r = static_cast<int64_t>(a) / static_cast<int64_t>(b);
      break;
    case DIVU: r = b == 0 ? ~0ull : a / b; break;
    case REM:
      if (b == 0) r = a;
      else if (a == (1ull << 63) && b == ~0ull) r = 0;
      else r = static_cast<int64_t>(a) % static_cast<int64_t>(b);
      break;
    case REMU: r = b == 0 ? a : a % b; break;
    case MULW: r = sx32(a * b); break;
    case DIVW: {
      int32_t p = static_cast<int32_t>(a), q = static_cast<int32_t>(b);
      r = q == 0 ? ~0ull : (p == INT32_MIN && q == -1) ? static_cast<uint64_t>(static_cast<int64_t>(INT32_MIN)) : static_cast<uint64_t>(static_cast<int64_t>(p / q));
      break;
    }
    case DIVUW: {
      uint32_t p = static_cast<uint32_t>(a), q = static_cast<uint32_t>(b);
      r = q == 0 ? ~0ull : sx32(p / q);
      break;
    }
    case REMW: {
      int32_t p = static_cast<int32_t>(a), q = static_cast<int32_t>(b);
      r = q == 0 ? static_cast<uint64_t>(static_cast<int64_t>(p)) : (p == INT32_MIN && q == -1) ? 0 : static_cast<uint64_t>(static_cast<int64_t>(p % q));
      break;
    }
    case REMUW: {
      uint32_t p = static_cast<uint32_t>(a), q = static_cast<uint32_t>(b);
      r = q == 0 ? sx32(p) : sx32(p % q);
      break;
    }
    case FENCE: return next;
    case FENCE_I:
      invalidate_decoded();
      return next;
    default:
      if (d.op >= LR_W && d.op <= AMOMAXU_D) {
        r = exec_atomic(d);
        break;
      }
      if (d.op >= FLW && d.op <= FMV_D_X) {
        exec_fp(d);
        return next;
      }
      if (d.op == XCMD || d.op == XEXT) {
        exec_xintf(d);
        return next;
      }
      return exec_system(d, pc);
  }
  x[d.rd] = r;
  x[0] = 0;
  return next;
}

// Inlined into run_block: per block, so its call overhead counts on short blocks.
[[gnu::always_inline]] inline void Hart::fetch_timing(const Block& b) {
  // Instruction-cache timing: one access per line the block spans; a miss
  // fills the line from the memory that holds the code (no fill for code
  // outside cacheable memory, such as the host window).
  if (b.fetch_gen != dmi_gen_ || b.fetch_line_bits != icache_.line_bits()) {
    b.fetch_cached = false;
    for (const auto& r : dmi_) b.fetch_cached |= b.ppc - r.base < r.size;
    if (!b.fetch_cached) b.fetch_cached = cacheable(b.ppc, 4, true);
    b.fetch_gen = dmi_gen_;
    b.fetch_line_bits = static_cast<uint8_t>(icache_.line_bits());
    b.first_line = b.ppc >> b.fetch_line_bits;
    b.lines = static_cast<uint32_t>(((b.ppc + b.bytes - 1) >> b.fetch_line_bits) - b.first_line + 1);
  }
  uint64_t t = 0;
  for (uint32_t i = 0; i < b.lines; ++i) {
    bool miss = false;
    t += icache_.access_line(b.first_line + i, false, miss);
    if (miss && b.fetch_cached) t += bus_traffic((b.first_line + i) << b.fetch_line_bits, false, 1u << b.fetch_line_bits, true);
  }
  time_.add_ps(t);
  stall_ps_[StallFetch] += t;
}

// kObserved: a debugger, tracer or armed triggers see every instruction,
// which retires at once. Otherwise the loop has no hook branches and retiring
// is counted per block (settle()).
template <bool kObserved>
[[gnu::always_inline]] inline void Hart::run_block_loop(const Block& b, uint32_t from) {
  uint64_t pc = s_.pc;
  const uint64_t* cost_ps = cluster_.cost_ps();
  const uint64_t* cost_cycles = cluster_.cost_cycles();
  // Pointers fixed before the loop: exec() stores through memory the compiler cannot tell from b.insns.
  const Insn* const first = b.insns.data();
  const Insn* const end = first + b.insns.size();
  const Insn* it = first + from;
  if (!kObserved) {
    lazy_ = &b;
    settled_ = from;
  }
  try {
    for (; it != end; ++it) {
      const Insn& d = *it;
      s_.pc = pc;
      if (kObserved) {
        if (debug_) {
          debug_->before_instruction(*this, d, pc);
          const bool moved = s_.pc != pc;  // the debugger moved the pc
          if (stop_ || moved) {
            history_.end_block_early(static_cast<uint32_t>(it - first));
            if (moved) pc = s_.pc;
            break;
          }
        }
        // Breakpoint exceptions of triggers (action 0) before the instruction does anything.
        if (triggers_.native_armed())
          if (const auto hit = triggers_.match(d, pc, s_, false)) throw TrapException{kBreakpoint, hit->tval};
        if (tracer_) tracer_->before(*this, pc, d);
      }
      cur_ = &d;
      const uint64_t next = exec(d, pc);
      if (kObserved) {
        if (tracer_) tracer_->after(*this, pc, d);
        const unsigned cls = d.cls;
        ++s_.minstret;
        ++s_.events[d.event];
        s_.mcycle += cost_cycles[cls];
        time_.add_ps(cost_ps[cls]);
      }
      pc = next;
      if (block_abort_ || stop_) {
        ++it;
        history_.end_block_early(static_cast<uint32_t>(it - first));
        break;
      }
    }
  } catch (...) {  // the instruction at it has not retired
    if (!kObserved) {
      settle_to(static_cast<uint32_t>(it - first));
      lazy_ = nullptr;
    }
    throw;
  }
  if (!kObserved) {
    if (settled_ == 0 && it == end) retire_block(b);
    else settle_to(static_cast<uint32_t>(it - first));
    lazy_ = nullptr;
  }
  if (!stop_) s_.pc = pc;
}

void Hart::settle_to(uint32_t n) {
  const uint64_t* cost_ps = cluster_.cost_ps();
  const uint64_t* cost_cycles = cluster_.cost_cycles();
  for (uint32_t i = settled_; i < n; ++i) {
    const Insn& d = lazy_->insns[i];
    ++s_.minstret;
    ++s_.events[d.event];
    s_.mcycle += cost_cycles[d.cls];
    time_.add_ps(cost_ps[d.cls]);
  }
  if (n > settled_) settled_ = n;
}

[[gnu::always_inline]] inline void Hart::retire_block(const Block& b) {
  s_.minstret += b.insns.size();
  s_.mcycle += b.own_cycles;
  time_.add_ps(b.own_ps);
  for (unsigned i = 0; i < b.events; ++i) s_.events[b.event_id[i]] += b.event_n[i];
}

void Hart::note_block_costs(Block& b) const {
  for (const Insn& d : b.insns) {
    b.own_ps += cluster_.cost_ps()[d.cls];
    b.own_cycles += cluster_.cost_cycles()[d.cls];
    unsigned i = 0;
    while (i < b.events && b.event_id[i] != d.event) ++i;
    if (i == b.events) b.event_id[b.events++] = d.event;
    ++b.event_n[i];
  }
}

[[gnu::always_inline]] inline void Hart::enter_block(const Block& b) {
  block_abort_ = false;
  if (icache_.enabled()) fetch_timing(b);
  history_.record_block(b.insns.data(), b.pc, static_cast<uint32_t>(b.insns.size()));
}

void Hart::trapped_in(const Block& b) {
  // The trapping instruction (at s_.pc) is the last one the history keeps.
  uint32_t n = 0;
  for (uint64_t pc = b.pc; n + 1 < b.insns.size() && pc != s_.pc; ++n) pc += b.insns[n].len;
  history_.end_block_early(n + 1);
}

void Hart::run_block(const Block& b, uint32_t from, bool resumed) {
  if (!resumed) enter_block(b);  // a block a slice left has been timed and recorded already
  try {
    // Debuggers, tracers and armed triggers see every instruction; without them the loop has no hook branches.
    if (debug_ || tracer_ || triggers_.native_armed()) run_block_loop<true>(b, from);
    else run_block_loop<false>(b, from);
  } catch (const TrapException&) {
    trapped_in(b);
    throw;
  }
}

// Every check the run loop (Hart::run) makes between two blocks, other than
// the flushes, which only a block that sets block_abort_ asks for.
[[gnu::always_inline]] inline bool Hart::chain_goes_on() const {
  return !(stop_ || block_abort_ || time_.quantum_used() || (limit_ && s_.minstret >= limit_) ||
           (kernel_ && s_.pc == ret_addr_) || (s_.mip & s_.mie) || debug_ || tracer_ || triggers_.native_armed());
}

[[gnu::always_inline]] inline const Hart::Block& Hart::next_block(const Block& b) {
  const uint64_t pc = s_.pc;
  const bool same_regime = b.key == fetch_key_;
  if (same_regime) {
    if (b.link_pc[0] == pc) return *b.link[0];
    if (b.link_pc[1] == pc) return *b.link[1];
  }
  const Block& next = block_at(pc);
  if (same_regime) {
    const unsigned i = b.next_link;
    b.next_link ^= 1;
    b.link_pc[i] = pc;
    b.link[i] = &next;
  }
  return next;
}

void Hart::run_chain() {
  const Block* b = &block_at(s_.pc);
  for (;;) {
    enter_block(*b);
    try {
      run_block_loop<false>(*b, 0);
    } catch (const TrapException&) {
      trapped_in(*b);
      throw;
    }
    if (!chain_goes_on()) return;
    b = &next_block(*b);
  }
}

uint64_t Hart::exec_atomic(const Insn& d) {
  if (in_slice_) throw NeedsKernel{};  // atomic with respect to every other hart: in the simulation thread
  const uint64_t addr = s_.x[d.rs1];
  const uint64_t src = s_.x[d.rs2];
  const bool dbl = d.op >= LR_D;
  const unsigned size = dbl ? 8 : 4;
  const bool lr = d.op == LR_W || d.op == LR_D;
  if (addr & (size - 1)) throw TrapException{lr ? kLoadMisaligned : kStoreMisaligned, addr};
  // Reservations hold physical addresses. SC and AMOs need write permission
  // (a store/AMO fault) before their read.
  const uint64_t pa = data_checked_ ? translate_data(addr, size, lr ? kAccessRead : kAccessWrite, data_priv()) : addr;
  if (lr) {
    uint64_t v = dbl ? load<uint64_t>(addr) : static_cast<uint64_t>(static_cast<int32_t>(load<uint32_t>(addr)));
    reservation_ = pa;
    cluster_.note_reservation();
    return v;
  }
  if (d.op == SC_W || d.op == SC_D) {
    const bool ok = reservation_ == pa;
    reservation_ = ~0ull;
    if (!ok) return 1;
    if (dbl) store<uint64_t>(addr, src);
    else store<uint32_t>(addr, static_cast<uint32_t>(src));
    return 0;
  }
  // Read-modify-write. Harts run one at a time in the simulation thread, so
  // the load and store below are atomic with respect to every other hart.
  const uint64_t old = dbl ? load<uint64_t>(addr) : static_cast<uint64_t>(static_cast<int32_t>(load<uint32_t>(addr)));
  uint64_t v = 0;
  const Op base = static_cast<Op>(dbl ? d.op - (LR_D - LR_W) : d.op);
  const int64_t so = dbl ? static_cast<int64_t>(old) : static_cast<int32_t>(old);
  const int64_t ss = dbl ? static_cast<int64_t>(src) : static_cast<int32_t>(src);
  const uint64_t uo = dbl ? old : static_cast<uint32_t>(old), us = dbl ? src : static_cast<uint32_t>(src);
  switch (base) {
    case AMOSWAP_W: v = src; break;
    case AMOADD_W: v = old + src; break;
    case AMOXOR_W: v = old ^ src; break;
    case AMOAND_W: v = old & src; break;
    case AMOOR_W: v = old | src; break;
    case AMOMIN_W: v = so < ss ? old : src; break;
    case AMOMAX_W: v = so > ss ? old : src; break;
    case AMOMINU_W: v = uo < us ? old : src; break;
    case AMOMAXU_W: v = uo > us ? old : src; break;
    default: illegal(d);
  }
  if (dbl) store<uint64_t>(addr, v);
  else store<uint32_t>(addr, static_cast<uint32_t>(v));
  return old;
}

}  // namespace avp

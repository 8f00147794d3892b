#include "harts/wait_loop.h"

#include "harts/hart_state.h"
#include "rv_semantics.h"

namespace avp {

using namespace rv;

bool reads_time_only(const Insn& d) {
  return (d.op == CSRRS || d.op == CSRRC) && d.rs1 == 0 && d.rd != 0 && d.imm == CSR_TIME;
}

bool starts_wait_loop(const Insn& d) { return d.op == WFI || reads_time_only(d); }

unsigned load_bytes(const Insn& d) {
  switch (d.op) {
    case LB: case LBU: return 1;
    case LH: case LHU: return 2;
    case LW: case LWU: return 4;
    case LD: return 8;
    default: return 0;
  }
}

namespace {

// How a value depends on the time value v the iteration read.
enum class Dep : uint8_t { None, Offset, Other };  // Offset: v + c

struct Value {
  uint64_t v = 0;
  Dep dep = Dep::None;
  uint64_t c = 0;
};

// A set of 64-bit values [start, start + len) taken around 2^64 (len up to 2^64).
struct Interval {
  uint64_t start = 0;
  unsigned __int128 len = 0;
  Interval complement() const { return {static_cast<uint64_t>(start + len), (static_cast<unsigned __int128>(1) << 64) - len}; }
};

class Evaluator {
 public:
  Evaluator(const WaitLoopView& view, uint64_t time) : view_(view), time_(time) { out_.time = time; }

  WaitLoopIteration run(const Insn& read, uint64_t start, const uint64_t (&x)[32], unsigned max_insns) {
    for (unsigned r = 0; r < 32; ++r) x_[r].v = in_[r] = x[r];
    uint64_t pc = start + read.len;
    if (load_bytes(read)) {  // a device register: the load runs as any other, the first may read a clock
      may_read_clock_ = true;
      pc = step(read, start);
      may_read_clock_ = false;
    } else if (read.op != WFI) {
      written_[read.rd] = true;
      x_[read.rd] = {time_, Dep::Offset, 0};
    }
    const Insn* it = nullptr;
    const Insn* end = nullptr;
    out_.insns = 1;
    while (pc != start && out_.refused.empty()) {
      if (out_.insns >= max_insns) return refuse("longer than " + std::to_string(max_insns) + " instructions");
      if (it == end) {
        const auto [first, n] = view_.block_at(pc);
        if (!first) return refuse("code not decoded");
        it = first;
        end = first + n;
      }
      const uint64_t next = step(*it, pc);
      ++out_.insns;
      if (next == pc + it->len) ++it;
      else it = end;  // a taken branch or a jump: on to the block at its target
      pc = next;
    }
    if (!out_.refused.empty()) return out_;
    finish();
    return out_;
  }

  // For the loads of the semantics' lists: the value, its dependence in load_dep_.
  template <typename T>
  T load(uint64_t va) {
    T v{};
    load_dep_ = Dep::None;
    for (const Stored& s : stored_) {
      if (!overlaps(s.st.va, s.st.size, va, sizeof(T))) continue;
      if (s.st.va != va || s.st.size != sizeof(T)) return refuse_load<T>("a load overlaps part of an earlier store");
      v = static_cast<T>(s.st.value);
      load_dep_ = s.dep == Dep::None ? Dep::None : sizeof(T) == 8 && s.dep == Dep::Offset ? Dep::Offset : Dep::Other;
      load_c_ = s.c;
      return v;
    }
    if (view_.read(va, &v, sizeof(T))) {
      out_.loads.push_back({va, sizeof(T), static_cast<uint64_t>(v)});
      return v;
    }
    uint64_t dv = 0;
    switch (view_.device_read(va, sizeof(T), dv)) {
      case WaitLoopView::DeviceRead::Constant:
        out_.device_loads.push_back({va, sizeof(T), dv, false});
        return static_cast<T>(dv);
      case WaitLoopView::DeviceRead::Clock:
        if (!may_read_clock_) return refuse_load<T>("a second time read or WFI in one iteration");
        if (sizeof(T) != 8) return refuse_load<T>("a clock read narrower than 64 bits");
        out_.device_loads.push_back({va, sizeof(T), 0, true});
        load_dep_ = Dep::Offset;
        load_c_ = 0;
        return static_cast<T>(time_);
      default:
        return refuse_load<T>("a load from a device register not declared stable, or unmapped memory");
    }
  }

 private:
  struct Stored {
    WaitLoopStore st;
    Dep dep;
    uint64_t c;
  };
  static bool overlaps(uint64_t a, unsigned an, uint64_t b, unsigned bn) { return a < b + bn && b < a + an; }

  WaitLoopIteration refuse(const std::string& why) {
    if (out_.refused.empty()) out_.refused = why;
    return out_;
  }
  template <typename T>
  T refuse_load(const std::string& why) {
    refuse(why);
    load_dep_ = Dep::Other;
    return T{};
  }

  const Value& use(unsigned r) {
    if (!written_[r]) live_in_[r] = true;
    return x_[r];
  }
  void write(unsigned r, Value v) {
    if (r == 0) return;
    written_[r] = true;
    x_[r] = v;
  }
  static Dep either(Dep a, Dep b) { return a == Dep::None && b == Dep::None ? Dep::None : Dep::Other; }

  // One instruction; the next pc.
  uint64_t step(const Insn& d, uint64_t pc) {
    const uint64_t next = pc + d.len;
    switch (d.op) {
#define AVP_WAIT_RESULT(name, e) case name:
        AVP_RV_RESULT_OPS(AVP_WAIT_RESULT)
#undef AVP_WAIT_RESULT
        result(d, pc);
        return next;
#define AVP_WAIT_LOAD(op, e)                                                   \
  case op: {                                                                   \
    const Value s = use(d.rs1);                                                \
    if (s.dep != Dep::None) return refuse("a load address depends on the time"), next; \
    const uint64_t a = s.v;                                                    \
    const uint64_t v = static_cast<uint64_t>(e);                               \
    write(d.rd, {v, load_dep_, load_dep_ == Dep::Offset ? load_c_ : 0});       \
    return next;                                                               \
  }
        AVP_RV_LOAD_OPS(AVP_WAIT_LOAD)
#undef AVP_WAIT_LOAD
#define AVP_WAIT_STORE(op, T)                                \
  case op:                                                   \
    store(use(d.rs1), use(d.rs2), d.imm, sizeof(T));         \
    return next;
        AVP_RV_STORE_OPS(AVP_WAIT_STORE)
#undef AVP_WAIT_STORE
#define AVP_WAIT_BRANCH(name, cond)                        \
  case name: {                                             \
    const Value s = use(d.rs1), t = use(d.rs2);            \
    const uint64_t a = s.v, b = t.v;                       \
    const bool taken = (cond);                             \
    branch(d.op, s, t, taken);                             \
    return taken ? pc + d.imm : next;                      \
  }
        AVP_RV_BRANCH_OPS(AVP_WAIT_BRANCH)
#undef AVP_WAIT_BRANCH
      case JAL:
        write(d.rd, {next});
        return pc + d.imm;
      case JALR: {
        const Value s = use(d.rs1);
        if (s.dep != Dep::None) return refuse("a jump target depends on the time"), next;
        const uint64_t target = (s.v + d.imm) & ~1ull;
        write(d.rd, {next});
        return target;
      }
      case FENCE:
        return next;
      default:
        if (starts_wait_loop(d)) return refuse("a second time read or WFI in one iteration"), next;
        return refuse(std::string("executes ") + op_name(static_cast<Op>(d.op))), next;
    }
  }

  // An instruction with a result: its value as rv_semantics.h has it. It is
  // the time plus a constant for an ADD, ADDI or SUB of the time plus a
  // constant and a time-independent value (and independent of the time for
  // the difference of two such), else time-dependent in some way if an
  // operand it reads is.
  void result(const Insn& d, uint64_t pc) {
    const bool reads_rs1 = d.op != LUI && d.op != AUIPC;
    const bool reads_rs2 = reads_rs1 && !(d.op >= ADDI && d.op <= SRAI) && !(d.op >= ADDIW && d.op <= SRAIW);
    const Value none{};
    const Value& s = reads_rs1 ? use(d.rs1) : none;
    const Value& t = reads_rs2 ? use(d.rs2) : none;
    const uint64_t a = s.v, b = t.v;
    uint64_t r = 0;
    switch (d.op) {
#define AVP_WAIT_RESULT(name, e) \
  case name:                     \
    r = static_cast<uint64_t>(e);   \
    break;
      AVP_RV_RESULT_OPS(AVP_WAIT_RESULT)
#undef AVP_WAIT_RESULT
      default:
        break;
    }
    Value out{r, either(s.dep, t.dep), 0};
    if (d.op == ADDI && s.dep == Dep::Offset) out = {r, Dep::Offset, s.c + d.imm};
    if (d.op == ADD && s.dep == Dep::Offset && t.dep == Dep::None) out = {r, Dep::Offset, s.c + t.v};
    if (d.op == ADD && s.dep == Dep::None && t.dep == Dep::Offset) out = {r, Dep::Offset, t.c + s.v};
    if (d.op == SUB && s.dep == Dep::Offset && t.dep == Dep::None) out = {r, Dep::Offset, s.c - t.v};
    if (d.op == SUB && s.dep == Dep::Offset && t.dep == Dep::Offset) out.dep = Dep::None;  // (v + c1) - (v + c2)
    write(d.rd, out);
  }

  void store(const Value& base, const Value& value, int64_t imm, unsigned size) {
    if (base.dep != Dep::None) return (void)refuse("a store address depends on the time");
    const uint64_t va = base.v + imm;
    if (!view_.plain_store(va, size)) return (void)refuse("a store to a device, to decoded code or unmapped memory");
    const uint64_t mask = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
    const Dep dep = value.dep == Dep::None ? Dep::None : size == 8 && value.dep == Dep::Offset ? Dep::Offset : Dep::Other;
    const Stored s{{va, size, value.v & mask}, dep, value.c};
    for (Stored& e : stored_) {
      if (!overlaps(e.st.va, e.st.size, va, size)) continue;
      if (e.st.va != va || e.st.size != size) return (void)refuse("a store overlaps part of an earlier store");
      e = s;
      return;
    }
    stored_.push_back(s);
  }

  // The set of u = v + c for which `op` compares (u against k, or k against
  // u when `u_right`) as true.
  static Interval true_set(uint16_t op, uint64_t k, bool u_right) {
    constexpr unsigned __int128 kAll = static_cast<unsigned __int128>(1) << 64;
    constexpr uint64_t kSign = 1ull << 63;
    switch (op) {
      case BEQ: return {k, 1};
      case BNE: return Interval{k, 1}.complement();
      case BLTU: return u_right ? Interval{k + 1, kAll - k - 1} : Interval{0, k};
      case BGEU: return (u_right ? Interval{k + 1, kAll - k - 1} : Interval{0, k}).complement();
      default: {  // signed: the unsigned comparison of both sides plus 2^63
        const bool less = op == BLT;
        Interval i = true_set(less ? BLTU : BGEU, k + kSign, u_right);
        i.start -= kSign;
        return i;
      }
    }
  }

  void branch(uint16_t op, const Value& s, const Value& t, bool taken) {
    if (s.dep == Dep::None && t.dep == Dep::None) return;
    if (s.dep == Dep::Offset && t.dep == Dep::Offset) return;  // their difference does not depend on the time
    if (s.dep == Dep::Other || t.dep == Dep::Other) return (void)refuse("a branch depends on the time other than by an offset");
    const bool u_right = t.dep == Dep::Offset;
    const Value& u = u_right ? t : s;
    Interval on_path = true_set(op, u_right ? s.v : t.v, u_right);
    if (!taken) on_path = on_path.complement();
    // From u = v + c to v.
    const uint64_t start = on_path.start - u.c;
    const unsigned __int128 into = static_cast<uint64_t>(time_ - start);
    if (into >= on_path.len) return (void)refuse("a branch off the path it took");  // cannot happen: v is on it
    const unsigned __int128 leaves = static_cast<unsigned __int128>(time_) + (on_path.len - into);
    if (leaves <= ~0ull && leaves < out_.exit_from) out_.exit_from = static_cast<uint64_t>(leaves);
  }

  // Everything read before it was written must be as it was, and independent of the time.
  void finish() {
    for (unsigned r = 1; r < 32; ++r) {
      out_.x[r] = x_[r].v;
      if (live_in_[r]) out_.reads |= 1u << r;
      if (written_[r]) out_.writes |= 1u << r;
      if (x_[r].dep == Dep::Offset) out_.x_offset |= 1u << r;
      if (x_[r].dep == Dep::Other) out_.closed = false;
      if (live_in_[r] && written_[r] && (x_[r].dep != Dep::None || x_[r].v != in_[r]))
        return (void)refuse("register x" + std::to_string(r) + " carries a value from one iteration to the next");
    }
    for (const Stored& s : stored_) {
      for (const WaitLoopStore& l : out_.loads) {
        if (!overlaps(s.st.va, s.st.size, l.va, l.size)) continue;
        if (s.st.va != l.va || s.st.size != l.size || s.dep != Dep::None || s.st.value != l.value)
          return (void)refuse("memory carries a value from one iteration to the next");
      }
      if (s.dep == Dep::Other) out_.closed = false;
      out_.stores.push_back(s.st);
      out_.stores.back().offset = s.dep == Dep::Offset;
    }
  }
  const WaitLoopView& view_;
  const uint64_t time_;
  Value x_[32];
  uint64_t in_[32] = {};
  bool written_[32] = {}, live_in_[32] = {};
  std::vector<Stored> stored_;
  Dep load_dep_ = Dep::None;
  uint64_t load_c_ = 0;
  bool may_read_clock_ = false;  // the device load the iteration starts with
  WaitLoopIteration out_;
};

}  // namespace

namespace {

bool overlap(const WaitLoopStore& a, const WaitLoopStore& b) { return a.va < b.va + b.size && b.va < a.va + a.size; }

// Whether one of `stores` overlaps one of `accesses`.
bool any_overlap(const std::vector<WaitLoopStore>& stores, const std::vector<WaitLoopStore>& accesses) {
  for (const WaitLoopStore& s : stores)
    for (const WaitLoopStore& a : accesses)
      if (overlap(s, a)) return true;
  return false;
}

}  // namespace

bool loops_touch(const WaitLoopIteration& a, const WaitLoopIteration& b) {
  return any_overlap(a.stores, b.loads) || any_overlap(a.stores, b.stores) || any_overlap(b.stores, a.loads);
}

WaitLoopIteration evaluate_wait_loop(const WaitLoopView& view, const Insn& read, uint64_t pc, const uint64_t (&x)[32],
                                     uint64_t time, unsigned max_insns) {
  return Evaluator(view, time).run(read, pc, x, max_insns);
}

}  // namespace avp

#include "harts/triggers.h"

namespace avp::rv {

namespace {
constexpr uint64_t kEnables = Triggers::kLoad | Triggers::kStore | Triggers::kExecute;
constexpr uint64_t kModes = Triggers::kU | Triggers::kS | Triggers::kM;
constexpr unsigned kActionShift = 12, kMatchShift = 7;
constexpr uint64_t kHit2 = 1ull << 20, kHit6 = 1ull << 22;  // type 2 "hit", type 6 "hit0"
constexpr uint64_t kMaskmax2 = 63ull << 53;                 // type 2: NAPOT ranges up to 2^63 bytes
enum Match : unsigned { kEqual = 0, kNapot = 1, kGreaterEqual = 2, kLess = 3 };

uint64_t field(uint64_t v, unsigned shift) { return (v >> shift) & 15; }
}  // namespace

void Triggers::configure(unsigned count) {
  t_.assign(count > kMaxTriggers ? kMaxTriggers : count, Trigger{});
  select_ = 0;
  tcontrol_ = 0;
  update();
}

void Triggers::reset_software() {
  for (Trigger& t : t_)
    if (!(t.tdata1 & kDmode)) t = Trigger{};
  select_ = 0;
  tcontrol_ = 0;
  update();
}

uint64_t Triggers::read(unsigned csr) const {
  if (t_.empty()) return 0;
  const Trigger& t = t_[select_];
  switch (csr) {
    case CSR_TSELECT: return select_;
    case CSR_TDATA1: return t.tdata1;
    case CSR_TDATA2: return t.tdata2;
    case CSR_TINFO: return kTinfo;
    case CSR_TCONTROL: return tcontrol_;
    default: return 0;  // tdata3: no textra conditions (WARL 0)
  }
}

uint64_t Triggers::legal_tdata1(uint64_t v, bool debugger, bool last) const {
  const unsigned ty = static_cast<unsigned>(v >> 60);
  const uint64_t dmode = debugger ? (v & kDmode) : 0;
  // Unsupported types (including 0) leave the trigger disabled: type 15.
  if (ty != 2 && ty != 6) return (15ull << 60) | dmode;
  uint64_t r = (static_cast<uint64_t>(ty) << 60) | dmode | (v & (kEnables | kModes));
  const uint64_t match = field(v, kMatchShift);
  r |= (match <= kLess ? match : static_cast<uint64_t>(kEqual)) << kMatchShift;
  // Action 1 (enter Debug Mode) needs dmode; every other action is 0.
  const uint64_t action = field(v, kActionShift);
  if (action == 1 && dmode) r |= 1ull << kActionShift;
  if (!last) r |= v & kChain;  // the last trigger cannot chain to a next one
  if (ty == 2) r |= kMaskmax2 | (v & kHit2);
  else r |= v & kHit6;
  return r;
}

void Triggers::write(unsigned csr, uint64_t v, bool debugger) {
  if (t_.empty()) return;
  Trigger& t = t_[select_];
  const bool may_change = debugger || !(t.tdata1 & kDmode);
  switch (csr) {
    case CSR_TSELECT:
      if (v < t_.size()) select_ = static_cast<unsigned>(v);  // WARL: out-of-range values are ignored
      return;
    case CSR_TDATA1:
      if (may_change) t.tdata1 = legal_tdata1(v, debugger, select_ + 1 == t_.size());
      break;
    case CSR_TDATA2:
      if (may_change) t.tdata2 = v;
      break;
    case CSR_TCONTROL:
      tcontrol_ = v & (kMte | kMpte);
      break;
    default:
      return;  // tdata3 and tinfo: writes are ignored
  }
  update();
}

void Triggers::update() {
  native_armed_ = false;
  for (const Trigger& t : t_)
    if ((type(t) == 2 || type(t) == 6) && (t.tdata1 & kEnables) && field(t.tdata1, kActionShift) == 0)
      native_armed_ = true;
}

bool Triggers::matches(const Trigger& t, uint64_t kind, Priv p, uint64_t lo, uint64_t len) const {
  if (type(t) != 2 && type(t) != 6) return false;
  if (!(t.tdata1 & kind)) return false;
  const uint64_t mode = p == PRV_M ? kM : p == PRV_S ? kS : kU;
  if (!(t.tdata1 & mode)) return false;
  // Any byte of the access (the instruction's first byte for execute) may match.
  const uint64_t hi = lo + (len - 1), a = t.tdata2;
  switch (field(t.tdata1, kMatchShift)) {
    case kEqual: return a - lo < len;
    case kNapot: {
      uint64_t ones = 0;
      while (ones < 64 && ((a >> ones) & 1)) ++ones;
      const uint64_t mask = ones >= 63 ? ~0ull : (2ull << ones) - 1;
      const uint64_t base = a & ~mask;
      return lo <= base + mask && base <= hi;
    }
    case kGreaterEqual: return hi >= a;
    case kLess: return lo < a;
    default: return false;
  }
}

bool Triggers::fires(unsigned first, unsigned last, bool debugger, Priv p) const {
  // The chain acts with its last trigger's action. Breakpoint exceptions in
  // M-mode need tcontrol.mte, which a trap into M-mode clears (no recursion
  // when a handler runs into the trigger that brought it there).
  const uint64_t action = field(t_[last].tdata1, kActionShift);
  if (debugger) return action == 1 && (t_[first].tdata1 & kDmode);
  return action == 0 && (p != PRV_M || (tcontrol_ & kMte));
}

std::optional<TriggerHit> Triggers::match(const Insn& d, uint64_t pc, const HartState& s, bool debugger, bool execute) {
  DataAccess access;
  const bool data = data_access(d, s, access);
  // Execute triggers first: they fire before the instruction does anything.
  for (int pass = 0; pass < 2; ++pass) {
    const bool exec = pass == 0;
    if (exec && !execute) continue;
    if (!exec && !data) break;
    bool chain_ok = true;
    unsigned first = 0;
    for (unsigned i = 0; i < t_.size(); ++i) {
      const Trigger& t = t_[i];
      bool m = false;
      if (exec) {
        m = matches(t, kExecute, s.priv, pc, 1);
      } else {
        const uint64_t kind = (access.read ? kLoad : 0) | (access.write ? kStore : 0);
        m = matches(t, kind, s.priv, access.addr, access.len);
      }
      if (chained(t)) {
        chain_ok = chain_ok && m;
        continue;
      }
      if (chain_ok && m && fires(first, i, debugger, s.priv)) {
        for (unsigned k = first; k <= i; ++k) t_[k].tdata1 |= type(t_[k]) == 2 ? kHit2 : kHit6;
        TriggerHit hit;
        hit.index = first;
        hit.execute = exec;
        hit.tval = exec ? pc : access.addr;
        hit.access = access;
        return hit;
      }
      chain_ok = true;
      first = i + 1;
    }
  }
  return std::nullopt;
}

int Triggers::debugger_insert(uint64_t kinds, uint64_t addr, uint64_t len) {
  if (len == 0) len = 1;
  const bool napot = (len & (len - 1)) == 0 && (addr & (len - 1)) == 0;
  const unsigned need = napot ? 1 : 2;
  auto free = [&](unsigned i) { return !(t_[i].tdata1 & kDmode) && !(t_[i].tdata1 & kEnables); };
  for (unsigned i = 0; i + need <= t_.size(); ++i) {
    if (!free(i) || (need == 2 && !free(i + 1))) continue;
    const uint64_t base = (6ull << 60) | kDmode | (1ull << kActionShift) | kModes | (kinds & kEnables);
    if (napot) {
      t_[i].tdata1 = base | static_cast<uint64_t>(len == 1 ? kEqual : kNapot) << kMatchShift;
      t_[i].tdata2 = len == 1 ? addr : addr | (len / 2 - 1);
    } else {
      t_[i].tdata1 = base | kChain | static_cast<uint64_t>(kGreaterEqual) << kMatchShift;
      t_[i].tdata2 = addr;
      t_[i + 1].tdata1 = base | static_cast<uint64_t>(kLess) << kMatchShift;
      t_[i + 1].tdata2 = addr + len;
    }
    update();
    return static_cast<int>(i);
  }
  return -1;
}

void Triggers::debugger_remove(int index) {
  for (unsigned i = static_cast<unsigned>(index); i < t_.size(); ++i) {
    const bool more = chained(t_[i]);
    t_[i] = Trigger{};
    if (!more) break;
  }
  update();
}

}  // namespace avp::rv

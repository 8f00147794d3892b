#include "harts/trap_report.h"

#include <cstdio>
#include <sstream>

#include "base/source_lines.h"
#include "base/symbols.h"

#include "harts/hart.h"
#include "harts/rv_disasm.h"

namespace avp {

std::string describe_trap(Hart& hart, uint64_t cause, uint64_t tval) {
  const uint64_t pc = hart.state().pc;
  const auto last = hart.history().last();
  std::ostringstream os;
  os << "hart " << hart.id() << ": unhandled " << rv::cause_name(cause) << " (cause " << (cause & ~rv::kInterruptBit)
     << "), tval 0x" << std::hex << tval << std::dec << "\n  at ";
  // The trapping instruction is the last one recorded unless the fetch itself failed.
  uint16_t half[2] = {};
  if (!last.empty() && last.back().pc == pc) os << rv::describe_insn(pc, last.back().raw);
  else if (hart.debug_read(pc, &half[0], 2) && (!rv::is_compressed(half[0]) ? hart.debug_read(pc + 2, &half[1], 2) : true))
    os << rv::describe_insn(pc, rv::is_compressed(half[0]) ? half[0] : (static_cast<uint32_t>(half[1]) << 16 | half[0]));
  else os << "0x" << std::hex << pc << std::dec << " (no instruction can be read there)";
  if (const std::string src = SourceLines::instance().describe(pc); !src.empty()) os << "\n  source " << src;
  os << "\n" << describe_history(hart);
  return os.str();
}

std::string describe_history(const Hart& hart) {
  if (hart.history().length() == 0) return "  no instruction history kept (harts.history_length is 0)";
  const auto last = hart.history().last();
  std::ostringstream os;
  os << "  last " << last.size() << " instruction" << (last.size() == 1 ? "" : "s") << " (oldest first):";
  for (const auto& e : last) os << "\n    " << rv::describe_insn(e.pc, e.raw);
  return os.str();
}

std::string describe_registers(const Hart& hart) {
  std::string out = "  registers:";
  char buf[48];
  for (unsigned r = 1; r < 32; ++r) {
    if (r % 4 == 1) out += "\n  ";
    std::snprintf(buf, sizeof buf, "  %-3s %016llx", rv::xreg_name(r), static_cast<unsigned long long>(hart.state().x[r]));
    out += buf;
  }
  return out;
}

TrapRecord record_trap(Hart& hart, uint64_t cause, uint64_t tval) {
  TrapRecord t;
  t.hart = hart.id();
  t.cause = cause;
  t.tval = tval;
  t.pc = hart.state().pc;
  t.symbol = SymbolTable::instance().describe(t.pc);
  t.source = SourceLines::instance().describe(t.pc);
  const auto last = hart.history().last();
  if (!last.empty() && last.back().pc == t.pc) t.insn = rv::describe_insn(t.pc, last.back().raw);
  for (unsigned r = 0; r < 32; ++r) t.x[r] = hart.state().x[r];
  t.priv = hart.state().priv;
  return t;
}

}  // namespace avp

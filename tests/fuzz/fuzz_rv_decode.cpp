// libFuzzer target: the ISS decoder against the disassembler's view of
// validity. For every 16/32-bit encoding: the decoded fields are in range,
// a compressed instruction decodes as its 32-bit expansion, an encoding the
// decoder rejects shows as .word/.short and one it accepts never does, and
// disassembling is a pure function of the bits.
#include <cstdint>
#include <cstring>
#include <string>

#include "harts/rv_disasm.h"
#include "harts/rv_insn.h"

using namespace avp::rv;

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

void check_insn(uint16_t lo, uint16_t hi) {
  const Insn d = decode(lo, hi);
  check(d.op < NUM_OPS);
  check(d.rd < 32 && d.rs1 < 32 && d.rs2 < 32 && d.rs3 < 32);
  check(d.len == (is_compressed(lo) ? 2 : 4));
  check(d.raw == (d.len == 2 ? lo : (static_cast<uint32_t>(hi) << 16 | lo)));
  if (d.op != ILLEGAL) check(d.cls == static_cast<uint8_t>(op_class(static_cast<Op>(d.op))));
  if (d.len == 2) {
    const uint32_t expanded = expand_compressed(lo);
    if (expanded == 0) {
      check(d.op == ILLEGAL);
    } else {
      const Insn e = decode32(expanded);
      check(e.op == d.op && e.rd == d.rd && e.rs1 == d.rs1 && e.rs2 == d.rs2 && e.imm == d.imm && e.rm == d.rm);
    }
  }
  const std::string text = disassemble(d, 0x40000000);
  check(!text.empty());
  const bool raw_shown = text.rfind(".word", 0) == 0 || text.rfind(".short", 0) == 0;
  check(raw_shown == (d.op == ILLEGAL));
  check(disassemble_raw(d.raw | (d.len == 2 ? static_cast<uint32_t>(hi) << 16 : 0), 0x40000000) == text);
  check(!describe_insn(0x40000000, d).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (size_t at = 0; at + 4 <= size; at += 2) {
    uint16_t lo, hi;
    std::memcpy(&lo, data + at, 2);
    std::memcpy(&hi, data + at + 2, 2);
    check_insn(lo, hi);
  }
  return 0;
}

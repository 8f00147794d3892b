// Integer, control-flow, system and atomic instructions; FP is in rv_disasm_fp.cpp.
#include "harts/rv_disasm.h"

#include <cctype>
#include <cstdarg>
#include <cstdio>

#include "base/symbols.h"
#include "harts/hart_state.h"

namespace avp::rv {
namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char buf[160];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

std::string target(uint64_t addr) {
  std::string s = fmt("%llx", static_cast<unsigned long long>(addr));
  const std::string sym = SymbolTable::instance().describe(addr);
  return sym.empty() ? s : s + " " + sym;
}

const char* X(unsigned r) { return xreg_name(r); }

std::string branch(const Insn& d, uint64_t pc) {
  const uint64_t t = pc + d.imm;
  const Op op = static_cast<Op>(d.op);
  // objdump's zero-operand aliases: beqz/bnez/bltz/bgez with rs2 = zero, bgtz/blez with rs1 = zero.
  if (d.rs2 == 0 && op != BLTU && op != BGEU) {
    static const char* const z[] = {"beqz", "bnez", "bltz", "bgez"};
    return fmt("%s %s,%s", z[op - BEQ], X(d.rs1), target(t).c_str());
  }
  if (d.rs1 == 0 && (op == BLT || op == BGE))
    return fmt("%s %s,%s", op == BLT ? "bgtz" : "blez", X(d.rs2), target(t).c_str());
  return fmt("%s %s,%s,%s", op_mnemonic(op).c_str(), X(d.rs1), X(d.rs2), target(t).c_str());
}

std::string jump(const Insn& d, uint64_t pc) {
  if (d.op == JAL) {
    const std::string t = target(pc + d.imm);
    if (d.rd == 0) return "j " + t;
    if (d.rd == 1) return "jal " + t;
    return fmt("jal %s,%s", X(d.rd), t.c_str());
  }
  if (d.rd == 0 && d.rs1 == 1 && d.imm == 0) return "ret";
  if (d.rd == 0 && d.imm == 0) return fmt("jr %s", X(d.rs1));
  if (d.rd == 1 && d.imm == 0) return fmt("jalr %s", X(d.rs1));
  if (d.rd == 0) return fmt("jr %lld(%s)", static_cast<long long>(d.imm), X(d.rs1));
  if (d.rd == 1) return fmt("jalr %lld(%s)", static_cast<long long>(d.imm), X(d.rs1));
  return fmt("jalr %s,%lld(%s)", X(d.rd), static_cast<long long>(d.imm), X(d.rs1));
}

// csrrs/csrrw/csrrc and their immediate forms, with objdump's aliases.
std::string csr(const Insn& d) {
  const Op op = static_cast<Op>(d.op);
  const unsigned c = static_cast<unsigned>(d.imm);
  const std::string name = csr_name(c);
  const bool imm = op >= CSRRWI;
  const Op base = imm ? static_cast<Op>(op - (CSRRWI - CSRRW)) : op;
  const char* fpname = c == CSR_FFLAGS ? "flags" : c == CSR_FRM ? "rm" : c == CSR_FCSR ? "csr" : nullptr;
  if (base == CSRRS && !imm && d.rs1 == 0) {
    if (fpname) return fmt("fr%s %s", fpname, X(d.rd));
    if (c == CSR_CYCLE || c == CSR_TIME || c == CSR_INSTRET) return fmt("rd%s %s", name.c_str(), X(d.rd));
    return fmt("csrr %s,%s", X(d.rd), name.c_str());
  }
  if (base == CSRRW && fpname) {
    if (imm) return fmt("fs%si %s,%u", fpname, X(d.rd), d.rs1);
    return d.rd ? fmt("fs%s %s,%s", fpname, X(d.rd), X(d.rs1)) : fmt("fs%s %s", fpname, X(d.rs1));
  }
  // objdump names the immediate forms like the register ones (csrrwi -> "csrrw a0,mstatus,5").
  const char* verb = base == CSRRW ? "w" : base == CSRRS ? "s" : "c";
  const std::string src = imm ? std::to_string(d.rs1) : std::string(X(d.rs1));
  if (d.rd == 0) return fmt("csr%s %s,%s", verb, name.c_str(), src.c_str());
  return fmt("csrr%s %s,%s,%s", verb, X(d.rd), name.c_str(), src.c_str());
}

std::string fence(const Insn& d) {
  const unsigned pred = (d.raw >> 24) & 0xF, succ = (d.raw >> 20) & 0xF;
  if (pred == 0xF && succ == 0xF) return "fence";
  auto set = [](unsigned v) {
    std::string s;
    if (v & 8) s += 'i';
    if (v & 4) s += 'o';
    if (v & 2) s += 'r';
    if (v & 1) s += 'w';
    return s.empty() ? std::string("0") : s;
  };
  return "fence " + set(pred) + "," + set(succ);
}

std::string atomic(const Insn& d) {
  std::string n = op_mnemonic(static_cast<Op>(d.op));
  const bool aq = (d.raw >> 26) & 1, rl = (d.raw >> 25) & 1;
  if (aq) n += rl ? ".aqrl" : ".aq";
  else if (rl) n += ".rl";
  if (d.op == LR_W || d.op == LR_D) return fmt("%s %s,(%s)", n.c_str(), X(d.rd), X(d.rs1));
  return fmt("%s %s,%s,(%s)", n.c_str(), X(d.rd), X(d.rs2), X(d.rs1));
}

// Register-register and register-immediate ALU instructions, with aliases.
std::string alu(const Insn& d) {
  const Op op = static_cast<Op>(d.op);
  const long long imm = static_cast<long long>(d.imm);
  switch (op) {
    case ADDI:
      if (d.rd == 0 && d.rs1 == 0 && imm == 0) return "nop";
      if (d.rs1 == 0) return fmt("li %s,%lld", X(d.rd), imm);
      if (imm == 0) return fmt("mv %s,%s", X(d.rd), X(d.rs1));
      break;
    case ADDIW:
      if (imm == 0) return fmt("sext.w %s,%s", X(d.rd), X(d.rs1));
      break;
    case ANDI:
      if (imm == 255) return fmt("zext.b %s,%s", X(d.rd), X(d.rs1));
      break;
    case XORI:
      if (imm == -1) return fmt("not %s,%s", X(d.rd), X(d.rs1));
      break;
    case SLTIU:
      if (imm == 1) return fmt("seqz %s,%s", X(d.rd), X(d.rs1));
      break;
    case ADD:
      if (d.len == 2 && d.rs1 == 0) return fmt("mv %s,%s", X(d.rd), X(d.rs2));  // c.mv
      break;
    case SUB: case SUBW:
      if (d.rs1 == 0) return fmt("%s %s,%s", op == SUB ? "neg" : "negw", X(d.rd), X(d.rs2));
      break;
    case SLTU:
      if (d.rs1 == 0) return fmt("snez %s,%s", X(d.rd), X(d.rs2));
      break;
    case SLT:
      if (d.rs2 == 0) return fmt("sltz %s,%s", X(d.rd), X(d.rs1));
      if (d.rs1 == 0) return fmt("sgtz %s,%s", X(d.rd), X(d.rs2));
      break;
    default: break;
  }
  const std::string n = op_mnemonic(op);
  switch (op) {
    case SLLI: case SRLI: case SRAI: case SLLIW: case SRLIW: case SRAIW:
      return fmt("%s %s,%s,0x%llx", n.c_str(), X(d.rd), X(d.rs1), imm);
    case ADDI: case SLTI: case SLTIU: case XORI: case ORI: case ANDI: case ADDIW:
      return fmt("%s %s,%s,%lld", n.c_str(), X(d.rd), X(d.rs1), imm);
    default:
      return fmt("%s %s,%s,%s", n.c_str(), X(d.rd), X(d.rs1), X(d.rs2));
  }
}

std::string raw_word(const Insn& d) {
  return d.len == 2 ? fmt(".short 0x%04x", d.raw & 0xFFFF) : fmt(".word 0x%08x", d.raw);
}

}  // namespace

std::string op_mnemonic(Op op) {
  std::string n = op_name(op);
  for (char& c : n) c = c == '_' ? '.' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return n;
}

const char* xreg_name(unsigned r) {
  static const char* const n[] = {"zero", "ra", "sp",  "gp",  "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                  "a1",   "a2", "a3",  "a4",  "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                  "s6",   "s7", "s8",  "s9",  "s10", "s11", "t3", "t4", "t5", "t6"};
  return n[r & 31];
}

const char* freg_name(unsigned r) {
  static const char* const n[] = {"ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",
                                  "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
                                  "fa6", "fa7", "fs2",  "fs3",  "fs4", "fs5", "fs6",  "fs7",
                                  "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  return n[r & 31];
}

std::string disassemble(const Insn& d, uint64_t pc) {
  const Op op = static_cast<Op>(d.op);
  const long long imm = static_cast<long long>(d.imm);
  switch (op) {
    case ILLEGAL: return raw_word(d);
    case LUI: case AUIPC:
      return fmt("%s %s,0x%llx", op == LUI ? "lui" : "auipc", X(d.rd), (static_cast<unsigned long long>(imm) >> 12) & 0xFFFFF);
    case JAL: case JALR: return jump(d, pc);
    case BEQ: case BNE: case BLT: case BGE: case BLTU: case BGEU: return branch(d, pc);
    case LB: case LH: case LW: case LD: case LBU: case LHU: case LWU:
      return fmt("%s %s,%lld(%s)", op_mnemonic(op).c_str(), X(d.rd), imm, X(d.rs1));
    case SB: case SH: case SW: case SD:
      return fmt("%s %s,%lld(%s)", op_mnemonic(op).c_str(), X(d.rs2), imm, X(d.rs1));
    case FENCE: return fence(d);
    case FENCE_I: return "fence.i";
    case ECALL: case EBREAK: case MRET: case SRET: case WFI: return op_mnemonic(op);
    case SFENCE_VMA:
      if (d.rs2) return fmt("sfence.vma %s,%s", X(d.rs1), X(d.rs2));
      return d.rs1 ? fmt("sfence.vma %s", X(d.rs1)) : std::string("sfence.vma");
    case CSRRW: case CSRRS: case CSRRC: case CSRRWI: case CSRRSI: case CSRRCI: return csr(d);
    case XCMD: return fmt("xcmd%u %s,%s,%s", d.rm, X(d.rd), X(d.rs1), X(d.rs2));
    case XEXT: {
      static const char* const n[] = {"xext", "xext0", "xextm1"};
      return fmt("%s %s,%s,%s", n[d.rm % 3], X(d.rd), X(d.rs1), X(d.rs2));
    }
    default:
      if (op >= LR_W && op <= AMOMAXU_D) return atomic(d);
      if (op >= FLW && op <= FMV_D_X) return disassemble_fp(d);
      return alu(d);
  }
}

std::string disassemble_raw(uint32_t raw, uint64_t pc) {
  const uint16_t lo = static_cast<uint16_t>(raw);
  return disassemble(decode(lo, static_cast<uint16_t>(raw >> 16)), pc);
}

std::string describe_insn(uint64_t pc, const Insn& d) {
  std::string s = fmt("0x%llx", static_cast<unsigned long long>(pc));
  const std::string sym = SymbolTable::instance().describe(pc);
  if (!sym.empty()) s += " " + sym;
  s += d.len == 2 ? fmt("  %04x      ", d.raw & 0xFFFF) : fmt("  %08x  ", d.raw);
  return s + disassemble(d, pc);
}

std::string describe_insn(uint64_t pc, uint32_t raw) {
  return describe_insn(pc, decode(static_cast<uint16_t>(raw), static_cast<uint16_t>(raw >> 16)));
}

std::string csr_name(unsigned c) {
  struct Named {
    unsigned num;
    const char* name;
  };
  static const Named named[] = {
      {0x001, "fflags"},  {0x002, "frm"},     {0x003, "fcsr"},      {0xC00, "cycle"},      {0xC01, "time"},
      {0xC02, "instret"}, {0x100, "sstatus"}, {0x104, "sie"},       {0x105, "stvec"},      {0x106, "scounteren"},
      {0x10A, "senvcfg"}, {0x140, "sscratch"}, {0x141, "sepc"},     {0x142, "scause"},     {0x143, "stval"},
      {0x144, "sip"},     {0x180, "satp"},    {0xF11, "mvendorid"}, {0xF12, "marchid"},    {0xF13, "mimpid"},
      {0xF14, "mhartid"}, {0xF15, "mconfigptr"}, {0x300, "mstatus"}, {0x301, "misa"},      {0x302, "medeleg"},
      {0x303, "mideleg"}, {0x304, "mie"},     {0x305, "mtvec"},     {0x306, "mcounteren"}, {0x30A, "menvcfg"},
      {0x340, "mscratch"}, {0x341, "mepc"},   {0x342, "mcause"},    {0x343, "mtval"},      {0x344, "mip"},
      {0x34A, "mtinst"},  {0x34B, "mtval2"},  {0xB00, "mcycle"},    {0xB02, "minstret"},   {0x320, "mcountinhibit"},
      {0x7A0, "tselect"}, {0x7A1, "tdata1"},  {0x7A2, "tdata2"},    {0x7A3, "tdata3"},     {0x7B0, "dcsr"},
      {0x7B1, "dpc"},     {0x7B2, "dscratch0"}, {0x7B3, "dscratch1"},
  };
  for (const auto& n : named)
    if (n.num == c) return n.name;
  if (c >= 0xC03 && c <= 0xC1F) return fmt("hpmcounter%u", c - 0xC00);
  if (c >= 0xB03 && c <= 0xB1F) return fmt("mhpmcounter%u", c - 0xB00);
  if (c >= 0x323 && c <= 0x33F) return fmt("mhpmevent%u", c - 0x320);
  if (c >= 0x3A0 && c <= 0x3AF) return fmt("pmpcfg%u", c - 0x3A0);
  if (c >= 0x3B0 && c <= 0x3EF) return fmt("pmpaddr%u", c - 0x3B0);
  return fmt("0x%x", c);
}

}  // namespace avp::rv

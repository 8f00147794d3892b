// RV64IMAFDC decoder. Compressed instructions are expanded to 32-bit
// encodings so there is one decoder and one executor.
#include "harts/perf_events.h"
#include "harts/rv_insn.h"

namespace avp::rv {
namespace {

constexpr uint32_t bits(uint32_t v, int hi, int lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }
constexpr int64_t sext(uint64_t v, int width) { return static_cast<int64_t>(v << (64 - width)) >> (64 - width); }

uint32_t enc_r(uint32_t opc, uint32_t rd, uint32_t f3, uint32_t rs1, uint32_t rs2, uint32_t f7) {
  return opc | rd << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | f7 << 25;
}
uint32_t enc_i(uint32_t opc, uint32_t rd, uint32_t f3, uint32_t rs1, int32_t imm) {
  return opc | rd << 7 | f3 << 12 | rs1 << 15 | (static_cast<uint32_t>(imm) & 0xFFF) << 20;
}
uint32_t enc_s(uint32_t opc, uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm) {
  uint32_t u = static_cast<uint32_t>(imm);
  return opc | (u & 0x1F) << 7 | f3 << 12 | rs1 << 15 | rs2 << 20 | ((u >> 5) & 0x7F) << 25;
}
uint32_t enc_b(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm) {
  uint32_t u = static_cast<uint32_t>(imm);
  return 0x63 | ((u >> 11) & 1) << 7 | ((u >> 1) & 0xF) << 8 | f3 << 12 | rs1 << 15 | rs2 << 20 |
         ((u >> 5) & 0x3F) << 25 | ((u >> 12) & 1) << 31;
}
uint32_t enc_j(uint32_t rd, int32_t imm) {
  uint32_t u = static_cast<uint32_t>(imm);
  return 0x6F | rd << 7 | ((u >> 12) & 0xFF) << 12 | ((u >> 11) & 1) << 20 | ((u >> 1) & 0x3FF) << 21 |
         ((u >> 20) & 1) << 31;
}

}  // namespace

uint32_t expand_compressed(uint16_t c) {
  const uint32_t f3 = bits(c, 15, 13);
  const uint32_t rdp = 8 + bits(c, 4, 2), rs1p = 8 + bits(c, 9, 7);
  const uint32_t rd = bits(c, 11, 7), rs2 = bits(c, 6, 2);
  const int32_t imm6 = static_cast<int32_t>(sext(bits(c, 12, 12) << 5 | bits(c, 6, 2), 6));
  const uint32_t uimm_d = bits(c, 12, 10) << 3 | bits(c, 6, 5) << 6;  // C.LD/C.FLD/C.SD/C.FSD
  const uint32_t uimm_w = bits(c, 12, 10) << 3 | bits(c, 6, 6) << 2 | bits(c, 5, 5) << 6;
  switch (c & 3) {
    case 0:
      switch (f3) {
        case 0: {
          uint32_t nz = bits(c, 12, 11) << 4 | bits(c, 10, 7) << 6 | bits(c, 6, 6) << 2 | bits(c, 5, 5) << 3;
          return nz ? enc_i(0x13, rdp, 0, 2, nz) : 0;
        }
        case 1: return enc_i(0x07, rdp, 3, rs1p, uimm_d);
        case 2: return enc_i(0x03, rdp, 2, rs1p, uimm_w);
        case 3: return enc_i(0x03, rdp, 3, rs1p, uimm_d);
        case 5: return enc_s(0x27, 3, rs1p, rdp, uimm_d);
        case 6: return enc_s(0x23, 2, rs1p, rdp, uimm_w);
        case 7: return enc_s(0x23, 3, rs1p, rdp, uimm_d);
        default: return 0;
      }
    case 1:
      switch (f3) {
        case 0: return enc_i(0x13, rd, 0, rd, imm6);
        case 1: return rd ? enc_i(0x1B, rd, 0, rd, imm6) : 0;
        case 2: return enc_i(0x13, rd, 0, 0, imm6);
        case 3:
          if (rd == 2) {
            int32_t nz = static_cast<int32_t>(sext(bits(c, 12, 12) << 9 | bits(c, 6, 6) << 4 | bits(c, 5, 5) << 6 |
                                                       bits(c, 4, 3) << 7 | bits(c, 2, 2) << 5, 10));
            return nz ? enc_i(0x13, 2, 0, 2, nz) : 0;
          } else {
            if (imm6 == 0) return 0;
            return 0x37 | rd << 7 | (static_cast<uint32_t>(imm6) & 0xFFFFF) << 12;
          }
        case 4: {
          const uint32_t shamt = bits(c, 12, 12) << 5 | bits(c, 6, 2);
          switch (bits(c, 11, 10)) {
            case 0: return enc_i(0x13, rs1p, 5, rs1p, shamt);
            case 1: return enc_i(0x13, rs1p, 5, rs1p, shamt | 0x400);
            case 2: return enc_i(0x13, rs1p, 7, rs1p, imm6);
            default: {
              const uint32_t f2 = bits(c, 6, 5);
              if (!bits(c, 12, 12)) {
                static const uint32_t f3s[] = {0, 4, 6, 7};
                return enc_r(0x33, rs1p, f3s[f2], rs1p, rdp, f2 == 0 ? 0x20 : 0);
              }
              if (f2 == 0) return enc_r(0x3B, rs1p, 0, rs1p, rdp, 0x20);
              if (f2 == 1) return enc_r(0x3B, rs1p, 0, rs1p, rdp, 0);
              return 0;
            }
          }
        }
        case 5: {
          int32_t off = static_cast<int32_t>(sext(bits(c, 12, 12) << 11 | bits(c, 11, 11) << 4 | bits(c, 10, 9) << 8 |
                                                      bits(c, 8, 8) << 10 | bits(c, 7, 7) << 6 | bits(c, 6, 6) << 7 |
                                                      bits(c, 5, 3) << 1 | bits(c, 2, 2) << 5, 12));
          return enc_j(0, off);
        }
        default: {
          int32_t off = static_cast<int32_t>(sext(bits(c, 12, 12) << 8 | bits(c, 11, 10) << 3 | bits(c, 6, 5) << 6 |
                                                      bits(c, 4, 3) << 1 | bits(c, 2, 2) << 5, 9));
          return enc_b(f3 == 6 ? 0 : 1, rs1p, 0, off);
        }
      }
    case 2:
      switch (f3) {
        case 0: return enc_i(0x13, rd, 1, rd, bits(c, 12, 12) << 5 | bits(c, 6, 2));
        case 1: return enc_i(0x07, rd, 3, 2, bits(c, 12, 12) << 5 | bits(c, 6, 5) << 3 | bits(c, 4, 2) << 6);
        case 2: return rd ? enc_i(0x03, rd, 2, 2, bits(c, 12, 12) << 5 | bits(c, 6, 4) << 2 | bits(c, 3, 2) << 6) : 0;
        case 3: return rd ? enc_i(0x03, rd, 3, 2, bits(c, 12, 12) << 5 | bits(c, 6, 5) << 3 | bits(c, 4, 2) << 6) : 0;
        case 4:
          if (!bits(c, 12, 12)) {
            if (rs2 == 0) return rd ? enc_i(0x67, 0, 0, rd, 0) : 0;
            return enc_r(0x33, rd, 0, 0, rs2, 0);
          }
          if (rd == 0 && rs2 == 0) return 0x00100073;
          if (rs2 == 0) return enc_i(0x67, 1, 0, rd, 0);
          return enc_r(0x33, rd, 0, rd, rs2, 0);
        case 5: return enc_s(0x27, 3, 2, rs2, bits(c, 12, 10) << 3 | bits(c, 9, 7) << 6);
        case 6: return enc_s(0x23, 2, 2, rs2, bits(c, 12, 9) << 2 | bits(c, 8, 7) << 6);
        default: return enc_s(0x23, 3, 2, rs2, bits(c, 12, 10) << 3 | bits(c, 9, 7) << 6);
      }
    default: return 0;
  }
}

namespace {

Op fp_rm_op(uint32_t f7, uint32_t rs2, uint32_t f3) {
  switch (f7) {
    case 0x00: return FADD_S;
    case 0x01: return FADD_D;
    case 0x04: return FSUB_S;
    case 0x05: return FSUB_D;
    case 0x08: return FMUL_S;
    case 0x09: return FMUL_D;
    case 0x0C: return FDIV_S;
    case 0x0D: return FDIV_D;
    case 0x2C: return rs2 == 0 ? FSQRT_S : ILLEGAL;
    case 0x2D: return rs2 == 0 ? FSQRT_D : ILLEGAL;
    case 0x20: return rs2 == 1 ? FCVT_S_D : ILLEGAL;
    case 0x21: return rs2 == 0 ? FCVT_D_S : ILLEGAL;
    case 0x60: { static const Op o[] = {FCVT_W_S, FCVT_WU_S, FCVT_L_S, FCVT_LU_S}; return rs2 < 4 ? o[rs2] : ILLEGAL; }
    case 0x61: { static const Op o[] = {FCVT_W_D, FCVT_WU_D, FCVT_L_D, FCVT_LU_D}; return rs2 < 4 ? o[rs2] : ILLEGAL; }
    case 0x68: { static const Op o[] = {FCVT_S_W, FCVT_S_WU, FCVT_S_L, FCVT_S_LU}; return rs2 < 4 ? o[rs2] : ILLEGAL; }
    case 0x69: { static const Op o[] = {FCVT_D_W, FCVT_D_WU, FCVT_D_L, FCVT_D_LU}; return rs2 < 4 ? o[rs2] : ILLEGAL; }
    default: return NUM_OPS;  // not an rm-carrying op
  }
}

Op fp_funct_op(uint32_t f7, uint32_t rs2, uint32_t f3) {
  switch (f7) {
    case 0x10: return f3 == 0 ? FSGNJ_S : f3 == 1 ? FSGNJN_S : f3 == 2 ? FSGNJX_S : ILLEGAL;
    case 0x11: return f3 == 0 ? FSGNJ_D : f3 == 1 ? FSGNJN_D : f3 == 2 ? FSGNJX_D : ILLEGAL;
    case 0x14: return f3 == 0 ? FMIN_S : f3 == 1 ? FMAX_S : ILLEGAL;
    case 0x15: return f3 == 0 ? FMIN_D : f3 == 1 ? FMAX_D : ILLEGAL;
    case 0x50: return f3 == 0 ? FLE_S : f3 == 1 ? FLT_S : f3 == 2 ? FEQ_S : ILLEGAL;
    case 0x51: return f3 == 0 ? FLE_D : f3 == 1 ? FLT_D : f3 == 2 ? FEQ_D : ILLEGAL;
    case 0x70: return rs2 != 0 ? ILLEGAL : f3 == 0 ? FMV_X_W : f3 == 1 ? FCLASS_S : ILLEGAL;
    case 0x71: return rs2 != 0 ? ILLEGAL : f3 == 0 ? FMV_X_D : f3 == 1 ? FCLASS_D : ILLEGAL;
    case 0x78: return rs2 == 0 && f3 == 0 ? FMV_W_X : ILLEGAL;
    case 0x79: return rs2 == 0 && f3 == 0 ? FMV_D_X : ILLEGAL;
    default: return ILLEGAL;
  }
}

}  // namespace

Insn decode32(uint32_t raw) {
  Insn d;
  d.raw = raw;
  d.len = 4;
  const uint32_t opc = raw & 0x7F, f3 = bits(raw, 14, 12), f7 = raw >> 25;
  d.rd = bits(raw, 11, 7);
  d.rs1 = bits(raw, 19, 15);
  d.rs2 = bits(raw, 24, 20);
  d.rs3 = raw >> 27;
  d.rm = static_cast<uint8_t>(f3);
  const int64_t imm_i = static_cast<int32_t>(raw) >> 20;
  const int64_t imm_s = static_cast<int64_t>(static_cast<int32_t>(raw) >> 25) * 32 | bits(raw, 11, 7);
  Op op = ILLEGAL;
  switch (opc) {
    case 0x37: op = LUI; d.imm = static_cast<int32_t>(raw & 0xFFFFF000); break;
    case 0x17: op = AUIPC; d.imm = static_cast<int32_t>(raw & 0xFFFFF000); break;
    case 0x6F:
      op = JAL;
      d.imm = sext(bits(raw, 31, 31) << 20 | bits(raw, 19, 12) << 12 | bits(raw, 20, 20) << 11 | bits(raw, 30, 21) << 1, 21);
      break;
    case 0x67: op = f3 == 0 ? JALR : ILLEGAL; d.imm = imm_i; break;
    case 0x63: {
      static const Op o[] = {BEQ, BNE, ILLEGAL, ILLEGAL, BLT, BGE, BLTU, BGEU};
      op = o[f3];
      d.imm = sext(bits(raw, 31, 31) << 12 | bits(raw, 7, 7) << 11 | bits(raw, 30, 25) << 5 | bits(raw, 11, 8) << 1, 13);
      break;
    }
    case 0x03: { static const Op o[] = {LB, LH, LW, LD, LBU, LHU, LWU, ILLEGAL}; op = o[f3]; d.imm = imm_i; break; }
    case 0x23: { static const Op o[] = {SB, SH, SW, SD, ILLEGAL, ILLEGAL, ILLEGAL, ILLEGAL}; op = o[f3]; d.imm = imm_s; break; }
    case 0x13:
      d.imm = imm_i;
      switch (f3) {
        case 0: op = ADDI; break;
        case 2: op = SLTI; break;
        case 3: op = SLTIU; break;
        case 4: op = XORI; break;
        case 6: op = ORI; break;
        case 7: op = ANDI; break;
        case 1: op = (raw >> 26) == 0 ? SLLI : ILLEGAL; d.imm = bits(raw, 25, 20); break;
        case 5: op = (raw >> 26) == 0 ? SRLI : (raw >> 26) == 0x10 ? SRAI : ILLEGAL; d.imm = bits(raw, 25, 20); break;
      }
      break;
    case 0x1B:
      d.imm = imm_i;
      if (f3 == 0) op = ADDIW;
      else if (f3 == 1) op = f7 == 0 ? SLLIW : ILLEGAL;
      else if (f3 == 5) op = f7 == 0 ? SRLIW : f7 == 0x20 ? SRAIW : ILLEGAL;
      if (f3 == 1 || f3 == 5) d.imm = bits(raw, 24, 20);
      break;
    case 0x33:
      if (f7 == 0) { static const Op o[] = {ADD, SLL, SLT, SLTU, XOR, SRL, OR, AND}; op = o[f3]; }
      else if (f7 == 0x20) op = f3 == 0 ? SUB : f3 == 5 ? SRA : ILLEGAL;
      else if (f7 == 1) { static const Op o[] = {MUL, MULH, MULHSU, MULHU, DIV, DIVU, REM, REMU}; op = o[f3]; }
      break;
    case 0x3B:
      if (f7 == 0) op = f3 == 0 ? ADDW : f3 == 1 ? SLLW : f3 == 5 ? SRLW : ILLEGAL;
      else if (f7 == 0x20) op = f3 == 0 ? SUBW : f3 == 5 ? SRAW : ILLEGAL;
      else if (f7 == 1) { static const Op o[] = {MULW, ILLEGAL, ILLEGAL, ILLEGAL, DIVW, DIVUW, REMW, REMUW}; op = o[f3]; }
      break;
    case 0x0F: op = f3 == 0 ? FENCE : f3 == 1 ? FENCE_I : ILLEGAL; break;
    case 0x73:
      if (f3 == 0) {
        if (raw == 0x00000073) op = ECALL;
        else if (raw == 0x00100073) op = EBREAK;
        else if (raw == 0x30200073) op = MRET;
        else if (raw == 0x10200073) op = SRET;
        else if (raw == 0x10500073) op = WFI;
        else if (f7 == 0x09 && d.rd == 0) op = SFENCE_VMA;
      } else if (f3 != 4) {
        static const Op o[] = {ILLEGAL, CSRRW, CSRRS, CSRRC, ILLEGAL, CSRRWI, CSRRSI, CSRRCI};
        op = o[f3];
        d.imm = raw >> 20;
      }
      break;
    case 0x2F:
      if (f3 == 2 || f3 == 3) {
        const bool dbl = f3 == 3;
        switch (raw >> 27) {
          case 0x02: op = d.rs2 == 0 ? (dbl ? LR_D : LR_W) : ILLEGAL; break;
          case 0x03: op = dbl ? SC_D : SC_W; break;
          case 0x01: op = dbl ? AMOSWAP_D : AMOSWAP_W; break;
          case 0x00: op = dbl ? AMOADD_D : AMOADD_W; break;
          case 0x04: op = dbl ? AMOXOR_D : AMOXOR_W; break;
          case 0x0C: op = dbl ? AMOAND_D : AMOAND_W; break;
          case 0x08: op = dbl ? AMOOR_D : AMOOR_W; break;
          case 0x10: op = dbl ? AMOMIN_D : AMOMIN_W; break;
          case 0x14: op = dbl ? AMOMAX_D : AMOMAX_W; break;
          case 0x18: op = dbl ? AMOMINU_D : AMOMINU_W; break;
          case 0x1C: op = dbl ? AMOMAXU_D : AMOMAXU_W; break;
        }
      }
      break;
    case 0x07: op = f3 == 2 ? FLW : f3 == 3 ? FLD : ILLEGAL; d.imm = imm_i; break;
    case 0x27: op = f3 == 2 ? FSW : f3 == 3 ? FSD : ILLEGAL; d.imm = imm_s; break;
    case 0x43: case 0x47: case 0x4B: case 0x4F: {
      const uint32_t fmt = bits(raw, 26, 25);
      const int k = (opc - 0x43) / 4;
      static const Op s[] = {FMADD_S, FMSUB_S, FNMSUB_S, FNMADD_S}, dd[] = {FMADD_D, FMSUB_D, FNMSUB_D, FNMADD_D};
      op = fmt == 0 ? s[k] : fmt == 1 ? dd[k] : ILLEGAL;
      if (f3 == 5 || f3 == 6) op = ILLEGAL;
      break;
    }
    case 0x53: {
      Op r = fp_rm_op(f7, d.rs2, f3);
      if (r != NUM_OPS) op = (f3 == 5 || f3 == 6) ? ILLEGAL : r;
      else op = fp_funct_op(f7, d.rs2, f3);
      break;
    }
    case 0x0B:
      if (f7 == 0) op = XCMD;
      else if (f7 == 1 && f3 <= 2) op = XEXT;
      break;
  }
  d.op = op;
  d.cls = static_cast<uint8_t>(op_class(op));
  d.event = perf_event(op);
  return d;
}

Insn decode(uint16_t lo, uint16_t hi) {
  if (!is_compressed(lo)) return decode32(static_cast<uint32_t>(hi) << 16 | lo);
  uint32_t x = expand_compressed(lo);
  Insn d = x ? decode32(x) : Insn{};
  d.len = 2;
  d.raw = lo;
  return d;
}

bool ends_block(Op op) {
  switch (op) {
    case JAL: case JALR: case BEQ: case BNE: case BLT: case BGE: case BLTU: case BGEU:
    case ECALL: case EBREAK: case MRET: case SRET: case WFI: case FENCE_I: case SFENCE_VMA:
    case CSRRW: case CSRRS: case CSRRC: case CSRRWI: case CSRRSI: case CSRRCI:
    case ILLEGAL: case XCMD: case XEXT:
      return true;
    default:
      return false;
  }
}

const char* op_name(Op op) {
  static const char* const names[] = {
#define AVP_RV_NAME(name) #name,
      AVP_RV_OPS(AVP_RV_NAME)
#undef AVP_RV_NAME
  };
  return op < NUM_OPS ? names[op] : "?";
}

OpClass op_class(Op op) {
  if (op >= BEQ && op <= BGEU) return OpClass::Branch;
  if (op == JAL || op == JALR) return OpClass::Jump;
  if ((op >= LB && op <= LWU) || op == FLW || op == FLD) return OpClass::Load;
  if ((op >= SB && op <= SD) || op == FSW || op == FSD) return OpClass::Store;
  if (op == MUL || op == MULH || op == MULHSU || op == MULHU || op == MULW) return OpClass::Mul;
  if ((op >= DIV && op <= REMU) || (op >= DIVW && op <= REMUW)) return OpClass::Div;
  if (op >= LR_W && op <= AMOMAXU_D) return OpClass::Atomic;
  if (op == FDIV_S || op == FDIV_D || op == FSQRT_S || op == FSQRT_D) return OpClass::FpDiv;
  if (op >= FMADD_S && op <= FMV_D_X) return OpClass::Fp;
  if ((op >= FENCE && op <= CSRRCI) || op == XCMD || op == XEXT || op == ILLEGAL) return OpClass::System;
  return OpClass::Alu;
}

}  // namespace avp::rv

// Decoded RISC-V instructions (RV64IMAFDC + Zicsr + Zifencei + the custom-0
// overloadable opcodes). Instructions are decoded once into Insn and cached;
// compressed instructions are expanded to their 32-bit equivalents first.
#pragma once
#include <cstdint>

namespace avp::rv {

// The instructions rv_semantics.h defines, and FENCE (a no-op here: memory is coherent), in Op order.
#define AVP_RV_BASE_OPS(X)                                                                              \
  X(LUI) X(AUIPC) X(JAL) X(JALR) X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU)                             \
  X(LB) X(LH) X(LW) X(LD) X(LBU) X(LHU) X(LWU) X(SB) X(SH) X(SW) X(SD)                                   \
  X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI)                                \
  X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND)                                  \
  X(ADDIW) X(SLLIW) X(SRLIW) X(SRAIW) X(ADDW) X(SUBW) X(SLLW) X(SRLW) X(SRAW)                            \
  X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU)                                        \
  X(MULW) X(DIVW) X(DIVUW) X(REMW) X(REMUW)                                                              \
  X(FENCE)
// The rest: system, atomic, floating-point and extension instructions.
#define AVP_RV_OTHER_OPS(X)                                                                             \
  X(FENCE_I) X(ECALL) X(EBREAK) X(MRET) X(SRET) X(WFI) X(SFENCE_VMA)                                     \
  X(CSRRW) X(CSRRS) X(CSRRC) X(CSRRWI) X(CSRRSI) X(CSRRCI)                                               \
  X(LR_W) X(SC_W) X(AMOSWAP_W) X(AMOADD_W) X(AMOXOR_W) X(AMOAND_W) X(AMOOR_W)                            \
  X(AMOMIN_W) X(AMOMAX_W) X(AMOMINU_W) X(AMOMAXU_W)                                                      \
  X(LR_D) X(SC_D) X(AMOSWAP_D) X(AMOADD_D) X(AMOXOR_D) X(AMOAND_D) X(AMOOR_D)                            \
  X(AMOMIN_D) X(AMOMAX_D) X(AMOMINU_D) X(AMOMAXU_D)                                                      \
  X(FLW) X(FSW) X(FLD) X(FSD)                                                                            \
  X(FMADD_S) X(FMSUB_S) X(FNMSUB_S) X(FNMADD_S) X(FMADD_D) X(FMSUB_D) X(FNMSUB_D) X(FNMADD_D)            \
  X(FADD_S) X(FSUB_S) X(FMUL_S) X(FDIV_S) X(FSQRT_S) X(FSGNJ_S) X(FSGNJN_S) X(FSGNJX_S)                  \
  X(FMIN_S) X(FMAX_S) X(FCVT_W_S) X(FCVT_WU_S) X(FCVT_L_S) X(FCVT_LU_S) X(FMV_X_W)                       \
  X(FEQ_S) X(FLT_S) X(FLE_S) X(FCLASS_S) X(FCVT_S_W) X(FCVT_S_WU) X(FCVT_S_L) X(FCVT_S_LU) X(FMV_W_X)    \
  X(FADD_D) X(FSUB_D) X(FMUL_D) X(FDIV_D) X(FSQRT_D) X(FSGNJ_D) X(FSGNJN_D) X(FSGNJX_D)                  \
  X(FMIN_D) X(FMAX_D) X(FCVT_S_D) X(FCVT_D_S) X(FCVT_W_D) X(FCVT_WU_D) X(FCVT_L_D) X(FCVT_LU_D)          \
  X(FMV_X_D) X(FEQ_D) X(FLT_D) X(FLE_D) X(FCLASS_D) X(FCVT_D_W) X(FCVT_D_WU) X(FCVT_D_L) X(FCVT_D_LU)    \
  X(FMV_D_X)                                                                                             \
  X(XCMD) X(XEXT)
#define AVP_RV_OPS(X) X(ILLEGAL) AVP_RV_BASE_OPS(X) AVP_RV_OTHER_OPS(X)

enum Op : uint16_t {
#define AVP_RV_ENUM(name) name,
  AVP_RV_OPS(AVP_RV_ENUM)
#undef AVP_RV_ENUM
  NUM_OPS
};

const char* op_name(Op op);

// Instruction classes for the timing model (cycles per class are parameters).
enum class OpClass : uint8_t { Alu, Branch, Jump, Load, Store, Mul, Div, Atomic, Fp, FpDiv, System, NumClasses };
OpClass op_class(Op op);

struct Insn {
  uint16_t op = ILLEGAL;
  uint8_t rd = 0, rs1 = 0, rs2 = 0, rs3 = 0;
  uint8_t rm = 0;   // FP rounding mode field; funct3 for XCMD/XEXT
  uint8_t len = 4;  // 2 for compressed
  uint8_t cls = 0;  // OpClass, for the timing model
  uint8_t event = 0;  // PerfEvent (perf_events.h), counted when the instruction retires
  int64_t imm = 0;  // sign-extended immediate; CSR number for CSR ops
  uint32_t raw = 0; // the instruction bits as fetched (16 bits for compressed)
};

// Decodes a 32-bit instruction. Unknown or reserved encodings give ILLEGAL.
Insn decode32(uint32_t raw);
// Expands a 16-bit compressed instruction to its 32-bit equivalent, or returns
// 0 for illegal/reserved compressed encodings.
uint32_t expand_compressed(uint16_t c);
// Decodes the instruction whose low 16 bits are `lo` (and high 16 bits `hi`
// when it is not compressed).
Insn decode(uint16_t lo, uint16_t hi);

inline bool is_compressed(uint16_t lo) { return (lo & 3) != 3; }
// Instructions after which a decoded block ends (control flow, traps, CSR and
// fence side effects that may change how later instructions behave).
bool ends_block(Op op);

}  // namespace avp::rv

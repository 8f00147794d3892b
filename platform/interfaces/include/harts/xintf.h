/* Overloadable opcodes (xext/xcmd, platform.md section 6): the layout shared by
 * the ISS, the extension devices and device code. Plain C so device code can
 * include it.
 *
 * xext   rd, rs1, rs2 : rs1 = uuid << 12 | seq; rd = lun | rs2 << 12, or lun 0 (trap)
 * xext0  rd, rs1, rs2 : as xext, lun 1 (return zero) when the uuid is unknown
 * xextm1 rd, rs1, rs2 : as xext, lun 2 (return minus one) when the uuid is unknown
 * xcmdK  rd, rs1, rs2 : command K of the device behind lun = rs1[11:0]
 */
#ifndef AVP_XINTF_H
#define AVP_XINTF_H

#include <stdint.h>

/* Built-in extension interfaces (uuids) and their commands. */
#define AVP_XINTF_UUID_HARTINFO 0xACC01ull /* xcmd0: hart id, xcmd1: core id, xcmd2: harts per core, xcmd3: cores, \
  xcmd4: raise the machine software interrupt (MSIP) of hart rs2, xcmd5: clear this hart's MSIP */
#define AVP_XINTF_UUID_BARRIER 0xACC02ull  /* xcmd0: wait until every running hart of this core arrived */
#define AVP_XINTF_UUID_DMA 0xACC03ull      /* DMA without MMIO, through the hart's DMA register set:      \
  xcmd0: source = rs2; xcmd1: destination = rs2; xcmd2: start a 1D copy of rs2 bytes, rd = transfer id; \
  xcmd3: wait until transfer rs2 is done, rd = 0 (an error is an access fault) */

/* The seed's standard fallback interfaces, found by xext like any device (lun 1 and 2). */
#define AVP_XINTF_UUID_RETURN_ZERO 1ull      /* org.RiscV:Fallback:ReturnZero: every xcmd returns 0 */
#define AVP_XINTF_UUID_RETURN_MINUS_ONE 2ull /* org.RiscV:Fallback:ReturnMinusOne: every xcmd returns -1 */

/* Fallback luns. */
#define AVP_XINTF_LUN_TRAP 0
#define AVP_XINTF_LUN_ZERO 1
#define AVP_XINTF_LUN_MINUS_ONE 2
#define AVP_XINTF_LUN_FIRST_DEVICE 32

#ifdef __riscv
/* funct7 = 1, funct3 = 0/1/2: xext, xext0, xextm1; funct7 = 0, funct3 = k: xcmdK. */
#define AVP_XEXT(rd, rs1, rs2) __asm__ volatile(".insn r 0x0B, 0, 1, %0, %1, %2" : "=r"(rd) : "r"(rs1), "r"(rs2))
#define AVP_XEXT0(rd, rs1, rs2) __asm__ volatile(".insn r 0x0B, 1, 1, %0, %1, %2" : "=r"(rd) : "r"(rs1), "r"(rs2))
#define AVP_XEXTM1(rd, rs1, rs2) __asm__ volatile(".insn r 0x0B, 2, 1, %0, %1, %2" : "=r"(rd) : "r"(rs1), "r"(rs2))
#define AVP_XCMD(k, rd, rs1, rs2) __asm__ volatile(".insn r 0x0B, " #k ", 0, %0, %1, %2" : "=r"(rd) : "r"(rs1), "r"(rs2) : "memory")

/* lun | data for an interface, with the default device (seq 0). */
static inline uint64_t avp_xext(uint64_t uuid) {
  uint64_t rd, rs1 = uuid << 12, rs2 = 0;
  AVP_XEXT(rd, rs1, rs2);
  return rd;
}
static inline uint64_t avp_xext0(uint64_t uuid) {
  uint64_t rd, rs1 = uuid << 12, rs2 = 0;
  AVP_XEXT0(rd, rs1, rs2);
  return rd;
}
#endif

#endif /* AVP_XINTF_H */

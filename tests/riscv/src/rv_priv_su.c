// Privileged architecture with S- and U-mode: ECALL from each mode, CSR and
// xRET privilege rules, sret state transitions, medeleg delegation to S-mode.
#include "priv.h"

static volatile uint64_t lower_pc, lower_csr;
static void u_ecall(void) {
  uint64_t pc;
  __asm__ volatile("li a7, 0x101\n la %0, 1f\n1: ecall" : "=&r"(pc)::"a7", "memory");
  lower_pc = pc;
}
static void u_illegal(void) { lower_pc = AT("csrr a0, mstatus"); }
static void u_sstatus(void) { lower_pc = AT("csrr a0, sstatus"); }
static void u_mret(void) { lower_pc = AT("mret"); }
static void u_sret(void) { lower_pc = AT("sret"); }
static void u_ebreak(void) { lower_pc = AT(EBREAK32); }
static void u_cycle(void) { lower_pc = AT("csrr a0, cycle"); }
static void s_ecall(void) {
  uint64_t pc;
  __asm__ volatile("li a7, 0x102\n la %0, 1f\n1: ecall" : "=&r"(pc)::"a7", "memory");
  lower_pc = pc;
}
static void s_mstatus(void) { lower_pc = AT("csrr a0, mstatus"); }
static void s_sstatus(void) {
  uint64_t v;
  __asm__ volatile("csrr %0, sstatus" : "=r"(v));
  lower_csr = v;
  lower_pc = 0;
}
static void s_mret(void) { lower_pc = AT("mret"); }
static void s_sret_tsr(void) { lower_pc = AT("sret"); }
static void s_ebreak(void) { lower_pc = AT(EBREAK32); }
static void s_illegal(void) { lower_pc = AT(".4byte 0x0000006b"); }

// sret from S-mode: SIE <- SPIE, SPIE <- 1, SPP <- U.
static void s_sret_state(void) {
  uint64_t st;
  __asm__ volatile(
      "li t0, 0x122\n csrc sstatus, t0\n li t0, 0x120\n csrs sstatus, t0\n"  // SPP=S SPIE=1 SIE=0
      "la t0, 1f\n csrw sepc, t0\n sret\n1: csrr %0, sstatus\n csrci sstatus, 2"
      : "=r"(st)::"t0", "memory");
  lower_csr = st & (AVP_MSTATUS_SIE | AVP_MSTATUS_SPIE | AVP_MSTATUS_SPP);
}

static void lower_modes(void) {
  run_in_mode(MODE_U, u_ecall);
  report("ecall from U", lower_pc, 0);
  run_in_mode(MODE_U, u_illegal);
  report("csrr mstatus in U", lower_pc, 0x30002573);
  run_in_mode(MODE_U, u_sstatus);
  report("csrr sstatus in U", lower_pc, 0x10002573);
  run_in_mode(MODE_U, u_mret);
  report("mret in U", lower_pc, 0x30200073);
  run_in_mode(MODE_U, u_sret);
  report("sret in U", lower_pc, 0x10200073);
  run_in_mode(MODE_U, u_ebreak);
  report("ebreak in U", lower_pc, last.tval == lower_pc ? lower_pc : 0);
  avp_csr_write(mcounteren, 0);
  run_in_mode(MODE_U, u_cycle);
  report("rdcycle in U with mcounteren=0", lower_pc, 0xc0002573);
  run_in_mode(MODE_S, s_ecall);
  report("ecall from S", lower_pc, 0);
  run_in_mode(MODE_S, s_mstatus);
  report("csrr mstatus in S", lower_pc, 0x30002573);
  run_in_mode(MODE_S, s_mret);
  report("mret in S", lower_pc, 0x30200073);
  avp_csr_set(mstatus, 1ull << 22);  // TSR
  run_in_mode(MODE_S, s_sret_tsr);
  report("sret in S with TSR=1", lower_pc, 0x10200073);
  avp_csr_clear(mstatus, 1ull << 22);
  run_in_mode(MODE_S, s_sstatus);
  report("csrr sstatus in S", lower_pc, 0);
  run_in_mode(MODE_S, s_sret_state);
  sig("sret: SIE SPIE SPP after", lower_csr);
}

static void delegation(void) {
  // Exceptions from U/S listed in medeleg go to S-mode; M-mode traps never do.
  avp_csr_write(medeleg, (1ull << 8) | (1ull << 2) | (1ull << 3));
  uint64_t deleg = avp_csr_read(medeleg);
  sig("medeleg readback (ecall-U, illegal, breakpoint)", deleg & ((1ull << 8) | (1ull << 2) | (1ull << 3)));
  run_in_mode(MODE_U, u_ecall);
  report("delegated ecall from U", lower_pc, 0);
  run_in_mode(MODE_U, u_illegal);
  report("delegated illegal in U", lower_pc, 0x30002573);
  run_in_mode(MODE_S, s_illegal);
  report("delegated illegal in S", lower_pc, 0x6b);
  run_in_mode(MODE_S, s_ebreak);
  report("delegated ebreak in S", lower_pc, last.tval == lower_pc ? lower_pc : 0);
  run_in_mode(MODE_S, s_ecall);
  report("ecall from S (not delegated)", lower_pc, 0);
  uint64_t pc = AT(".4byte 0x0000006b");
  report("illegal in M stays in M", pc, 0x6b);
  avp_csr_write(medeleg, 0);
}

int main(int hart) {
  priv_setup();
  sig_begin("rv_priv_su");
  lower_modes();
  delegation();
  sig_end();
  return 0;
}

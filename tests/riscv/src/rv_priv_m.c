// Privileged architecture in M-mode (bare metal): illegal and reserved
// encodings, ebreak/ecall traps with mcause/mepc/mtval, mret state
// transitions, machine CSRs, misaligned accesses.
#include "priv.h"

static void illegal_in_m(void) {
  uint64_t pc;
  pc = AT(".2byte 0x0000");
  report("c.unimp (all-zero)", pc, 0);
  pc = AT(".4byte 0xc0001073");  // csrrw x0, cycle, x0: write to a read-only CSR
  report("write read-only cycle", pc, 0xc0001073);
  pc = AT(".4byte 0xf1401073");  // csrrw x0, mhartid, x0
  report("write read-only mhartid", pc, 0xf1401073);
  pc = AT(".4byte 0x0000006b");  // reserved major opcode
  report("reserved opcode 0x6b", pc, 0x6b);
  // Reserved encodings: accel-vp raises illegal instruction for all of them.
  static const struct { const char* name; uint32_t bits; } reserved16[] = {
      {"c.jr x0", 0x8002}, {"c.lwsp x0", 0x4002}, {"c.ldsp x0", 0x6002}, {"c.addi16sp 0", 0x6101},
      {"c.lui a0, 0", 0x6501}, {"c.addiw x0", 0x2001},
  };
  static const struct { const char* name; uint32_t bits; } reserved32[] = {
      {"slliw shamt 32", 0x0205151b}, {"srliw shamt 32", 0x0205551b}, {"sraiw shamt 32", 0x4205551b},
  };
  for (unsigned i = 0; i < ARRAY_SIZE(reserved16); i++) {
    static uint16_t slot[2] __attribute__((aligned(4)));
    slot[0] = (uint16_t)reserved16[i].bits;
    slot[1] = 0x8082;  // c.jr ra
    __asm__ volatile("fence.i" ::: "memory");
    ((void (*)(void))slot)();
    report(reserved16[i].name, (uint64_t)slot, reserved16[i].bits);
  }
  for (unsigned i = 0; i < ARRAY_SIZE(reserved32); i++) {
    static uint32_t slot[2];
    slot[0] = reserved32[i].bits;
    slot[1] = 0x00008067;  // jalr x0, 0(ra)
    __asm__ volatile("fence.i" ::: "memory");
    ((void (*)(void))slot)();
    report(reserved32[i].name, (uint64_t)slot, reserved32[i].bits);
  }
  pc = AT(".4byte 0x00005053");  // fadd.s f0, f0, f0 with reserved rm=5
  report("fadd.s rm=5", pc, 0x00005053);
  pc = AT(".4byte 0x00006053");  // rm=6
  report("fadd.s rm=6", pc, 0x00006053);
  __asm__ volatile("fsrmi 5");
  pc = AT(".4byte 0x00007053");  // fadd.s dyn with frm=5
  report("fadd.s dyn frm=5", pc, 0x00007053);
  __asm__ volatile("fsrmi 7");
  pc = AT(".4byte 0x00007053");
  report("fadd.s dyn frm=7", pc, 0x00007053);
  __asm__ volatile("fsrmi 0");
  pc = AT(".4byte 0x00007053");
  report("fadd.s dyn frm=0 (legal)", pc, 0);
  // FP instructions trap while mstatus.FS = Off.
  avp_csr_clear(mstatus, AVP_MSTATUS_FS);
  pc = AT(".4byte 0x00007053");
  report("fadd.s with FS=Off", pc, 0x00007053);
  pc = AT(".4byte 0x00302573");  // csrr a0, fcsr
  report("csrr fcsr with FS=Off", pc, 0x00302573);
  avp_csr_set(mstatus, 1ull << 13);
  pc = AT(EBREAK32);
  report("ebreak in M", pc, last.tval == pc ? pc : 0);
  pc = AT("c.ebreak");
  report("c.ebreak in M", pc, last.tval == pc ? pc : 0);
}

static void ecall_in_m(void) {
  uint64_t pc;
  __asm__ volatile("li a7, 0x100\n la %0, 1f\n1: ecall" : "=&r"(pc)::"a7", "memory");
  report("ecall from M (a7=0x100)", pc, 0);
}

static void mret_state(void) {
  // mret: MIE <- MPIE, MPIE <- 1, MPP <- U (least-privileged mode).
  uint64_t st;
  __asm__ volatile(
      "li t0, 0x1888\n csrc mstatus, t0\n li t0, 0x1880\n csrs mstatus, t0\n"  // MPP=M MPIE=1 MIE=0
      "la t0, 1f\n csrw mepc, t0\n mret\n1: csrr %0, mstatus\n csrci mstatus, 8"
      : "=r"(st)::"t0", "memory");
  sig("mret: MIE MPIE MPP after", st & (AVP_MSTATUS_MIE | AVP_MSTATUS_MPIE | AVP_MSTATUS_MPP));
}

static void csrs(void) {
  avp_csr_write(mepc, 0x1235);
  sig("mepc bit 0 reads 0 (IALIGN=16)", avp_csr_read(mepc));
  uint64_t trap_stack = avp_csr_read(mscratch);
  avp_csr_write(mscratch, 0xfedcba9876543210ull);
  sig("mscratch", avp_csr_read(mscratch));
  avp_csr_write(mtval, 0x55);
  sig("mtval writable", avp_csr_read(mtval));
  avp_csr_write(mscratch, trap_stack);
  uint64_t misa = avp_csr_read(misa);
  const char* letters = "ACDFIMSU";
  uint64_t mask = 0;
  for (const char* l = letters; *l; l++) mask |= 1ull << (*l - 'A');
  sig("misa MXL", misa >> 62);
  sig("misa IMAFDC+S+U", misa & mask);
  sig("mhartid", avp_csr_read(mhartid));
  sig("mstatus UXL SXL", (avp_csr_read(mstatus) >> 32) & 0xf);
  // sstatus is a view of mstatus: setting SIE through sstatus shows in mstatus.
  avp_csr_set(sstatus, AVP_MSTATUS_SIE);
  sig("sstatus.SIE visible in mstatus", (avp_csr_read(mstatus) & AVP_MSTATUS_SIE) != 0);
  avp_csr_clear(sstatus, AVP_MSTATUS_SIE);
  uint64_t c0 = avp_csr_read(mcycle), i0 = avp_csr_read(minstret);
  uint64_t c1 = avp_csr_read(mcycle), i1 = avp_csr_read(minstret);
  sig("mcycle/minstret advance", c1 > c0 && i1 > i0);
}

static void misaligned(void) {
  // Misaligned loads/stores may be done in hardware or trap (both allowed):
  // printed as "value" or the trap; accel-vp follows QEMU (done in hardware).
  static volatile uint64_t buf[3] __attribute__((aligned(16))) = {0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
  uint64_t v;
  __asm__ volatile("ld %0, 3(%1)" : "=r"(v) : "r"(buf) : "memory");
  if (trap_count) report("misaligned ld", 0, 0); else sig("misaligned ld value", v);
  __asm__ volatile("sw %0, 6(%1)" ::"r"(0xaabbccddull), "r"(buf) : "memory");
  if (trap_count) report("misaligned sw", 0, 0); else sig("misaligned sw result", buf[0]);
  // Misaligned AMOs and LR raise address-misaligned (no Zam): tval = address.
  uint64_t pc, addr = (uint64_t)buf + 4;
  __asm__ volatile("la %0, 1f\n1: amoadd.d x0, x0, (%1)" : "=&r"(pc) : "r"(addr) : "memory");
  report("misaligned amoadd.d", pc, addr);
  __asm__ volatile("la %0, 1f\n1: lr.d x0, (%1)" : "=&r"(pc) : "r"(addr) : "memory");
  report("misaligned lr.d", pc, addr);
  __asm__ volatile("la %0, 1f\n1: sc.w a7, x0, (%1)" : "=&r"(pc) : "r"(addr + 2) : "memory", "a7");
  report("misaligned sc.w", pc, addr + 2);
}

int main(int hart) {
  priv_setup();
  sig_begin("rv_priv_m");
  illegal_in_m();
  ecall_in_m();
  mret_state();
  csrs();
  misaligned();
  sig_end();
  return 0;
}

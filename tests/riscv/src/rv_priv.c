// Privileged architecture (bare metal, M/S/U): trap causes, mepc/mtval,
// ECALL from each mode, delegation to S-mode through medeleg, mret/sret
// state transitions, illegal encodings and CSR access rules, misaligned
// accesses. Results print from M-mode; trap PCs print relative to the
// faulting instruction so the signature is independent of the load address.
#include "avp/csr.h"
#include "sig.h"

#define RETURN_MAGIC 0x52455455
#define MODE_U 0
#define MODE_S 1
#define MODE_M 3

typedef struct { uint64_t x[32]; } frame;
typedef struct { char who; uint64_t cause, epc, tval, prev_mode; } trap_record;

void m_trap_entry(void);
void s_trap_entry(void);
void run_in_mode(uint64_t mode, void (*fn)(void));

static volatile trap_record last;
static volatile unsigned trap_count;
static uint64_t m_stack[512] __attribute__((aligned(16)));
static uint64_t s_stack[512] __attribute__((aligned(16)));

static uint64_t insn_len(uint64_t pc) { return (*(volatile uint16_t*)pc & 3) == 3 ? 4 : 2; }

uint64_t m_trap(frame* f) {
  uint64_t cause = avp_csr_read(mcause);
  if ((cause == 8 || cause == 9) && f->x[17] == RETURN_MAGIC) return 1;
  uint64_t epc = avp_csr_read(mepc);
  last.who = 'M';
  last.cause = cause;
  last.epc = epc;
  last.tval = avp_csr_read(mtval);
  last.prev_mode = (avp_csr_read(mstatus) >> 11) & 3;
  trap_count++;
  avp_csr_write(mepc, epc + insn_len(epc));
  return 0;
}

uint64_t s_trap(frame* f) {
  uint64_t cause = avp_csr_read(scause);
  if (cause == 8 && f->x[17] == RETURN_MAGIC) return 1;
  uint64_t epc = avp_csr_read(sepc);
  last.who = 'S';
  last.cause = cause;
  last.epc = epc;
  last.tval = avp_csr_read(stval);
  last.prev_mode = (avp_csr_read(sstatus) >> 8) & 1;
  trap_count++;
  avp_csr_write(sepc, epc + insn_len(epc));
  return 0;
}

// Executes `insn` (at a label whose address is returned) in the current mode.
// 32-bit ebreak (the assembler would otherwise compress it to c.ebreak).
#define EBREAK32 ".option push\n.option norvc\nebreak\n.option pop"
#define AT(insn) ({ uint64_t pc_; __asm__ volatile("la %0, 1f\n1: " insn : "=&r"(pc_) :: "memory", "a7"); pc_; })

static void report(const char* name, uint64_t pc, uint64_t tval_expected) {
  if (trap_count == 0) {
    printf("%s: no trap\n", name);
    return;
  }
  printf("%s: %c cause=%llx epc_ok=%d tval_ok=%d prev_mode=%llu traps=%u\n", name, last.who,
         (unsigned long long)last.cause, last.epc == pc, last.tval == tval_expected,
         (unsigned long long)last.prev_mode, trap_count);
  trap_count = 0;
}

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
  avp_csr_write(mscratch, 0xfedcba9876543210ull);
  sig("mscratch", avp_csr_read(mscratch));
  avp_csr_write(mtval, 0x55);
  sig("mtval writable", avp_csr_read(mtval));
  avp_csr_write(mscratch, (uint64_t)&m_stack[512]);
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
  avp_csr_write(mscratch, (uint64_t)&m_stack[512]);
  avp_csr_write(sscratch, (uint64_t)&s_stack[512]);
  avp_csr_write(mtvec, (uint64_t)m_trap_entry);
  avp_csr_write(stvec, (uint64_t)s_trap_entry);
  // Open all of memory to S/U-mode (PMP entry 0: NAPOT, RWX); a hart without
  // PMP ignores these WARL writes.
  avp_csr_write(pmpaddr0, ~0ull >> 10);
  avp_csr_write(pmpcfg0, 0x1f);
  avp_csr_set(mstatus, 1ull << 13);

  sig_begin("rv_priv");
  illegal_in_m();
  ecall_in_m();
  lower_modes();
  delegation();
  mret_state();
  csrs();
  misaligned();
  sig_end();
  return 0;
}

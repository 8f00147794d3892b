// Trap handlers and reporting for the privileged tests (see priv.h).
#include "priv.h"

#define RETURN_MAGIC 0x52455455  // a7 of the "back to M-mode" ECALL (priv_trap.S)

typedef struct { uint64_t x[32]; } frame;

void m_trap_entry(void);
void s_trap_entry(void);

volatile trap_record last;
volatile unsigned trap_count;
volatile uint64_t resume_pc;
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
  avp_csr_write(mepc, resume_pc ? resume_pc : epc + insn_len(epc));
  resume_pc = 0;
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

void report(const char* name, uint64_t pc, uint64_t tval_expected) {
  if (trap_count == 0) {
    printf("%s: no trap\n", name);
    return;
  }
  printf("%s: %c cause=%llx epc_ok=%d tval_ok=%d prev_mode=%llu traps=%u\n", name, last.who,
         (unsigned long long)last.cause, last.epc == pc, last.tval == tval_expected,
         (unsigned long long)last.prev_mode, trap_count);
  trap_count = 0;
}

void priv_setup(void) {
  avp_csr_write(mscratch, (uint64_t)&m_stack[512]);
  avp_csr_write(sscratch, (uint64_t)&s_stack[512]);
  avp_csr_write(mtvec, (uint64_t)m_trap_entry);
  avp_csr_write(stvec, (uint64_t)s_trap_entry);
  // Open all of memory to S/U-mode (PMP entry 0: NAPOT, RWX); a hart without
  // PMP ignores these WARL writes.
  avp_csr_write(pmpaddr0, ~0ull >> 10);
  avp_csr_write(pmpcfg0, 0x1f);
  avp_csr_set(mstatus, 1ull << 13);
}

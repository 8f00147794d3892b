// Sv39 paging from S-mode (runs on accel-vp with `accel-vp run --elf` and on
// qemu-system-riscv64 virt): the program's memory is identity-mapped by
// 1 GiB pages; one 4 KiB page, `shared`, is also mapped at ALIAS_VA, written
// through the alias and read through its own address; the page after the
// alias is not mapped, and the S-mode page-fault handler maps it on demand
// (to `lazy`) and lets the access retry. M-mode sets up the tables, opens
// memory in the PMP, delegates page faults to S-mode and prints the results.
#include <stdio.h>

#include "avp/csr.h"
#include "avp/lower_mode.h"
#include "avp/pte.h"

#define ALIAS_VA 0x100000000ull  // VPN[2] = 4: above the identity-mapped 4 GiB
#define LAZY_VA (ALIAS_VA + 0x1000)
#define CAUSE_LOAD_PAGE_FAULT 13
#define CAUSE_STORE_PAGE_FAULT 15

static uint64_t root[512] __attribute__((aligned(4096)));
static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l0[512] __attribute__((aligned(4096)));
static volatile uint32_t shared[1024] __attribute__((aligned(4096)));
static volatile uint32_t lazy[1024] __attribute__((aligned(4096)));
static volatile unsigned faults;
static volatile uint64_t fault_addr, other_cause;

static uint64_t pointer_to(const volatile void* table) { return ((uint64_t)table >> 12) << 10 | AVP_PTE_V; }
static uint64_t data_page(const volatile void* page) {
  return ((uint64_t)page >> 12) << 10 | AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_A | AVP_PTE_D;
}

static void __attribute__((interrupt("supervisor"), aligned(4))) s_trap(void) {
  const uint64_t cause = avp_csr_read(scause);
  const uint64_t addr = avp_csr_read(stval);
  if ((cause == CAUSE_LOAD_PAGE_FAULT || cause == CAUSE_STORE_PAGE_FAULT) && (addr >> 12) == (LAZY_VA >> 12)) {
    fault_addr = addr;
    l0[(addr >> 12) & 511] = data_page(lazy);  // map the page; sret retries the access
    __asm__ volatile("sfence.vma" ::: "memory");
    ++faults;
  } else {
    other_cause = cause;
    avp_csr_write(sepc, avp_csr_read(sepc) + 4);
  }
}

static uint64_t s_main(uint64_t arg) {
  (void)arg;
  avp_csr_write(stvec, (uint64_t)s_trap);
  volatile uint32_t* alias = (volatile uint32_t*)ALIAS_VA;
  alias[3] = 0x5eed1234u;
  const int alias_ok = shared[3] == 0x5eed1234u;
  volatile uint32_t* later = (volatile uint32_t*)LAZY_VA;
  later[5] = 77;  // faults once, then goes to `lazy`
  const int lazy_ok = later[5] == 77 && lazy[5] == 77;
  return (uint64_t)alias_ok | (uint64_t)lazy_ok << 1;
}

int main(int hart) {
  if (hart != 0) return 0;
  for (uint64_t g = 0; g < 4; ++g) root[g] = (g << 28) | AVP_PTE_V | AVP_PTE_R | AVP_PTE_W | AVP_PTE_X | AVP_PTE_A | AVP_PTE_D;
  root[ALIAS_VA >> 30] = pointer_to(l1);
  l1[0] = pointer_to(l0);
  l0[0] = data_page(shared);  // l0[1] (LAZY_VA) stays invalid
  avp_csr_write(pmpaddr0, ~0ull >> 10);
  avp_csr_write(pmpcfg0, 0x1f);  // NAPOT R W X over all memory: S-mode may reach it
  avp_csr_set(medeleg, (1u << CAUSE_LOAD_PAGE_FAULT) | (1u << CAUSE_STORE_PAGE_FAULT));
  const uint64_t r = avp_run_lower(AVP_MODE_S, AVP_SATP_SV39 | ((uint64_t)root >> 12), s_main, 0);
  printf("sv39: alias write read at the page's own address: %d\n", (int)(r & 1));
  printf("sv39: page faults handled: %u, at the unmapped page: %d, value after retry: %d\n", faults,
         fault_addr == LAZY_VA + 20, (int)((r >> 1) & 1));
  printf("sv39: other S-mode traps: %llu, M-mode traps: %llu\n", (unsigned long long)other_cause,
         (unsigned long long)avp_lower_trap.count);
  return 0;
}

// Sv39 page tables for `monitor x`: virtual page 0x200000000 maps `page0`,
// the next virtual page maps `page1` (read-only, A bit clear: a walk that
// set it would show). satp is written in M mode, where it translates nothing:
// the program runs on, the debugger's view uses it.
#include <stdint.h>

#include "avp/device.h"
#include "avp/csr.h"
#include "avp/pte.h"

#define TEST_VA 0x200000000ull

static uint64_t root[512] __attribute__((aligned(4096)));
static uint64_t l1[512] __attribute__((aligned(4096)));
uint64_t l0[512] __attribute__((aligned(4096)));
static uint8_t page0[4096] __attribute__((aligned(4096)));
static uint8_t page1[4096] __attribute__((aligned(4096)));

static uint64_t ppn(const void* p) { return (uint64_t)(uintptr_t)p >> 12; }

__attribute__((noinline)) void paged_ready(void) { __asm__ volatile("" ::: "memory"); }

int main(int hart) {
  for (unsigned i = 0; i < 4096; ++i) {
    page0[i] = (uint8_t)i;
    page1[i] = (uint8_t)(0xFF - i);
  }
  root[(TEST_VA >> 30) & 511] = ppn(l1) << 10 | AVP_PTE_V;
  l1[(TEST_VA >> 21) & 511] = ppn(l0) << 10 | AVP_PTE_V;
  l0[(TEST_VA >> 12) & 511] = ppn(page0) << 10 | AVP_PTE_V | AVP_PTE_R;
  l0[((TEST_VA >> 12) + 1) & 511] = ppn(page1) << 10 | AVP_PTE_V | AVP_PTE_R;
  avp_csr_write(satp, AVP_SATP_SV39 | ppn(root));
  paged_ready();
  avp_csr_write(satp, 0);
  return hart;
}

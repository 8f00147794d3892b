// Physical memory protection set up by M-mode (runs on accel-vp with
// `accel-vp run --elf` and on qemu-system-riscv64 virt): entry 0 makes the
// 4 KiB page `table` read-only for S- and U-mode (NAPOT, R), entry 1 opens
// the rest of memory (NAPOT, R W X, lower priority). An S-mode load of the
// page works, a store faults (store access fault, cause 7, mtval = the
// address) and M-mode skips it; the page keeps its value. M-mode itself is not
// bound by unlocked entries.
#include <stdio.h>

#include "avp/csr.h"
#include "avp/lower_mode.h"

#define CFG_R 0x01u
#define CFG_W 0x02u
#define CFG_X 0x04u
#define CFG_NAPOT 0x18u
#define CAUSE_STORE_ACCESS_FAULT 7

static volatile uint64_t table[512] __attribute__((aligned(4096)));

static uint64_t touch(uint64_t value) {
  const uint64_t before = table[7];
  table[7] = value;  // faults: M-mode records it and skips the store
  return before;
}

int main(int hart) {
  if (hart != 0) return 0;
  table[7] = 42;
  avp_csr_write(pmpaddr0, ((uint64_t)table >> 2) | (4096 / 8 - 1));  // NAPOT: base | (size / 8 - 1)
  avp_csr_write(pmpaddr1, ~0ull >> 10);
  avp_csr_write(pmpcfg0, (uint64_t)(CFG_NAPOT | CFG_R | CFG_W | CFG_X) << 8 | (CFG_NAPOT | CFG_R));
  const uint64_t seen = avp_run_lower(AVP_MODE_S, 0, touch, 99);
  printf("pmp: S-mode load read %llu\n", (unsigned long long)seen);
  printf("pmp: S-mode store faulted: %d (cause %llu, at the address: %d), value kept: %llu\n",
         avp_lower_trap.count == 1, (unsigned long long)avp_lower_trap.cause,
         avp_lower_trap.tval == (uint64_t)&table[7], (unsigned long long)table[7]);
  table[7] = 43;  // M-mode: unlocked entries do not apply
  printf("pmp: M-mode store: %llu\n", (unsigned long long)table[7]);
  avp_csr_write(pmpcfg0, 0);
  return 0;
}

// Stores into code decoded after their store region was made (docs/harts.md,
// "Invalidation"): in M-mode a store region is the memory around the store
// cut at the granules holding decoded code, and its stores skip the code map
// (DmiRegion::code_free). Here, each round, a store into `data` makes that
// region while the granule of `code` just before it holds no decoded code
// (the round's patch of `code` dropped its block), then `code` runs (decoded
// again: its granule is marked) and is patched by a plain store. The patch
// must reach the next call: were the region kept as it was, the store would
// skip the map and the stale block would run. `code2`, after `data`, is
// patched and run each round too: its decoding, a mark inside the region,
// makes the region be cut again. Prints "code_free_regions: ok" or the first
// call that ran stale code.
#include <stdint.h>
#include <stdio.h>

#include "avp/device.h"

#define ROUNDS 200

// Three 256-byte granules in a row: code, data, code2.
static struct {
  uint32_t code[64];
  uint64_t data[32];
  uint32_t code2[64];
} area __attribute__((aligned(256)));

// addi a0, zero, imm (imm < 2048); ret.
static uint32_t li_a0(uint32_t imm) { return 0x00000513u | imm << 20; }
#define RET 0x00008067u

static void fence_i(void) { __asm__ volatile("fence.i" ::: "memory"); }

int main(int hart) {
  if (hart != 0) return 0;
  volatile uint32_t* code = area.code;
  volatile uint32_t* code2 = area.code2;
  volatile uint64_t* data = area.data;
  code[0] = li_a0(1);
  code[1] = RET;
  code2[0] = li_a0(0);
  code2[1] = RET;
  fence_i();
  for (uint32_t round = 0; round < ROUNDS; ++round) {
    const uint32_t want = 1 + round % 1000;
    const uint32_t got = ((uint32_t(*)(void))area.code)();  // decoded again: its granule marked
    if (got != want) {
      printf("code_free_regions: round %u ran stale code: %u, want %u\n", round, got, want);
      return 1;
    }
    code[0] = li_a0(1 + (round + 1) % 1000);  // into decoded code: its block goes, its granule unmarked
    fence_i();
    code2[0] = li_a0(round % 1000);  // the same for code2, which then runs: a mark after data
    fence_i();
    data[1] += ((uint32_t(*)(void))area.code2)();
    data[0] = round;  // the store region made again around data, over code's granule
  }
  printf("code_free_regions: ok (%u rounds, %llu)\n", ROUNDS, (unsigned long long)data[1]);
  return 0;
}

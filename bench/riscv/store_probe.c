// Store-heavy probe for parallel harts (bench-parallel-harts): every hart
// loads, changes and stores a word of its own 4 KiB page of DRAM every few
// instructions (a read-modify-write stream over the page, so the D-cache
// hits and the stores reach no other hart's data). With independent work on
// every hart, the parallel quantum schedule should scale it as it scales the
// SDK benchmark; stores are what a slice checks most (code in the written
// granule, LR/SC reservations).
#include <stdint.h>
#include <stdio.h>

#include "avp/csr.h"
#include "avp/device.h"

#define ITERATIONS 15000000
#define MAX_HARTS 16
#define PAGE_WORDS 512

static uint64_t pages[MAX_HARTS][PAGE_WORDS] __attribute__((aligned(4096)));

static uint64_t store_stream(unsigned hart) {
  uint64_t* page = pages[hart];
  uint64_t x = 0x9e3779b97f4a7c15ull + hart, acc = 0;
  for (uint64_t i = 0; i < ITERATIONS; i++) {
    const unsigned k = (unsigned)(i * 9) % PAGE_WORDS;
    const uint64_t v = page[k];
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    page[k] = v ^ x;
    acc += v;
  }
  return acc;
}

int main(int hart) {
  if (hart >= MAX_HARTS) return 0;
  avp_barrier();
  const uint64_t i0 = avp_csr_read(minstret);
  const uint64_t result = store_stream((unsigned)hart);
  const uint64_t i1 = avp_csr_read(minstret);
  printf("store probe hart %d: result %016llx instret %llu\n", hart, (unsigned long long)result,
         (unsigned long long)(i1 - i0));
  return 0;
}

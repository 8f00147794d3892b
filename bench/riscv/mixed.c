// Mixed bare-metal workload for accel-vp and QEMU: the ISS speed figure of
// `make bench` and, built with few rounds, the programs whose simulated
// results tests/harts pins. Every round runs, on the hart's own data:
//   sort    recursive quicksort of 2,048 words (calls, loads/stores, branches)
//   digits  digit sums in a varying base (integer divide and remainder)
//   table   pseudo-random read-modify-write over 64 KiB (more than the L1
//           D-cache: misses and write-backs) and a sequential sum
//   poly    a double-precision polynomial (a little FP)
// Each hart prints "bench mixed hart H: result R instret N" (run_bench.py
// parses it; R is a checksum that must match QEMU's). MIXED_ROUNDS sets the
// work: the default gives about 107 M instructions per hart. Built with
// AVP_BENCH_SV39 the work runs in S-mode with Sv39 translation on.
// MIXED_PHASES (a mask: 1 sort, 2 digits, 4 table, 8 poly; default all)
// builds one phase alone, for the per-phase figures of run_bench.py; digits
// without sort takes the unsorted words, filled once before the rounds.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "avp/csr.h"
#include "avp/device.h"
#ifdef AVP_BENCH_SV39
#include "sv39_run.h"
#endif

#ifndef MIXED_ROUNDS
#define MIXED_ROUNDS 240
#endif
#ifdef AVP_BENCH_EMPTY
#undef MIXED_ROUNDS
#define MIXED_ROUNDS 0
#endif

#ifndef MIXED_PHASES
#define MIXED_PHASES 15
#endif

#define MAX_HARTS 16
#define SORT_N 2048
#define TABLE_WORDS (64 * 1024 / 8)

static uint32_t sort_buf[MAX_HARTS][SORT_N];
static uint64_t table[MAX_HARTS][TABLE_WORDS] __attribute__((aligned(64)));

static uint64_t lcg(uint64_t* s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return *s >> 17;
}

__attribute__((noinline)) static void quicksort(uint32_t* a, int lo, int hi) {
  while (lo < hi) {
    const uint32_t pivot = a[lo + (hi - lo) / 2];
    int i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const uint32_t t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    // Recurse into the smaller part, loop on the larger one.
    if (j - lo < hi - i) {
      quicksort(a, lo, j);
      lo = i;
    } else {
      quicksort(a, i, hi);
      hi = j;
    }
  }
}

static uint64_t sort_round(uint32_t* a, uint64_t* seed) {
  for (int i = 0; i < SORT_N; i++) a[i] = (uint32_t)lcg(seed);
  quicksort(a, 0, SORT_N - 1);
  uint64_t sum = 0;
  for (int i = 0; i < SORT_N; i += 64) sum = sum * 31 + a[i];
  return sum;
}

__attribute__((noinline)) static uint64_t digit_sum(uint64_t v, uint64_t base) {
  uint64_t s = 0;
  while (v) {
    s += v % base;
    v /= base;
  }
  return s;
}

static uint64_t digits_round(const uint32_t* a, unsigned round) {
  uint64_t sum = 0;
  for (int i = 0; i < SORT_N; i += 2) sum += digit_sum(a[i], 3 + ((i + round) & 7));
  return sum;
}

static uint64_t table_round(uint64_t* t, uint64_t* seed) {
  for (int i = 0; i < 4096; i++) {
    const uint64_t r = lcg(seed);
    t[r % TABLE_WORDS] += r;
  }
  uint64_t sum = 0;
  for (int i = 0; i < TABLE_WORDS; i++) sum ^= t[i] + (uint64_t)i;
  return sum;
}

__attribute__((noinline)) static double poly(double x) {
  static const double c[] = {0.5, -1.25, 0.375, 2.0, -0.0625, 1.0 / 3.0};
  double y = 0;
  for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) y = y * x + c[k];
  return y;
}

static uint64_t poly_round(unsigned round) {
  double acc = 0;
  for (int i = 0; i < 256; i++) acc += poly((double)(i + (int)round) / 64.0);
  uint64_t bits;
  memcpy(&bits, &acc, sizeof bits);
  return bits;
}

static uint64_t mixed(unsigned hart) {
  uint32_t* a = sort_buf[hart];
  uint64_t* t = table[hart];
  for (int i = 0; i < TABLE_WORDS; i++) t[i] = (uint64_t)i * (hart + 1);
  uint64_t seed = 0x9e3779b97f4a7c15ull + hart, check = 0;
#if (MIXED_PHASES & 3) == 2
  for (int i = 0; i < SORT_N; i++) a[i] = (uint32_t)lcg(&seed);
#endif
  for (unsigned r = 0; r < MIXED_ROUNDS; r++) {
#if MIXED_PHASES & 1
    check = check * 3 + sort_round(a, &seed);
#endif
#if (MIXED_PHASES & 3) == 2  // the same words every round: their sums' XOR would cancel in pairs
    check = check * 3 + digits_round(a, r);
#elif MIXED_PHASES & 2
    check ^= digits_round(a, r);
#endif
#if MIXED_PHASES & 4
    check += table_round(t, &seed);
#endif
#if MIXED_PHASES & 8
    check ^= poly_round(r);
#endif
  }
  return check;
}

int main(int hart) {
  if (hart >= MAX_HARTS) return 0;
  avp_barrier();
  const uint64_t i0 = avp_csr_read(minstret);
#ifdef AVP_BENCH_SV39
  const uint64_t result = run_sv39(mixed, (unsigned)hart);  // S-mode, Sv39 (sv39_run.h)
#else
  const uint64_t result = mixed((unsigned)hart);
#endif
  const uint64_t i1 = avp_csr_read(minstret);
  printf("bench mixed hart %d: result %016llx instret %llu\n", hart, (unsigned long long)result,
         (unsigned long long)(i1 - i0));
  return 0;
}

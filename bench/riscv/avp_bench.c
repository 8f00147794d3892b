// Bare-metal benchmark for accel-vp and QEMU: integer loop, CRC32 over a
// buffer, a small double-precision matrix multiply and memcpy. Every hart
// runs the same work on its own data; minstret brackets each kernel, so the
// runner (run_bench.py) gets the exact instruction count from accel-vp, and
// from QEMU under -icount. Checksums are printed so runs can be compared.
// Built with -DAVP_BENCH_EMPTY the kernels do no work: the runner uses that
// build to subtract start-up time and start-up instructions.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "avp/csr.h"
#include "avp/device.h"

#ifdef AVP_BENCH_EMPTY
#define REPS(n) 0
#else
#define REPS(n) (n)
#endif

#define MAX_HARTS 16
#define CRC_BYTES 4096
#define COPY_BYTES 16384
#define MAT_N 24

static uint8_t crc_buf[MAX_HARTS][CRC_BYTES];
static uint8_t copy_src[MAX_HARTS][COPY_BYTES] __attribute__((aligned(64)));
static uint8_t copy_dst[MAX_HARTS][COPY_BYTES] __attribute__((aligned(64)));
static double mat_a[MAX_HARTS][MAT_N][MAT_N], mat_b[MAX_HARTS][MAT_N][MAT_N], mat_c[MAX_HARTS][MAT_N][MAT_N];
static uint32_t crc_table[MAX_HARTS][256];

static uint64_t int_loop(unsigned hart) {
  uint64_t x = 0x9e3779b97f4a7c15ull + hart, acc = 0;
  for (uint64_t i = 0; i < REPS(1500000); i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    acc ^= x >> 29;
    acc += i;
    acc = (acc << 7) | (acc >> 57);
  }
  return acc;
}

static uint64_t crc32_bench(unsigned hart) {
  uint32_t* table = crc_table[hart];
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  uint8_t* buf = crc_buf[hart];
  for (uint32_t i = 0; i < CRC_BYTES; i++) buf[i] = (uint8_t)(i * 31 + hart);
  uint32_t crc = 0;
  for (int r = 0; r < REPS(300); r++) {
    uint32_t c = ~crc;
    for (uint32_t i = 0; i < CRC_BYTES; i++) c = table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
    crc = ~c;
  }
  return crc;
}

static uint64_t matmul_bench(unsigned hart) {
  double(*a)[MAT_N] = mat_a[hart], (*b)[MAT_N] = mat_b[hart], (*c)[MAT_N] = mat_c[hart];
  for (int i = 0; i < MAT_N; i++)
    for (int j = 0; j < MAT_N; j++) {
      a[i][j] = (double)(i + j + hart) / 8.0;
      b[i][j] = (double)(i - j) / 16.0;
    }
  double sum = 0;
  for (int r = 0; r < REPS(200); r++) {
    for (int i = 0; i < MAT_N; i++)
      for (int j = 0; j < MAT_N; j++) {
        double s = 0;
        for (int k = 0; k < MAT_N; k++) s += a[i][k] * b[k][j];
        c[i][j] = s;
      }
    sum += c[r % MAT_N][(r * 7) % MAT_N];
    a[r % MAT_N][r % MAT_N] += 1.0;
  }
  uint64_t bits;
  memcpy(&bits, &sum, sizeof bits);
  return bits;
}

static uint64_t memcpy_bench(unsigned hart) {
  uint8_t *src = copy_src[hart], *dst = copy_dst[hart];
  for (uint32_t i = 0; i < COPY_BYTES; i++) src[i] = (uint8_t)(i ^ hart);
  uint64_t sum = 0;
  for (int r = 0; r < REPS(400); r++) {
    memcpy(dst, src, COPY_BYTES - (r & 63));
    sum += dst[(r * 97) % COPY_BYTES];
    src[r % COPY_BYTES] ^= 0x5a;
  }
  return sum;
}

typedef uint64_t (*bench_fn)(unsigned);
static const struct { const char* name; bench_fn fn; } benches[] = {
    {"int_loop", int_loop}, {"crc32", crc32_bench}, {"matmul", matmul_bench}, {"memcpy", memcpy_bench},
};

int main(int hart) {
  if (hart >= MAX_HARTS) return 0;
  uint64_t total = 0;
  for (unsigned b = 0; b < sizeof benches / sizeof benches[0]; b++) {
    avp_barrier();
    uint64_t i0 = avp_csr_read(minstret);
    uint64_t result = benches[b].fn((unsigned)hart);
    uint64_t i1 = avp_csr_read(minstret);
    total += i1 - i0;
    printf("bench %s hart %d: result %016llx instret %llu\n", benches[b].name, hart, (unsigned long long)result,
           (unsigned long long)(i1 - i0));
  }
  printf("bench total hart %d: instret %llu\n", hart, (unsigned long long)total);
  return 0;
}

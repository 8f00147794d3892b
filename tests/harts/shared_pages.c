// Harts that read one another's plain stores within a quantum give the same
// results on any number of host threads (docs/harts.md, "Parallel harts",
// page grants): each hart repeatedly reads its neighbour's cell and writes
// its own, in one shared page, with no atomics and no barrier; what it read
// is folded into a checksum. Between rounds every hart also works on a page
// of its own, which it keeps for its slices. Hart 0 prints every checksum.
#include <stdint.h>

#include "avp/device.h"

#define HARTS_MAX 8
#define ROUNDS 64
#define STEPS 256

static volatile uint64_t cell[HARTS_MAX];
static volatile uint64_t checksum[HARTS_MAX];
static volatile uint32_t harts;
// One page per hart, touched by that hart only.
static uint64_t own[HARTS_MAX][512] __attribute__((aligned(4096)));

int main(int hart) {
  __atomic_fetch_add(&harts, 1, __ATOMIC_RELAXED);
  avp_barrier();
  const uint32_t n = harts;
  uint64_t sum = 0;
  for (uint32_t round = 0; round < ROUNDS; ++round) {
    for (uint32_t i = 0; i < STEPS; ++i) {
      sum = sum * 31 + cell[(hart + 1) % n];
      cell[hart] = sum ^ i;
    }
    for (uint32_t i = 0; i < 512; ++i) own[hart][i] += sum + i;
    sum += own[hart][round % 512];
  }
  checksum[hart] = sum;
  avp_barrier();
  if (hart == 0)
    for (uint32_t h = 0; h < n; ++h) avp_printf("shared_pages: hart %u checksum %016lx\n", h, (unsigned long)checksum[h]);
  return 0;
}

// Memory bandwidth, STREAM style, on every hart of the run, then a DMA
// stream from hart 0. Run it on 1, 4 or 8 harts through the platform's shape
// (`--set platform.cores=1 --set platform.harts_per_core=4`).
//
// Copy (c = a) and triad (a = b + s * c) over three arrays of ARRAY_BYTES,
// each hart on its slice (avp/stream.h; each slice placed to start in its own
// DRAM bank, below), timed with mcycle from a barrier to
// the barrier after the kernel, after one untimed copy that leaves the data
// caches as the timed passes find them (full of dirty destination lines).
// Lines:
//   stream <kernel> hart <h>: bytes <b> cycles <c>     each hart, its slice
//   stream <kernel> harts <n>: bytes <b> cycles <c>    hart 0: all harts,
//                                                      barrier to barrier
// bytes as STREAM counts them (16 per element for copy, 24 for triad).
//
// Then hart 0 starts DMA transfers of DMA_BYTES in all on its own DMA
// register set and waits for them (DMADONESEQ), timed with mcycle: from
// DRAM to the global TCDM view as 1 transfer and as DMA_TRANSFERS transfers
// (which the controller spreads over its channels), and DRAM to DRAM as
// DMA_TRANSFERS transfers:
//   dma <what> transfers <k>: bytes <b> cycles <c>
// (bytes moved; a DRAM-to-DRAM copy carries each byte over the DRAM port
// twice). tests/harts/stream_closed_form.py compares both with the closed
// form of the configured memory system (docs/timing.md).
#include <stdint.h>

#include "avp/csr.h"
#include "avp/device.h"
#include "avp/stream.h"
#include "dma/dma_regs.h"

#define ARRAY_BYTES (1ul << 20)
#define ARRAY_ELEMS (ARRAY_BYTES / 8)
#define ROW 8192ul  // the default DDR4-3200 dram.row_bytes: rows interleave over the banks
// Where each hart's slice of each array starts, in rows modulo the 16 banks
// (STREAM's OFFSET, per slice): slice k of hart h in bank (k x 10 + h x 3)
// mod 16. Streams that start in one bank and move in step open different
// rows of it at every access; these offsets start the streams of one hart
// in different banks and spread those of 4 and 8 harts over the 16
// (docs/studies/stream-bandwidth.md).
#define HART_ROWS 3
#define ARRAY_ROWS 10
#define MAX_HARTS 8
#define SLICE_SPAN (ARRAY_BYTES + MAX_HARTS * HART_ROWS * ROW)  // an array's slices and their offsets
#define DMA_BYTES (512ul << 10)
#define DMA_TRANSFERS 4

static double arrays[3 * (SLICE_SPAN + ARRAY_ROWS * ROW) / 8] __attribute__((aligned(4096)));
static uint8_t dma_tcdm[DMA_BYTES] __attribute__((section(".tcdm_global"), aligned(4096)));
static volatile uint32_t arrived;

// Array k's slice of hart h, which starts at element `first` of the array.
static double* slice(unsigned k, unsigned h, unsigned long first) {
  return arrays + (k * (SLICE_SPAN + ARRAY_ROWS * ROW) + h * HART_ROWS * ROW) / 8 + first;
}

// Every hart of the run counts itself in before the first barrier.
static unsigned count_harts(void) {
  __atomic_fetch_add(&arrived, 1, __ATOMIC_RELAXED);
  avp_barrier();
  return arrived;
}

static void report(const char* kernel, unsigned hart, unsigned harts, unsigned long first_cycle,
                   unsigned long count, unsigned bytes_per_elem) {
  const uint64_t cycles = avp_csr_read(mcycle) - first_cycle;
  avp_barrier();
  const uint64_t all = avp_csr_read(mcycle) - first_cycle;
  avp_printf("stream %s hart %u: bytes %lu cycles %lu\n", kernel, hart, count * bytes_per_elem, (unsigned long)cycles);
  if (hart == 0)
    avp_printf("stream %s harts %u: bytes %lu cycles %lu\n", kernel, harts, ARRAY_ELEMS * bytes_per_elem,
               (unsigned long)all);
}

static volatile uint64_t* dma_reg(unsigned offset) { return (volatile uint64_t*)(uintptr_t)(AVP_DMA_BASE + offset); }

// `transfers` transfers of bytes / transfers each, from src to dst, started back to back; waits for all.
static void dma_stream(const char* what, uint8_t* dst, const uint8_t* src, unsigned long bytes, unsigned transfers) {
  const unsigned long each = bytes / transfers;
  const uint64_t c0 = avp_csr_read(mcycle);
  for (unsigned t = 0; t < transfers; ++t) {
    *dma_reg(AVP_DMASRCADDR) = (uintptr_t)(src + t * each);
    *dma_reg(AVP_DMADSTADDR) = (uintptr_t)(dst + t * each);
    *dma_reg(AVP_DMAXFERSIZE0) = each;
    *dma_reg(AVP_DMACTRL) = AVP_DMACTRL_DIMS(1) | AVP_DMACTRL_START;
  }
  *dma_reg(AVP_DMADONESEQ) = *dma_reg(AVP_DMASTARTSEQ);
  const uint64_t cycles = avp_csr_read(mcycle) - c0;
  if (*dma_reg(AVP_DMASTATUS) & 1) {
    avp_printf("dma %s: transfer failed\n", what);
    avp_exit(1);
  }
  avp_printf("dma %s transfers %u: bytes %lu cycles %lu\n", what, transfers, each * transfers, (unsigned long)cycles);
}

int main(int hart) {
  const unsigned harts = count_harts();
  unsigned long first, n;
  avp_stream_slice(ARRAY_ELEMS, hart, harts, &first, &n);
  if (harts > MAX_HARTS) {
    avp_printf("stream: %u harts, at most %u\n", harts, MAX_HARTS);
    return 1;
  }
  double *a = slice(0, hart, first), *b = slice(1, hart, first), *c = slice(2, hart, first);
  for (unsigned long i = 0; i < n; ++i) {
    a[i] = 1.0;
    b[i] = 2.0;
  }
  avp_barrier();
  avp_stream_copy(c, a, n);
  avp_barrier();

  uint64_t c0 = avp_csr_read(mcycle);
  avp_stream_copy(c, a, n);
  report("copy", hart, harts, c0, n, AVP_STREAM_COPY_BYTES);
  c0 = avp_csr_read(mcycle);
  avp_stream_triad(a, b, c, 3.0, n);
  report("triad", hart, harts, c0, n, AVP_STREAM_TRIAD_BYTES);

  for (unsigned long i = 0; i < n; ++i)
    if (a[i] != 5.0 || c[i] != 1.0) {
      avp_printf("stream hart %u: wrong result at element %lu\n", hart, first + i);
      return 1;
    }
  if (hart != 0) return 0;
  uint8_t* dram = (uint8_t*)slice(0, 0, 0);
  dma_stream("dram-to-tcdm", dma_tcdm, dram, DMA_BYTES, 1);
  dma_stream("dram-to-tcdm", dma_tcdm, dram, DMA_BYTES, DMA_TRANSFERS);
  dma_stream("dram-to-dram", (uint8_t*)slice(2, 0, 0), dram, DMA_BYTES, DMA_TRANSFERS);
  return 0;
}

// STREAM-style bandwidth kernels (McCalpin's STREAM copy and triad) over
// 64-bit elements: one 64-byte line (8 elements) per loop iteration, in
// assembly so that the instructions per line are fixed (the closed form of
// tests/harts/stream_closed_form.py counts them), and the per-hart slices a
// multi-hart run divides its arrays into.
#pragma once
#include <stdint.h>

// Elements per iteration of the kernels: n must be a multiple of it.
#define AVP_STREAM_ELEMS_PER_ITER 8
// Bytes STREAM counts per element (what the program asks for, not what the
// memory carries: write-allocate caches also read the destination line).
#define AVP_STREAM_COPY_BYTES 16   // c[i] = a[i]: 8 read, 8 written
#define AVP_STREAM_TRIAD_BYTES 24  // a[i] = b[i] + s * c[i]: 16 read, 8 written

// c[i] = a[i], i < n: per 8 elements 8 fld, 8 fsd, 2 addi, 1 bne.
static inline void avp_stream_copy(double* c, const double* a, unsigned long n) {
  const double* end = a + n;
  __asm__ volatile(
      "1:\n"
      "fld ft0, 0(%1)\n fld ft1, 8(%1)\n fld ft2, 16(%1)\n fld ft3, 24(%1)\n"
      "fld ft4, 32(%1)\n fld ft5, 40(%1)\n fld ft6, 48(%1)\n fld ft7, 56(%1)\n"
      "fsd ft0, 0(%0)\n fsd ft1, 8(%0)\n fsd ft2, 16(%0)\n fsd ft3, 24(%0)\n"
      "fsd ft4, 32(%0)\n fsd ft5, 40(%0)\n fsd ft6, 48(%0)\n fsd ft7, 56(%0)\n"
      "addi %0, %0, 64\n addi %1, %1, 64\n bne %1, %2, 1b\n"
      : "+r"(c), "+r"(a)
      : "r"(end)
      : "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "memory");
}

// a[i] = b[i] + s * c[i], i < n: per 8 elements 16 fld, 8 fmadd.d, 8 fsd, 3 addi, 1 bne.
static inline void avp_stream_triad(double* a, const double* b, const double* c, double s, unsigned long n) {
  const double* end = b + n;
  __asm__ volatile(
      "1:\n"
      "fld ft0, 0(%1)\n fld ft1, 8(%1)\n fld ft2, 16(%1)\n fld ft3, 24(%1)\n"
      "fld ft4, 0(%2)\n fld ft5, 8(%2)\n fld ft6, 16(%2)\n fld ft7, 24(%2)\n"
      "fmadd.d ft0, ft4, %4, ft0\n fmadd.d ft1, ft5, %4, ft1\n"
      "fmadd.d ft2, ft6, %4, ft2\n fmadd.d ft3, ft7, %4, ft3\n"
      "fsd ft0, 0(%0)\n fsd ft1, 8(%0)\n fsd ft2, 16(%0)\n fsd ft3, 24(%0)\n"
      "fld ft0, 32(%1)\n fld ft1, 40(%1)\n fld ft2, 48(%1)\n fld ft3, 56(%1)\n"
      "fld ft4, 32(%2)\n fld ft5, 40(%2)\n fld ft6, 48(%2)\n fld ft7, 56(%2)\n"
      "fmadd.d ft0, ft4, %4, ft0\n fmadd.d ft1, ft5, %4, ft1\n"
      "fmadd.d ft2, ft6, %4, ft2\n fmadd.d ft3, ft7, %4, ft3\n"
      "fsd ft0, 32(%0)\n fsd ft1, 40(%0)\n fsd ft2, 48(%0)\n fsd ft3, 56(%0)\n"
      "addi %0, %0, 64\n addi %1, %1, 64\n addi %2, %2, 64\n bne %1, %3, 1b\n"
      : "+r"(a), "+r"(b), "+r"(c)
      : "r"(end), "f"(s)
      : "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "memory");
}

// Hart `hart` of `harts` takes elements [first, first + count) of an array
// of n elements: equal slices of whole iterations, the remainder to the
// last hart.
static inline void avp_stream_slice(unsigned long n, unsigned hart, unsigned harts, unsigned long* first,
                                    unsigned long* count) {
  const unsigned long iters = n / AVP_STREAM_ELEMS_PER_ITER, per = iters / harts;
  *first = hart * per * AVP_STREAM_ELEMS_PER_ITER;
  *count = (hart + 1 == harts ? iters - hart * per : per) * AVP_STREAM_ELEMS_PER_ITER;
}

// Signature output of the ISA test programs: one "key: value" line per
// result, between begin/end markers that the test driver extracts. The same
// source runs on QEMU and on accel-vp; only the SDK target differs.
#pragma once
#include <stdint.h>
#include <stdio.h>

static inline void sig_begin(const char* test) { printf("--- begin signature %s\n", test); }
static inline void sig_end(void) { printf("--- end signature\n"); }
static inline void sig(const char* key, uint64_t v) { printf("%s: %016llx\n", key, (unsigned long long)v); }
static inline void sig2(const char* key, uint64_t a, uint64_t v) {
  printf("%s %llx: %016llx\n", key, (unsigned long long)a, (unsigned long long)v);
}
static inline void sig3(const char* key, uint64_t a, uint64_t b, uint64_t v) {
  printf("%s %llx %llx: %016llx\n", key, (unsigned long long)a, (unsigned long long)b, (unsigned long long)v);
}
// FP results: value bits and fflags (NV DZ OF UF NX = 10 08 04 02 01).
static inline void sigf(const char* key, const char* rm, uint64_t a, uint64_t b, uint64_t c, uint64_t v,
                        uint64_t flags) {
  printf("%s%s %llx %llx %llx: %016llx %02llx\n", key, rm, (unsigned long long)a, (unsigned long long)b,
         (unsigned long long)c, (unsigned long long)v, (unsigned long long)flags);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

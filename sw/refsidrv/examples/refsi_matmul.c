/* matmul (C = A x B, n x n doubles, one output row per kernel instance)
 * written against the RefSi driver API only, with the device SDK's kernel.
 * The inputs are small integers, so the host checks C bit for bit.
 *   accel-vp exec --no-preload -- ./refsi_matmul KERNEL_ELF [N] */
#include "refsi_example.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s KERNEL_ELF [N]\n", argv[0]);
    return 2;
  }
  const uint64_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 32;
  if (n == 0 || n > 256) {
    fprintf(stderr, "refsi_matmul: matrix size 1..256\n");
    return 2;
  }
  refsi_device_t dev = refsiInitialize() == refsi_success ? refsiOpenDevice(REFSI_M) : NULL;
  if (!dev) {
    fprintf(stderr, "refsi_matmul: no RefSi M device\n");
    return 2;
  }
  const size_t bytes = 8 * n * n;
  double *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  for (uint64_t i = 0; i < n * n; ++i) a[i] = (double)(i % 7) - 3, b[i] = (double)(i % 5) + 1, c[i] = -1;
  const uint64_t args[4] = {refsiAllocDeviceMemory(dev, bytes, 64, DRAM), refsiAllocDeviceMemory(dev, bytes, 64, DRAM),
                            refsiAllocDeviceMemory(dev, bytes, 64, DRAM), n};
  if (!args[0] || !args[1] || !args[2] ||
      refsiWriteDeviceMemory(dev, args[0], (const uint8_t *)a, bytes, kExternal) != refsi_success ||
      refsiWriteDeviceMemory(dev, args[1], (const uint8_t *)b, bytes, kExternal) != refsi_success) {
    fprintf(stderr, "refsi_matmul: cannot place the matrices\n");
    return 2;
  }
  const int rc = run_kernel(dev, argv[1], n, args, 4, "refsi_matmul");
  if (rc) return rc;
  if (refsiReadDeviceMemory(dev, (uint8_t *)c, args[2], bytes, kExternal) != refsi_success) return 2;
  uint64_t bad = 0;
  for (uint64_t i = 0; i < n; ++i)
    for (uint64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (uint64_t x = 0; x < n; ++x) sum += a[i * n + x] * b[x * n + j];
      bad += c[i * n + j] != sum;
    }
  printf("refsi_matmul: %llux%llu: %s (%llu wrong elements)\n", (unsigned long long)n, (unsigned long long)n,
         bad ? "MISMATCH" : "results OK", (unsigned long long)bad);
  free(a);
  free(b);
  free(c);
  refsiShutdownDevice(dev);
  refsiTerminate();
  return bad ? 1 : 0;
}

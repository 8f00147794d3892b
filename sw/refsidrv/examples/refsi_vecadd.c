/* vecadd written against the RefSi driver API only (refsidrv/refsidrv.h),
 * with the device SDK's kernel: load the kernel into device DRAM, copy the
 * inputs, run a command buffer, check the results.
 *   cc refsi_vecadd.c $(pkg-config --cflags --libs refsidrv)
 *   accel-vp exec --no-preload -- ./a.out KERNEL_ELF [N] */
#include "refsi_example.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s KERNEL_ELF [N]\n", argv[0]);
    return 2;
  }
  const uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1024;
  refsi_device_t dev = refsiInitialize() == refsi_success ? refsiOpenDevice(REFSI_M) : NULL;
  refsi_device_info_t info;
  if (!dev || refsiQueryDeviceInfo(dev, &info) != refsi_success) {
    fprintf(stderr, "refsi_vecadd: no RefSi M device\n");
    return 2;
  }
  int32_t *a = malloc(4 * n), *b = malloc(4 * n), *out = malloc(4 * n);
  for (uint32_t i = 0; i < n; ++i) a[i] = (int32_t)(7 * i - 5), b[i] = (int32_t)(2 * i + 11), out[i] = 0;
  const uint64_t args[3] = {refsiAllocDeviceMemory(dev, 4 * n, 64, DRAM), refsiAllocDeviceMemory(dev, 4 * n, 64, DRAM),
                            refsiAllocDeviceMemory(dev, 4 * n, 64, DRAM)};
  if (!args[0] || !args[1] || !args[2] ||
      refsiWriteDeviceMemory(dev, args[0], (const uint8_t *)a, 4 * n, kExternal) != refsi_success ||
      refsiWriteDeviceMemory(dev, args[1], (const uint8_t *)b, 4 * n, kExternal) != refsi_success) {
    fprintf(stderr, "refsi_vecadd: cannot place the inputs\n");
    return 2;
  }
  const int rc = run_kernel(dev, argv[1], n, args, 3, "refsi_vecadd");
  if (rc) return rc;
  if (refsiReadDeviceMemory(dev, (uint8_t *)out, args[2], 4 * n, kExternal) != refsi_success) return 2;
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; ++i) bad += out[i] != a[i] + b[i];
  printf("refsi_vecadd: %u elements on %u x %u harts: %s\n", n, info.num_cores, info.num_harts_per_core,
         bad ? "MISMATCH" : "results OK");
  free(a);
  free(b);
  free(out);
  refsiShutdownDevice(dev);
  refsiTerminate();
  return bad ? 1 : 0;
}

/* vecadd as a host program in its own process, in C, on libaccelvp-host:
 * load the kernel into device DRAM, copy the inputs through BAR2, run one
 * command buffer, wait for its interrupt, check the results.
 *   cc vecadd.c $(pkg-config --cflags --libs accelvp-host)
 *   accel-vp exec -- ./a.out KERNEL_ELF [N] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accelvp_device.h"
#include "cmp_packets.h"

static uint64_t cb[64];
static size_t ncb;

static void emit(unsigned op, uint32_t inl, unsigned n, const uint64_t *payload) {
  cb[ncb++] = AVP_CMP_HEADER(op, n, inl);
  for (unsigned i = 0; i < n; ++i) cb[ncb++] = payload[i];
}

static void write_reg(unsigned reg, uint64_t v) { emit(AVP_CMP_WRITE_REG64, reg, 1, &v); }

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s KERNEL_ELF [N]\n", argv[0]);
    return 2;
  }
  const unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1024;
  avp_host *h = avp_host_connect(NULL);
  avp_device *dev = h ? avp_device_open(h) : NULL;
  if (!dev) {
    fprintf(stderr, "vecadd: no device: %s\n", strerror(errno));
    return 2;
  }
  avp_kernel k;
  if (avp_device_load_kernel(dev, argv[1], &k)) {
    fprintf(stderr, "vecadd: cannot load %s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  int32_t *a = malloc(4 * n), *b = malloc(4 * n), *out = malloc(4 * n);
  for (unsigned i = 0; i < n; ++i) a[i] = (int32_t)(3 * i + 1), b[i] = (int32_t)(1000 - i), out[i] = -1;
  const uint64_t a_at = avp_device_alloc(dev, 4 * n, 256), b_at = avp_device_alloc(dev, 4 * n, 256),
                 out_at = avp_device_alloc(dev, 4 * n, 256);
  if (!a_at || !b_at || !out_at || avp_device_write(dev, a_at, a, 4 * n) || avp_device_write(dev, b_at, b, 4 * n)) {
    fprintf(stderr, "vecadd: cannot place the inputs: %s\n", strerror(errno));
    return 2;
  }
  /* Window 0 maps the kernel's link range onto its DRAM copy. */
  write_reg(AVP_CMP_WINDOW_BASE0, k.link_base);
  write_reg(AVP_CMP_WINDOW_TARGET0, k.dram);
  write_reg(AVP_CMP_WINDOW_SCALE0, 0);
  write_reg(AVP_CMP_WINDOW_MODE0, AVP_CMP_WIN_ACTIVE | AVP_CMP_WIN_MODE(AVP_CMP_WIN_SHARED) | AVP_CMP_WIN_PERM_R |
                                      AVP_CMP_WIN_PERM_W | AVP_CMP_WIN_PERM_X | AVP_CMP_WIN_SIZE((k.size + 0xFFF) & ~0xFFFull));
  emit(AVP_CMP_SYNC_CACHE, AVP_CMP_SYNC_ICACHE, 0, NULL);
  write_reg(AVP_CMP_ENTRY_PT_FN, k.entry);
  write_reg(AVP_CMP_RETURN_ADDR, k.return_addr);
  write_reg(AVP_CMP_STACK_TOP, 0);
  const uint64_t run[4] = {n, a_at, b_at, out_at};
  emit(AVP_CMP_RUN_INSTANCES, AVP_CMP_RUN_INLINE(0, 3), 4, run);
  emit(AVP_CMP_SYNC_CACHE, AVP_CMP_SYNC_DCACHE, 0, NULL);
  emit(AVP_CMP_FINISH, 0, 0, NULL);
  avp_cmp_failure err;
  const uint64_t t0 = avp_sim_time_ps(h);
  if (avp_device_execute(dev, cb, ncb) || avp_device_wait_idle(dev, &err)) {
    fprintf(stderr, "vecadd: command buffer failed: %s (code %u at offset %u, pc 0x%llx)\n", strerror(errno), err.code,
            err.offset, (unsigned long long)err.pc);
    return 1;
  }
  const uint64_t t1 = avp_sim_time_ps(h);
  if (avp_device_read(dev, out_at, out, 4 * n)) return 2;
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i) bad += out[i] != a[i] + b[i];
  const avp_device_info *info = avp_device_get_info(dev);
  printf("vecadd: %u elements on %u harts: %s (command buffer %.3f us simulated)\n", n, info->cores * info->harts_per_core,
         bad ? "MISMATCH" : "results OK", (double)(t1 - t0) / 1e6);
  free(a);
  free(b);
  free(out);
  avp_device_close(dev);
  avp_host_disconnect(h);
  return bad ? 1 : 0;
}

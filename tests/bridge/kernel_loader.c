/* avp_device_load_kernel without literal addresses: the window base is the
 * image's first page (from its program headers), the return address the TCIM
 * base of the device's information block, and an image that is not ELF64 or
 * does not fit its 1 MiB block is refused with ENOEXEC.
 *   accel-vp exec --no-preload -- bridge_kernel_loader KERNEL_ELF */
#include <elf.h>
#include <stdint.h>
#include <unistd.h>

#include "accelvp_device.h"
#include "check.h"

/* Writes an ELF64 file whose PT_LOAD segments start at `vaddr[i]` with
 * `memsz[i]` bytes (no file bytes: all zero-filled). */
static void write_elf(const char *path, const uint64_t *vaddr, const uint64_t *memsz, unsigned n) {
  Elf64_Ehdr eh = {0};
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_machine = EM_RISCV;
  eh.e_version = EV_CURRENT;
  eh.e_entry = vaddr[0];
  eh.e_phoff = sizeof eh;
  eh.e_ehsize = sizeof eh;
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = (Elf64_Half)n;
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(&eh, sizeof eh, 1, f) == 1);
  for (unsigned i = 0; i < n; ++i) {
    Elf64_Phdr ph = {0};
    ph.p_type = PT_LOAD;
    ph.p_flags = PF_R;
    ph.p_vaddr = ph.p_paddr = vaddr[i];
    ph.p_memsz = memsz[i];
    CHECK(fwrite(&ph, sizeof ph, 1, f) == 1);
  }
  CHECK(fclose(f) == 0);
}

int main(int argc, char **argv) {
  CHECK(argc == 2);
  avp_host *h = avp_host_connect(NULL);
  avp_device *d = h ? avp_device_open(h) : NULL;
  CHECK(d);
  const avp_device_info *info = avp_device_get_info(d);

  avp_kernel k;
  CHECK(avp_device_load_kernel(d, argv[1], &k) == 0);
  CHECK(k.return_addr == info->tcim_base && k.return_addr != 0);
  CHECK(k.dram >= info->dram_base && k.dram + k.size <= info->dram_base + info->dram_size);
  CHECK((k.link_base & 0xFFF) == 0 && k.entry >= k.link_base && k.entry < k.link_base + k.size);

  /* An image linked elsewhere is placed relative to its own first page. */
  char path[] = "/tmp/avp_kernel_loader_XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  const uint64_t at[2] = {0x4000123, 0x4008000}, len[2] = {0x100, 0x20};
  write_elf(path, at, len, 2);
  CHECK(avp_device_load_kernel(d, path, &k) == 0);
  CHECK(k.link_base == 0x4000000 && k.size == 0x8020 && k.entry == 0x4000123);

  /* Segments 1 MiB + 1 byte apart do not fit the block: nothing is kept. */
  const uint64_t far[2] = {0x10000, 0x110000}, one[2] = {1, 1};
  write_elf(path, far, one, 2);
  CHECK_ERRNO(avp_device_load_kernel(d, path, &k), ENOEXEC);
  CHECK(k.dram == 0);

  /* Not an ELF file. */
  FILE *f = fopen(path, "wb");
  CHECK(f && fputs("not an ELF file\n", f) >= 0 && fclose(f) == 0);
  CHECK_ERRNO(avp_device_load_kernel(d, path, &k), ENOEXEC);
  unlink(path);

  avp_device_close(d);
  avp_host_disconnect(h);
  puts("kernel_loader: OK");
  return 0;
}

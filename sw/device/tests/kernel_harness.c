// Runs a kernel ELF (TARGET kernel) on qemu-virt the way the command
// processor launches kernels: QEMU puts the ELF file, unparsed, at
// KERNEL_FILE (-device loader,file=...,addr=...,force-raw=on); the harness
// loads its PT_LOAD segments, then runs RUN_INSTANCES-style instances with
// a0 = instance id, a1..a3 = buffers, a fresh stack, ra = return point and
// gp/tp poisoned. Checks the kernel_add example's results.
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "avp/csr.h"
#include "avp/device.h"

#define KERNEL_FILE 0x84000000ul
#define INSTANCES 16

typedef struct { uint64_t pc, sp, a[8]; } launch_regs;
uint64_t kernel_launch(const launch_regs* r);
void kernel_trap_entry(void);

static uint64_t kernel_stack[1024] __attribute__((aligned(16)));
static int32_t in_a[INSTANCES], in_b[INSTANCES], out[INSTANCES];

static uint64_t load_elf(const uint8_t* file) {
  const Elf64_Ehdr* eh = (const Elf64_Ehdr*)file;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_machine != EM_RISCV) {
    printf("kernel_harness: no RV64 ELF at %#lx\n", KERNEL_FILE);
    return 0;
  }
  for (unsigned i = 0; i < eh->e_phnum; i++) {
    const Elf64_Phdr* ph = (const Elf64_Phdr*)(file + eh->e_phoff + i * eh->e_phentsize);
    if (ph->p_type != PT_LOAD) continue;
    memcpy((void*)ph->p_paddr, file + ph->p_offset, ph->p_filesz);
    memset((char*)ph->p_paddr + ph->p_filesz, 0, ph->p_memsz - ph->p_filesz);
  }
  __asm__ volatile("fence.i" ::: "memory");
  return eh->e_entry;
}

int main(int hart) {
  uint64_t entry = load_elf((const uint8_t*)KERNEL_FILE);
  if (entry == 0) return 1;
  avp_csr_write(mtvec, (uint64_t)kernel_trap_entry);
  for (int i = 0; i < INSTANCES; i++) {
    in_a[i] = i * 1000;
    in_b[i] = -i;
    out[i] = 0x7fffffff;
  }
  int errors = 0;
  for (uint64_t i = 0; i < INSTANCES; i++) {
    launch_regs r = {.pc = entry, .sp = (uint64_t)&kernel_stack[1024],
                     .a = {i, (uint64_t)in_a, (uint64_t)in_b, (uint64_t)out}};
    uint64_t how = kernel_launch(&r);
    if (how != 0) {
      printf("instance %llu ended with %#llx\n", (unsigned long long)i, (unsigned long long)how);
      errors++;
    }
  }
  for (int i = 0; i < INSTANCES; i++)
    if (out[i] != i * 999) errors++;
  printf("kernel_harness: %d instances, %d errors\n", INSTANCES, errors);
  return errors != 0;
}

/* The host system of `accel-vp boot --system host` (docs/full-system.md):
 * default bases of its address map, as QEMU's virt machine places them, and
 * the host PLIC's sources of the PCIe INTx lines. Every base is also a
 * parameter (host_system.bus.<range>.base). */
#ifndef AVP_HOST_SYSTEM_MAP_H
#define AVP_HOST_SYSTEM_MAP_H

#define AVP_HOST_POWEROFF_BASE 0x00100000u
/* The host harts' performance-counter block (harts/perf_regs.h) */
#define AVP_HOST_PERF_BASE 0x00200000u
#define AVP_HOST_CLINT_BASE 0x02000000u
#define AVP_HOST_PLIC_BASE 0x0c000000u
#define AVP_HOST_UART_BASE 0x10000000u
/* ECAM of bus 0 only (bus-range 0..0): 1 MiB, bus << 20 | device << 15 | function << 12 | register */
#define AVP_HOST_ECAM_BASE 0x30000000u
#define AVP_HOST_ECAM_SIZE 0x00100000u
/* Memory windows of the host bridge, PCI address = CPU address */
#define AVP_HOST_MMIO32_BASE 0x40000000u
#define AVP_HOST_MMIO32_SIZE 0x40000000u
#define AVP_HOST_MMIO64_BASE 0x400000000ull
#define AVP_HOST_MMIO64_SIZE 0x400000000ull
/* Host DRAM (the root complex's host memory): PCI bus address 0 is CPU address AVP_HOST_DRAM_BASE */
#define AVP_HOST_DRAM_BASE 0x80000000u
/* PLIC sources of INTA..INTD (the UART is AVP_UART_PLIC_SOURCE, 1) */
#define AVP_HOST_PCI_INTA_SOURCE 3u

#endif

// The system devices of docs/platform.md ("System devices") for
// firmware-style device programs: the CLINT (mtime, mtimecmp, msip), the
// PLIC, the NS16550A UART and the SiFive test (power-off) device, at
// accel-vp's default addresses (parameters bus.<device>.base) or at QEMU
// virt's, chosen by the SDK target, so one source runs on both.
#pragma once
#include <stdint.h>

#if defined(AVP_TARGET_QEMU_VIRT)
#define AVP_CLINT_BASE 0x02000000ull
#define AVP_PLIC_BASE 0x0c000000ull
#define AVP_UART_BASE 0x10000000ull
#define AVP_POWEROFF_BASE 0x00100000ull
#define AVP_UART_IRQ 10
#define AVP_MTIME_HZ 10000000ull  // QEMU virt's timebase
#else
#define AVP_CLINT_BASE 0x22000000ull
#define AVP_PLIC_BASE 0x24000000ull
#define AVP_UART_BASE 0x20005000ull
#define AVP_POWEROFF_BASE 0x20004000ull
#define AVP_UART_IRQ 1
#define AVP_MTIME_HZ 1000000000ull  // clint.frequency's default
#endif

// CLINT (SiFive layout).
#define AVP_CLINT_MSIP(hart) ((volatile uint32_t*)(AVP_CLINT_BASE + 4 * (hart)))
#define AVP_CLINT_MTIMECMP(hart) ((volatile uint64_t*)(AVP_CLINT_BASE + 0x4000 + 8 * (hart)))
#define AVP_CLINT_MTIME ((volatile uint64_t*)(AVP_CLINT_BASE + 0xBFF8))

// PLIC: context 2h is hart h's M-mode, 2h + 1 its S-mode.
#define AVP_PLIC_PRIORITY(src) ((volatile uint32_t*)(AVP_PLIC_BASE + 4 * (src)))
#define AVP_PLIC_ENABLE(ctx) ((volatile uint32_t*)(AVP_PLIC_BASE + 0x2000 + 0x80 * (ctx)))
#define AVP_PLIC_THRESHOLD(ctx) ((volatile uint32_t*)(AVP_PLIC_BASE + 0x200000 + 0x1000 * (ctx)))
#define AVP_PLIC_CLAIM(ctx) ((volatile uint32_t*)(AVP_PLIC_BASE + 0x200004 + 0x1000 * (ctx)))

// NS16550A registers (byte-wide, no register shift).
#define AVP_UART_REG(n) ((volatile uint8_t*)(AVP_UART_BASE + (n)))
enum { AVP_UART_RBR_THR = 0, AVP_UART_IER = 1, AVP_UART_FCR = 2, AVP_UART_LCR = 3, AVP_UART_LSR = 5 };
#define AVP_UART_LSR_DR 0x01u    // a received byte is waiting
#define AVP_UART_LSR_THRE 0x20u  // the transmitter takes a byte

// Power-off: 0x5555 passes, 0x3333 | code << 16 fails with `code`.
static inline void avp_poweroff(unsigned code) {
  *(volatile uint32_t*)AVP_POWEROFF_BASE = code ? 0x3333u | code << 16 : 0x5555u;
}

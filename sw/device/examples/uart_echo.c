// Echoes lines typed on the UART (NS16550A) from its receive interrupt,
// routed by the PLIC to hart 0's M-mode context, until a 'q' (runs on
// accel-vp with `accel-vp run --elf PROG --uart stdio` and on
// qemu-system-riscv64 virt; input on stdin). All output goes through the
// UART itself, so both print the same bytes.
#include <stdint.h>

#include "avp/csr.h"
#include "avp/sysdev.h"

#define MIE_MEIE (1u << 11)
#define CAUSE_MEI ((1ull << 63) | 11)
#define PLIC_CONTEXT 0  // hart 0, M-mode
#define IER_RX 0x01u

static char line[128];
static volatile unsigned len, lines, claims, other_traps;
static volatile int quit;

static void put(char c) {
  while (!(*AVP_UART_REG(AVP_UART_LSR) & AVP_UART_LSR_THRE)) {
  }
  *AVP_UART_REG(AVP_UART_RBR_THR) = (uint8_t)c;
}

static void put_text(const char* s) {
  while (*s) put(*s++);
}

static void put_number(unsigned v) {
  char digits[12];
  int n = 0;
  do digits[n++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  while (n) put(digits[--n]);
}

static void receive(char c) {
  if (c == 'q') {
    quit = 1;
  } else if (c == '\n' || c == '\r') {
    if (!len) return;
    line[len] = 0;
    put_text("echo: ");
    put_text(line);
    put('\n');
    len = 0;
    ++lines;
  } else if (len + 1 < sizeof line) {
    line[len++] = c;
  }
}

static void __attribute__((interrupt("machine"), aligned(4))) on_trap(void) {
  if (avp_csr_read(mcause) != CAUSE_MEI) {
    ++other_traps;
    avp_csr_write(mepc, avp_csr_read(mepc) + 4);
    return;
  }
  const uint32_t source = *AVP_PLIC_CLAIM(PLIC_CONTEXT);
  if (source == AVP_UART_IRQ)
    while (*AVP_UART_REG(AVP_UART_LSR) & AVP_UART_LSR_DR) receive((char)*AVP_UART_REG(AVP_UART_RBR_THR));
  if (source) {
    ++claims;
    *AVP_PLIC_CLAIM(PLIC_CONTEXT) = source;  // complete
  }
}

int main(int hart) {
  if (hart != 0) return 0;
  avp_csr_write(mtvec, (uint64_t)on_trap);
  put_text("uart: type lines, q ends\n");  // before interrupts: typed-ahead input comes in at once
  *AVP_UART_REG(AVP_UART_IER) = IER_RX;
  *AVP_PLIC_PRIORITY(AVP_UART_IRQ) = 1;
  *AVP_PLIC_THRESHOLD(PLIC_CONTEXT) = 0;
  AVP_PLIC_ENABLE(PLIC_CONTEXT)[AVP_UART_IRQ / 32] = 1u << (AVP_UART_IRQ % 32);
  avp_csr_set(mie, MIE_MEIE);
  while (!quit) avp_wfi_take_interrupts();  // mstatus.MIE stays clear between the check and WFI
  avp_csr_clear(mie, MIE_MEIE);
  put_text("uart: ");
  put_number(lines);
  put_text(" lines echoed, interrupts claimed: ");
  put_text(claims ? "yes" : "no");
  put_text(", other traps: ");
  put_number(other_traps);
  put('\n');
  return 0;
}

/* Register layouts of the system devices firmware expects (docs/platform.md,
 * "System devices"): CLINT, PLIC, NS16550A UART and the SiFive-test style
 * power-off device. Shared by the models, the device SDK and tests. The bases
 * are the defaults of the parameters bus.<range>.base. */
#ifndef AVP_SYSDEV_REGS_H
#define AVP_SYSDEV_REGS_H

/* SiFive test / syscon power-off device ("sifive,test0", "syscon"). */
#define AVP_POWEROFF_BASE 0x20004000u
#define AVP_POWEROFF_SIZE 0x1000u
#define AVP_POWEROFF_REG 0x0        /* 16- or 32-bit write-only command register */
#define AVP_POWEROFF_PASS 0x5555u   /* power off, exit code 0 */
#define AVP_POWEROFF_FAIL 0x3333u   /* power off, exit code = bits 31:16, 1 when they are 0 */
#define AVP_POWEROFF_RESET 0x7777u  /* reset request: ends the run (exit code 0, reported as a reset) */

/* NS16550A UART, byte registers (reg-shift 0). */
#define AVP_UART_BASE 0x20005000u
#define AVP_UART_SIZE 0x100u
#define AVP_UART_RBR 0 /* read, DLAB=0: receive buffer */
#define AVP_UART_THR 0 /* write, DLAB=0: transmit holding */
#define AVP_UART_IER 1 /* DLAB=0: interrupt enable */
#define AVP_UART_IIR 2 /* read: interrupt identification */
#define AVP_UART_FCR 2 /* write: FIFO control */
#define AVP_UART_LCR 3
#define AVP_UART_MCR 4
#define AVP_UART_LSR 5
#define AVP_UART_MSR 6
#define AVP_UART_SCR 7
#define AVP_UART_IER_RDA 0x01  /* received data available */
#define AVP_UART_IER_THRE 0x02 /* transmitter holding register empty */
#define AVP_UART_LSR_DR 0x01
#define AVP_UART_LSR_THRE 0x20
#define AVP_UART_LSR_TEMT 0x40
#define AVP_UART_LCR_DLAB 0x80
#define AVP_UART_MCR_LOOP 0x10
#define AVP_UART_PLIC_SOURCE 1u /* the UART's PLIC interrupt source */
#define AVP_DMA_PLIC_SOURCE 2u  /* the DMA controller's error interrupt */

/* CLINT (SiFive layout, "riscv,clint0"). */
#define AVP_CLINT_BASE 0x22000000u
#define AVP_CLINT_SIZE 0x10000u
#define AVP_CLINT_MSIP(h) (0x0000u + 4u * (h))     /* 32-bit, bit 0 */
#define AVP_CLINT_MTIMECMP(h) (0x4000u + 8u * (h)) /* 64-bit */
#define AVP_CLINT_MTIME 0xBFF8u                    /* 64-bit */

/* PLIC ("sifive,plic-1.0.0"); context 2h is hart h's M-mode, 2h+1 its S-mode. */
#define AVP_PLIC_BASE 0x24000000u
#define AVP_PLIC_SIZE 0x4000000u
#define AVP_PLIC_SOURCES 32u                              /* sources 1..31 (0 means none) */
#define AVP_PLIC_PRIORITY(s) (0x0u + 4u * (s))            /* 32-bit, 3 bits used */
#define AVP_PLIC_PENDING 0x1000u                          /* bit per source, read-only */
#define AVP_PLIC_ENABLE(c) (0x2000u + 0x80u * (c))        /* bit per source */
#define AVP_PLIC_THRESHOLD(c) (0x200000u + 0x1000u * (c)) /* 32-bit */
#define AVP_PLIC_CLAIM(c) (0x200004u + 0x1000u * (c))     /* read: claim, write: complete */
#define AVP_PLIC_PRIORITY_MAX 7u

#endif

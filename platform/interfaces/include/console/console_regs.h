/* Console device register layout (docs/platform.md, "Console device"), shared
 * by the model, the device SDK and tests. 32-bit registers, accessed with
 * 32-bit aligned loads/stores only. Only harts may use it: each hart has its
 * own line buffer, selected by the unit of the access. */
#ifndef AVP_CONSOLE_REGS_H
#define AVP_CONSOLE_REGS_H

#define AVP_CONSOLE_BASE 0x20003000u /* default of the parameter bus.console.base */
#define AVP_CONSOLE_SIZE 0x100u

#define AVP_CONSOLE_TXDATA 0x00 /* write-only: bits 7:0 appended to the hart's line; '\n' emits the line */
#define AVP_CONSOLE_FLUSH 0x04  /* write-only: emits the hart's pending bytes as a line (none: nothing) */
#define AVP_CONSOLE_STATUS 0x08 /* read-only: see below */

#define AVP_CONSOLE_STATUS_READY 0x80000000u   /* always 1: TXDATA never blocks */
#define AVP_CONSOLE_STATUS_PENDING_MASK 0xFFFFu /* bytes pending in the reading hart's line */

/* A line reaching this many bytes is emitted without waiting for '\n'. */
#define AVP_CONSOLE_LINE_MAX 1024u

#endif

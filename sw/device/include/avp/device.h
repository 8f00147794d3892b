// accel-vp device SDK: the services a bare-metal program or kernel gets from
// the platform. On accel-vp they are ECALLs handled by the hart cluster
// (docs/device-sdk.md, "ECALL ABI"); on the QEMU targets the same functions
// are implemented with QEMU's devices or Linux system calls, so one program
// source runs everywhere.
#pragma once
#include <stdarg.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// ECALL function numbers (a7) understood by accel-vp in M-mode.
#define AVP_ECALL_EXIT 0
#define AVP_ECALL_PRINT 1
#define AVP_ECALL_BARRIER 2
#define AVP_ECALL_STATS 3  // a0: AVP_STATS_DUMP | AVP_STATS_RESET
#define AVP_STATS_DUMP 0x1u
#define AVP_STATS_RESET 0x2u

// Largest hart id with its own stdout line buffer; higher ids print unbuffered.
#define AVP_MAX_HARTS 64

// Ends this hart's program with `code` (0 = success). Flushes stdout first.
void avp_exit(int code) __attribute__((noreturn));
// Prints the NUL-terminated string `s` on the device console as one unit.
void avp_print(const char* s);
// Waits until every hart of the run (or launch) has reached the barrier.
void avp_barrier(void);
// Region-of-interest statistics, like gem5's m5 ops: the platform's
// statistics are dumped (a section of report.json and stats.txt, labelled
// with the hart and time) and/or reset, so a report covers just the code
// between two calls. No effect on QEMU.
void avp_stats_reset(void);
void avp_stats_dump(void);
void avp_stats_dump_reset(void);
// Global hart index of the calling hart.
unsigned avp_hart_id(void);
// printf into a local buffer, printed with one avp_print (at most 255 chars).
int avp_printf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
int avp_vprintf(const char* fmt, va_list ap);

// The memory-mapped console device (accel-vp; registers in
// platform/interfaces/include/console/console_regs.h, default base). Each hart's bytes form its
// own lines, printed like avp_print lines. On QEMU these go to stdout.
void avp_console_putc(char c);        // '\n' prints the hart's line
void avp_console_puts(const char* s);  // the bytes of `s` (no newline added)
void avp_console_flush(void);          // prints the hart's pending bytes as a line
// on = 1: printf/puts/putchar (stdout, stderr) write through the console
// device byte by byte instead of collecting lines for avp_print (on = 0, the
// default). No effect on QEMU.
void avp_stdio_console(int on);

#ifdef __cplusplus
}
#endif

// Marks a kernel entry point for kernel.ld: kept by --gc-sections, C linkage.
// Entered with a0 = instance id, a1.. = arguments; returning ends the instance.
#define AVP_KERNEL __attribute__((used, noinline, section(".text.kernel")))

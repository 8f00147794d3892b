// Target-specific I/O layer behind avp/device.h (io_ecall.c, io_virt.c,
// io_linux.c): exactly one is linked into each program.
#pragma once

// Ends the calling hart without flushing anything.
void avp_sys_exit(int code) __attribute__((noreturn));
// Prints a NUL-terminated string as one unit.
void avp_sys_print(const char* s);
// Barrier across the harts of the run.
void avp_sys_barrier(void);
// Dumps and/or resets the platform's statistics (AVP_STATS_* bits; no-op on QEMU).
void avp_sys_stats(unsigned op);
// Flushes the calling hart's stdout line buffer (stdout.c).
void avp_stdout_flush(void);
// Non-zero: stdout/stderr go through the console device (console.c).
extern int avp_stdio_uses_console;

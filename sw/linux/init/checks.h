// What the initramfs programs share (static, riscv64-linux-gnu): PASS/FAIL
// lines with a prefix, reading small files and device-tree properties, and
// the power-off that carries the failure count (docs/linux.md).
#ifndef AVP_LINUX_CHECKS_H
#define AVP_LINUX_CHECKS_H
#include <stddef.h>
#include <stdint.h>

// Lines start with "<prefix>: " ("selftest", "fullsystem").
void checks_begin(const char* prefix);
// One "<prefix>: PASS|FAIL name: detail" line.
void check(int ok, const char* name, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
// Mounts proc, sysfs and devtmpfs; true when all three are mounted.
int mount_filesystems(void);
// A file's text, NUL-terminated; its length, or -1.
int read_text(const char* path, char* buf, size_t size);
// A device-tree property of `count` (1 or 2) big-endian cells.
int dt_cells(const char* path, uint64_t* out, int count);
// The /soc node whose name starts with `prefix` ("clint@", "test@"): its reg base.
int dt_soc_base(const char* prefix, uint64_t* base);
// Prints "<prefix>: P passed, F failed" and powers off: status 0 when every
// check passed, else the failure count (through the SiFive test device).
void finish_and_power_off(void);

#endif

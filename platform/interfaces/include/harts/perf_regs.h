/* Performance-counter block of the hart cluster (docs/harts.md, "Performance
 * counters"), shared by the model, the device SDK and tests. 64-bit
 * registers (aligned 32-bit reads of either half work too). */
#ifndef AVP_PERF_REGS_H
#define AVP_PERF_REGS_H

#define AVP_PERF_BASE 0x20100000u /* default of the parameter bus.perf.base */
#define AVP_PERF_SIZE 0x200u

/* Per-hart block, for the accessing hart (read-only). */
#define AVP_PERF_HART_CYCLE 0x000
#define AVP_PERF_HART_INSTRET 0x010
#define AVP_PERF_HART_HPM3 0x018 /* mhpmcounter3..31 follow */
/* Global block (read-only). */
#define AVP_PERF_INSTRUCTIONS 0x100
#define AVP_PERF_CYCLES 0x108
#define AVP_PERF_CODE_FLUSHES 0x110
#define AVP_PERF_BARRIERS 0x118
#define AVP_PERF_PRINTS 0x120
#define AVP_PERF_TRAPS 0x128
#define AVP_PERF_XINTF_CALLS 0x130
/* Region-of-interest statistics (like gem5's m5 ops). A write of a
 * combination of the bits below dumps every statistic of the platform as a
 * section of report.json and stats.txt, then resets them; a read returns the
 * number of dumps so far. The same as ECALL a7 = AVP_ECALL_STATS. */
#define AVP_PERF_STATS_CONTROL 0x1F8
#define AVP_STATS_DUMP 0x1u
#define AVP_STATS_RESET 0x2u

#endif

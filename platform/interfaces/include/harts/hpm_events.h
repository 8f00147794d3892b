/* Events of the hart performance counters (docs/harts.md, "Performance
 * counters"), shared by the model, the device SDK and tests: the value
 * software writes to mhpmeventN (N = 3..31) to make mhpmcounterN (and
 * hpmcounterN) count that event. mhpmevent is WARL: any other value reads
 * as AVP_HPM_NONE, which counts nothing. At reset mhpmeventN = N for N =
 * 3..17 (RefSi's counter ids) and AVP_HPM_NONE above. */
#ifndef AVP_HPM_EVENTS_H
#define AVP_HPM_EVENTS_H

#define AVP_HPM_NONE 0u
/* Retired instructions by class: the RefSi driver API's REFSI_PERF_CNTR_* ids. */
#define AVP_HPM_LOADS_1B 3u
#define AVP_HPM_LOADS_2B 4u
#define AVP_HPM_LOADS_4B 5u
#define AVP_HPM_LOADS_8B 6u
#define AVP_HPM_LOADS_16B 7u /* always 0: RV64GC has no 16-byte loads */
#define AVP_HPM_LOADS 8u     /* integer and FP loads, LR */
#define AVP_HPM_STORES_1B 9u
#define AVP_HPM_STORES_2B 10u
#define AVP_HPM_STORES_4B 11u
#define AVP_HPM_STORES_8B 12u
#define AVP_HPM_STORES_16B 13u /* always 0 */
#define AVP_HPM_STORES 14u     /* integer and FP stores, SC, AMOs */
#define AVP_HPM_INT_OPS 15u    /* integer ALU, multiply, divide */
#define AVP_HPM_FP_OPS 16u     /* FP computation (not FP loads and stores) */
#define AVP_HPM_BRANCHES 17u   /* conditional branches and jumps */
/* L1 caches: accesses (harts.<N>.icache_hits, ...). */
#define AVP_HPM_ICACHE_HITS 18u
#define AVP_HPM_ICACHE_MISSES 19u
#define AVP_HPM_DCACHE_HITS 20u
#define AVP_HPM_DCACHE_MISSES 21u
/* Stall cycles by cause: hart clock cycles beyond the instructions' own
 * (harts.hart<N>.stall_<cause> in ps, divided by the clock period). */
#define AVP_HPM_STALL_FETCH 22u   /* I-cache time and line fills */
#define AVP_HPM_STALL_MEMORY 23u  /* D-cache time, memory and device latency */
#define AVP_HPM_STALL_BARRIER 24u /* waiting at barriers */
#define AVP_HPM_STALL_WFI 25u     /* asleep in WFI */
#define AVP_HPM_STALL_XINTF 26u   /* extension-device (xcmd) calls */
/* Address translation (harts.hart<N>.tlb_hits, ...). */
#define AVP_HPM_TLB_HITS 27u
#define AVP_HPM_TLB_MISSES 28u
#define AVP_HPM_PAGE_WALKS 29u
#define AVP_HPM_LAST_EVENT 29u

#endif

// CSR access helpers for device programs.
#pragma once
#include <stdint.h>

#define avp_csr_read(csr)                                  \
  ({                                                       \
    uint64_t v_;                                           \
    __asm__ volatile("csrr %0, " #csr : "=r"(v_)::"memory"); \
    v_;                                                    \
  })
#define avp_csr_write(csr, val) __asm__ volatile("csrw " #csr ", %0" ::"rK"((uint64_t)(val)) : "memory")
#define avp_csr_set(csr, val) __asm__ volatile("csrs " #csr ", %0" ::"rK"((uint64_t)(val)) : "memory")
#define avp_csr_clear(csr, val) __asm__ volatile("csrc " #csr ", %0" ::"rK"((uint64_t)(val)) : "memory")

#define AVP_MSTATUS_SIE (1ull << 1)
#define AVP_MSTATUS_MIE (1ull << 3)
#define AVP_MSTATUS_SPIE (1ull << 5)
#define AVP_MSTATUS_MPIE (1ull << 7)
#define AVP_MSTATUS_SPP (1ull << 8)
#define AVP_MSTATUS_MPP_SHIFT 11
#define AVP_MSTATUS_MPP (3ull << 11)
#define AVP_MSTATUS_FS (3ull << 13)
#define AVP_MSTATUS_MPRV (1ull << 17)
#define AVP_MSTATUS_SUM (1ull << 18)
#define AVP_MSTATUS_MXR (1ull << 19)

// Sleeps until an interrupt is pending and takes it, for a loop that checks
// what the handler sets while mstatus.MIE is clear:
//   while (!done) avp_wfi_take_interrupts();   (mstatus.MIE clear, as at reset)
// Checking with interrupts enabled loses a wake-up when the last interrupt
// comes between the check and WFI, which then waits for one that never comes.
// WFI wakes on a pending enabled interrupt even with MIE clear.
static inline void avp_wfi_take_interrupts(void) {
  __asm__ volatile("wfi" ::: "memory");
  avp_csr_set(mstatus, AVP_MSTATUS_MIE);  // the pending interrupt is taken here
  avp_csr_clear(mstatus, AVP_MSTATUS_MIE);
}

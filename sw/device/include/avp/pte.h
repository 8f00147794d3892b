// Page-table entry and satp bits for device programs that turn address
// translation on (Sv39/Sv48 with Svnapot and Svpbmt; docs/harts.md, "Address
// translation and protection").
#pragma once
#include <stdint.h>

#define AVP_PTE_V 0x01ull
#define AVP_PTE_R 0x02ull
#define AVP_PTE_W 0x04ull
#define AVP_PTE_X 0x08ull
#define AVP_PTE_U 0x10ull
#define AVP_PTE_G 0x20ull
#define AVP_PTE_A 0x40ull
#define AVP_PTE_D 0x80ull
#define AVP_PTE_N (1ull << 63)                  // Svnapot: a 64 KiB page (ppn[3:0] = 1000)
#define AVP_PTE_PBMT(k) ((uint64_t)(k) << 61)   // Svpbmt: 0 the PMA, 1 NC, 2 IO
#define AVP_SATP_SV39 (8ull << 60)
#define AVP_SATP_SV48 (9ull << 60)
#define AVP_MENVCFG_PBMTE (1ull << 62)          // Svpbmt on for S and U mode

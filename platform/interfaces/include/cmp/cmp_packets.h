/* Command-processor packet and register layout (seed refsi-command-processor.rst
 * with platform.md section 3): one header shared by the model, the RTL
 * testbench, host encoders, device code and tests. Plain C. */
#ifndef AVP_CMP_PACKETS_H
#define AVP_CMP_PACKETS_H

#include <stdint.h>

/* Header chunk: [7:0] reserved 0, [15:8] opcode, [29:16] COUNT = 2 x payload
 * chunks, [31:30] packet id 3, [63:32] inline. */
#define AVP_CMP_HEADER_MASK 0xC00000FFull
#define AVP_CMP_HEADER_VALUE 0xC0000000ull
#define AVP_CMP_HEADER(op, payload_chunks, inl) \
  (0xC0000000ull | ((uint64_t)(op) << 8) | ((uint64_t)((payload_chunks) * 2) << 16) | ((uint64_t)(uint32_t)(inl) << 32))
#define AVP_CMP_HEADER_OPCODE(h) ((unsigned)(((h) >> 8) & 0xFF))
#define AVP_CMP_HEADER_COUNT(h) ((unsigned)(((h) >> 16) & 0x3FFF))
#define AVP_CMP_HEADER_INLINE(h) ((uint32_t)((h) >> 32))

enum avp_cmp_opcode {
  AVP_CMP_NOP = 0,
  AVP_CMP_FINISH = 1,
  AVP_CMP_WRITE_REG64 = 2,
  AVP_CMP_LOAD_REG64 = 3,
  AVP_CMP_STORE_REG64 = 4,
  AVP_CMP_STORE_IMM64 = 5,
  AVP_CMP_COPY_MEM64 = 6,
  AVP_CMP_RUN_KERNEL_SLICE = 7,
  AVP_CMP_RUN_INSTANCES = 8,
  AVP_CMP_SYNC_CACHE = 9,
};

/* Registers (40). */
enum avp_cmp_reg {
  AVP_CMP_SCRATCH = 0,
  AVP_CMP_ENTRY_PT_FN = 1,
  AVP_CMP_KUB_DESC = 2,
  AVP_CMP_KARGS_INFO = 3,
  AVP_CMP_TSD_INFO = 4,
  AVP_CMP_STACK_TOP = 5,
  AVP_CMP_RETURN_ADDR = 6,
  AVP_CMP_WINDOW_BASE0 = 8,
  AVP_CMP_WINDOW_TARGET0 = 16,
  AVP_CMP_WINDOW_MODE0 = 24,
  AVP_CMP_WINDOW_SCALE0 = 32,
  AVP_CMP_NUM_REGS = 40,
};
#define AVP_CMP_NUM_WINDOWS 8

/* Window MODE register fields. */
#define AVP_CMP_WIN_ACTIVE 0x1ull
#define AVP_CMP_WIN_MODE(m) ((uint64_t)(m) << 1) /* 0 SHARED, 1 PER_HART, 2 PER_CORE */
#define AVP_CMP_WIN_INTERLEAVE 0x8ull
#define AVP_CMP_WIN_PERM_R 0x10ull
#define AVP_CMP_WIN_PERM_W 0x20ull
#define AVP_CMP_WIN_PERM_X 0x40ull
#define AVP_CMP_WIN_STRIDE(s) ((uint64_t)(s) << 8)
#define AVP_CMP_WIN_SIZE(bytes) ((uint64_t)((bytes)-1) << 32) /* SIZE holds size - 1 */
#define AVP_CMP_WIN_SHARED 0
#define AVP_CMP_WIN_PER_HART 1
#define AVP_CMP_WIN_PER_CORE 2
/* SCALE register: [4:0] SCALE_A, [63:32] SCALE_B; SCALE = 0 if SCALE_A = 0,
 * else 2^(SCALE_A - 1) x (SCALE_B + 1). */
#define AVP_CMP_WIN_SCALE(a, b) ((uint64_t)(a) | ((uint64_t)(b) << 32))

/* SYNC_CACHE flags. */
#define AVP_CMP_SYNC_DCACHE 1u
#define AVP_CMP_SYNC_ICACHE 2u

/* RUN_INSTANCES inline: [7:0] MAX_HARTS, [10:8] NUM_ARGS; [31:11] ignored. */
#define AVP_CMP_RUN_INLINE(max_harts, num_args) ((uint32_t)(max_harts) | ((uint32_t)(num_args) << 8))

/* Error codes (CMP_ERR_CODE). */
enum avp_cmp_error {
  AVP_CMP_OK = 0,
  AVP_CMP_ERR_BAD_HEADER = 1,      /* reserved bits set or packet id != 3 */
  AVP_CMP_ERR_ODD_COUNT = 2,       /* COUNT is odd */
  AVP_CMP_ERR_PAYLOAD_COUNT = 3,   /* payload count differs from the opcode's */
  AVP_CMP_ERR_UNKNOWN_OPCODE = 4,
  AVP_CMP_ERR_BAD_REGISTER = 5,    /* register index >= 40 */
  AVP_CMP_ERR_TRUNCATED = 6,       /* the buffer ends inside a packet */
  AVP_CMP_ERR_NO_FINISH = 7,       /* the buffer ends without FINISH */
  AVP_CMP_ERR_MEMORY = 8,          /* an address that is not accessible (unmapped or refused) */
  AVP_CMP_ERR_BAD_WINDOW = 9,      /* window onto nothing, onto a window, reserved mode, bad size */
  AVP_CMP_ERR_MAX_HARTS = 10,      /* MAX_HARTS larger than the harts that exist */
  AVP_CMP_ERR_KERNEL_TRAP = 11,    /* a kernel instance trapped (hart, pc, cause in the status) */
  AVP_CMP_ERR_KERNEL_EXIT = 12,    /* a kernel instance called exit with a non-zero code */
  AVP_CMP_ERR_KERNEL_LIMIT = 13,   /* a kernel instance exceeded the instruction limit */
  AVP_CMP_ERR_DMA = 14,            /* a DMA transfer waited on by the buffer failed */
  AVP_CMP_ERR_BAD_ARGS = 15,       /* reserved: no longer raised (NUM_ARGS is the 3-bit field [10:8]) */
  AVP_CMP_ERR_LOCKSTEP = 16,       /* cmp.decoder=rtl/lockstep: the decoders disagreed or the RTL timed out */
  AVP_CMP_ERR_KERNEL_TIMEOUT = 17, /* a RUN_* command outlived cmp.kernel_watchdog (hart, instance in the status) */
  AVP_CMP_ERR_TOO_LARGE = 18,      /* COPY_MEM64 count above cmp.max_copy_elements */
};

/* The CMP register block at 0x2000_0000 (read-only mirror). */
#define AVP_CMP_REGS_BASE 0x20000000u
#define AVP_CMP_MIRROR_REG(i) ((i)*8u)     /* the 40 registers */
#define AVP_CMP_MIRROR_STATUS 0x200u       /* bit 0 busy */
#define AVP_CMP_MIRROR_ERR_CODE 0x208u
#define AVP_CMP_MIRROR_ERR_OFFSET 0x210u
#define AVP_CMP_MIRROR_ERR_INFO 0x218u     /* opcode | hart << 8 | (hart valid) << 31 */
#define AVP_CMP_MIRROR_ERR_PC 0x220u
#define AVP_CMP_MIRROR_ERR_CAUSE 0x228u
#define AVP_CMP_MIRROR_DONE_COUNT 0x230u

#endif

/* refsidrv: the RefSi driver API of Codeplay's oneAPI Construction Kit,
 * implemented by accel-vp (docs/refsidrv.md). A program written against
 * that API links unchanged against librefsidrv and drives the platform over
 * the host bridge (`accel-vp exec -- PROG`). The names, values and layouts
 * below are the API's; the text is this project's. */
#ifndef REFSIDRV_REFSIDRV_H
#define REFSIDRV_REFSIDRV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t refsi_addr_t;
typedef struct RefSiDevice *refsi_device_t;

enum refsi_result {
  refsi_success = 0,
  refsi_failure = 1,
  refsi_invalid_device = 2,
  refsi_device_closed = 3,
  refsi_not_supported = 4
};

enum { refsi_nullptr = 0 };

enum refsi_device_family { REFSI_DEFAULT = 0, REFSI_M = 1, REFSI_G = 2 };

typedef struct refsi_device_info {
  enum refsi_device_family family;
  unsigned num_cores;
  unsigned num_harts_per_core;
  unsigned num_memory_map_entries;
  const char *core_isa;
  unsigned core_vlen;
  unsigned core_elen; /* 0: no vector unit */
} refsi_device_info_t;

enum refsi_memory_map_kind {
  UNKNOWN = 0,
  DRAM = 1,
  TCIM = 2,
  TCDM = 3,               /* every core's TCDM */
  TCDM_PRIVATE = 4,       /* the accessing core's own TCDM */
  KERNEL_DMA = 5,         /* DMA registers of every hart */
  KERNEL_DMA_PRIVATE = 6, /* the accessing hart's own DMA registers */
  PERF_COUNTERS = 7
};

struct refsi_memory_map_entry {
  enum refsi_memory_map_kind kind;
  refsi_addr_t start_addr;
  size_t size;
};

enum refsi_cmp_command_id {
  CMP_NOP = 0,
  CMP_FINISH = 1,
  CMP_WRITE_REG64 = 2,
  CMP_LOAD_REG64 = 3,
  CMP_STORE_REG64 = 4,
  CMP_STORE_IMM64 = 5,
  CMP_COPY_MEM64 = 6,
  CMP_RUN_KERNEL_SLICE = 7,
  CMP_RUN_INSTANCES = 8,
  CMP_SYNC_CACHE = 9
};

enum refsi_cmp_register_id {
  CMP_REG_SCRATCH = 0,
  CMP_REG_ENTRY_PT_FN = 1,
  CMP_REG_KUB_DESC = 2,
  CMP_REG_KARGS_INFO = 3,
  CMP_REG_TSD_INFO = 4,
  CMP_REG_STACK_TOP = 5,
  CMP_REG_RETURN_ADDR = 6,
  CMP_REG_WINDOW_BASE0 = 8, /* window n: + n, n < CMP_NUM_WINDOWS */
  CMP_REG_WINDOW_BASEn = 15,
  CMP_REG_WINDOW_TARGET0 = 16,
  CMP_REG_WINDOW_TARGETn = 23,
  CMP_REG_WINDOW_MODE0 = 24,
  CMP_REG_WINDOW_MODEn = 31,
  CMP_REG_WINDOW_SCALE0 = 32,
  CMP_REG_WINDOW_SCALEn = 39,
  CMP_NUM_REGS = 40
};
#define CMP_NUM_WINDOWS 8

/* Fields of the command processor's registers. */
#define CMP_GET_ENTRY_POINT_ADDR(reg) ((reg) & 0xffffffffull)
#define CMP_GET_KUB_ADDR(reg) ((reg) & 0xffffffffffffull)
#define CMP_GET_KUB_SIZE(reg) ((reg) >> 48ull)
#define CMP_GET_KARGS_OFFSET(reg) (((reg) >> 16ull) & 0xffffffull)
#define CMP_GET_KARGS_SIZE(reg) ((reg) >> 40ull)
#define CMP_GET_TSD_OFFSET(reg) (((reg) >> 16ull) & 0xffffffull)
#define CMP_GET_TSD_SIZE(reg) ((reg) >> 40ull)
#define CMP_GET_WINDOW_ACTIVE(reg) ((reg) & 0x1)
#define CMP_GET_WINDOW_MODE(reg) ((reg) & 0x6)
#define CMP_GET_WINDOW_SIZE(reg) (((reg) >> 32ull) + 1)
#define CMP_GET_WINDOW_SCALE_A(reg) ((reg) & 0x1f)
#define CMP_GET_WINDOW_SCALE_B(reg) ((reg) >> 32ull)

/* SYNC_CACHE flags and window MODE values. */
#define CMP_CACHE_SYNC_ACC_DCACHE 1
#define CMP_CACHE_SYNC_ACC_ICACHE 2
#define CMP_WINDOW_ACTIVE 1
#define CMP_WINDOW_MODE_SHARED 0
#define CMP_WINDOW_MODE_PERT_HART 2

enum refsi_unit_kind {
  REFSI_UNIT_KIND_ANY = 0,
  REFSI_UNIT_KIND_EXTERNAL = 1,
  REFSI_UNIT_KIND_CMP = 2,
  REFSI_UNIT_KIND_ACC_HART = 3,
  REFSI_UNIT_KIND_ACC_CORE = 4
};
#define REFSI_UNIT_ID(kind, index) ((((uint32_t)(kind) & 0xff) << 24) | (uint32_t)(index))
#define REFSI_GET_UNIT_KIND(unit) (((uint32_t)(unit) & 0xff000000) >> 24)
#define REFSI_GET_UNIT_INDEX(unit) ((uint32_t)(unit) & 0xffff)

/* Performance counter registers: per hart (+8 x id, as a hart unit), then the
 * global block. */
#define REFSI_NUM_GLOBAL_PERF_COUNTERS 32
#define REFSI_NUM_PER_HART_PERF_COUNTERS 32
#define REFSI_NUM_PERF_COUNTERS (REFSI_NUM_GLOBAL_PERF_COUNTERS + REFSI_NUM_PER_HART_PERF_COUNTERS)

enum refsi_perf_counter_id {
  REFSI_PERF_CNTR_CYCLE = 0,
  REFSI_PERF_CNTR_RETIRED_INSN = 2,
  REFSI_PERF_CNTR_READ_BYTE_INSN = 3,
  REFSI_PERF_CNTR_READ_SHORT_INSN = 4,
  REFSI_PERF_CNTR_READ_WORD_INSN = 5,
  REFSI_PERF_CNTR_READ_DOUBLE_INSN = 6,
  REFSI_PERF_CNTR_READ_QUAD_INSN = 7,
  REFSI_PERF_CNTR_READ_INSN = 8,
  REFSI_PERF_CNTR_WRITE_BYTE_INSN = 9,
  REFSI_PERF_CNTR_WRITE_SHORT_INSN = 10,
  REFSI_PERF_CNTR_WRITE_WORD_INSN = 11,
  REFSI_PERF_CNTR_WRITE_DOUBLE_INSN = 12,
  REFSI_PERF_CNTR_WRITE_QUAD_INSN = 13,
  REFSI_PERF_CNTR_WRITE_INSN = 14,
  REFSI_PERF_CNTR_INT_INSN = 15,
  REFSI_PERF_CNTR_FLOAT_INSN = 16,
  REFSI_PERF_CNTR_BRANCH_INSN = 17
};

enum refsi_result refsiInitialize(void);
enum refsi_result refsiTerminate(void);
refsi_device_t refsiOpenDevice(enum refsi_device_family family);
enum refsi_result refsiShutdownDevice(refsi_device_t device);
enum refsi_result refsiQueryDeviceInfo(refsi_device_t device, refsi_device_info_t *info);
enum refsi_result refsiQueryDeviceMemoryMap(refsi_device_t device, size_t index, struct refsi_memory_map_entry *entry);
refsi_addr_t refsiAllocDeviceMemory(refsi_device_t device, size_t size, size_t alignment, enum refsi_memory_map_kind kind);
enum refsi_result refsiFreeDeviceMemory(refsi_device_t device, refsi_addr_t address);
void *refsiGetMappedAddress(refsi_device_t device, refsi_addr_t address, size_t size);
enum refsi_result refsiFlushDeviceMemory(refsi_device_t device, refsi_addr_t address, size_t size);
enum refsi_result refsiInvalidateDeviceMemory(refsi_device_t device, refsi_addr_t address, size_t size);
enum refsi_result refsiReadDeviceMemory(refsi_device_t device, uint8_t *dest, refsi_addr_t address, size_t size,
                                        uint32_t unit_id);
enum refsi_result refsiWriteDeviceMemory(refsi_device_t device, refsi_addr_t address, const uint8_t *source,
                                         size_t size, uint32_t unit_id);
enum refsi_result refsiExecuteCommandBuffer(refsi_device_t device, refsi_addr_t cb_addr, size_t size);
void refsiWaitForDeviceIdle(refsi_device_t device);
enum refsi_result refsiExecuteKernel(refsi_device_t device, refsi_addr_t address, uint32_t num_harts);
enum refsi_result refsiDecodeCMPCommand(uint64_t header, enum refsi_cmp_command_id *opcode, uint32_t *chunk_count,
                                        uint32_t *inline_chunk);
uint64_t refsiEncodeCMPCommand(enum refsi_cmp_command_id opcode, uint32_t chunk_count, uint32_t inline_chunk);

/* accel-vp extension: the command processor's report of the first command
 * buffer that failed since the previous refsiWaitForDeviceIdle (code 0: none;
 * cmp_packets.h error codes). hart is -1 when no hart was involved. */
typedef struct accelvp_refsi_error {
  uint32_t code;
  uint32_t offset; /* byte offset of the failing packet in its buffer */
  int32_t hart;
  uint64_t pc;
} accelvp_refsi_error_t;
enum refsi_result accelvpRefsiLastError(refsi_device_t device, accelvp_refsi_error_t *error);

#ifdef __cplusplus
}
#endif

#endif

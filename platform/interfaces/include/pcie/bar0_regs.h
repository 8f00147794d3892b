/* BAR0 of the accelerator (platform.md section 5, acceldev.md): one layout for
 * the model, the host driver libraries and the tests. 32-bit registers. */
#ifndef AVP_BAR0_REGS_H
#define AVP_BAR0_REGS_H

#define AVP_PCI_VENDOR_ID 0x0666
#define AVP_PCI_DEVICE_ID 0x0019
#define AVP_PCI_CLASS 0x120000 /* processing accelerator */
#define AVP_BAR0_SIZE 0x10000u

/* Acceldev (the original acceldev.h). */
#define ACCELDEV_INTR 0x0000
#define ACCELDEV_INTR_ENABLE 0x0004
#define ACCELDEV_ENABLE 0x0008
#define ACCELDEV_CONTEXTS_CONFIGS_LO 0x000c
#define ACCELDEV_CONTEXTS_CONFIGS_HI 0x0010
#define ACCELDEV_CMD_MANUAL_FREE 0x008c
#define ACCELDEV_CMD_MANUAL_FEED0 0x008c
#define ACCELDEV_CMD_MANUAL_FEED(i) (0x008c + 4 * (i))
#define ACCELDEV_CMD_FENCE_LAST 0x00a0
#define ACCELDEV_CMD_FENCE_WAIT 0x00a4

#define ACCELDEV_INTR_FENCE_WAIT 0x01
#define ACCELDEV_INTR_FEED_ERROR 0x02
#define ACCELDEV_INTR_CMD_ERROR 0x04
#define ACCELDEV_INTR_MEM_ERROR 0x08
#define ACCELDEV_INTR_SLOT_ERROR 0x10
#define ACCELDEV_INTR_USER_FENCE_WAIT 0x20

#define ACCELDEV_CMDS_BUFFER_SIZE 255
#define ACCELDEV_DEVICE_CMD_WORDS 5
#define ACCELDEV_USER_CMD_WORDS 5
#define ACCELDEV_PAGE_SIZE 4096
#define ACCELDEV_BUFFER_MAX_SIZE (4u << 20)
#define ACCELDEV_NUM_BUFFERS 16
#define ACCELDEV_MAX_CONTEXTS 255
#define ACCELDEV_DEVICE_CMD_TYPE_NOP 0
#define ACCELDEV_DEVICE_CMD_TYPE_RUN 1
#define ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT 2
#define ACCELDEV_DEVICE_CMD_TYPE_FENCE 3
#define ACCELDEV_USER_CMD_TYPE_NOP 0
#define ACCELDEV_USER_CMD_TYPE_FENCE 1
#define ACCELDEV_USER_CMD_TYPE_FILL 2
/* Platform extension (docs/pcie.md): run a RefSi command buffer held in a
 * slot's buffer on the command processor. w0 = 3 | slot << 4, w1 = byte
 * offset, w2 = byte size (both multiples of 8, 0 < size <= MAX), w3 = w4 = 0. */
#define ACCELDEV_USER_CMD_TYPE_CMP_SUBMIT 3
#define ACCELDEV_CMP_SUBMIT_MAX_SIZE 0x10000u
/* The engine copies the buffer to the last ACCELDEV_CMP_STAGING_SIZE bytes of
 * device DRAM before submitting it: host allocators leave them alone. */
#define ACCELDEV_CMP_STAGING_SIZE ACCELDEV_CMP_SUBMIT_MAX_SIZE
/* Context isolation (docs/acceldev.md): work launched by a context's
 * CMP_SUBMIT sees, in the host window, slot s's buffer at this device address
 * (4 MiB per slot, 16 slots) and nothing else. */
#define ACCELDEV_HOST_WINDOW_BASE 0x800000000000ull
#define ACCELDEV_CONTEXT_WINDOW(s) (ACCELDEV_HOST_WINDOW_BASE + (unsigned long long)(s) * ACCELDEV_BUFFER_MAX_SIZE)
#define ACCELDEV_CONTEXT_STATUS_ERROR 0x1
#define ACCELDEV_PTE_PRESENT 0x1
#define ACCELDEV_CONTEXT_CONFIG_SIZE 192
#define ACCELDEV_CONFIG_FENCE_COUNTER 128
#define ACCELDEV_CONFIG_STATUS 132

/* Command-processor host interface. */
#define AVP_CB_ADDR_LO 0x1000
#define AVP_CB_ADDR_HI 0x1004
#define AVP_CB_SIZE 0x1008
#define AVP_CB_SUBMIT 0x100c     /* write: queue the buffer at CB_ADDR of CB_SIZE bytes */
#define AVP_CB_FREE 0x1010       /* free queue slots */
#define AVP_CB_DONE_COUNT 0x1014 /* buffers completed with FINISH */
#define AVP_CMP_STATUS 0x1018    /* bit 0 busy */
#define AVP_CMP_ERR_CODE 0x101c  /* cmp_packets.h avp_cmp_error */
#define AVP_CMP_ERR_OFFSET 0x1020
#define AVP_CMP_ERR_INFO 0x1024  /* opcode | hart << 8 | hart valid << 31 */
#define AVP_CMP_RESET 0x1028     /* write 1: empty the queue, clear status and registers */
#define AVP_CMP_ERR_PC_LO 0x102c
#define AVP_CMP_ERR_PC_HI 0x1030
#define AVP_CMP_ERR_CAUSE 0x1034

/* AQL queue registration and doorbells (reserved: see docs/pcie.md). */
#define AVP_AQL_REGS 0x2000
#define AVP_AQL_DOORBELLS 0x3000

/* Platform information block. */
#define AVP_INFO_MAGIC 0x4000 /* 'AVP1' */
#define AVP_INFO_MAGIC_VALUE 0x31505641u
#define AVP_INFO_VERSION 0x4004
#define AVP_INFO_CORES 0x4008
#define AVP_INFO_HARTS_PER_CORE 0x400c
#define AVP_INFO_DRAM_BASE_LO 0x4010
#define AVP_INFO_DRAM_BASE_HI 0x4014
#define AVP_INFO_DRAM_SIZE_LO 0x4018
#define AVP_INFO_DRAM_SIZE_HI 0x401c
#define AVP_INFO_TCDM_BASE 0x4020
#define AVP_INFO_TCDM_PER_CORE 0x4024
#define AVP_INFO_TCIM_BASE 0x4028
#define AVP_INFO_TCIM_SIZE 0x402c
#define AVP_INFO_NUM_XINTF 0x4030
#define AVP_INFO_XINTF_UUID_LO(i) (0x4040 + 8 * (i))
#define AVP_INFO_XINTF_UUID_HI(i) (0x4044 + 8 * (i))
/* From version 2: the device address map as the device's units see it, one
 * entry per range below (base and size, 64-bit each, read as 32-bit halves).
 * Host software takes every device address from here, none from constants. */
#define AVP_INFO_VERSION_VALUE 2
#define AVP_INFO_NUM_RANGES 0x4034
#define AVP_INFO_RANGE_BASE_LO(i) (0x4100 + 16 * (i))
#define AVP_INFO_RANGE_BASE_HI(i) (0x4104 + 16 * (i))
#define AVP_INFO_RANGE_SIZE_LO(i) (0x4108 + 16 * (i))
#define AVP_INFO_RANGE_SIZE_HI(i) (0x410c + 16 * (i))
enum avp_info_range {
  AVP_RANGE_DRAM = 0,
  AVP_RANGE_TCIM = 1,
  AVP_RANGE_TCDM = 2,       /* every core's TCDM */
  AVP_RANGE_TCDM_LOCAL = 3, /* the accessing core's own TCDM slice */
  AVP_RANGE_DMA = 4,        /* the accessing unit's DMA register set */
  AVP_RANGE_PERF = 5,       /* performance counters */
  AVP_RANGE_CMP = 6,        /* the command processor's register mirror */
  AVP_RANGE_CONSOLE = 7,
  AVP_NUM_RANGES = 8
};
/* The memory map a RefSi driver reports (refsiQueryDeviceMemoryMap), in its
 * order: entry i is the RefSi memory-map kind (refsidrv.h) in bits 7:0 and the
 * avp_info_range it describes in bits 15:8 (`platform.refsi_memory_map`). */
#define AVP_INFO_REFSI_MAP_COUNT 0x4038
#define AVP_INFO_REFSI_MAP(i) (0x4200 + 4 * (i))
#define AVP_INFO_REFSI_MAP_MAX 8
#define AVP_INFO_REFSI_MAP_KIND(e) ((e) & 0xFFu)
#define AVP_INFO_REFSI_MAP_RANGE(e) (((e) >> 8) & 0xFFu)

/* Interrupt bits beyond Acceldev's. */
#define AVP_INTR_CMDBUF_DONE (1u << 8)
#define AVP_INTR_CMP_ERROR (1u << 9)
#define AVP_INTR_CMP_QUEUE_FULL (1u << 10)
#define AVP_INTR_AQL_SIGNAL (1u << 11)
#define AVP_INTR_AQL_ERROR (1u << 12)
#define AVP_INTR_DMA_ERROR (1u << 13)

#endif

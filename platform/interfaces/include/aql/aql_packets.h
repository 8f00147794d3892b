// Bit-exact HSA/AMD host-memory structures of the AQL front end (seed
// amdgpu-compute-abi.md, amdgpu-llvm-codegen.txt; platform.md section 7),
// shared by the packet processor, the host runtime and the tests.
#pragma once
#include <cstddef>
#include <cstdint>

namespace avp::aql {

enum PacketType : uint8_t { kVendor = 0, kInvalid = 1, kKernelDispatch = 2, kBarrierAnd = 3, kAgentDispatch = 4, kBarrierOr = 5 };
// Header: [7:0] type, [8] barrier, [10:9] acquire fence scope, [12:11] release fence scope, [15:13] reserved (0).
constexpr uint16_t kHeaderBarrier = 1u << 8;
constexpr unsigned kAcquireShift = 9, kReleaseShift = 11;
constexpr uint16_t kHeaderReserved = 0xE000;
enum FenceScope : uint16_t { kScopeNone = 0, kScopeAgent = 1, kScopeSystem = 2 };  // 3 is reserved

struct hsa_queue_t {
  uint32_t type;
  uint32_t features;
  uint64_t base_address;
  uint64_t doorbell_signal;
  uint32_t size;  // packets, a power of two
  uint32_t reserved1;
  uint64_t id;
};
static_assert(sizeof(hsa_queue_t) == 40);
static_assert(offsetof(hsa_queue_t, base_address) == 8);
static_assert(offsetof(hsa_queue_t, doorbell_signal) == 16);
static_assert(offsetof(hsa_queue_t, size) == 24);
static_assert(offsetof(hsa_queue_t, id) == 32);

struct amd_queue_t {
  hsa_queue_t hsa_queue;
  uint32_t reserved1[4];
  uint64_t write_dispatch_id;
  uint32_t group_segment_aperture_base_hi;
  uint32_t private_segment_aperture_base_hi;
  uint32_t max_cu_id;
  uint32_t max_wave_id;
  uint64_t max_legacy_doorbell_dispatch_id_plus_1;
  uint32_t legacy_doorbell_lock;
  uint32_t reserved2[9];
  uint64_t read_dispatch_id;
  uint32_t read_dispatch_id_field_base_byte_offset;
  uint32_t compute_tmpring_size;
  uint32_t scratch_resource_descriptor[4];
  uint64_t scratch_backing_memory_location;
  uint64_t scratch_backing_memory_byte_size;
  uint32_t scratch_workitem_byte_size;
  uint32_t queue_properties;  // kQueuePropertiesEnableProfiling
  uint32_t reserved3[2];
  uint64_t queue_inactive_signal;
  uint32_t reserved4[14];
};
static_assert(sizeof(amd_queue_t) == 256);
static_assert(offsetof(amd_queue_t, write_dispatch_id) == 56);
static_assert(offsetof(amd_queue_t, read_dispatch_id) == 128);
static_assert(offsetof(amd_queue_t, queue_properties) == 180);
static_assert(offsetof(amd_queue_t, queue_inactive_signal) == 192);
// amd_queue_t.queue_properties: AMD_QUEUE_PROPERTIES_ENABLE_PROFILING (start_ts/end_ts are written).
constexpr uint32_t kQueuePropertiesEnableProfiling = 1u << 3;

struct amd_signal_t {
  int64_t kind;  // 1: AMD_SIGNAL_KIND_USER
  int64_t value;
  uint64_t event_mailbox_ptr;
  uint32_t event_id;
  uint32_t reserved1;
  uint64_t start_ts;
  uint64_t end_ts;
  uint64_t queue_ptr;
  uint32_t reserved3[2];
};
static_assert(sizeof(amd_signal_t) == 64);
static_assert(offsetof(amd_signal_t, value) == 8);
static_assert(offsetof(amd_signal_t, event_mailbox_ptr) == 16);
static_assert(offsetof(amd_signal_t, event_id) == 24);
static_assert(offsetof(amd_signal_t, start_ts) == 32);
static_assert(offsetof(amd_signal_t, end_ts) == 40);
static_assert(offsetof(amd_signal_t, queue_ptr) == 48);

struct hsa_kernel_dispatch_packet_t {
  uint16_t header;
  uint16_t setup;  // [1:0] dimensions
  uint16_t workgroup_size_x, workgroup_size_y, workgroup_size_z;
  uint16_t reserved0;
  uint32_t grid_size_x, grid_size_y, grid_size_z;
  uint32_t private_segment_size;
  uint32_t group_segment_size;
  uint64_t kernel_object;
  uint64_t kernarg_address;
  uint64_t reserved2;
  uint64_t completion_signal;
};
static_assert(sizeof(hsa_kernel_dispatch_packet_t) == 64);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, grid_size_x) == 12);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, private_segment_size) == 24);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, kernel_object) == 32);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, kernarg_address) == 40);
static_assert(offsetof(hsa_kernel_dispatch_packet_t, completion_signal) == 56);

struct hsa_barrier_packet_t {  // barrier-AND and barrier-OR
  uint16_t header;
  uint16_t reserved0;
  uint32_t reserved1;
  uint64_t dep_signal[5];
  uint64_t reserved2;
  uint64_t completion_signal;
};
static_assert(sizeof(hsa_barrier_packet_t) == 64);
static_assert(offsetof(hsa_barrier_packet_t, dep_signal) == 8);
static_assert(offsetof(hsa_barrier_packet_t, completion_signal) == 56);

// Agent dispatch packet (HSA): `type` selects the agent function (kAgent*),
// arg[] are its arguments; return_address receives no value (no function
// returns one, docs/aql.md). reserved0 and reserved2 must be 0.
struct hsa_agent_dispatch_packet_t {
  uint16_t header;
  uint16_t type;
  uint32_t reserved0;
  uint64_t return_address;
  uint64_t arg[4];
  uint64_t reserved2;
  uint64_t completion_signal;
};
static_assert(sizeof(hsa_agent_dispatch_packet_t) == 64);
static_assert(offsetof(hsa_agent_dispatch_packet_t, type) == 2);
static_assert(offsetof(hsa_agent_dispatch_packet_t, return_address) == 8);
static_assert(offsetof(hsa_agent_dispatch_packet_t, arg) == 16);
static_assert(offsetof(hsa_agent_dispatch_packet_t, reserved2) == 48);
static_assert(offsetof(hsa_agent_dispatch_packet_t, completion_signal) == 56);
// The agent functions (docs/aql.md, "Agent dispatch"); addresses are device addresses.
enum AgentFunction : uint16_t {
  kAgentNop = 0,   // nothing
  kAgentFill = 1,  // arg0 destination (4-byte aligned), arg1 low 32 bits: the value, arg2 number of 32-bit words
  kAgentCopy = 2,  // arg0 destination, arg1 source, arg2 bytes (overlapping ranges copy as if through a buffer)
};

// Kernel descriptor for GFX6-GFX9 (64 bytes, 64-byte aligned), bit for bit.
struct kernel_descriptor_t {
  uint32_t group_segment_fixed_size;    // bits 31:0
  uint32_t private_segment_fixed_size;  // bits 63:32
  uint32_t max_flat_workgroup_size;     // bits 95:64: work-items
  uint32_t code_flags;                  // bits 127:96: kKd* below, the rest reserved (0)
  int64_t kernel_code_entry_byte_offset;
  uint8_t reserved1[24];                // bits 383:192
  uint32_t compute_pgm_rsrc1;
  uint32_t compute_pgm_rsrc2;
  uint16_t kernel_code_properties;      // bits 457:448 used, 463:458 reserved
  uint8_t reserved2[6];                 // bits 511:464
};
static_assert(sizeof(kernel_descriptor_t) == 64);
static_assert(offsetof(kernel_descriptor_t, max_flat_workgroup_size) == 8);
static_assert(offsetof(kernel_descriptor_t, code_flags) == 12);
static_assert(offsetof(kernel_descriptor_t, kernel_code_entry_byte_offset) == 16);
static_assert(offsetof(kernel_descriptor_t, compute_pgm_rsrc1) == 48);
static_assert(offsetof(kernel_descriptor_t, compute_pgm_rsrc2) == 52);
static_assert(offsetof(kernel_descriptor_t, kernel_code_properties) == 56);
// code_flags: bit 96 is_dynamic_call_stack, bit 97 is_xnack_enabled.
constexpr uint32_t kKdIsDynamicCallStack = 1u << 0, kKdIsXnackEnabled = 1u << 1;
constexpr uint32_t kKdCodeFlagsReserved = ~(kKdIsDynamicCallStack | kKdIsXnackEnabled);
// kernel_code_properties bits 15:10 (reserved).
constexpr uint16_t kKdPropertiesReserved = 0xFC00;

// kernel_code_properties: the enabled "SGPR" inputs, given to the kernel in a0.. in this order.
enum : uint16_t {
  kEnablePrivateSegmentBuffer = 1 << 0, kEnableDispatchPtr = 1 << 1, kEnableQueuePtr = 1 << 2,
  kEnableKernargSegmentPtr = 1 << 3, kEnableDispatchId = 1 << 4, kEnableFlatScratchInit = 1 << 5,
  kEnablePrivateSegmentSize = 1 << 6, kEnableGridWorkgroupCountX = 1 << 7, kEnableGridWorkgroupCountY = 1 << 8,
  kEnableGridWorkgroupCountZ = 1 << 9,
};
// compute_pgm_rsrc2: ENABLE_SGPR_WORKGROUP_ID_X/Y/Z.
constexpr uint32_t kRsrc2WorkgroupIdX = 1u << 7, kRsrc2WorkgroupIdY = 1u << 8, kRsrc2WorkgroupIdZ = 1u << 9;

// BAR0 registration block (platform.md section 5), per queue q at 0x2000 + 0x20 q:
// QUEUE_ADDR (64-bit, host physical address of the amd_queue_t; _LO/_HI halves),
// ENABLE, STATUS (bit 0 active, bit 1 error), ERROR (QueueError), and, read
// from the hsa_queue_t when the queue is enabled, SIZE (packets) and RING_BASE (64-bit).
constexpr uint32_t kRegsBase = 0x2000, kRegsStride = 0x20;
constexpr uint32_t kQueueAddrLo = 0x0, kQueueAddrHi = 0x4, kQueueEnable = 0x8, kQueueStatus = 0xC, kQueueError = 0x10;
constexpr uint32_t kQueueSize = 0x14, kQueueRingBase = 0x18;
// Doorbell q at 0x3000 + 8 q: one 64-bit write of the packet id rings it; so
// does a 32-bit write of the low half (after the high half, if not 0).
constexpr uint32_t kDoorbellBase = 0x3000;
// Queue errors: the value of kQueueError and of queue_inactive_signal, with the
// bits AMD's command processor sets there (as ROCr's queue error handler decodes them).
enum QueueError : uint32_t {
  kErrNone = 0,
  kErrPrivateSegment = 0x1,         // insufficient scratch: private segment over aql.max_private_segment
  kErrDimensions = 0x2,             // invalid dimensions or grid/work-group sizes
  kErrGroupSegment = 0x4,           // invalid group memory: group segment over aql.max_group_segment
  kErrKernelObject = 0x8,           // invalid (null, unaligned, unreadable, reserved bits set) code or kernel descriptor
  kErrInvalidPacket = 0x20,         // invalid packet format: type, reserved bits, fence scope 3, kernarg alignment, unknown agent function
  kErrWorkgroupSize = 0x40,         // work-group too large (over aql.max_workgroup_size or the descriptor's max_flat_workgroup_size)
  kErrVendorPacket = 0x100,         // vendor-specific packet (none is supported)
  kErrMemory = 0x20000000,          // memory violation: queue, packet, kernarg, agent function or a work-group's access fault
  kErrIllegalInstruction = 0x40000000,  // a work-group executed an illegal instruction
  kErrKernelFault = 0x80000000,     // any other work-group exception (trap, non-zero exit, instruction limit)
};

}  // namespace avp::aql

// The HSA AQL packet processor (platform.md section 7): user-mode queues in
// host memory registered through its BAR0 window, 8-byte doorbells, kernel
// dispatch (work-groups on harts), agent dispatch (aql_agent.cpp),
// barrier-AND/OR, in-order retirement (header reset
// to INVALID, then read_dispatch_id), atomic completion-signal decrement,
// event mailbox and AQL_SIGNAL interrupt, queue errors. Queues are served
// round robin, one packet at a time.
#pragma once
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "aql/aql_packets.h"
#include "base/local_time.h"
#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "harts/hart_control.h"
#include "base/interrupt_line.h"
#include "regs/register_block.h"

namespace avp {

class AqlProcessor : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<AqlProcessor> bus;  // host memory through the host window, device memory

  Param<uint32_t> queues;
  Param<uint32_t> max_group_segment, max_private_segment, max_workgroup_size;
  Param<sc_core::sc_time> packet_latency, launch_latency, poll_interval;

  // AQL_SIGNAL and AQL_ERROR (AVP_INTR_*, pcie/bar0_regs.h), bound to the endpoint's INTR register.
  IntrBits irq;

  // Where things are on the device bus: from the platform's one address map
  // (the bus ranges), never separate parameters that must agree with it.
  struct AddressMap {
    uint64_t tcdm_base;       // global TCDM
    uint64_t tcdm_per_core;
    uint64_t host_window;     // device address of host physical address 0
    uint64_t return_address;  // a work-group ends when its hart jumps here (the TCIM loader area)
  };
  AqlProcessor(sc_core::sc_module_name name, HartControl& harts, const AddressMap& map);
  // The registration registers (BAR0 0x2000..) and doorbells (0x3000..), for the endpoint to map.
  RegisterBlock& registers() { return regs_; }
  static constexpr uint64_t kWindowStart = aql::kRegsBase, kWindowEnd = aql::kDoorbellBase + 0x1000;

  // When the steps of the last kernel dispatch happened (benchmarks, timing tests).
  struct DispatchTimes {
    sc_core::sc_time fetched;         // packet read from the ring
    sc_core::sc_time first_launch;    // first work-group started: its first instruction issues
    sc_core::sc_time last_end;        // last work-group's final instruction (the return) completed
    sc_core::sc_time signal_updated;  // completion-signal decrement completed
    sc_core::sc_time interrupt;       // AQL_SIGNAL raised
  };
  const DispatchTimes& last_dispatch() const { return last_; }

 private:
  struct Queue {
    bool active = false;
    uint32_t error = aql::kErrNone;
    uint64_t amd_queue = 0, ring = 0, size = 0;  // host physical addresses; size in packets
    sc_core::sc_time blocked_until;              // a barrier that is not satisfied yet
    bool barrier_waiting = false;
    // Doorbells not yet covered by retirement: (packet id written, time), for
    // doorbell-to-completion latency; packets announced and retired for the occupancy.
    std::deque<std::pair<uint64_t, sc_core::sc_time>> doorbells;
    uint64_t announced = 0, retired = 0;
    std::unique_ptr<Occupancy> occupancy;
    std::string track;  // "<processor>.q<N>": its timeline and text-trace unit
  };

  void map_registers();
  void thread();
  bool service(unsigned q);  // true: a packet retired
  void enable(unsigned q);
  void ring();
  void doorbell(unsigned q, uint64_t id);
  // Statistics and timeline of a retired packet: latency from the doorbell that announced it.
  void retired(unsigned q, uint64_t id, uint8_t type, const sc_core::sc_time& start);
  void fail(unsigned q, aql::QueueError e, const std::string& why);
  aql::QueueError check_header(uint16_t header) const;
  aql::QueueError check_dispatch(const aql::hsa_kernel_dispatch_packet_t& p, aql::kernel_descriptor_t& kd, std::string& why);
  aql::QueueError dispatch(unsigned q, uint64_t id, uint64_t packet_addr, const aql::hsa_kernel_dispatch_packet_t& p);
  // Runs an agent function (aql_agent.cpp); the queue error and its reason, or kErrNone.
  aql::QueueError agent_dispatch(const aql::hsa_agent_dispatch_packet_t& p, std::string& why);
  enum class Barrier { Satisfied, Waiting, Unreadable };
  Barrier barrier_state(const aql::hsa_barrier_packet_t& p, bool is_and);
  void acquire_fence(uint16_t header);
  void release_fence(uint16_t header);
  bool complete(uint64_t signal, const sc_core::sc_time& start, bool profiling, DispatchTimes* times);
  bool host_read(uint64_t pa, void* d, unsigned n);
  bool host_write(uint64_t pa, const void* d, unsigned n);
  bool device_read(uint64_t addr, void* d, unsigned n);
  bool device_write(uint64_t addr, const void* d, unsigned n);
  bool atomic_add(uint64_t pa, int64_t v);

  HartControl& harts_;
  const AddressMap map_;
  std::vector<Queue> q_;
  unsigned next_ = 0;
  uint32_t launch_seq_ = 0x10000;
  sc_core::sc_event doorbell_;
  bool doorbell_pending_ = false;
  LocalTime time_;  // ahead of SystemC time: packet processing and its memory accesses (base/local_time.h)
  tlm::tlm_generic_payload gp_;
  Logger log_;
  DispatchTimes last_;
  Counter packets_, dispatches_, barriers_, agent_dispatches_, errors_, workgroups_;
  Histogram dispatch_latency_, fetch_to_launch_, end_to_signal_;
  Utilisation busy_;  // serving packets that retire
  // Per queue q: registration at kRegsBase + kRegsStride q, doorbell at kDoorbellBase + 8 q.
  RegisterBlock regs_{this, "BAR0 AQL", kWindowEnd, RegisterBlock::Misuse::Ignore, "register_latency"};
  const unsigned nq_ = queues.get();
  Reg<uint64_t> QUEUE_ADDR{regs_, "AQL_QUEUE_ADDR", aql::kRegsBase + aql::kQueueAddrLo, Access::RW, 0, nq_, aql::kRegsStride};
  Reg<uint32_t> ENABLE{regs_, "AQL_ENABLE", aql::kRegsBase + aql::kQueueEnable, Access::RW, 0, nq_, aql::kRegsStride};
  Reg<uint32_t> STATUS{regs_, "AQL_STATUS", aql::kRegsBase + aql::kQueueStatus, Access::RO, 0, nq_, aql::kRegsStride};
  Reg<uint32_t> ERROR{regs_, "AQL_ERROR", aql::kRegsBase + aql::kQueueError, Access::RO, 0, nq_, aql::kRegsStride};
  Reg<uint32_t> SIZE{regs_, "AQL_SIZE", aql::kRegsBase + aql::kQueueSize, Access::RO, 0, nq_, aql::kRegsStride};
  Reg<uint64_t> RING_BASE{regs_, "AQL_RING_BASE", aql::kRegsBase + aql::kQueueRingBase, Access::RO, 0, nq_, aql::kRegsStride};
  Reg<uint64_t> DOORBELL{regs_, "AQL_DOORBELL", aql::kDoorbellBase, Access::WO, 0, nq_, 8};
};

}  // namespace avp

// The HSA AQL packet processor (platform.md section 7): user-mode queues in
// host memory registered through BAR0, 8-byte doorbells, kernel dispatch
// (work-groups on harts), barrier-AND/OR, in-order retirement (header reset
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
#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "harts/hart_control.h"
#include "pcie/register_bank.h"

namespace avp {

class AqlProcessor : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<AqlProcessor> bus;  // host memory through the host window, device memory

  Param<uint32_t> queues;
  Param<uint64_t> host_window;
  Param<uint32_t> max_group_segment, max_private_segment, max_workgroup_size;
  Param<sc_core::sc_time> packet_latency, launch_latency, poll_interval;

  // raise(bit): BAR0 interrupt bits (AQL_SIGNAL 11, AQL_ERROR 12).
  AqlProcessor(sc_core::sc_module_name name, HartControl& harts, uint64_t tcdm_global_base, uint64_t tcdm_per_core,
               std::function<void(unsigned bit)> raise);
  // Adds the registration registers (0x2000..) and doorbells (0x3000..) to BAR0.
  void map_registers(RegisterBank& bank);

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
  static constexpr uint64_t kReturnAddress = 0x1000;  // a work-group ends when its hart jumps here
  struct Queue {
    uint32_t addr_lo = 0, addr_hi = 0, doorbell_hi = 0;
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

  void thread();
  bool service(unsigned q);  // true: a packet retired
  void enable(unsigned q);
  void ring();
  void doorbell(unsigned q, uint64_t id);
  // Statistics and timeline of a retired packet: latency from the doorbell that announced it.
  void retired(unsigned q, uint64_t id, bool dispatch, const sc_core::sc_time& start);
  void fail(unsigned q, aql::QueueError e, const std::string& why);
  void flush();  // waits for the accumulated transaction time
  aql::QueueError check_header(uint16_t header) const;
  aql::QueueError check_dispatch(const aql::hsa_kernel_dispatch_packet_t& p, aql::kernel_descriptor_t& kd, std::string& why);
  aql::QueueError dispatch(unsigned q, uint64_t id, uint64_t packet_addr, const aql::hsa_kernel_dispatch_packet_t& p);
  enum class Barrier { Satisfied, Waiting, Unreadable };
  Barrier barrier_state(const aql::hsa_barrier_packet_t& p, bool is_and);
  void acquire_fence(uint16_t header);
  void release_fence(uint16_t header);
  bool complete(uint64_t signal, const sc_core::sc_time& start, bool profiling, DispatchTimes* times);
  bool host_read(uint64_t pa, void* d, unsigned n);
  bool host_write(uint64_t pa, const void* d, unsigned n);
  bool device_read(uint64_t addr, void* d, unsigned n);
  bool atomic_add(uint64_t pa, int64_t v);

  HartControl& harts_;
  uint64_t tcdm_base_, tcdm_per_core_;
  std::function<void(unsigned)> raise_;
  std::vector<Queue> q_;
  unsigned next_ = 0;
  uint32_t launch_seq_ = 0x10000;
  sc_core::sc_event doorbell_;
  bool doorbell_pending_ = false;
  sc_core::sc_time delay_;
  tlm::tlm_generic_payload gp_;
  Logger log_;
  DispatchTimes last_;
  Counter packets_, dispatches_, barriers_, errors_, workgroups_;
  Histogram dispatch_latency_, fetch_to_launch_, end_to_signal_;
  Utilisation busy_;  // serving packets that retire
};

}  // namespace avp

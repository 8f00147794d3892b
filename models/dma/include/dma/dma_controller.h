// The DMA controller (platform.md section 4): per-unit register sets, 1D/2D/3D
// transfers with strides and source-stride-0 replication, transfer ids, blocking
// DMADONESEQ writes and timed channels that complete out of order.
#pragma once
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "base/unit.h"
#include "dma/dma_regs.h"
#include "base/interrupt_line.h"
#include "regs/register_block.h"

namespace avp {

class DmaController : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DmaController> regs;  // the register block
  tlm_utils::simple_initiator_socket<DmaController> mem; // data movement (unit Dma)

  Param<uint32_t> channels;
  static constexpr unsigned kMaxChannels = 64;  // each channel is a SystemC thread and statistics
  Param<double> bandwidth;             // bytes per ns per channel
  Param<sc_core::sc_time> setup_latency;
  Param<uint64_t> max_transfer_bytes;  // bytes x rows x planes of one transfer
  Param<uint64_t> burst_bytes;         // largest read or write a transfer makes on the bus at once
  Param<uint32_t> outstanding_bursts;  // bursts of one channel in flight at once
  static constexpr unsigned kMaxOutstandingBursts = 64;

  explicit DmaController(sc_core::sc_module_name name);
  ~DmaController() override;

  // DMA_ERROR (AVP_INTR_DMA_ERROR, pcie/bar0_regs.h), raised when a transfer
  // fails; bound to the endpoint's INTR register.
  IntrBits irq;

  struct Transfer {
    UnitId unit = 0;
    uint32_t context = kNoContext;  // of the register write that started it: its accesses carry it
    uint64_t id = 0;
    uint64_t src = 0, dst = 0;
    uint64_t size[3] = {0, 1, 1};
    uint64_t src_stride[2] = {0, 0}, dst_stride[2] = {0, 0};
    bool failed = false;
    sc_core::sc_time issued;
  };
  uint64_t bytes_moved() const { return bytes_.value(); }
  // Transfers started on behalf of Acceldev context `context` and not yet
  // done; done_event() fires whenever a transfer completes.
  unsigned outstanding(uint32_t context) const;
  const sc_core::sc_event& done_event() const { return done_event_; }
  RegisterBlock& registers() { return regs_; }

 private:
  // What a unit's transfers left behind (the registers that hold it read it).
  struct UnitState {
    uint64_t last_started = 0;
    std::map<uint64_t, bool> pending;  // id -> failed, for ids not yet retired in order
    uint64_t done_seq = 0;             // highest id with it and all earlier ones done
    uint64_t status = 0;               // DMASTATUS
  };
  struct Channel {
    std::deque<std::shared_ptr<Transfer>> queue;
    sc_core::sc_event wake;
    std::unique_ptr<Utilisation> busy;
    std::unique_ptr<Occupancy> occupancy;
  };

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) { regs_.access(gp, delay); }
  unsigned transport_dbg(tlm::tlm_generic_payload& gp) { return regs_.debug(gp); }
  UnitState& unit_state() { return sets_[unit_of(*regs_.current_payload())]; }  // of the access being served
  void start();          // a START written to DMACTRL
  void wait_done(uint64_t n);  // N written to DMADONESEQ
  void channel_thread(unsigned ch);
  // A channel's bursts in flight: when each of its stages is next free, and
  // when each burst's buffer is (offsets from SystemC time, as the delay).
  struct Pipeline {
    sc_core::sc_time reads, writes, path;
    std::deque<sc_core::sc_time> buffers;  // of the bursts in flight, oldest first
    void shift(const sc_core::sc_time& by);  // SystemC time moved on by `by`
  };
  bool move(Transfer& t, sc_core::sc_time& delay);
  bool copy(uint64_t src, uint64_t dst, uint64_t len, Pipeline& p);
  // One read or write of the channel at `at`, which becomes the time it is done; false if it failed.
  bool transact(bool write, uint64_t addr, unsigned n, sc_core::sc_time& at, Pipeline& p);
  void complete(Transfer& t);
  void trace_transfer(unsigned ch, const Transfer& t, const sc_core::sc_time& begin) const;

  std::map<UnitId, UnitState> sets_;
  std::map<uint32_t, unsigned> outstanding_;  // context -> transfers not done
  std::vector<std::unique_ptr<Channel>> channels_;
  sc_core::sc_event done_event_;
  tlm::tlm_generic_payload gp_;
  std::vector<uint8_t> buf_;
  Logger log_;
  Counter transfers_, bytes_, errors_;
  Histogram latency_;
  // One register set per unit: the unit of the access selects the bank.
  RegisterBlock regs_{this, "dma", AVP_DMA_SIZE, RegisterBlock::Misuse::BusError, "register_latency",
                      sc_core::sc_time(2, sc_core::SC_NS)};
  Reg<uint64_t> DMACTRL{regs_, "DMACTRL", AVP_DMACTRL, Access::RW};
  Reg<uint64_t> DMASTARTSEQ{regs_, "DMASTARTSEQ", AVP_DMASTARTSEQ, Access::RO};
  Reg<uint64_t> DMADONESEQ{regs_, "DMADONESEQ", AVP_DMADONESEQ, Access::RW};
  Reg<uint64_t> DMASRCADDR{regs_, "DMASRCADDR", AVP_DMASRCADDR, Access::RW};
  Reg<uint64_t> DMADSTADDR{regs_, "DMADSTADDR", AVP_DMADSTADDR, Access::RW};
  Reg<uint64_t> DMAXFERSIZE{regs_, "DMAXFERSIZE", AVP_DMAXFERSIZE0, Access::RW, 0, 3, 8};
  Reg<uint64_t> DMAXFERSRCSTRIDE{regs_, "DMAXFERSRCSTRIDE", AVP_DMAXFERSRCSTRIDE0, Access::RW, 0, 2, 8};
  Reg<uint64_t> DMAXFERDSTSTRIDE{regs_, "DMAXFERDSTSTRIDE", AVP_DMAXFERDSTSTRIDE0, Access::RW, 0, 2, 8};
  Reg<uint64_t> DMASTATUS{regs_, "DMASTATUS", AVP_DMASTATUS, Access::RW};
};

}  // namespace avp

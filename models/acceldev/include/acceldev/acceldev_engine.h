// The Acceldev front end (seed acceldev-device.rst with acceldev.md): the
// 255-command device queue, contexts whose configuration lives in host
// memory, single-level page tables, device commands NOP/RUN/BIND_SLOT/FENCE
// and user commands NOP/FENCE/FILL, plus the platform extension CMP_SUBMIT
// (a RefSi command buffer from a slot run on the command processor),
// per-context errors. Every host-memory
// access goes through the endpoint's DMA path, so the link times it.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "cmp/cmp_host_interface.h"
#include "pcie/bar0_regs.h"
#include "base/interrupt_line.h"
#include "regs/register_block.h"

namespace avp {

class AcceldevEngine : public sc_core::sc_module {
 public:
  // Host memory through the endpoint: false when the access failed.
  using HostAccess = std::function<bool(bool write, uint64_t pa, void* data, unsigned len, sc_core::sc_time& delay)>;

  Param<sc_core::sc_time> decode_latency;
  Param<sc_core::sc_time> user_command_latency;
  Param<double> fill_bandwidth;  // bytes per ns written by FILL (besides the link)

  // Device memory for CMP_SUBMIT's staging copy: false on an error response.
  using DeviceWrite = std::function<bool(uint64_t addr, const void* data, unsigned len, sc_core::sc_time& delay)>;
  struct CmpPort {
    CmpHostInterface* cmp = nullptr;  // none: CMP_SUBMIT is a CMD_ERROR
    DeviceWrite write;
    uint64_t staging = 0;  // device address of the ACCELDEV_CMP_STAGING_SIZE bytes
  };

  // Acceldev's INTR bits (ACCELDEV_INTR_*), bound to the endpoint's INTR register.
  IntrBits irq;

  AcceldevEngine(sc_core::sc_module_name name, HostAccess host, CmpPort cmp);

  // The Acceldev registers, BAR0 window [kWindowStart, kWindowEnd); INTR and
  // INTR_ENABLE belong to the endpoint because the extensions share them.
  RegisterBlock& registers() { return regs_; }
  static constexpr uint64_t kWindowStart = ACCELDEV_ENABLE, kWindowEnd = AVP_CB_ADDR_LO;
  // The reset input: clears registers, latches, the queue and any run in progress.
  void reset();
  uint32_t fence_last() const { return fence_last_; }

  // Context isolation (docs/acceldev.md): where the config array is (0: not
  // attached) and the per-launch state the IOMMU consults.
  uint64_t contexts_base() const { return contexts_; }
  // True once the current launch of `ctx` has faulted: its further accesses
  // are refused without another report.
  bool launch_faulted(uint32_t ctx) const { return ctx < faulted_.size() && faulted_[ctx]; }
  // A fault of a device access on behalf of `ctx`: puts the context in error
  // (status byte, MEM_ERROR at the access's time) unless it already is, and
  // ends its launch. Never waits: `delay` is the faulting access's.
  void context_fault(uint32_t ctx, sc_core::sc_time& delay);
  // The DMA engine, so that a CMP_SUBMIT ends only when the transfers its
  // kernels started have drained (none of them outlives the launch).
  void attach_dma(std::function<unsigned(uint32_t ctx)> outstanding, const sc_core::sc_event* done) {
    dma_outstanding_ = std::move(outstanding);
    dma_done_ = done;
  }

 private:
  struct Command {
    uint32_t w[5];
  };
  enum class Fault { None, Cmd, Slot, Mem, Reported /* already marked by context_fault */ };

  void thread();
  void raise_deferred();
  void feed(unsigned word, uint32_t v);
  void device_command(const Command& c, sc_core::sc_time& delay);
  // The device command's slice on the engine's timeline track (docs/reports.md), when recording.
  void trace_command(const Command& c, const sc_core::sc_time& begin) const;
  void run(uint32_t ctx, uint64_t code_pt, uint32_t offset, uint32_t size, sc_core::sc_time& delay);
  Fault user_command(uint32_t ctx, const uint32_t* w, sc_core::sc_time& delay);
  Fault fill(uint32_t ctx, uint32_t value, uint32_t slot, uint32_t start, uint32_t len, sc_core::sc_time& delay);
  Fault cmp_submit(uint32_t ctx, const uint32_t* w, sc_core::sc_time& delay);
  // Visits [start, start + len) of the buffer bound to `slot` page by page
  // (each page starts when the previous one ended, so a reset stops the walk
  // there); `page(pa, va, n, delay)` returns false on a failed host access.
  using PageVisit = std::function<bool(uint64_t pa, uint64_t va, unsigned n, sc_core::sc_time& delay)>;
  Fault walk_slot(uint32_t ctx, uint32_t slot, uint64_t start, uint64_t len, const PageVisit& page, sc_core::sc_time& delay);
  // Translates a buffer virtual address through a page table.
  Fault translate(uint64_t pt, uint64_t va, uint64_t& pa, sc_core::sc_time& delay);
  uint64_t config_addr(uint32_t ctx) const { return contexts_ + 192ull * ctx; }
  bool context_in_error(uint32_t ctx, sc_core::sc_time& delay);
  void mark_error(uint32_t ctx, Fault f, sc_core::sc_time& delay);
  bool read32(uint64_t pa, uint32_t& v, sc_core::sc_time& d) { return host_(false, pa, &v, 4, d); }
  bool write32(uint64_t pa, uint32_t v, sc_core::sc_time& d) { return host_(true, pa, &v, 4, d); }
  bool enabled() const { return enable_ & 1; }

  void map_registers();

  HostAccess host_;
  CmpPort cmp_;
  uint32_t enable_ = 0, fence_last_ = 0, fence_wait_ = 0, latch_[4] = {};
  uint64_t contexts_ = 0;
  std::deque<Command> queue_;
  uint64_t generation_ = 0;  // bumped by reset: a run in progress stops
  uint64_t run_generation_ = 0;
  std::vector<bool> faulted_ = std::vector<bool>(255, false);  // per context: its launch faulted
  std::vector<uint64_t> faults_ = std::vector<uint64_t>(255, 0);
  sc_core::sc_event_queue deferred_mem_error_;  // MEM_ERRORs raised at their faulting access's time
  sc_core::sc_event cmp_end_;
  std::function<unsigned(uint32_t)> dma_outstanding_;
  const sc_core::sc_event* dma_done_ = nullptr;
  bool aborted() const { return run_generation_ != generation_; }
  sc_core::sc_event wake_;
  RegisterBlock regs_{this, "BAR0 Acceldev", 0x1000, RegisterBlock::Misuse::Ignore, "register_latency"};
  Reg<uint32_t> ENABLE{regs_, "ENABLE", ACCELDEV_ENABLE, Access::RW};
  Reg<uint32_t> CONTEXTS_CONFIGS_LO{regs_, "CONTEXTS_CONFIGS_LO", ACCELDEV_CONTEXTS_CONFIGS_LO, Access::RW};
  Reg<uint32_t> CONTEXTS_CONFIGS_HI{regs_, "CONTEXTS_CONFIGS_HI", ACCELDEV_CONTEXTS_CONFIGS_HI, Access::RW};
  Reg<uint32_t> CMD_MANUAL_FREE{regs_, "CMD_MANUAL_FREE/FEED0", ACCELDEV_CMD_MANUAL_FREE, Access::RW};  // reads FREE, writes word 0
  Reg<uint32_t> CMD_MANUAL_FEED{regs_, "CMD_MANUAL_FEED", ACCELDEV_CMD_MANUAL_FEED(1), Access::WO, 0, 4, 4};  // words 1..4
  Reg<uint32_t> CMD_FENCE_LAST{regs_, "CMD_FENCE_LAST", ACCELDEV_CMD_FENCE_LAST, Access::RW};
  Reg<uint32_t> CMD_FENCE_WAIT{regs_, "CMD_FENCE_WAIT", ACCELDEV_CMD_FENCE_WAIT, Access::RW};
  Logger log_;
  Counter device_commands_, user_commands_, feed_errors_, context_errors_, skipped_runs_, fill_bytes_, cmp_submits_,
      cmp_submit_errors_, context_faults_;
  Histogram cmp_submit_latency_;
};

}  // namespace avp

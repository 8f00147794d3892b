// One RV64GC hart: an interpreting ISS with a decoded-block cache, DMI fast
// paths and temporal decoupling. It runs in its own SC_THREAD and only
// synchronises with SystemC at the end of a quantum, on device accesses that
// block, on barriers and when it idles.
#pragma once
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "harts/cache_model.h"
#include "harts/hart_control.h"
#include "harts/hart_state.h"
#include "harts/hart_tracer.h"
#include "harts/rv_insn.h"

namespace avp {

class HartCluster;
class Hart;

// A debugger's view of execution: called before every instruction (decoded,
// not yet executed) while set; without a hook or tracer a block runs in a
// loop with no hook branches (Hart::run_block_loop). It may block the whole
// simulation (the GDB server does, while the debugger holds the target) and
// may change registers, including the pc.
// Data watchpoints are checked here from the instruction's operands, so the
// load/store paths carry no debug code at all.
class HartDebugHook {
 public:
  virtual ~HartDebugHook() = default;
  virtual void before_instruction(Hart& hart, const rv::Insn& insn, uint64_t pc) = 0;
};

struct TrapException {
  uint64_t cause;
  uint64_t tval;
};

class Hart : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Hart> bus;    // to the device interconnect
  tlm_utils::simple_initiator_socket<Hart> xintf;  // to the extension devices

  Hart(sc_core::sc_module_name name, HartCluster& cluster, unsigned hart_id, unsigned core_id);

  unsigned id() const { return id_; }
  unsigned core() const { return core_; }
  bool idle() const { return !running_; }
  const rv::HartState& state() const { return s_; }
  rv::HartState& state() { return s_; }

  // Starts the hart. kernel: an instance launched by the CMP (ends at ra, any
  // trap ends it); otherwise a bare-metal program (traps go to mtvec).
  void start(const HartLaunch& l, bool kernel, std::function<void(const HartExit&)> done);
  void invalidate_decoded();  // drop every decoded block (fence.i, SYNC_CACHE ICACHE, code writes)
  // Ends the running program at the next instruction boundary, or at once when
  // it waits in WFI or at a barrier (HartExitKind::Stopped).
  void request_stop();
  void set_interrupt(unsigned irq, bool level);
  // Local time ahead of SystemC time.
  sc_core::sc_time local_time() const { return sc_core::sc_time(static_cast<double>(local_ps_), sc_core::SC_PS); }
  void sync();  // waits the local offset away

  // Debug-path memory access through the hart's own view (no timing).
  bool debug_read(uint64_t addr, void* dst, unsigned len);
  bool debug_write(uint64_t addr, const void* src, unsigned len);

  uint64_t instructions() const { return s_.minstret; }
  void set_debug_hook(HartDebugHook* hook) { debug_ = hook; }
  void set_tracer(HartTracer* tracer) { tracer_ = tracer; }
  // The last instructions executed since the hart was started (error reports).
  const InsnHistory& history() const { return history_; }
  InsnHistory& history() { return history_; }
  // A CSR as M-mode sees it, for debuggers; false when it does not exist.
  bool debug_csr(unsigned csr, uint64_t& value);
  CacheModel& icache() { return icache_; }
  CacheModel& dcache() { return dcache_; }
  uint64_t cycles() const { return s_.mcycle; }
  // Simulated time beyond the instructions' own cycles, by cause (ps, since construction):
  // instruction fetch (I-cache time and fill latency), data accesses (D-cache
  // time, memory and device latency), barriers, WFI, extension-device calls.
  enum Stall { StallFetch, StallMemory, StallBarrier, StallWfi, StallXintf, kStallCauses };
  uint64_t stall_ps(Stall s) const { return stall_ps_[s]; }
  void add_stall(Stall s, uint64_t ps) { stall_ps_[s] += ps; }

 private:
  struct Block {
    std::vector<rv::Insn> insns;
    uint64_t pc = 0, bytes = 0;
  };
  struct DmiRegion {
    uint64_t base = 0, size = 0;  // size 0: empty
    uint8_t* ptr = nullptr;
    uint64_t rd_ps = 0, wr_ps = 0;
    bool rd = false, wr = false, exec = false;  // exec: granted to an instruction fetch
  };

  void thread();
  void run();
  void run_block(const Block& b);
  template <bool kObserved>
  void run_block_loop(const Block& b);
  const Block& block_at(uint64_t pc);
  uint64_t exec(const rv::Insn& d, uint64_t pc);
  uint64_t exec_system(const rv::Insn& d, uint64_t pc);
  uint64_t exec_atomic(const rv::Insn& d);
  void exec_fp(const rv::Insn& d);
  void exec_xintf(const rv::Insn& d);
  [[noreturn]] void illegal(const rv::Insn& d) const;
  void take_trap(uint64_t cause, uint64_t tval);
  bool check_interrupts();
  bool host_call();  // ECALL a7 = 0/1/2 in M-mode; true if handled
  void finish(HartExitKind kind, uint64_t code = 0, uint64_t cause = 0, uint64_t tval = 0);

  // CSRs (hart_csr.cpp).
  uint64_t csr_read(unsigned csr, const rv::Insn& d);
  void csr_write(unsigned csr, uint64_t v, const rv::Insn& d);
  bool counter_allowed(unsigned csr) const;

  // Memory.
  DmiRegion* find_dmi(uint64_t addr, bool write, bool fetch = false);
  bool fetch_read(uint64_t addr, void* dst, unsigned len);  // instruction fetch (needs execute permission)
  bool read_only(uint64_t addr, uint64_t len) const {
    return ro_size_ && addr < ro_base_ + ro_size_ && ro_base_ < addr + len;
  }
  void transport(tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, uint64_t fault_cause);
  void after_store(uint64_t addr, unsigned len);
  template <typename T>
  T load(uint64_t addr) {
    const uint64_t off = addr - rd_.base;
    if (off < rd_.size && rd_.size - off >= sizeof(T)) {
      T v;
      std::memcpy(&v, rd_.ptr + off, sizeof(T));
      const uint64_t t = dcache_.enabled() ? cached(addr, false, rd_.rd_ps) : rd_.rd_ps;
      local_ps_ += t;
      stall_ps_[StallMemory] += t;
      return v;
    }
    return load_slow<T>(addr);
  }
  template <typename T>
  void store(uint64_t addr, T v) {
    const uint64_t off = addr - wr_.base;
    if (off < wr_.size && wr_.size - off >= sizeof(T)) {
      std::memcpy(wr_.ptr + off, &v, sizeof(T));
      const uint64_t t = dcache_.enabled() ? cached(addr, true, wr_.wr_ps) : wr_.wr_ps;
      local_ps_ += t;
      stall_ps_[StallMemory] += t;
    } else {
      store_slow<T>(addr, v);
    }
    after_store(addr, sizeof(T));
  }
  // Data-cache timing of a DMI access: the memory latency only on a miss.
  uint64_t cached(uint64_t addr, bool write, uint64_t memory_ps) {
    bool miss = false;
    const uint64_t t = dcache_.access(addr, write, miss);
    return miss ? t + memory_ps : t;
  }
  void fetch_timing(const Block& b);
  template <typename T>
  T load_slow(uint64_t addr);
  template <typename T>
  void store_slow(uint64_t addr, T v);
  void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);

  HartCluster& cluster_;
  HartDebugHook* debug_ = nullptr;
  HartTracer* tracer_ = nullptr;
  InsnHistory history_;
  const unsigned id_, core_;
  rv::HartState s_;
  std::unordered_map<uint64_t, Block> blocks_;
  std::vector<DmiRegion> dmi_;
  CacheModel icache_, dcache_;
  DmiRegion rd_, wr_;    // the last regions used for loads / stores
  DmiRegion rd2_, wr2_;  // the ones used before them
  // Direct-mapped cache of decoded blocks in front of blocks_.
  static constexpr unsigned kBlockSlots = 4096;
  struct BlockSlot {
    uint64_t pc = 0;
    const Block* block = nullptr;
  };
  std::vector<BlockSlot> block_slots_ = std::vector<BlockSlot>(kBlockSlots);
  tlm::tlm_generic_payload gp_;
  uint64_t local_ps_ = 0;
  uint64_t stall_ps_[kStallCauses] = {};
  uint64_t reservation_ = ~0ull;  // LR/SC reserved address (8-byte granule), ~0 = none

  bool running_ = false, stop_ = false, kernel_ = false, block_abort_ = false, flush_ = false;
  bool stop_requested_ = false;
  uint64_t ro_base_ = 0, ro_size_ = 0;  // HartLaunch::read_only_*
  uint64_t ret_addr_ = 0, limit_ = 0, start_instret_ = 0;
  uint32_t launch_id_ = 0;
  sc_core::sc_time started_;
  uint64_t instance_ = 0;  // a0 at launch (the instance id of a kernel)
  std::function<void(const HartExit&)> done_;
  sc_core::sc_event start_event_, irq_event_;
  friend class HartCluster;
};

}  // namespace avp

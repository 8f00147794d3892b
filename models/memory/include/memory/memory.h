// A memory target (DRAM, TCIM, TCDM) with DMI, configurable latency and, for
// a DRAM, banks with open rows (row_buffers.h).
// Storage is reserved lazily (pages are backed on first touch), so a 2 GiB DRAM
// costs only what a run uses.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "base/log.h"
#include "base/page_writes.h"
#include "base/params.h"
#include "base/timing_path.h"
#include "base/stats.h"
#include "memory/dram_standard.h"
#include "memory/row_buffers.h"

namespace avp {

class Memory : public sc_core::sc_module, public TimingPath {
 public:
  // Several views (global, core-local) may bind; each sees offsets from 0.
  tlm_utils::multi_passthrough_target_socket<Memory> socket;

  Param<sc_core::sc_time> read_latency;
  Param<sc_core::sc_time> write_latency;
  Param<bool> dmi_enabled;
  // Backs the storage with transparent huge host pages (2 MiB, madvise) or
  // not (4 KiB). Huge pages take fewer faults where a run touches its memory
  // densely, but the host clears all 2 MiB at the first touch of any byte;
  // a booting kernel touches little of each (docs/performance.md).
  Param<bool> huge_pages;

  // The size is the parameter "<name>.size".
  Memory(sc_core::sc_module_name name, uint64_t default_size, sc_core::sc_time default_latency);
  // A DRAM: its latencies' defaults are the standard's, and it has banks with
  // open rows (row_buffers.h) whose parameters default to the standard's.
  Memory(sc_core::sc_module_name name, uint64_t default_size, const DramStandard& standard);
  // The size is derived from other parameters (`derivation` says how, e.g.
  // "platform.cores x platform.tcdm_per_core"): there is no size parameter,
  // and a preset of "<name>.size" is an error naming the derivation.
  struct DerivedSize {
    uint64_t bytes;
    std::string derivation;
  };
  Memory(sc_core::sc_module_name name, const DerivedSize& size, sc_core::sc_time default_latency);
  uint64_t size() const { return size_; }
  ~Memory() override;

  // The raw storage: writes through it are not counted (base/page_writes.h),
  // so handing it out leaves the pages untracked.
  uint8_t* data() {
    writes_counted_.untrack();
    return data_;
  }
  // Host-side access for loaders and tests; throws std::out_of_range past the end.
  void write(uint64_t offset, const void* src, uint64_t len);
  void read(uint64_t offset, void* dst, uint64_t len) const;
  // Tells every initiator holding a DMI pointer to drop it.
  void invalidate_dmi();
  // Backs the storage with a memfd that other processes may map (the host
  // bridge's shared host memory) and returns it; the same fd on later calls.
  // The storage is replaced in place (same address, DMI pointers stay valid)
  // and starts zeroed: call it before anything is stored. -1 with errno on failure.
  // Others write it behind the memory's back: its pages are untracked.
  int share();
  // A Timing or Replay transaction (base/cache_traffic.h); its probe answers this path.
  void time(uint64_t offset, unsigned len, CacheTrafficExtension& c, uint64_t& delay_ps) override;

 private:
  Memory(sc_core::sc_module_name name, uint64_t size, const std::string* derivation, sc_core::sc_time default_read_latency,
         sc_core::sc_time default_write_latency);
  void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  bool access(tlm::tlm_generic_payload& gp);
  // Statistics and latency (ps) of an access of `bytes` at `offset` (with `rows`: the open rows' too).
  void count(bool write, uint64_t offset, uint64_t bytes, uint64_t& delay_ps, bool rows = true);

  std::unique_ptr<Param<uint64_t>> size_param_;  // absent when the size is derived
  uint64_t size_ = 0;

  uint8_t* data_ = nullptr;
  PageWrites writes_counted_;  // every write but those through DMI pointers (base/page_writes.h)
  int share_fd_ = -1;
  Logger log_;
  Counter reads_, writes_, bytes_read_, bytes_written_, dmi_grants_;
  std::unique_ptr<RowBuffers> rows_;  // DRAM only
};

}  // namespace avp

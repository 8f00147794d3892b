// Timing of a PCIe link: lanes x generation give the raw rate, TLPs carry at
// most max_payload bytes plus a header, each direction is a port that
// transfers occupy (so they contend), and non-posted requests wait for their
// completion. Used for MMIO (downstream) and device-initiated DMA (upstream).
#pragma once
#include <systemc>

#include "base/params.h"
#include "base/stats.h"

namespace avp {

class PcieLink : public sc_core::sc_module {
 public:
  enum Dir { Down = 0, Up = 1 };  // Down: root complex -> endpoint

  Param<uint32_t> lanes;
  Param<uint32_t> generation;
  Param<uint32_t> max_payload;
  Param<uint32_t> tlp_overhead;
  Param<sc_core::sc_time> completion_latency;

  explicit PcieLink(sc_core::sc_module_name name);

  // Bytes per ns one direction carries after line encoding.
  double bytes_per_ns() const;
  // Wire time of a transfer of `bytes` of payload (split into TLPs).
  sc_core::sc_time wire_time(uint64_t bytes) const;
  // A posted write of `bytes` issued at `at` in direction `dir`: returns when
  // its last TLP has arrived, accounting for earlier traffic on that direction.
  sc_core::sc_time posted(Dir dir, uint64_t bytes, const sc_core::sc_time& at);
  // A read of `bytes` requested at `at` from the side that sends in `dir`:
  // request TLP in `dir`, completion latency, data back in the other direction.
  sc_core::sc_time read(Dir dir, uint64_t bytes, const sc_core::sc_time& at);

 private:
  // `tlp` names the transaction layer packets for the text trace (MWr, MRd, CplD).
  sc_core::sc_time occupy(Dir dir, uint64_t wire_bytes, const sc_core::sc_time& at, const char* tlp);
  void trace_tlps(Dir dir, uint64_t bytes, const sc_core::sc_time& start, const char* tlp) const;
  sc_core::sc_time busy_until_[2];
  Counter tlps_[2], bytes_[2];
  Utilisation busy_down_, busy_up_;
  Histogram read_latency_;
  // Per direction: request to last TLP arrived (queueing included); reads by their requester's direction.
  Histogram transfer_latency_[2], dir_read_latency_[2];
};

}  // namespace avp

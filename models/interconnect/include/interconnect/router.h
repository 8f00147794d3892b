// Address-decoding TLM-2.0 router of the device interconnect.
// Targets are ports (bind order = port index) with per-port latency and
// bandwidth; each port serves one or more address ranges whose bases are
// parameters. Unmapped addresses get TLM_ADDRESS_ERROR_RESPONSE and a log line.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "base/log.h"
#include "base/params.h"
#include "base/stats.h"
#include "base/timing_path.h"
#include "interconnect/bandwidth_calendar.h"

namespace avp {

struct CacheTrafficExtension;

class Router : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Router> targ;     // initiators bind here
  tlm_utils::multi_passthrough_initiator_socket<Router> init;  // targets bind here, in add_port order

  explicit Router(sc_core::sc_module_name name);
  ~Router() override;

  // A target port. Parameters <router>.<port>.latency, .bandwidth (bytes per
  // ns of each channel; 0 = unlimited), .channels (independent channels, each
  // with that bandwidth) and .interleave (bytes of consecutive target
  // addresses on one channel before the next). Harts' accesses through DMI
  // reach the port's statistics and occupancy as their caches' fills and
  // write-backs (base/cache_traffic.h), so a bandwidth limit does not need to
  // refuse DMI. A limited port's transfers queue for their channels in
  // simulated-time order (bandwidth_calendar.h); <router>.<port>.queue_delay
  // samples the wait.
  unsigned add_port(const std::string& port, sc_core::sc_time latency = sc_core::SC_ZERO_TIME, double bandwidth = 0,
                    uint32_t channels = 1, uint64_t interleave = 256);
  // An address range served by `port`. Its base is the parameter
  // <router>.<range>.base. The target sees addresses relative to the base,
  // unless `absolute` (then it sees the unmodified address). Throws ParamError
  // when the range overlaps another one.
  void map(unsigned port, const std::string& range, uint64_t default_base, uint64_t size, bool absolute = false);

  struct Range {
    std::string name;
    unsigned port;
    uint64_t base, size;
    bool absolute;
  };
  std::vector<Range> ranges() const;  // sorted by base
  const std::string& port_name(unsigned port) const;

  // The port and target-side address of a device address, or false when unmapped.
  bool decode(uint64_t addr, unsigned& port, uint64_t& target_addr) const;

 private:
  struct Port {
    std::string name;
    std::unique_ptr<Param<sc_core::sc_time>> latency;
    std::unique_ptr<Param<double>> bandwidth;
    std::unique_ptr<Param<uint32_t>> channels;
    std::unique_ptr<Param<uint64_t>> interleave;
    std::unique_ptr<Counter> accesses, bytes;
    std::unique_ptr<Utilisation> busy;
    std::unique_ptr<Histogram> queue_delay;
    std::vector<BandwidthCalendar> calendars;  // one per channel
    std::vector<uint64_t> channel_bytes;       // scratch: a transfer's bytes per channel
    // The last share's transfer time (ps), by its bytes and the bandwidth then (most
    // shares are one cache line: sc_time's conversion from ns was a fifth of occupy).
    uint64_t share_bytes = 0;
    double share_bandwidth = 0;
    uint64_t share_ps = 0;
    uint64_t transfer_ps(uint64_t bytes) {
      const double bw = bandwidth->get();
      if (bytes != share_bytes || bw != share_bandwidth) {
        share_bytes = bytes;
        share_bandwidth = bw;
        share_ps = sc_core::sc_time(bytes / bw, sc_core::SC_NS).value();
      }
      return share_ps;
    }
  };
  // Queues a transfer of a bandwidth-limited port on its channels; its delay
  // (ps) grows by the wait and the transfer time.
  void occupy(Port& p, uint64_t target_addr, uint64_t bytes, uint64_t& delay_ps);
  // The port's part of a transfer: counts (not for a Replay), latency, bandwidth; delay in ps.
  void time_transfer(Port& p, uint64_t target_addr, uint64_t bytes, CacheTrafficExtension* traffic,
                     uint64_t& delay_ps);
  class RangePath;
  struct MappedRange {
    Range r;
    std::unique_ptr<Param<uint64_t>> base_param;
    mutable std::unique_ptr<RangePath> path;  // made at the first probe that found a path behind it
  };
  // Wraps the path a probe found behind range m in the range's own (or clears it).
  void answer_path(const MappedRange& m, CacheTrafficExtension& probe);

  const MappedRange* lookup(uint64_t addr) const;
  void sort_ranges();
  void b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end);
  void end_of_elaboration() override;

  std::vector<Port> ports_;
  std::vector<MappedRange> ranges_;
  mutable const MappedRange* last_ = nullptr;
  Logger log_;
  Counter unmapped_;
};

}  // namespace avp

#include "pcie/pcie_link.h"

#include <algorithm>

#include "base/text_trace.h"
#include "base/trace.h"

namespace avp {

PcieLink::PcieLink(sc_core::sc_module_name name)
    : sc_module(name),
      lanes(this, "lanes", 16, "link width in lanes (1, 2, 4, 8, 16)"),
      generation(this, "generation", 4, "PCIe generation 1..5 (2.5, 5, 8, 16, 32 GT/s per lane)"),
      max_payload(this, "max_payload", 256, "maximum TLP payload in bytes"),
      tlp_overhead(this, "tlp_overhead", 24, "bytes of header, framing and CRC per TLP"),
      completion_latency(this, "completion_latency", sc_core::sc_time(400, sc_core::SC_NS),
                         "time a completer takes to return data for a read (besides wire time)"),
      tlps_{Counter(this, "down.tlps", "TLPs sent downstream", "TLPs"), Counter(this, "up.tlps", "TLPs sent upstream", "TLPs")},
      bytes_{Counter(this, "down.bytes", "payload bytes downstream", "bytes"), Counter(this, "up.bytes", "payload bytes upstream", "bytes")},
      busy_down_(this, "down.busy", "occupancy of the downstream direction"),
      busy_up_(this, "up.busy", "occupancy of the upstream direction"),
      read_latency_(this, "read_latency", "latency of non-posted reads (both directions)", "ns"),
      transfer_latency_{Histogram(this, "down.transfer_latency", "downstream transfers: issue to last TLP arrived", "ns"),
                        Histogram(this, "up.transfer_latency", "upstream transfers: issue to last TLP arrived", "ns")},
      dir_read_latency_{Histogram(this, "down.read_latency", "reads requested downstream (host MMIO reads)", "ns"),
                        Histogram(this, "up.read_latency", "reads requested upstream (device reads of host memory)", "ns")} {
  Trace::instance().declare(std::string(this->name()) + ".down");
  Trace::instance().declare(std::string(this->name()) + ".up");
  if (generation.get() < 1 || generation.get() > 5) throw ParamError(std::string(this->name()) + ".generation: 1..5");
  const uint32_t l = lanes.get();
  if (l == 0 || l > 32 || (l & (l - 1))) throw ParamError(std::string(this->name()) + ".lanes: a power of two up to 32");
  if (max_payload.get() < 128 || max_payload.get() > 4096) throw ParamError(std::string(this->name()) + ".max_payload: 128..4096");
}

double PcieLink::bytes_per_ns() const {
  static const double gts[] = {2.5, 5, 8, 16, 32};
  const unsigned g = generation.get();
  const double encoding = g <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
  return lanes.get() * gts[g - 1] * encoding / 8.0;
}

sc_core::sc_time PcieLink::wire_time(uint64_t bytes) const {
  const uint64_t tlps = std::max<uint64_t>(1, (bytes + max_payload.get() - 1) / max_payload.get());
  return sc_core::sc_time((bytes + tlps * tlp_overhead.get()) / bytes_per_ns(), sc_core::SC_NS);
}

sc_core::sc_time PcieLink::occupy(Dir dir, uint64_t bytes, const sc_core::sc_time& at, const char* tlp) {
  const uint64_t tlps = std::max<uint64_t>(1, (bytes + max_payload.get() - 1) / max_payload.get());
  tlps_[dir].inc(tlps);
  bytes_[dir].inc(bytes);
  const sc_core::sc_time start = std::max(at, busy_until_[dir]);
  busy_until_[dir] = start + wire_time(bytes);
  (dir == Down ? busy_down_ : busy_up_).add_busy(start, busy_until_[dir]);
  // Timeline slices are named by TLP type and payload ("MWr 64 B", "CplD 4 B", "MRd").
  Trace::instance().slice(std::string(name()) + (dir == Down ? ".down" : ".up"),
                          bytes ? std::string(tlp) + " " + std::to_string(bytes) + " B" : std::string(tlp), start,
                          busy_until_[dir]);
  transfer_latency_[dir].sample((busy_until_[dir] - at).to_seconds() * 1e9);
  if (TextTrace::instance().on(kTracePcie)) trace_tlps(dir, bytes, start, tlp);
  return busy_until_[dir];
}

void PcieLink::trace_tlps(Dir dir, uint64_t bytes, const sc_core::sc_time& start, const char* tlp) const {
  // One line per TLP at the time it starts on the wire.
  const uint64_t mps = max_payload.get();
  const uint64_t tlps = std::max<uint64_t>(1, (bytes + mps - 1) / mps);
  const std::string unit = std::string(name()) + (dir == Down ? ".down" : ".up");
  sc_core::sc_time t = start;
  for (uint64_t i = 0; i < tlps; ++i) {
    const uint64_t payload = std::min(mps, bytes - std::min(bytes, i * mps));
    TextTrace::instance().line(to_ps(t), unit, "pcie " + std::string(tlp) + " payload " + std::to_string(payload) + " B, tlp " +
                                                   std::to_string(i + 1) + "/" + std::to_string(tlps));
    t += sc_core::sc_time((payload + tlp_overhead.get()) / bytes_per_ns(), sc_core::SC_NS);
  }
}

sc_core::sc_time PcieLink::posted(Dir dir, uint64_t bytes, const sc_core::sc_time& at) { return occupy(dir, bytes, at, "MWr"); }

sc_core::sc_time PcieLink::read(Dir dir, uint64_t bytes, const sc_core::sc_time& at) {
  const sc_core::sc_time req = occupy(dir, 0, at, "MRd");
  const sc_core::sc_time done = occupy(dir == Down ? Up : Down, bytes, req + completion_latency.get(), "CplD");
  read_latency_.sample((done - at).to_seconds() * 1e9);
  dir_read_latency_[dir].sample((done - at).to_seconds() * 1e9);
  return done;
}

}  // namespace avp

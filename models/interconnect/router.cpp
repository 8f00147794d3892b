#include "interconnect/router.h"

#include <algorithm>
#include <iomanip>

#include "base/cache_traffic.h"
#include "base/local_time.h"
#include "base/stable_read.h"
#include "base/unit.h"

namespace avp {

static std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// A range's direct timing path (base/timing_path.h): the port's part, then its target's path.
class Router::RangePath final : public TimingPath {
 public:
  RangePath(Router& router, unsigned port, uint64_t shift, TimingPath* next)
      : router_(router), port_(port), shift_(shift), next_(next) {}
  TimingPath* next() const { return next_; }
  // Flattened: once or twice per cache miss, the port's timing in one frame.
  [[gnu::flatten]] void time(uint64_t addr, unsigned len, CacheTrafficExtension& c, uint64_t& delay_ps) override {
    router_.time_transfer(router_.ports_[port_], addr - shift_, len, &c, delay_ps);
    next_->time(addr - shift_, len, c, delay_ps);
  }

 private:
  Router& router_;
  const unsigned port_;
  const uint64_t shift_;
  TimingPath* const next_;
};

Router::Router(sc_core::sc_module_name name)
    : sc_module(name), targ("targ"), init("init"), log_(this->name()),
      unmapped_(this, "unmapped", "accesses to unmapped addresses (address error responses)", "accesses") {
  targ.register_b_transport(this, &Router::b_transport);
  targ.register_transport_dbg(this, &Router::transport_dbg);
  targ.register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr);
  init.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
}

Router::~Router() = default;

unsigned Router::add_port(const std::string& port, sc_core::sc_time latency, double bandwidth, uint32_t channels,
                          uint64_t interleave) {
  Port p;
  p.name = port;
  p.latency = std::make_unique<Param<sc_core::sc_time>>(this, port + ".latency", latency,
                                                        "interconnect latency added to every access to " + port);
  p.bandwidth = std::make_unique<Param<double>>(this, port + ".bandwidth", bandwidth,
                                                "bandwidth of each channel of the " + port + " port in bytes/ns (0 = unlimited)");
  p.channels = std::make_unique<Param<uint32_t>>(this, port + ".channels", channels,
                                                 "independent channels of the " + port + " port, each with its bandwidth");
  p.interleave = std::make_unique<Param<uint64_t>>(
      this, port + ".interleave", interleave, "bytes of consecutive addresses on one channel of " + port + " before the next");
  const std::string where = std::string(name()) + "." + port;
  if (p.bandwidth->get() < 0) throw ParamError(where + ".bandwidth = " + p.bandwidth->value_string() + ": must not be negative");
  if (p.channels->get() < 1 || p.channels->get() > 64)
    throw ParamError(where + ".channels = " + p.channels->value_string() + ": must be 1..64");
  const uint64_t il = p.interleave->get();
  if (il < 8 || (il & (il - 1)))
    throw ParamError(where + ".interleave = " + p.interleave->value_string() + ": must be a power of two of at least 8 bytes");
  p.calendars.resize(p.channels->get());
  p.channel_bytes.resize(p.channels->get());
  p.accesses = std::make_unique<Counter>(this, port + ".accesses", "transactions routed to " + port + " (harts: cache fills, write-backs, uncached accesses)", "transactions");
  p.bytes = std::make_unique<Counter>(this, port + ".bytes", "bytes routed to " + port, "bytes");
  p.busy = std::make_unique<Utilisation>(this, port + ".busy", "occupancy of the " + port + " port (mean over its channels)");
  p.queue_delay = std::make_unique<Histogram>(this, port + ".queue_delay",
                                              "wait of a transfer for the " + port + " port (bandwidth-limited ports)", "ns");
  ports_.push_back(std::move(p));
  return static_cast<unsigned>(ports_.size() - 1);
}

void Router::map(unsigned port, const std::string& range, uint64_t default_base, uint64_t size, bool absolute) {
  if (port >= ports_.size()) throw ParamError(std::string(name()) + ": range " + range + " names no port");
  MappedRange m;
  m.base_param = std::make_unique<Param<uint64_t>>(this, range + ".base", default_base, "base address of " + range);
  m.r = Range{range, port, m.base_param->get(), size, absolute};
  if (size == 0) throw ParamError(std::string(name()) + "." + range + ": size is 0");
  if (m.r.base + size < m.r.base) throw ParamError(std::string(name()) + "." + range + ".base: range wraps past 2^64");
  for (const auto& o : ranges_) {
    if (m.r.base < o.r.base + o.r.size && o.r.base < m.r.base + size)
      throw ParamError("address ranges overlap: " + std::string(name()) + "." + range + ".base [" + hex(m.r.base) + ", " +
                       hex(m.r.base + size) + ") and " + std::string(name()) + "." + o.r.name + ".base [" + hex(o.r.base) +
                       ", " + hex(o.r.base + o.r.size) + ")");
  }
  ranges_.push_back(std::move(m));
  sort_ranges();
}

void Router::sort_ranges() {
  std::sort(ranges_.begin(), ranges_.end(), [](const MappedRange& a, const MappedRange& b) { return a.r.base < b.r.base; });
  last_ = nullptr;
}

std::vector<Router::Range> Router::ranges() const {
  std::vector<Range> v;
  for (const auto& m : ranges_) v.push_back(m.r);
  return v;
}

const std::string& Router::port_name(unsigned port) const { return ports_.at(port).name; }

void Router::end_of_elaboration() {
  if (init.size() != ports_.size())
    throw ParamError(std::string(name()) + ": " + std::to_string(ports_.size()) + " ports declared but " +
                     std::to_string(init.size()) + " targets bound");
}

const Router::MappedRange* Router::lookup(uint64_t addr) const {
  if (last_ && addr - last_->r.base < last_->r.size) return last_;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), addr,
                             [](uint64_t a, const MappedRange& m) { return a < m.r.base; });
  if (it == ranges_.begin()) return nullptr;
  --it;
  if (addr - it->r.base >= it->r.size) return nullptr;
  last_ = &*it;
  return last_;
}

bool Router::decode(uint64_t addr, unsigned& port, uint64_t& target_addr) const {
  const MappedRange* m = lookup(addr);
  if (!m) return false;
  port = m->r.port;
  target_addr = m->r.absolute ? addr : addr - m->r.base;
  return true;
}

void Router::b_transport(int id, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint64_t addr = gp.get_address();
  const MappedRange* m = lookup(addr);
  if (!m || addr - m->r.base + gp.get_data_length() > m->r.size) {
    unmapped_.inc();
    AVP_LOG(log_, Warn, "unmapped address " << hex(addr) << " (" << (gp.is_read() ? "read" : "write") << ", "
                                            << gp.get_data_length() << " bytes) from " << unit_name(unit_of(gp)));
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  gp.set_address(m->r.absolute ? addr : addr - m->r.base);
  if (is_functional(gp)) {  // the data of a cached access: its fill or write-back is what the bus carries
    init[m->r.port]->b_transport(gp, delay);
    gp.set_address(addr);
    return;
  }
  uint64_t delay_ps = to_ps(delay);
  time_transfer(ports_[m->r.port], gp.get_address(), gp.get_data_length(), cache_traffic(gp), delay_ps);
  delay = from_ps(delay_ps);
  init[m->r.port]->b_transport(gp, delay);
  gp.set_address(addr);
}

void Router::time_transfer(Port& p, uint64_t target_addr, uint64_t bytes, CacheTrafficExtension* traffic,
                           uint64_t& delay_ps) {
  const uint64_t latency = to_ps(p.latency->get());
  if (traffic && traffic->kind == CacheTrafficExtension::Replay) {
    // What a deferred Timing transaction left out: counted and delayed by the latency already.
    delay_ps += latency;  // it arrives at the port when the transaction did
    if (p.bandwidth->get() > 0) occupy(p, target_addr, bytes, delay_ps);
    delay_ps -= latency;
    return;
  }
  p.accesses->inc();
  p.bytes->inc(bytes);
  delay_ps += latency;
  if (p.bandwidth->get() > 0) {
    if (traffic && traffic->deferred) traffic->replay = true;
    else occupy(p, target_addr, bytes, delay_ps);
  }
}

void Router::answer_path(const MappedRange& m, CacheTrafficExtension& probe) {
  const uint64_t shift = m.r.absolute ? 0 : m.r.base;
  if (!m.path) m.path = std::make_unique<RangePath>(*this, m.r.port, shift, probe.path);
  // The target's range in our addresses, within the mapped range.
  const uint64_t lo = std::max(probe.path_base + shift, m.r.base);
  const uint64_t end = std::min(probe.path_base + probe.path_size + shift, m.r.base + m.r.size);
  if (m.path->next() != probe.path || end <= lo) {  // not the target the path was made for
    probe.path = nullptr;
    return;
  }
  probe.path = m.path.get();
  probe.path_base = lo;
  probe.path_size = end - lo;
}

void Router::occupy(Port& p, uint64_t target_addr, uint64_t bytes, uint64_t& delay_ps) {
  // The burst's bytes go to the channels its addresses interleave over; each
  // channel's share needs bytes / bandwidth of that channel's free time from
  // the arrival on (bandwidth_calendar.h). The burst ends with its last
  // share; the rest of its wait beyond the longest share is queueing.
  const uint64_t il = p.interleave->get(), nch = p.calendars.size();
  const uint64_t arrive = systemc_ps() + delay_ps;
  uint64_t end = arrive, longest = 0, total = 0;
  const auto share = [&](uint64_t c, uint64_t share_bytes) {
    const uint64_t occupy = p.transfer_ps(share_bytes);
    if (p.calendars[c].worth_forgetting()) p.calendars[c].forget_before(earliest_arrival_ps());
    end = std::max(end, p.calendars[c].reserve(arrive, occupy));
    longest = std::max(longest, occupy);
    total += occupy;
  };
  if (nch == 1) {
    share(0, bytes);
    p.busy->add_disjoint_ps(total);  // the mean over one channel
  } else {
    std::fill(p.channel_bytes.begin(), p.channel_bytes.end(), 0);
    for (uint64_t a = target_addr, left = bytes; left;) {
      const uint64_t chunk = std::min(left, il - (a & (il - 1)));
      p.channel_bytes[(a / il) % nch] += chunk;
      a += chunk;
      left -= chunk;
    }
    for (uint64_t c = 0; c < nch; ++c)
      if (p.channel_bytes[c]) share(c, p.channel_bytes[c]);
    // The mean over the channels, rounded as sc_time divides.
    p.busy->add_disjoint_ps(to_ps(from_ps(total) / static_cast<double>(nch)));
  }
  const uint64_t queueing = end - arrive - longest;
  delay_ps += end - arrive;  // the longest share and the queueing
  p.queue_delay->sample(queueing == 0 ? 0.0 : ps_to_ns(queueing));
}

unsigned Router::transport_dbg(int id, tlm::tlm_generic_payload& gp) {
  const uint64_t addr = gp.get_address();
  const MappedRange* m = lookup(addr);
  if (!m) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  Port& p = ports_[m->r.port];
  StableReadExtension* stable = stable_read(gp);
  if (stable && stable->kind == StableReadExtension::Repeat) {  // as many reads' counts as b_transport gives
    p.accesses->inc(stable->times);
    p.bytes->inc(stable->times * gp.get_data_length());
  }
  gp.set_address(m->r.absolute ? addr : addr - m->r.base);
  unsigned n = init[m->r.port]->transport_dbg(gp);
  gp.set_address(addr);
  if (CacheTrafficExtension* c = cache_traffic(gp); c && c->kind == CacheTrafficExtension::Probe && c->path)
    answer_path(*m, *c);
  if (stable && stable->kind == StableReadExtension::Probe) {
    // A bandwidth queue times a read by the traffic before it; a read past the range is an error.
    if (p.bandwidth->get() > 0 || addr - m->r.base + gp.get_data_length() > m->r.size) forget_stable_read(gp);
    else stable->delay += p.latency->get();
  }
  return n;
}

bool Router::get_direct_mem_ptr(int id, tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  const uint64_t addr = gp.get_address();
  const MappedRange* m = lookup(addr);
  if (!m) return false;
  const Port& p = ports_[m->r.port];
  const uint64_t shift = m->r.absolute ? 0 : m->r.base;
  gp.set_address(addr - shift);
  bool ok = init[m->r.port]->get_direct_mem_ptr(gp, dmi);
  gp.set_address(addr);
  if (!ok) return false;
  // Back to device addresses, clipped to the range (DMI must not leak past it).
  uint64_t start = dmi.get_start_address() + shift, end = dmi.get_end_address() + shift;
  const uint64_t lo = m->r.base, hi = m->r.base + m->r.size - 1;
  if (start < lo) {
    dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (lo - start));
    start = lo;
  }
  if (end > hi) end = hi;
  dmi.set_start_address(start);
  dmi.set_end_address(end);
  dmi.set_read_latency(dmi.get_read_latency() + p.latency->get());
  dmi.set_write_latency(dmi.get_write_latency() + p.latency->get());
  return true;
}

void Router::invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const auto& m : ranges_) {
    if (m.r.port != static_cast<unsigned>(port)) continue;
    const uint64_t shift = m.r.absolute ? 0 : m.r.base;
    const uint64_t lo = std::max<uint64_t>(start + shift, m.r.base);
    const uint64_t hi = (end == ~0ull) ? m.r.base + m.r.size - 1 : std::min<uint64_t>(end + shift, m.r.base + m.r.size - 1);
    if (lo > hi) continue;
    for (unsigned i = 0; i < targ.size(); ++i) targ[i]->invalidate_direct_mem_ptr(lo, hi);
  }
}

}  // namespace avp

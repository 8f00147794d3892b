#include "dma/dma_controller.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "base/local_time.h"
#include "base/payload.h"
#include "base/text_trace.h"
#include "base/trace.h"
#include "dma/dma_regs.h"
#include "pcie/bar0_regs.h"

namespace avp {

DmaController::DmaController(sc_core::sc_module_name name)
    : sc_module(name),
      regs("regs"),
      mem("mem"),
      channels(this, "channels", 4, "independent transfer channels (transfers on different channels complete out of order)"),
      bandwidth(this, "bandwidth", 16.0, "bandwidth of one channel in bytes/ns"),
      setup_latency(this, "setup_latency", sc_core::sc_time(50, sc_core::SC_NS), "time from start to the first byte moved"),
      max_transfer_bytes(this, "max_transfer_bytes", 1ull << 30,
                         "largest transfer (bytes per row x rows x planes); a larger one fails at once with the DMASTATUS "
                         "error, nothing moved (0 = no limit)"),
      burst_bytes(this, "burst_bytes", 4096,
                  "largest read or write of a transfer on the bus at once (a power of two, 64..65536): the granularity "
                  "at which it shares a port with other initiators"),
      outstanding_bursts(this, "outstanding_bursts", 2,
                         "bursts a channel has in flight at once (1..64): the read of one overlaps the write and "
                         "channel time of those before it (each holds a burst_bytes buffer until moved)"),
      log_(this->name()),
      transfers_(this, "transfers", "transfers completed (including failed ones)", "transfers"),
      bytes_(this, "bytes", "bytes moved", "bytes"),
      errors_(this, "errors", "transfers that failed", "transfers"),
      latency_(this, "transfer_latency", "time from start to completion of a transfer", "ns") {
  if (channels.get() == 0 || channels.get() > kMaxChannels)
    throw ParamError(std::string(this->name()) + ".channels = " + channels.value_string() + ": must be 1.." +
                     std::to_string(kMaxChannels));
  if (bandwidth.get() <= 0) throw ParamError(std::string(this->name()) + ".bandwidth: must be positive");
  const uint64_t burst = burst_bytes.get();
  if (burst < 64 || burst > 65536 || (burst & (burst - 1)))
    throw ParamError(std::string(this->name()) + ".burst_bytes = " + burst_bytes.value_string() +
                     ": must be a power of two in 64..65536");
  if (outstanding_bursts.get() == 0 || outstanding_bursts.get() > kMaxOutstandingBursts)
    throw ParamError(std::string(this->name()) + ".outstanding_bursts = " + outstanding_bursts.value_string() +
                     ": must be 1.." + std::to_string(kMaxOutstandingBursts));
  regs.register_b_transport(this, &DmaController::b_transport);
  regs.register_transport_dbg(this, &DmaController::transport_dbg);
  regs_.set_bank_selector([](const tlm::tlm_generic_payload& gp) { return static_cast<unsigned>(unit_of(gp)); });
  DMACTRL.on_read([this] { return DMACTRL.get() & ~uint64_t{AVP_DMACTRL_START}; }).on_write([this](uint64_t v) {
    if (v & AVP_DMACTRL_START) start();
  });
  DMASTARTSEQ.on_read([this] { return unit_state().last_started; });
  DMADONESEQ.on_read([this] { return unit_state().done_seq; }).on_write([this](uint64_t v) { wait_done(v); });
  DMASTATUS.on_read([this] { return unit_state().status; }).on_write([this](uint64_t v) {
    if (v & 1) unit_state().status = 0;
  });
  set_unit(gp_, make_unit(UnitKind::Dma, 0));
  for (unsigned c = 0; c < channels.get(); ++c) {
    channels_.push_back(std::make_unique<Channel>());
    const std::string ch = "ch" + std::to_string(c);
    channels_[c]->busy = std::make_unique<Utilisation>(this, ch + ".busy", "busy time of channel " + std::to_string(c));
    channels_[c]->occupancy = std::make_unique<Occupancy>(this, ch + ".queue_occupancy",
                                                          "transfers queued on the channel (including the one moving)", "transfers");
    Trace::instance().declare(std::string(this->name()) + "." + ch);
    sc_core::sc_spawn([this, c] { channel_thread(c); }, ("ch" + std::to_string(c)).c_str());
  }
}

DmaController::~DmaController() = default;

unsigned DmaController::outstanding(uint32_t context) const {
  auto it = outstanding_.find(context);
  return it == outstanding_.end() ? 0 : it->second;
}

void DmaController::wait_done(uint64_t n) {
  // The writer is suspended in simulated time until every transfer <= n of
  // its unit is done; the access's delay and response are taken before the
  // wait (others may be served meanwhile, register_block.h).
  UnitState& r = unit_state();
  sc_core::sc_time& delay = *regs_.current_delay();
  tlm::tlm_response_status& response = *regs_.current_response();
  const uint64_t target = std::min(n, r.last_started);
  LocalTime::sync(delay);
  while (r.done_seq < target) sc_core::wait(done_event_);
  if ((r.status & 1) && (r.status >> 32) <= target) response = tlm::TLM_GENERIC_ERROR_RESPONSE;
}

void DmaController::start() {
  const tlm::tlm_generic_payload& gp = *regs_.current_payload();
  const UnitId unit = unit_of(gp);
  const uint32_t context = context_of(gp);
  const sc_core::sc_time at = sc_core::sc_time_stamp() + *regs_.current_delay();
  UnitState& r = sets_[unit];
  auto t = std::make_shared<Transfer>();
  t->unit = unit;
  t->context = context;
  ++outstanding_[context];
  t->id = ++r.last_started;
  if (t->id == 0) t->id = ++r.last_started;  // ids skip 0 on wrap
  const uint64_t ctrl = DMACTRL.get();  // the registers of the access's bank: this unit's
  t->src = DMASRCADDR.get();
  t->dst = DMADSTADDR.get();
  const unsigned dims = (ctrl >> 4) & 3;
  t->size[0] = DMAXFERSIZE.get(0);
  t->size[1] = dims >= 2 ? DMAXFERSIZE.get(1) : 1;
  t->size[2] = dims >= 3 ? DMAXFERSIZE.get(2) : 1;
  const bool sstr = ctrl & AVP_DMACTRL_SRC_STRIDE, dstr = ctrl & AVP_DMACTRL_DST_STRIDE;
  t->src_stride[0] = sstr ? DMAXFERSRCSTRIDE.get(0) : t->size[0];
  t->src_stride[1] = sstr ? DMAXFERSRCSTRIDE.get(1) : t->size[0] * t->size[1];
  t->dst_stride[0] = dstr ? DMAXFERDSTSTRIDE.get(0) : t->size[0];
  t->dst_stride[1] = dstr ? DMAXFERDSTSTRIDE.get(1) : t->size[0] * t->size[1];
  t->issued = at;
  r.pending[t->id] = false;
  uint64_t rows = 0, total = 0;
  if (dims == 0 || t->size[0] == 0 || t->size[1] == 0 || t->size[2] == 0) {
    AVP_LOG(log_, Warn, unit_name(unit) << " transfer " << t->id << ": zero dimensions");
    t->failed = true;
  } else if (max_transfer_bytes.get() &&
             (__builtin_mul_overflow(t->size[1], t->size[2], &rows) || __builtin_mul_overflow(rows, t->size[0], &total) ||
              total > max_transfer_bytes.get())) {
    AVP_LOG(log_, Warn, unit_name(unit) << " transfer " << t->id << ": " << t->size[0] << " x " << t->size[1] << " x "
                                        << t->size[2] << " bytes is more than " << max_transfer_bytes.get() << " ("
                                        << name() << ".max_transfer_bytes)");
    t->failed = true;
  }
  // Least-loaded channel, lowest index on ties.
  unsigned best = 0;
  for (unsigned c = 1; c < channels_.size(); ++c)
    if (channels_[c]->queue.size() < channels_[best]->queue.size()) best = c;
  channels_[best]->queue.push_back(t);
  channels_[best]->occupancy->set(channels_[best]->queue.size(), at);
  channels_[best]->wake.notify(sc_core::SC_ZERO_TIME);
}

void DmaController::Pipeline::shift(const sc_core::sc_time& by) {
  const auto back = [&by](sc_core::sc_time& t) { t = t > by ? t - by : sc_core::SC_ZERO_TIME; };
  back(reads);
  back(writes);
  back(path);
  for (sc_core::sc_time& b : buffers) back(b);
}

bool DmaController::transact(bool write, uint64_t addr, unsigned n, sc_core::sc_time& at, Pipeline& p) {
  buf_.resize(n);
  prepare_payload(gp_, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, buf_.data(), n);
  const sc_core::sc_time before = sc_core::sc_time_stamp();
  mem->b_transport(gp_, at);
  p.shift(sc_core::sc_time_stamp() - before);  // a target that waited moved SystemC time under the offsets
  if (gp_.get_response_status() == tlm::TLM_OK_RESPONSE) return true;
  AVP_LOG(log_, Warn, (write ? "write" : "read") << " of " << n << " bytes at 0x" << std::hex << addr << " failed");
  return false;
}

bool DmaController::copy(uint64_t src, uint64_t dst, uint64_t len, Pipeline& p) {
  // Per burst: its read when the previous read is done and a buffer is free,
  // its write when the read and the previous write are done, then the
  // channel's own time once the write and the previous burst's are done;
  // its buffer is free after that. With one outstanding burst, one after
  // the other.
  const uint64_t burst = burst_bytes.get();
  for (uint64_t done = 0; done < len; done += burst) {
    const unsigned n = static_cast<unsigned>(std::min(burst, len - done));
    sc_core::sc_time at = p.reads;
    if (p.buffers.size() == outstanding_bursts.get()) {
      at = std::max(at, p.buffers.front());
      p.buffers.pop_front();
    }
    const auto failed = [&p, &at] {
      p.path = std::max(p.path, at);  // the transfer ends with the access that failed
      return false;
    };
    if (!transact(false, src + done, n, at, p)) return failed();
    p.reads = at;
    at = std::max(at, p.writes);
    if (!transact(true, dst + done, n, at, p)) return failed();
    p.writes = at;
    p.path = std::max(at, p.path) + sc_core::sc_time(n / bandwidth.get(), sc_core::SC_NS);
    p.buffers.push_back(p.path);
    bytes_.inc(n);
    // A long transfer keeps to the quantum like every other initiator, so
    // that it takes its chunks of a shared port's bandwidth in simulated-time
    // order with theirs instead of reserving the whole transfer at its start.
    const sc_core::sc_time next = p.buffers.size() == outstanding_bursts.get() ? std::max(p.reads, p.buffers.front())
                                                                                : p.reads;  // the next read's time
    if (next >= tlm::tlm_global_quantum::instance().get()) {
      sc_core::sc_time wait = next;
      LocalTime::sync(wait);
      p.shift(next);
    }
  }
  return true;
}

bool DmaController::move(Transfer& t, sc_core::sc_time& delay) {
  const uint64_t src_extent = (t.size[2] - 1) * t.src_stride[1] + (t.size[1] - 1) * t.src_stride[0] + t.size[0];
  const uint64_t dst_extent = (t.size[2] - 1) * t.dst_stride[1] + (t.size[1] - 1) * t.dst_stride[0] + t.size[0];
  if (t.src < t.dst + dst_extent && t.dst < t.src + src_extent) {
    AVP_LOG(log_, Warn, unit_name(t.unit) << " transfer " << t.id << ": source and destination overlap");
    return false;
  }
  Pipeline pipe{delay, delay, delay, {}};
  bool ok = true;
  for (uint64_t p = 0; ok && p < t.size[2]; ++p)
    for (uint64_t r = 0; ok && r < t.size[1]; ++r)
      ok = copy(t.src + p * t.src_stride[1] + r * t.src_stride[0], t.dst + p * t.dst_stride[1] + r * t.dst_stride[0],
                t.size[0], pipe);
  delay = pipe.path;  // the last burst's end (or, failed, that of the bursts before it)
  return ok;
}

void DmaController::channel_thread(unsigned ch) {
  Channel& c = *channels_[ch];
  for (;;) {
    while (c.queue.empty()) sc_core::wait(c.wake);
    std::shared_ptr<Transfer> t = c.queue.front();
    if (t->issued > sc_core::sc_time_stamp()) sc_core::wait(t->issued - sc_core::sc_time_stamp());
    const sc_core::sc_time begin = sc_core::sc_time_stamp();
    LocalTime time;  // the transfer's: set-up and its reads and writes, synced when it is done
    time.add(setup_latency.get());
    set_context(gp_, t->context);
    if (!t->failed && !time.annotate([&](sc_core::sc_time& delay) { return move(*t, delay); })) t->failed = true;
    time.sync();
    c.queue.pop_front();
    c.occupancy->set(c.queue.size());
    c.busy->add_busy(begin, sc_core::sc_time_stamp());
    Trace::instance().slice(std::string(name()) + ".ch" + std::to_string(ch),
                            unit_name(t->unit) + " #" + std::to_string(t->id), begin, sc_core::sc_time_stamp(),
                            {{"src", t->src}, {"dst", t->dst}, {"failed", t->failed}});
    if (TextTrace::instance().on(kTraceDma)) trace_transfer(ch, *t, begin);
    complete(*t);
  }
}

void DmaController::trace_transfer(unsigned ch, const Transfer& t, const sc_core::sc_time& begin) const {
  std::ostringstream os;
  os << "dma " << unit_name(t.unit) << " #" << t.id << " src 0x" << std::hex << t.src << " dst 0x" << t.dst << std::dec
     << " size " << t.size[0] << "x" << t.size[1] << "x" << t.size[2] << " strides src " << t.src_stride[0] << ","
     << t.src_stride[1] << " dst " << t.dst_stride[0] << "," << t.dst_stride[1] << (t.failed ? " FAILED" : "")
     << " took " << format_time(sc_core::sc_time_stamp() - begin);
  TextTrace::instance().line(to_ps(begin), std::string(name()) + ".ch" + std::to_string(ch), os.str());
}

void DmaController::complete(Transfer& t) {
  UnitState& r = sets_[t.unit];
  r.pending[t.id] = true;
  if (--outstanding_[t.context] == 0) outstanding_.erase(t.context);
  transfers_.inc();
  latency_.sample((sc_core::sc_time_stamp() - t.issued).to_seconds() * 1e9);
  if (t.failed) {
    errors_.inc();
    if (!(r.status & 1)) r.status = 1 | (t.id << 32);
    irq.signal(AVP_INTR_DMA_ERROR);
  }
  // Ids retire in order: done_seq is the highest id with all earlier ones done.
  for (auto it = r.pending.find(r.done_seq + 1); it != r.pending.end() && it->second; it = r.pending.find(r.done_seq + 1)) {
    r.pending.erase(it);
    ++r.done_seq;
  }
  done_event_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace avp

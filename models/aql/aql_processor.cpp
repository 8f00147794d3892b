#include "aql/aql_processor.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "base/payload.h"
#include "base/text_trace.h"
#include "base/trace.h"
#include "base/unit.h"
#include "pcie/bar0_regs.h"
#include "pcie/pcie_atomic.h"

namespace avp {

using namespace aql;

namespace {

// A packet's fields for the text trace.
std::string describe_packet(const uint8_t* raw) {
  std::ostringstream os;
  os << std::hex;
  if ((raw[0]) == kKernelDispatch) {
    hsa_kernel_dispatch_packet_t p;
    std::memcpy(&p, raw, 64);
    os << "dispatch dims " << (p.setup & 3) << std::dec << " grid " << p.grid_size_x << "x" << p.grid_size_y << "x"
       << p.grid_size_z << " workgroup " << p.workgroup_size_x << "x" << p.workgroup_size_y << "x" << p.workgroup_size_z
       << std::hex << " kernel_object 0x" << p.kernel_object << " kernarg 0x" << p.kernarg_address << " signal 0x"
       << p.completion_signal;
  } else if (raw[0] == kAgentDispatch) {
    hsa_agent_dispatch_packet_t p;
    std::memcpy(&p, raw, 64);
    os << "agent function " << std::dec << p.type << std::hex << " args 0x" << p.arg[0] << " 0x" << p.arg[1] << " 0x"
       << p.arg[2] << " 0x" << p.arg[3] << " signal 0x" << p.completion_signal;
  } else {
    hsa_barrier_packet_t p;
    std::memcpy(&p, raw, 64);
    os << (raw[0] == kBarrierAnd ? "barrier-and" : "barrier-or") << " deps";
    for (uint64_t d : p.dep_signal) os << " 0x" << d;
    os << " signal 0x" << p.completion_signal;
  }
  return os.str();
}
}  // namespace

AqlProcessor::AqlProcessor(sc_core::sc_module_name name, HartControl& harts, const AddressMap& map)
    : sc_module(name),
      bus("bus"),
      queues(this, "queues", 4, "AQL queues that can be registered"),
      max_group_segment(this, "max_group_segment", 64 * 1024, "largest group segment a dispatch may ask for (bytes)"),
      max_private_segment(this, "max_private_segment", 16 * 1024, "largest private segment per work-item (bytes)"),
      max_workgroup_size(this, "max_workgroup_size", 1024, "largest work-group (work-items), as AMD's agents"),
      packet_latency(this, "packet_latency", sc_core::sc_time(20, sc_core::SC_NS), "decode and set-up of one packet"),
      launch_latency(this, "launch_latency", sc_core::sc_time(20, sc_core::SC_NS), "setting up one work-group on a hart"),
      poll_interval(this, "poll_interval", sc_core::sc_time(200, sc_core::SC_NS), "how often an unsatisfied barrier is checked"),
      harts_(harts), map_(map),
      log_(this->name()),
      packets_(this, "packets", "AQL packets retired", "packets"),
      dispatches_(this, "dispatches", "kernel dispatches", "dispatches"),
      barriers_(this, "barriers", "barrier packets", "packets"),
      agent_dispatches_(this, "agent_dispatches", "agent dispatch packets", "packets"),
      errors_(this, "errors", "queues stopped by an error", "errors"),
      workgroups_(this, "workgroups", "work-groups run on harts", "work-groups"),
      dispatch_latency_(this, "dispatch_latency", "doorbell-to-completion time of kernel dispatches", "ns"),
      fetch_to_launch_(this, "fetch_to_launch", "packet fetch to first work-group start of kernel dispatches", "ns"),
      end_to_signal_(this, "end_to_signal", "last work-group end to completion-signal update", "ns"),
      busy_(this, "busy", "time serving packets, from fetch to retirement") {
  q_.resize(queues.get());
  for (unsigned q = 0; q < q_.size(); ++q) {
    q_[q].occupancy = std::make_unique<Occupancy>(this, "q" + std::to_string(q) + ".queue_occupancy",
                                                  "packets announced by the doorbell and not yet retired", "packets");
    q_[q].track = std::string(this->name()) + ".q" + std::to_string(q);
    Trace::instance().declare(q_[q].track);
  }
  set_unit(gp_, kCmpUnit);
  map_registers();
  SC_HAS_PROCESS(AqlProcessor);
  SC_THREAD(thread);
}

void AqlProcessor::map_registers() {
  ENABLE.on_read([this](unsigned q) { return uint32_t{q_[q].active}; }).on_write([this](unsigned q, uint32_t v) {
    if (v & 1) enable(q);
    else q_[q].active = false;
  });
  STATUS.on_read([this](unsigned q) { return uint32_t{q_[q].active} | (q_[q].error ? 2u : 0u); });
  ERROR.on_read([this](unsigned q) { return q_[q].error; });
  SIZE.on_read([this](unsigned q) { return static_cast<uint32_t>(q_[q].size); });
  RING_BASE.on_read([this](unsigned q) { return q_[q].ring; });
  // A write that covers the low dword rings with the whole id (a 64-bit write,
  // or the low half after the high one); a high-half write only stores it.
  DOORBELL.on_write([this](unsigned q, uint64_t id, uint64_t mask) {
    if (mask & 0xFFFF'FFFFull) doorbell(q, id);
  });
}

void AqlProcessor::enable(unsigned q) {
  Queue& Q = q_[q];
  Q.amd_queue = QUEUE_ADDR.get(q);
  Q.error = kErrNone;
  hsa_queue_t h{};
  if (!host_read(Q.amd_queue, &h, sizeof h) || h.size == 0 || (h.size & (h.size - 1)) || (Q.amd_queue & 63)) {
    fail(q, kErrMemory, "cannot read a valid hsa_queue_t (64-byte aligned, power-of-two size) at the registered address");
    return;
  }
  Q.ring = h.base_address;
  Q.size = h.size;
  Q.active = true;
  Q.blocked_until = sc_core::SC_ZERO_TIME;
  ring();
}

void AqlProcessor::ring() {
  // Remembered, so a doorbell that rings while the processor is busy is not lost.
  doorbell_pending_ = true;
  doorbell_.notify(sc_core::SC_ZERO_TIME);
}

namespace {
// The timeline's flow id of packet `id` of queue `q` (queues below 256).
uint64_t flow_id(unsigned q, uint64_t id) { return kFlowAql | uint64_t{q & 0xFF} << 36 | (id & ((1ull << 36) - 1)); }
}  // namespace

void AqlProcessor::doorbell(unsigned q, uint64_t id) {
  Queue& Q = q_[q];
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  Q.doorbells.emplace_back(id, now);
  Q.announced = std::max(Q.announced, id + 1);
  Q.occupancy->set(Q.announced > Q.retired ? Q.announced - Q.retired : 0);
  const std::string& track = Q.track;
  Trace::instance().slice(track, "doorbell", now, now, {{"id", id}});
  Trace::instance().flow_begin(track, flow_id(q, id), now, "aql packet");
  ring();
}

void AqlProcessor::retired(unsigned q, uint64_t id, uint8_t type, const sc_core::sc_time& start) {
  const bool dispatch = type == kKernelDispatch;
  Queue& Q = q_[q];
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const std::string& track = Q.track;
  Trace& tr = Trace::instance();
  tr.slice(track, dispatch ? "dispatch" : type == kAgentDispatch ? "agent dispatch" : "barrier", start, now, {{"id", id}});
  busy_.add_busy(start, now);
  // The doorbell that announced this packet is the first one with a packet id >= id;
  // a packet found without a doorbell counts from when processing started.
  sc_core::sc_time rung = start;
  for (const auto& [db_id, at] : Q.doorbells)
    if (db_id >= id) {
      rung = std::min(at, start);
      break;
    }
  if (dispatch) dispatch_latency_.sample((now - rung).to_seconds() * 1e9);
  while (!Q.doorbells.empty() && Q.doorbells.front().first <= id) {
    if (Q.doorbells.front().first == id) {
      tr.slice(track, "completed", now, now, {{"id", id}});
      tr.flow_end(track, flow_id(q, id), now, "aql packet");
    }
    Q.doorbells.pop_front();
  }
  Q.retired = std::max(Q.retired, id + 1);
  Q.occupancy->set(Q.announced > Q.retired ? Q.announced - Q.retired : 0);
}

void AqlProcessor::fail(unsigned q, QueueError e, const std::string& why) {
  Queue& Q = q_[q];
  Q.error = e;
  Q.active = false;
  errors_.inc();
  AVP_LOG(log_, Warn, "queue " << q << " stopped: " << why);
  // As AMD's CP does: the error goes to the queue's inactive signal.
  uint64_t inactive = 0;
  if (Q.amd_queue && host_read(Q.amd_queue + offsetof(amd_queue_t, queue_inactive_signal), &inactive, 8) && inactive) {
    const int64_t v = e;
    host_write(inactive + offsetof(amd_signal_t, value), &v, 8);
  }
  time_.sync();
  irq.signal(AVP_INTR_AQL_ERROR);
}

void AqlProcessor::thread() {
  for (;;) {
    bool progress = false;
    doorbell_pending_ = false;
    for (unsigned k = 0; k < q_.size() && !progress; ++k) {
      const unsigned q = (next_ + k) % q_.size();
      if (!q_[q].active || q_[q].blocked_until > sc_core::sc_time_stamp()) continue;
      const bool retired = service(q);
      time_.sync();  // the reads of a packet or of barrier dependencies take link time even when nothing retires
      if (q_[q].barrier_waiting) {
        q_[q].barrier_waiting = false;
        q_[q].blocked_until = sc_core::sc_time_stamp() + poll_interval.get();
      }
      if (retired) {
        progress = true;
        next_ = (q + 1) % q_.size();  // round robin: the next queue goes first next time
      }
    }
    if (progress || doorbell_pending_) continue;
    // Nothing to do: sleep until a doorbell or until a blocked barrier is due for another look.
    sc_core::sc_time wake = sc_core::SC_ZERO_TIME;
    for (const Queue& Q : q_)
      if (Q.active && Q.blocked_until > sc_core::sc_time_stamp() && (wake == sc_core::SC_ZERO_TIME || Q.blocked_until < wake))
        wake = Q.blocked_until;
    if (wake > sc_core::SC_ZERO_TIME) sc_core::wait(wake - sc_core::sc_time_stamp(), doorbell_);
    else sc_core::wait(doorbell_);
  }
}

bool AqlProcessor::service(unsigned q) {
  Queue& Q = q_[q];
  // write_dispatch_id, then the packet processor's cache line of amd_queue_t
  // (read_dispatch_id .. queue_properties), as AMD's CP fetches them.
  uint64_t write_id = 0;
  uint8_t line[64];
  if (!host_read(Q.amd_queue + offsetof(amd_queue_t, write_dispatch_id), &write_id, 8) ||
      !host_read(Q.amd_queue + offsetof(amd_queue_t, read_dispatch_id), line, sizeof line)) {
    fail(q, kErrMemory, "cannot read the dispatch ids");
    return false;
  }
  uint64_t read_id;
  uint32_t properties;
  std::memcpy(&read_id, line, 8);
  std::memcpy(&properties, line + offsetof(amd_queue_t, queue_properties) - offsetof(amd_queue_t, read_dispatch_id), 4);
  if (read_id >= write_id) return false;
  const uint64_t at = Q.ring + (read_id % Q.size) * 64;
  uint8_t raw[64];
  if (!host_read(at, raw, 64)) {
    fail(q, kErrMemory, "cannot read packet " + std::to_string(read_id));
    return false;
  }
  const sc_core::sc_time start = time_.now();
  uint16_t header;
  std::memcpy(&header, raw, 2);
  const uint8_t type = header & 0xFF;
  if (type == kInvalid) return false;  // the producer has not published it yet: stall
  const std::string packet = "packet " + std::to_string(read_id);
  if (const QueueError e = check_header(header)) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%04x", header);
    fail(q, e, packet + " has an invalid header " + hex);
    return false;
  }
  time_.add(packet_latency.get());
  uint64_t signal = 0;
  if (type == kKernelDispatch) {
    hsa_kernel_dispatch_packet_t p;
    std::memcpy(&p, raw, 64);
    last_ = DispatchTimes{};
    last_.fetched = start;
    if (dispatch(q, read_id, at, p) != kErrNone) return false;
    signal = p.completion_signal;
    dispatches_.inc();
  } else if (type == kAgentDispatch) {
    hsa_agent_dispatch_packet_t p;
    std::memcpy(&p, raw, 64);
    std::string why;
    acquire_fence(header);
    if (const QueueError e = agent_dispatch(p, why)) {
      fail(q, e, packet + ": " + why);
      return false;
    }
    release_fence(header);
    signal = p.completion_signal;
    agent_dispatches_.inc();
  } else {
    hsa_barrier_packet_t p;
    std::memcpy(&p, raw, 64);
    const Barrier b = barrier_state(p, type == kBarrierAnd);
    if (b == Barrier::Unreadable) {
      fail(q, kErrMemory, packet + ": a dependency signal is not readable");
      return false;
    }
    if (b == Barrier::Waiting) {
      Q.barrier_waiting = true;  // looked at again poll_interval after this check has finished
      return false;
    }
    acquire_fence(header);
    release_fence(header);
    signal = p.completion_signal;
    barriers_.inc();
  }
  // In-order retirement: header back to INVALID, then read_dispatch_id.
  const uint16_t invalid = kInvalid;
  const uint64_t next = read_id + 1;
  if (!host_write(at, &invalid, 2) || !host_write(Q.amd_queue + offsetof(amd_queue_t, read_dispatch_id), &next, 8)) {
    fail(q, kErrMemory, packet + ": cannot retire it");
    return false;
  }
  packets_.inc();
  if (signal && !complete(signal, start, properties & kQueuePropertiesEnableProfiling, type == kKernelDispatch ? &last_ : nullptr)) {
    fail(q, kErrMemory, packet + ": cannot update its completion signal");
    return false;
  }
  time_.sync();
  retired(q, read_id, type, start);
  if (TextTrace::instance().on(kTraceAql))
    TextTrace::instance().line(to_ps(start), Q.track,
                               "aql #" + std::to_string(read_id) + " " + describe_packet(raw) + ", took " +
                                   format_time(sc_core::sc_time_stamp() - start));
  return true;
}

QueueError AqlProcessor::check_header(uint16_t header) const {
  const uint8_t type = header & 0xFF;
  if (type == kVendor) return kErrVendorPacket;
  if (type != kKernelDispatch && type != kBarrierAnd && type != kBarrierOr && type != kAgentDispatch) return kErrInvalidPacket;
  if ((header & kHeaderReserved) || ((header >> kAcquireShift) & 3) == 3 || ((header >> kReleaseShift) & 3) == 3)
    return kErrInvalidPacket;
  return kErrNone;
}

AqlProcessor::Barrier AqlProcessor::barrier_state(const hsa_barrier_packet_t& p, bool is_and) {
  bool any = false, all = true;
  for (uint64_t dep : p.dep_signal) {
    if (!dep) continue;  // a null dependency: satisfied for AND, unsatisfied for OR
    int64_t v = 1;
    if (!host_read(dep + offsetof(amd_signal_t, value), &v, 8)) return Barrier::Unreadable;
    any |= v == 0;
    all &= v == 0;
  }
  return (is_and ? all : any) ? Barrier::Satisfied : Barrier::Waiting;
}

// Device memory is coherent with the host; the harts' caches are timing models.
// An agent- or system-scope acquire invalidates the harts' instruction caches
// (and decoded code: the host may have loaded new code) and data caches; a
// release writes their dirty lines back. Each costs the cluster's flush time.
void AqlProcessor::acquire_fence(uint16_t header) {
  if ((header >> kAcquireShift) & 3) time_.add(harts_.invalidate_icaches() + harts_.flush_dcaches());
}

void AqlProcessor::release_fence(uint16_t header) {
  if ((header >> kReleaseShift) & 3) time_.add(harts_.flush_dcaches());
}

bool AqlProcessor::complete(uint64_t signal, const sc_core::sc_time& start, bool profiling, DispatchTimes* times) {
  // Timestamps first, so a waiter that sees the new value reads them valid.
  if (profiling) {
    const uint64_t ts[2] = {static_cast<uint64_t>(start.to_seconds() * 1e9),
                            static_cast<uint64_t>(time_.now().to_seconds() * 1e9)};
    if (!host_write(signal + offsetof(amd_signal_t, start_ts), ts, 16)) return false;
  }
  if (!atomic_add(signal + offsetof(amd_signal_t, value), -1)) return false;
  time_.sync();
  if (times) {
    times->signal_updated = sc_core::sc_time_stamp();
    end_to_signal_.sample((times->signal_updated - times->last_end).to_seconds() * 1e9);
  }
  struct {
    uint64_t mailbox;
    uint32_t event_id;
  } ev{};
  static_assert(offsetof(amd_signal_t, event_id) - offsetof(amd_signal_t, event_mailbox_ptr) == 8);
  if (!host_read(signal + offsetof(amd_signal_t, event_mailbox_ptr), &ev, 12)) return false;
  if (ev.mailbox && !host_write(ev.mailbox, &ev.event_id, 4)) return false;
  time_.sync();
  if (times) times->interrupt = sc_core::sc_time_stamp();
  irq.signal(AVP_INTR_AQL_SIGNAL);
  return true;
}

// ---- memory ----

bool AqlProcessor::device_read(uint64_t addr, void* d, unsigned n) {
  prepare_payload(gp_, tlm::TLM_READ_COMMAND, addr, d, n);
  time_.annotate([&](sc_core::sc_time& delay) { bus->b_transport(gp_, delay); });
  return gp_.get_response_status() == tlm::TLM_OK_RESPONSE;
}

bool AqlProcessor::device_write(uint64_t addr, const void* d, unsigned n) {
  prepare_payload(gp_, tlm::TLM_WRITE_COMMAND, addr, d, n);
  time_.annotate([&](sc_core::sc_time& delay) { bus->b_transport(gp_, delay); });
  return gp_.get_response_status() == tlm::TLM_OK_RESPONSE;
}

bool AqlProcessor::host_read(uint64_t pa, void* d, unsigned n) { return device_read(map_.host_window + pa, d, n); }

bool AqlProcessor::host_write(uint64_t pa, const void* d, unsigned n) { return device_write(map_.host_window + pa, d, n); }

bool AqlProcessor::atomic_add(uint64_t pa, int64_t v) {
  tlm::tlm_generic_payload gp;
  set_unit(gp, kCmpUnit);
  PcieAtomicExtension ext;
  ext.op = PcieAtomicExtension::FetchAdd;
  ext.operand = static_cast<uint64_t>(v);
  gp.set_extension(&ext);
  uint64_t old = 0;
  prepare_payload(gp, tlm::TLM_WRITE_COMMAND, map_.host_window + pa, &old, 8);
  time_.annotate([&](sc_core::sc_time& delay) { bus->b_transport(gp, delay); });
  gp.clear_extension(&ext);
  return gp.get_response_status() == tlm::TLM_OK_RESPONSE;
}

}  // namespace avp

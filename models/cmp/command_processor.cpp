#include "cmp/command_processor.h"

#include <cstring>
#include <sstream>

#include "base/local_time.h"
#include "base/text_trace.h"
#include "base/trace.h"
#include "base/unit.h"
#include "pcie/bar0_regs.h"

namespace avp {

namespace {
constexpr uint32_t kCmdbufDone = AVP_INTR_CMDBUF_DONE, kCmpError = AVP_INTR_CMP_ERROR, kQueueFull = AVP_INTR_CMP_QUEUE_FULL;

std::vector<CounterArray::Element> opcode_counters() {
  std::vector<CounterArray::Element> e;
  for (unsigned op = AVP_CMP_NOP; op <= AVP_CMP_SYNC_CACHE; ++op) e.push_back({cmp_opcode_name(op), "packets executed", ""});
  return e;
}
}

CommandProcessor::CommandProcessor(sc_core::sc_module_name name, HartControl& harts, WindowUnit& windows)
    : sc_module(name),
      bus("bus"),
      fetch_latency(this, "fetch_latency", sc_core::sc_time(2, sc_core::SC_NS), "fixed cost of fetching one chunk (plus memory latency)"),
      decode_latency(this, "decode_latency", sc_core::sc_time(1, sc_core::SC_NS), "time per decode cycle of a packet"),
      execute_latency(this, "execute_latency", sc_core::sc_time(4, sc_core::SC_NS), "fixed cost of executing a packet"),
      complete_latency(this, "complete_latency", sc_core::sc_time(10, sc_core::SC_NS), "completing a buffer (counter, interrupt)"),
      launch_latency(this, "launch_latency", sc_core::sc_time(20, sc_core::SC_NS), "setting up one kernel instance on a hart"),
      queue_depth(this, "queue_depth", 16, "command buffers the queue holds"),
      kernel_watchdog(this, "kernel_watchdog", sc_core::sc_time(1, sc_core::SC_SEC),
                      "a RUN_* command not finished this long after it started fails with a timeout and its harts "
                      "are stopped (0 = no watchdog)"),
      max_copy_elements(this, "max_copy_elements", 1u << 20,
                        "largest COPY_MEM64 count; a larger one fails the command without copying (0 = no limit)"),
      finish_required(this, "finish_required", true,
                      "a buffer must end with FINISH (error 7 otherwise); false: reaching the end of the buffer "
                      "completes it like FINISH, as on Codeplay's RefSi device"),
      failure_exit_status(this, "failure_exit_status", 0,
                          "exit status of a run whose workload succeeded while a command buffer failed (0: the "
                          "workload's status stands)"),
      decoder(this, "decoder", "tlm", "packet decoder: tlm, rtl (the Verilated decoder of rtl/) or lockstep (both, compared)"),
      rtl_vcd(this, "rtl_vcd", "", "VCD file of the RTL decoder's pins (decoder rtl or lockstep; empty: none)"),
      rtl_coverage(this, "rtl_coverage", "",
                   "Verilator coverage .dat of the RTL decoder (decoder rtl or lockstep; report beside it in FILE.txt; "
                   "empty: none)"),
      mirror("mirror", *this),
      harts_(harts),
      windows_(windows),
      log_(this->name()),
      buffers_(this, "buffers", "command buffers completed with FINISH", "buffers"),
      failed_buffers_(this, "failed_buffers", "command buffers stopped by an error", "buffers"),
      packets_(this, "packets", "packets executed", "packets"),
      queue_full_(this, "queue_full", "submissions refused because the queue was full", "submissions"),
      instances_(this, "instances", "kernel instances run", "instances"),
      per_opcode_(this, "op.", opcode_counters(), "packets"),
      command_latency_(this, "command_latency", "time per packet from header fetch to completion", "ns"),
      buffer_latency_(this, "buffer_latency", "time from submission to completion of a buffer", "ns"),
      kernel_latency_(this, "kernel_latency", "time of a RUN_* command", "ns"),
      queue_occupancy_(this, "queue_occupancy", "command buffers submitted and not finished (waiting or executing)", "buffers"),
      busy_time_(this, "busy", "time the CMP executes buffers") {
  decoder_impl_ = std::make_unique<TlmPacketDecoder>();
  set_unit(gp_, kCmpUnit);
  for (const char* track : {"", ".queue", ".dispatch"}) Trace::instance().declare(std::string(this->name()) + track);
  SC_HAS_PROCESS(CommandProcessor);
  SC_THREAD(thread);
}

void CommandProcessor::raise(uint32_t bits) { irq.signal(bits); }

bool CommandProcessor::submit(uint64_t addr, uint64_t size) { return submit_for(addr, size, kNoContext, nullptr); }

bool CommandProcessor::submit_for(uint64_t addr, uint64_t size, uint32_t context, std::function<void(bool)> on_end) {
  if (queue_.size() >= queue_depth.get()) {
    queue_full_.inc();
    AVP_LOG(log_, Warn, "queue full: command buffer at 0x" << std::hex << addr << " refused");
    raise(kQueueFull);
    return false;
  }
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  queue_.push_back({addr, size, now, ++submitted_, context, std::move(on_end)});
  queue_occupancy_.set(queue_.size() + busy_);
  Trace& tr = Trace::instance();
  tr.slice(std::string(name()) + ".queue", "doorbell", now, now, {{"addr", addr}, {"size", size}, {"buffer", submitted_}});
  tr.flow_begin(std::string(name()) + ".queue", kFlowCmp | submitted_, now, "command buffer");
  queue_event_.notify(sc_core::SC_ZERO_TIME);
  return true;
}

unsigned CommandProcessor::free_slots() const { return queue_depth.get() - static_cast<unsigned>(queue_.size()); }

CmpStatusWord CommandProcessor::status() const {
  CmpStatusWord s = status_;
  s.busy = busy_ || !queue_.empty();
  return s;
}

void CommandProcessor::reset() {
  std::deque<Buffer> dropped;
  dropped.swap(queue_);
  for (Buffer& b : dropped)
    if (b.on_end) b.on_end(false);
  queue_occupancy_.set(busy_);
  status_ = CmpStatusWord{};
  std::memset(regs_, 0, sizeof(regs_));
}

void CommandProcessor::thread() {
  for (;;) {
    while (queue_.empty()) {
      idle_event_.notify(sc_core::SC_ZERO_TIME);
      sc_core::wait(queue_event_);
    }
    const Buffer b = queue_.front();
    queue_.pop_front();
    busy_ = true;
    const sc_core::sc_time begin = sc_core::sc_time_stamp();
    context_ = b.context;
    set_context(gp_, b.context);
    const bool ok = run_buffer(b);
    context_ = kNoContext;
    set_context(gp_, kNoContext);
    busy_time_.add_busy(begin, sc_core::sc_time_stamp());
    Trace::instance().slice(name(), ok ? "buffer" : "buffer (error)", begin, sc_core::sc_time_stamp(),
                            {{"addr", b.addr}, {"size", b.size}});
    buffer_latency_.sample((sc_core::sc_time_stamp() - b.submitted).to_seconds() * 1e9);
    busy_ = false;
    queue_occupancy_.set(queue_.size());
    if (b.on_end) b.on_end(ok);
  }
}

void CommandProcessor::trace_command(const Buffer& b, uint64_t offset, const DecodedCommand& c,
                                     const sc_core::sc_time& start, const Failure& f) const {
  std::ostringstream os;
  os << "cmp " << c.describe() << " buffer 0x" << std::hex << b.addr << " offset 0x" << offset;
  for (uint32_t i = 0; i < c.payload_chunks && i < 8; ++i) os << (i ? ",0x" : " payload 0x") << c.payload[i];
  os << std::dec << " took " << format_time(sc_core::sc_time_stamp() - start);
  if (f.code) os << " -> " << cmp_error_name(f.code) << (f.what.empty() ? "" : ": " + f.what);
  TextTrace::instance().line(to_ps(start), name(), os.str());
}

// The end of a buffer's doorbell-to-completion arrow on the timeline.
void CommandProcessor::trace_end(const Buffer& b, const char* what) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  Trace::instance().slice(name(), what, now, now, {{"buffer", b.seq}});
  Trace::instance().flow_end(name(), kFlowCmp | b.seq, now, "command buffer");
}

void CommandProcessor::fail(const Buffer& b, uint64_t offset, unsigned opcode, const Failure& f) {
  failed_buffers_.inc();
  ++failed_;
  status_.error_code = f.code;
  status_.error_offset = offset;
  status_.error_info = (opcode & 0xFF) | (f.hart_valid ? (f.hart & 0xFFFF) << 8 | 1u << 31 : 0);
  status_.error_pc = f.pc;
  status_.error_cause = f.cause;
  AVP_LOG(log_, Error, "command buffer at 0x" << std::hex << b.addr << " failed at offset 0x" << offset << std::dec
                                             << " (" << cmp_opcode_name(opcode) << "): " << cmp_error_name(f.code)
                                             << (f.what.empty() ? "" : ": " + f.what));
  trace_end(b, "error interrupt");
  raise(kCmpError);
}

// FINISH, or the end of the buffer when FINISH is not required.
void CommandProcessor::complete(const Buffer& b, LocalTime& time) {
  time.add(complete_latency.get());
  time.sync();
  trace_end(b, "completion interrupt");
  ++completed_;
  buffers_.inc();
  raise(kCmdbufDone);
}

bool CommandProcessor::run_buffer(const Buffer& b) {
  uint64_t offset = 0;
  for (;;) {
    const sc_core::sc_time start = sc_core::sc_time_stamp();
    LocalTime time;  // the packet's fetch, decode and execute; synced when it completes
    const size_t remaining = static_cast<size_t>((b.size - std::min(offset, b.size)) / 8);
    uint64_t chunks[9] = {};
    if (remaining == 0) {
      if (!finish_required.get()) {
        complete(b, time);
        return true;
      }
      fail(b, offset, 0, {AVP_CMP_ERR_NO_FINISH, "the buffer ended without FINISH"});
      return false;
    }
    // Fetch header.
    time.add(fetch_latency.get());
    // A failed packet reports its error after the time it took so far.
    if (!time.annotate([&](sc_core::sc_time& d) { return read_block(b.addr + offset, &chunks[0], 8, d); })) {
      time.sync();
      fail(b, offset, 0, {AVP_CMP_ERR_MEMORY, "cannot fetch the packet header"});
      return false;
    }
    // Fetch body (valid packets have at most 8 payload chunks; NOP payloads are skipped).
    const uint64_t h = chunks[0];
    const unsigned body = (h & AVP_CMP_HEADER_MASK) == AVP_CMP_HEADER_VALUE && AVP_CMP_HEADER_OPCODE(h) != AVP_CMP_NOP
                              ? std::min<unsigned>(AVP_CMP_HEADER_COUNT(h) / 2, 8)
                              : 0;
    const unsigned have = static_cast<unsigned>(std::min<size_t>(body, remaining - 1));
    if (have) {
      time.add(fetch_latency.get() * have);
      if (!time.annotate([&](sc_core::sc_time& d) { return read_block(b.addr + offset + 8, &chunks[1], have * 8, d); })) {
        time.sync();
        fail(b, offset, AVP_CMP_HEADER_OPCODE(h), {AVP_CMP_ERR_MEMORY, "cannot fetch the packet body"});
        return false;
      }
    }
    // Decode.
    decoder_impl_->set_time(to_ps(sc_core::sc_time_stamp() + time.offset()), to_ps(decode_latency.get()));
    const DecodedCommand c = decoder_impl_->decode(chunks, remaining);
    time.add(decode_latency.get() * c.cycles);
    if (c.error) {
      time.sync();
      fail(b, offset, c.opcode, {c.error, c.describe()});
      return false;
    }
    // Execute.
    time.add(execute_latency.get());
    const Failure f = time.annotate([&](sc_core::sc_time& d) { return execute(c, d); });
    time.sync();
    packets_.inc();
    per_opcode_[c.opcode].inc();
    command_latency_.sample((sc_core::sc_time_stamp() - start).to_seconds() * 1e9);
    Trace::instance().slice(name(), cmp_opcode_name(c.opcode), start, sc_core::sc_time_stamp(), {{"offset", offset}});
    if (TextTrace::instance().on(kTraceCmp)) trace_command(b, offset, c, start, f);
    if (f.code) {
      fail(b, offset, c.opcode, f);
      return false;
    }
    if (c.opcode == AVP_CMP_FINISH) {
      complete(b, time);
      return true;
    }
    offset += 8 * (1 + static_cast<uint64_t>(c.payload_chunks));
  }
}

}  // namespace avp

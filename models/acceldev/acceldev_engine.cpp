#include "acceldev/acceldev_engine.h"

#include <algorithm>
#include <vector>

#include "base/local_time.h"
#include "base/trace.h"
#include "pcie/bar0_regs.h"

namespace avp {

AcceldevEngine::AcceldevEngine(sc_core::sc_module_name name, HostAccess host, CmpPort cmp)
    : sc_module(name),
      decode_latency(this, "decode_latency", sc_core::sc_time(10, sc_core::SC_NS), "decoding one device command"),
      user_command_latency(this, "user_command_latency", sc_core::sc_time(5, sc_core::SC_NS), "decoding one user command"),
      fill_bandwidth(this, "fill_bandwidth", 8.0, "bytes per ns the FILL engine produces (the link adds its own time)"),
      host_(std::move(host)),
      cmp_(std::move(cmp)),
      log_(this->name()),
      device_commands_(this, "device_commands", "device commands executed", "commands"),
      user_commands_(this, "user_commands", "user commands executed", "commands"),
      feed_errors_(this, "feed_errors", "commands dropped because the queue was full", "commands"),
      context_errors_(this, "context_errors", "contexts marked in error", "errors"),
      skipped_runs_(this, "skipped_runs", "RUN commands skipped because their context was in error", "commands"),
      fill_bytes_(this, "fill_bytes", "bytes written by FILL", "bytes"),
      cmp_submits_(this, "cmp_submits", "CMP_SUBMIT user commands that reached the command processor", "commands"),
      cmp_submit_errors_(this, "cmp_submit_errors", "submitted command buffers that the command processor failed",
                         "commands"),
      context_faults_(this, "context_faults",
                      "device accesses on behalf of a context refused by its page tables (context isolation)", "accesses"),
      cmp_submit_latency_(this, "cmp_submit_latency", "CMP_SUBMIT from the staging copy's end to the buffer's end", "ns") {
  map_registers();
  SC_HAS_PROCESS(AcceldevEngine);
  SC_THREAD(thread);
  SC_METHOD(raise_deferred);
  sensitive << deferred_mem_error_;
  dont_initialize();
}

void AcceldevEngine::raise_deferred() { irq.signal(ACCELDEV_INTR_MEM_ERROR); }

void AcceldevEngine::context_fault(uint32_t ctx, sc_core::sc_time& delay) {
  context_faults_.inc();
  if (ctx >= ACCELDEV_MAX_CONTEXTS || faulted_[ctx]) return;
  faulted_[ctx] = true;
  ++faults_[ctx];
  uint8_t status = 0;
  if (!contexts_ || !host_(false, config_addr(ctx) + ACCELDEV_CONFIG_STATUS, &status, 1, delay) ||
      (status & ACCELDEV_CONTEXT_STATUS_ERROR))
    return;  // already in error: no second interrupt
  status |= ACCELDEV_CONTEXT_STATUS_ERROR;
  host_(true, config_addr(ctx) + ACCELDEV_CONFIG_STATUS, &status, 1, delay);
  context_errors_.inc();
  AVP_LOG(log_, Warn, "context " << ctx << ": device access outside its page tables (MEM_ERROR)");
  deferred_mem_error_.notify(delay);
}

void AcceldevEngine::map_registers() {
  ENABLE.on_read([this] { return enable_; }).on_write([this](uint32_t v) {
    enable_ = v;
    wake_.notify(sc_core::SC_ZERO_TIME);
  });
  CONTEXTS_CONFIGS_LO.on_read([this] { return static_cast<uint32_t>(contexts_); })
      .on_write([this](uint32_t v) { contexts_ = (contexts_ & ~0xFFFFFFFFull) | v; });
  CONTEXTS_CONFIGS_HI.on_read([this] { return static_cast<uint32_t>(contexts_ >> 32); })
      .on_write([this](uint32_t v) { contexts_ = (contexts_ & 0xFFFFFFFFull) | static_cast<uint64_t>(v) << 32; });
  CMD_MANUAL_FREE.on_read([this] { return static_cast<uint32_t>(ACCELDEV_CMDS_BUFFER_SIZE - queue_.size()); })
      .on_write([this](uint32_t v) { feed(0, v); });
  CMD_MANUAL_FEED.on_write([this](unsigned i, uint32_t v) { feed(i + 1, v); });
  CMD_FENCE_LAST.on_read([this] { return fence_last_; }).on_write([this](uint32_t v) { fence_last_ = v; });
  CMD_FENCE_WAIT.on_read([this] { return fence_wait_; }).on_write([this](uint32_t v) { fence_wait_ = v; });
}

void AcceldevEngine::reset() {
  std::fill(faulted_.begin(), faulted_.end(), false);
  enable_ = fence_last_ = fence_wait_ = 0;
  std::fill(std::begin(latch_), std::end(latch_), 0);
  contexts_ = 0;
  queue_.clear();
  ++generation_;
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void AcceldevEngine::feed(unsigned word, uint32_t v) {
  if (word < 4) {
    latch_[word] = v;  // words 0..3 are latches that keep their values
    return;
  }
  if (queue_.size() >= ACCELDEV_CMDS_BUFFER_SIZE) {
    feed_errors_.inc();
    AVP_LOG(log_, Warn, "command queue full: command dropped (FEED_ERROR)");
    irq.signal(ACCELDEV_INTR_FEED_ERROR);
    return;
  }
  queue_.push_back(Command{{latch_[0], latch_[1], latch_[2], latch_[3], v}});
  wake_.notify(sc_core::SC_ZERO_TIME);
}

void AcceldevEngine::thread() {
  for (;;) {
    while (queue_.empty() || !enabled()) sc_core::wait(wake_);
    const Command c = queue_.front();
    queue_.pop_front();
    const sc_core::sc_time begin = sc_core::sc_time_stamp();
    LocalTime time;  // the command's: decode and execution, synced when it is done
    time.add(decode_latency.get());
    time.annotate([&](sc_core::sc_time& delay) { device_command(c, delay); });
    time.sync();
    device_commands_.inc();
    trace_command(c, begin);
  }
}

void AcceldevEngine::trace_command(const Command& c, const sc_core::sc_time& begin) const {
  if (!Trace::instance().enabled()) return;
  static const char* const kNames[] = {"NOP", "RUN", "BIND_SLOT", "FENCE"};
  const uint32_t type = c.w[0] & 0xF, ctx = c.w[0] >> 4;
  nlohmann::json args;
  if (type == ACCELDEV_DEVICE_CMD_TYPE_RUN) args = {{"context", ctx}, {"offset", c.w[3]}, {"size", c.w[4]}};
  if (type == ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT) args = {{"context", ctx}, {"slot", c.w[1]}};
  if (type == ACCELDEV_DEVICE_CMD_TYPE_FENCE) args = {{"value", c.w[1]}};
  Trace::instance().slice(name(), type < 4 ? kNames[type] : "invalid command", begin, sc_core::sc_time_stamp(), args);
}

void AcceldevEngine::device_command(const Command& c, sc_core::sc_time& delay) {
  const uint32_t type = c.w[0] & 0xF, ctx = c.w[0] >> 4;
  switch (type) {
    case ACCELDEV_DEVICE_CMD_TYPE_NOP:
      return;
    case ACCELDEV_DEVICE_CMD_TYPE_FENCE:
      LocalTime::sync(delay);
      fence_last_ = c.w[1];
      if (fence_last_ == fence_wait_) irq.signal(ACCELDEV_INTR_FENCE_WAIT);
      return;
    case ACCELDEV_DEVICE_CMD_TYPE_RUN:
    case ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT:
      if (ctx >= ACCELDEV_MAX_CONTEXTS || (type == ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT && c.w[1] >= ACCELDEV_NUM_BUFFERS)) break;
      if (type == ACCELDEV_DEVICE_CMD_TYPE_BIND_SLOT) {
        // Applies even to a context in error: drivers unbind while tearing down.
        const uint64_t pt = c.w[2] | static_cast<uint64_t>(c.w[3]) << 32;
        uint64_t v = pt;
        if (!host_(true, config_addr(ctx) + 8ull * c.w[1], &v, 8, delay))
          AVP_LOG(log_, Warn, "BIND_SLOT: context config of context " << ctx << " is not in host memory");
        return;
      }
      run(ctx, c.w[1] | static_cast<uint64_t>(c.w[2]) << 32, c.w[3], c.w[4], delay);
      return;
    default:
      break;
  }
  AVP_LOG(log_, Warn, "invalid device command 0x" << std::hex << c.w[0] << " (CMD_ERROR)");
  LocalTime::sync(delay);
  irq.signal(ACCELDEV_INTR_CMD_ERROR);
}

bool AcceldevEngine::context_in_error(uint32_t ctx, sc_core::sc_time& delay) {
  uint8_t status = 0;
  if (!host_(false, config_addr(ctx) + ACCELDEV_CONFIG_STATUS, &status, 1, delay)) return true;
  return status & ACCELDEV_CONTEXT_STATUS_ERROR;
}

void AcceldevEngine::mark_error(uint32_t ctx, Fault f, sc_core::sc_time& delay) {
  uint8_t status = 0;
  host_(false, config_addr(ctx) + ACCELDEV_CONFIG_STATUS, &status, 1, delay);
  status |= ACCELDEV_CONTEXT_STATUS_ERROR;
  host_(true, config_addr(ctx) + ACCELDEV_CONFIG_STATUS, &status, 1, delay);
  context_errors_.inc();
  LocalTime::sync(delay);
  irq.signal(f == Fault::Cmd ? ACCELDEV_INTR_CMD_ERROR : f == Fault::Slot ? ACCELDEV_INTR_SLOT_ERROR : ACCELDEV_INTR_MEM_ERROR);
}

AcceldevEngine::Fault AcceldevEngine::translate(uint64_t pt, uint64_t va, uint64_t& pa, sc_core::sc_time& delay) {
  if (pt == 0 || pt >= (1ull << 40) || va >= ACCELDEV_BUFFER_MAX_SIZE) return Fault::Mem;
  uint32_t pte = 0;
  if (!read32(pt + 4 * (va >> 12), pte, delay) || !(pte & ACCELDEV_PTE_PRESENT)) return Fault::Mem;
  pa = (static_cast<uint64_t>(pte >> 4) << 12) | (va & 0xFFF);
  return Fault::None;
}

void AcceldevEngine::run(uint32_t ctx, uint64_t code_pt, uint32_t offset, uint32_t size, sc_core::sc_time& delay) {
  if (context_in_error(ctx, delay)) {
    skipped_runs_.inc();
    return;
  }
  if ((offset | size) & 3) {
    mark_error(ctx, Fault::Cmd, delay);
    return;
  }
  run_generation_ = generation_;
  for (uint64_t at = offset; at + 20 <= static_cast<uint64_t>(offset) + size; at += 20) {
    // Each user command starts when the previous one has ended, so a reset
    // or a cleared ENABLE takes effect between commands at the right time.
    LocalTime::sync(delay);
    if (aborted()) return;
    // ENABLE is checked before every user command: clearing it pauses here.
    while (!enabled()) {
      sc_core::wait(wake_);
      if (aborted()) return;
    }
    uint32_t w[5];
    for (unsigned i = 0; i < 5; ++i) {
      uint64_t pa = 0;
      if (translate(code_pt, at + 4 * i, pa, delay) != Fault::None || !read32(pa, w[i], delay)) {
        mark_error(ctx, Fault::Mem, delay);
        return;
      }
    }
    delay += user_command_latency.get();
    const Fault f = user_command(ctx, w, delay);
    user_commands_.inc();
    if (aborted()) return;  // reset during the command
    if (f != Fault::None) {
      if (f != Fault::Reported) mark_error(ctx, f, delay);
      return;
    }
  }
}

AcceldevEngine::Fault AcceldevEngine::user_command(uint32_t ctx, const uint32_t* w, sc_core::sc_time& delay) {
  switch (w[0] & 0xF) {
    case ACCELDEV_USER_CMD_TYPE_NOP:
      return Fault::None;
    case ACCELDEV_USER_CMD_TYPE_FENCE: {
      uint32_t counter = 0;
      const uint64_t at = config_addr(ctx) + ACCELDEV_CONFIG_FENCE_COUNTER;
      if (!read32(at, counter, delay) || !write32(at, counter + 1, delay)) return Fault::Mem;
      LocalTime::sync(delay);
      irq.signal(ACCELDEV_INTR_USER_FENCE_WAIT);
      return Fault::None;
    }
    case ACCELDEV_USER_CMD_TYPE_FILL:
      return fill(ctx, w[1], w[2], w[3], w[4], delay);
    case ACCELDEV_USER_CMD_TYPE_CMP_SUBMIT:
      return cmp_submit(ctx, w, delay);
    default:
      return Fault::Cmd;
  }
}

AcceldevEngine::Fault AcceldevEngine::walk_slot(uint32_t ctx, uint32_t slot, uint64_t start, uint64_t len,
                                                const PageVisit& page, sc_core::sc_time& delay) {
  if (slot >= ACCELDEV_NUM_BUFFERS) return Fault::Slot;
  uint64_t pt = 0;
  if (!host_(false, config_addr(ctx) + 8ull * slot, &pt, 8, delay)) return Fault::Mem;
  if (pt == 0) return Fault::Slot;
  for (uint64_t va = start; va < start + len;) {
    const uint64_t n = std::min<uint64_t>(4096 - (va & 0xFFF), start + len - va);
    uint64_t pa = 0;
    LocalTime::sync(delay);
    if (aborted()) return Fault::None;
    if (translate(pt, va, pa, delay) != Fault::None) return Fault::Mem;  // pages already visited keep their effect
    if (!page(pa, va, static_cast<unsigned>(n), delay)) return Fault::Mem;
    va += n;
  }
  return Fault::None;
}

AcceldevEngine::Fault AcceldevEngine::fill(uint32_t ctx, uint32_t value, uint32_t slot, uint32_t start, uint32_t len,
                                           sc_core::sc_time& delay) {
  std::vector<uint8_t> bytes;
  return walk_slot(ctx, slot, start, len, [&](uint64_t pa, uint64_t va, unsigned n, sc_core::sc_time& d) {
    bytes.resize(n);
    for (unsigned k = 0; k < n; ++k) bytes[k] = static_cast<uint8_t>(value >> (8 * ((va + k) % 4)));
    if (!host_(true, pa, bytes.data(), n, d)) return false;
    d += sc_core::sc_time(n / fill_bandwidth.get(), sc_core::SC_NS);
    fill_bytes_.inc(n);
    return true;
  }, delay);
}

// The command buffer is copied from the slot to the staging area in device
// DRAM, submitted once the CMP is idle (so the staging area is free and the
// completion seen is this buffer's), and waited for: in-order semantics.
AcceldevEngine::Fault AcceldevEngine::cmp_submit(uint32_t ctx, const uint32_t* w, sc_core::sc_time& delay) {
  const uint32_t slot = (w[0] >> 4) & 0xF, offset = w[1], size = w[2];
  if ((w[0] >> 8) || w[3] || w[4] || ((offset | size) & 7) || size == 0 || size > ACCELDEV_CMP_SUBMIT_MAX_SIZE) {
    AVP_LOG(log_, Warn, "context " << ctx << ": malformed CMP_SUBMIT (CMD_ERROR)");
    return Fault::Cmd;
  }
  if (!cmp_.cmp) {
    AVP_LOG(log_, Warn, "context " << ctx << ": CMP_SUBMIT without a command processor (CMD_ERROR)");
    return Fault::Cmd;
  }
  std::vector<uint8_t> cb(size);
  const Fault f = walk_slot(ctx, slot, offset, size, [&](uint64_t pa, uint64_t va, unsigned n, sc_core::sc_time& d) {
    return host_(false, pa, cb.data() + (va - offset), n, d);
  }, delay);
  if (f != Fault::None || aborted()) return f;
  if (!cmp_.write(cmp_.staging, cb.data(), size, delay)) {
    AVP_LOG(log_, Warn, "context " << ctx << ": CMP_SUBMIT staging area at 0x" << std::hex << cmp_.staging
                                   << " is not device memory (CMD_ERROR)");
    return Fault::Cmd;
  }
  LocalTime::sync(delay);
  CmpHostInterface& cmp = *cmp_.cmp;
  while (!cmp.idle()) sc_core::wait(cmp.idle_event());  // the staging area is free
  const sc_core::sc_time begin = sc_core::sc_time_stamp();
  faulted_[ctx] = false;  // a new launch
  const uint64_t faults = faults_[ctx];
  // This buffer's own end (not the CMP's completed count: host buffers may
  // run meanwhile). The callback runs while this thread waits below.
  bool ended = false, finished = false;
  if (!cmp.submit_for(cmp_.staging, size, ctx, [this, &ended, &finished](bool ok) {
        ended = true;
        finished = ok;
        cmp_end_.notify(sc_core::SC_ZERO_TIME);
      }))
    return Fault::Cmd;
  cmp_submits_.inc();
  while (!ended) sc_core::wait(cmp_end_);
  // Nothing the launch started outlives it: its DMA transfers drain first.
  if (dma_outstanding_ && dma_done_)
    while (dma_outstanding_(ctx)) sc_core::wait(*dma_done_);
  cmp_submit_latency_.sample((sc_core::sc_time_stamp() - begin).to_seconds() * 1e9);
  Trace::instance().slice(name(), "CMP_SUBMIT", begin, sc_core::sc_time_stamp(), {{"context", ctx}, {"size", size}});
  if (aborted()) return Fault::None;
  if (faults_[ctx] != faults) return Fault::Reported;  // the IOMMU put the context in error
  if (finished) return Fault::None;
  cmp_submit_errors_.inc();
  AVP_LOG(log_, Warn, "context " << ctx << ": the command processor failed the CMP_SUBMIT buffer (error "
                                 << cmp.status().error_code << ", CMD_ERROR)");
  return Fault::Cmd;
}

}  // namespace avp

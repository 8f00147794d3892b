// Execution of the CMP commands and kernel dispatch onto the harts.
#include <cstring>
#include <sstream>

#include "base/payload.h"
#include "base/local_time.h"
#include "base/text_trace.h"
#include "base/trace.h"
#include "base/unit.h"
#include "cmp/command_processor.h"
#include "harts/kernel_dispatch.h"

namespace avp {

namespace {
tlm::tlm_response_status transport(tlm_utils::simple_initiator_socket<CommandProcessor>& bus, tlm::tlm_generic_payload& gp,
                                   tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len, sc_core::sc_time& delay) {
  prepare_payload(gp, cmd, addr, data, len);
  bus->b_transport(gp, delay);
  return gp.get_response_status();
}
}  // namespace

bool CommandProcessor::read_block(uint64_t addr, void* dst, unsigned len, sc_core::sc_time& delay) {
  return transport(bus, gp_, tlm::TLM_READ_COMMAND, addr, dst, len, delay) == tlm::TLM_OK_RESPONSE;
}

bool CommandProcessor::write_block(uint64_t addr, const void* src, unsigned len, sc_core::sc_time& delay) {
  return transport(bus, gp_, tlm::TLM_WRITE_COMMAND, addr, const_cast<void*>(src), len, delay) == tlm::TLM_OK_RESPONSE;
}

// Any address is accepted (the seed asks only that it be accessible); the target decides.
bool CommandProcessor::read64(uint64_t addr, uint64_t& v, sc_core::sc_time& delay, UnitId as, tlm::tlm_response_status* st) {
  set_unit(gp_, as, unit_kind(as) == UnitKind::Hart ? unit_index(as) / std::max(1u, harts_.num_harts() / harts_.num_cores()) : 0);
  const auto r = transport(bus, gp_, tlm::TLM_READ_COMMAND, addr, &v, 8, delay);
  set_unit(gp_, kCmpUnit);
  if (st) *st = r;
  return r == tlm::TLM_OK_RESPONSE;
}

bool CommandProcessor::write64(uint64_t addr, uint64_t v, sc_core::sc_time& delay, tlm::tlm_response_status* st) {
  const auto r = transport(bus, gp_, tlm::TLM_WRITE_COMMAND, addr, &v, 8, delay);
  if (st) *st = r;
  return r == tlm::TLM_OK_RESPONSE;
}

CommandProcessor::Failure CommandProcessor::write_reg(unsigned idx, uint64_t v) {
  regs_[idx] = v;
  if (idx < AVP_CMP_WINDOW_BASE0) return {};
  const unsigned n = idx % AVP_CMP_NUM_WINDOWS;
  WindowUnit::Window w;
  w.base = regs_[AVP_CMP_WINDOW_BASE0 + n];
  w.target = regs_[AVP_CMP_WINDOW_TARGET0 + n];
  w.mode = regs_[AVP_CMP_WINDOW_MODE0 + n];
  w.scale = regs_[AVP_CMP_WINDOW_SCALE0 + n];
  std::string why;
  if (!windows_.configure(n, w, why)) {
    regs_[AVP_CMP_WINDOW_MODE0 + n] &= ~AVP_CMP_WIN_ACTIVE;
    return {AVP_CMP_ERR_BAD_WINDOW, "window " + std::to_string(n) + ": " + why};
  }
  return {};
}

CommandProcessor::Failure CommandProcessor::execute(const DecodedCommand& c, sc_core::sc_time& delay) {
  const uint64_t* p = c.payload;
  tlm::tlm_response_status st = tlm::TLM_OK_RESPONSE;
  auto mem_fail = [&](const char* what, uint64_t addr) -> Failure {
    std::ostringstream os;
    os << what << " at 0x" << std::hex << addr;
    // A generic error is a device's own failure: the DMA controller answers a
    // DMADONESEQ wait that way when a transfer waited on failed.
    if (st == tlm::TLM_GENERIC_ERROR_RESPONSE) {
      os << ": the device reported a failure (a DMA transfer waited on failed; see DMASTATUS)";
      return {AVP_CMP_ERR_DMA, os.str()};
    }
    os << " (" << (st == tlm::TLM_ADDRESS_ERROR_RESPONSE ? "unmapped or refused" : "refused by the target") << ")";
    return {AVP_CMP_ERR_MEMORY, os.str()};
  };
  switch (c.opcode) {
    case AVP_CMP_NOP:
    case AVP_CMP_FINISH:
      return {};
    case AVP_CMP_WRITE_REG64:
      return write_reg(c.inline_value, p[0]);
    case AVP_CMP_LOAD_REG64: {
      uint64_t v = 0;
      if (!read64(p[0], v, delay, kCmpUnit, &st)) return mem_fail("LOAD_REG64 read", p[0]);
      return write_reg(c.inline_value, v);
    }
    case AVP_CMP_STORE_REG64:
      if (!write64(p[0], regs_[c.inline_value], delay, &st)) return mem_fail("STORE_REG64 write", p[0]);
      return {};
    case AVP_CMP_STORE_IMM64:
      if (!write64(c.inline_value, p[0], delay, &st)) return mem_fail("STORE_IMM64 write", c.inline_value);
      return {};
    case AVP_CMP_COPY_MEM64:
      if (max_copy_elements.get() && c.inline_value > max_copy_elements.get())
        return {AVP_CMP_ERR_TOO_LARGE, "COPY_MEM64 of " + std::to_string(c.inline_value) + " elements: more than " +
                                           std::to_string(max_copy_elements.get()) + " (cmp.max_copy_elements)"};
      // Element by element, so memory-mapped counters are read one at a time.
      for (uint64_t i = 0; i < c.inline_value; ++i) {
        uint64_t v = 0;
        if (!read64(p[0] + 8 * i, v, delay, static_cast<UnitId>(p[2]), &st)) return mem_fail("COPY_MEM64 read", p[0] + 8 * i);
        if (!write64(p[1] + 8 * i, v, delay, &st)) return mem_fail("COPY_MEM64 write", p[1] + 8 * i);
      }
      return {};
    case AVP_CMP_RUN_KERNEL_SLICE:
    case AVP_CMP_RUN_INSTANCES:
      return run_kernel(c, delay);
    case AVP_CMP_SYNC_CACHE:
      if (c.inline_value & AVP_CMP_SYNC_DCACHE) delay += harts_.flush_dcaches();
      if (c.inline_value & AVP_CMP_SYNC_ICACHE) delay += harts_.invalidate_icaches();
      return {};
    default:
      return {AVP_CMP_ERR_UNKNOWN_OPCODE, "opcode " + std::to_string(c.opcode)};
  }
}

CommandProcessor::Failure CommandProcessor::run_kernel(const DecodedCommand& c, sc_core::sc_time& delay) {
  const unsigned max_harts = c.inline_value & 0xFF;
  if (max_harts > harts_.num_harts())
    return {AVP_CMP_ERR_MAX_HARTS, "MAX_HARTS " + std::to_string(max_harts) + " but the platform has " +
                                       std::to_string(harts_.num_harts()) + " harts"};
  const unsigned use = max_harts == 0 ? harts_.num_harts() : max_harts;
  const uint64_t instances = c.payload[0];
  const bool slice = c.opcode == AVP_CMP_RUN_KERNEL_SLICE;
  const unsigned hpc = harts_.num_harts() / harts_.num_cores();
  const uint64_t hart_slice = tcdm_per_core_ / hpc;
  // RUN_KERNEL_SLICE operands (seed: KUB_DESC, KARGS_INFO, TSD_INFO).
  const uint64_t kub = regs_[AVP_CMP_KUB_DESC] & ((1ull << 48) - 1), kub_size = (regs_[AVP_CMP_KUB_DESC] >> 48) * 256;
  const uint64_t kargs_off = (regs_[AVP_CMP_KARGS_INFO] >> 16) & 0xFFFFFF, kargs_size = regs_[AVP_CMP_KARGS_INFO] >> 40;
  const uint64_t tsd_off = (regs_[AVP_CMP_TSD_INFO] >> 16) & 0xFFFFFF, tsd_size = regs_[AVP_CMP_TSD_INFO] >> 40;
  const uint64_t packed = (kargs_size && kub_size) ? kub + kargs_off : 0;

  LocalTime::sync(delay);  // dispatch starts once the command has been fetched and decoded
  const sc_core::sc_time begin = sc_core::sc_time_stamp();
  // The watchdog: every instance of this command carries the deadline and
  // ends itself there (HartExitKind::Timeout); instances not yet launched by
  // then are not launched.
  const sc_core::sc_time watchdog = kernel_watchdog.get();
  const sc_core::sc_time deadline = watchdog > sc_core::SC_ZERO_TIME ? begin + watchdog : sc_core::SC_ZERO_TIME;

  const uint32_t launch = ++launch_seq_;
  Failure failure;
  KernelInstances k;
  k.failed = [&] { return failure.code != AVP_CMP_OK; };
  k.round = [&](uint64_t launched) {
    if (deadline > sc_core::SC_ZERO_TIME && !failure.code && launched < instances && sc_core::sc_time_stamp() >= deadline)
      failure = {AVP_CMP_ERR_KERNEL_TIMEOUT, "watchdog: " + std::to_string(launched) + " of " + std::to_string(instances) +
                                                 " instances launched after " + format_time(watchdog) +
                                                 " (cmp.kernel_watchdog)"};
  };
  k.prepare = [&](uint64_t i, unsigned h, HartLaunch& l, LocalTime& setup) {
    l.pc = regs_[AVP_CMP_ENTRY_PT_FN] & 0xFFFFFFFFull;
    l.ra = regs_[AVP_CMP_RETURN_ADDR];
    const uint64_t slice_base = tcdm_base_ + (h / hpc) * tcdm_per_core_ + (h % hpc) * hart_slice;
    l.sp = regs_[AVP_CMP_STACK_TOP] ? regs_[AVP_CMP_STACK_TOP] : slice_base + hart_slice;
    l.launch_id = launch;
    l.context = context_;
    l.deadline = deadline;
    l.a[0] = i;
    setup.add(launch_latency.get());  // the hart's initial state written
    if (!slice) {
      for (unsigned a = 0; a < ((c.inline_value >> 8) & 7); ++a) l.a[1 + a] = c.payload[1 + a];
      return true;
    }
    l.a[1] = c.payload[1];
    l.a[2] = packed;
    l.read_only_base = kub;  // the KUB: read by kernels, never written (seed)
    l.read_only_size = kub_size;
    if (!tsd_size || !kub_size) return true;
    // The KTB: a private copy of the thread-specific data at the bottom of the hart's TCDM slice.
    std::vector<uint8_t> tsd(tsd_size);
    const bool copied = setup.annotate([&](sc_core::sc_time& d) {
      return read_block(kub + tsd_off, tsd.data(), static_cast<unsigned>(tsd_size), d) &&
             write_block(slice_base, tsd.data(), static_cast<unsigned>(tsd_size), d);
    });
    if (!copied) {
      failure = {AVP_CMP_ERR_MEMORY, "cannot copy the thread-specific data to hart " + std::to_string(h) + "'s KTB"};
      return false;
    }
    l.a[3] = slice_base;
    return true;
  };
  k.started = [&](uint64_t, unsigned) { instances_.inc(); };
  k.ended = [&](uint64_t i, unsigned h, const HartExit& e) {
    if (failure.code) return;
    const std::string who = "instance " + std::to_string(i) + " on hart " + std::to_string(h) + ": ";
    if (e.kind == HartExitKind::Timeout)
      failure = {AVP_CMP_ERR_KERNEL_TIMEOUT,
                 "watchdog: " + who + "still running at " + format_time(watchdog) + " (cmp.kernel_watchdog): " +
                     e.describe(),
                 true, h, e.pc, i};
    else if (e.kind == HartExitKind::Trap) failure = {AVP_CMP_ERR_KERNEL_TRAP, who + e.describe(), true, h, e.pc, e.cause};
    else if (e.kind == HartExitKind::Limit) failure = {AVP_CMP_ERR_KERNEL_LIMIT, who + e.describe(), true, h, e.pc, 0};
    else if (e.kind == HartExitKind::Exit && e.code != 0)
      failure = {AVP_CMP_ERR_KERNEL_EXIT, who + e.describe(), true, h, e.pc, e.code};
  };
  dispatch_instances(harts_, use, instances, k);
  kernel_latency_.sample((sc_core::sc_time_stamp() - begin).to_seconds() * 1e9);
  Trace::instance().slice(std::string(name()) + ".dispatch", cmp_opcode_name(c.opcode), begin, sc_core::sc_time_stamp(),
                          {{"instances", instances}, {"harts", use}});
  if (TextTrace::instance().on(kTraceCmp))
    TextTrace::instance().line(to_ps(begin), std::string(name()) + ".dispatch",
                               std::string("cmp ") + cmp_opcode_name(c.opcode) + " " + std::to_string(instances) +
                                   " instances on " + std::to_string(use) + " harts, took " +
                                   format_time(sc_core::sc_time_stamp() - begin) +
                                   (failure.code ? std::string(" -> ") + cmp_error_name(failure.code) : ""));
  return failure;
}

}  // namespace avp

// Block translation on the hart's side (block_translator.h): which blocks get
// host code, and the helpers that code calls for loads, stores and every
// instruction it does not inline. A helper does what the threaded loop
// (hart_chain.cpp) does for the instruction: the pc and the instruction
// executing are the hart's before it runs, traps and errors are caught and
// kept for run_insns to rethrow, and an aborted block or a stopped hart is
// reported, so translated and interpreted blocks give the same results.
#include <stdexcept>

#include "harts/hart.h"
#include "harts/hart_data_path.h"
#include "harts/hart_cluster.h"
#include "harts/perf_map.h"

namespace avp {

using namespace rv;

JitStep Hart::failed() noexcept {
  translated_error_ = std::current_exception();
  return {0, kExitTrapped};
}

template <typename T, typename R>
JitStep Hart::translated_load(void* hart, uint64_t addr, uint64_t pc, const Insn* d) noexcept {
  Hart& h = *static_cast<Hart*>(hart);
  h.s_.pc = pc;
  h.cur_ = d;
  // The code did the quick checks (InlineLoads): a load here is a miss, or
  // in another region.
  try {
    const auto v = static_cast<uint64_t>(static_cast<R>(h.load<T>(addr)));
    return {v, h.block_abort_ || h.stop_ ? kExitAborted : kExitDone};
  } catch (...) {
    return h.failed();
  }
}

template <typename T>
JitStep Hart::translated_store(void* hart, uint64_t addr, uint64_t v, uint64_t pc, const Insn* d) noexcept {
  Hart& h = *static_cast<Hart*>(hart);
  h.s_.pc = pc;
  h.cur_ = d;
  // The code did the quick checks (InlineStores): a store here is a miss,
  // in another region, near a reservation or on decoded code.
  try {
    h.store<T>(addr, static_cast<T>(v));
    return {0, h.block_abort_ || h.stop_ ? kExitAborted : kExitDone};
  } catch (...) {
    return h.failed();
  }
}

JitStep Hart::translated_other(void* hart, uint64_t pc, const Insn* d) noexcept {
  Hart& h = *static_cast<Hart*>(hart);
  h.s_.pc = pc;
  h.cur_ = d;
  try {
    const uint64_t next = h.exec_other(*d, pc);
    return {next, h.block_abort_ || h.stop_ ? kExitAborted : kExitDone};
  } catch (...) {
    return h.failed();
  }
}

void Hart::translate(const Block& b) {
  const auto offset = [this](const void* field) {
    return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(this));
  };
  // The loads' and the stores' fast paths: the same cache fields, each its
  // region; in a functional run no D-cache (hart_data_path.h, data_time).
  const auto access_in = [&](const DmiRegion& r) {
    return InlineLoads{offset(&r.base),
                       offset(&r.size),
                       offset(&r.ptr),
                       offset(&r.pa_delta),
                       offset(dcache_.line_bits_address()),
                       offset(dcache_.hit_time_address()),
                       dcache_.fields(this),
                       offset(&data_way_[0]),
                       kDataWayHints,
                       offset(time_.ps_address()),
                       offset(&stall_ps_[StallMemory]),
                       !functional_};
  };
  const InlineLoads loads = access_in(rd_);
  InlineStores stores{access_in(wr_), nullptr, nullptr, 0, 0};
  cluster_.describe_plain_stores(stores);
  const TranslationHelpers helpers = {
      {&translated_load<uint8_t, int8_t>, &translated_load<uint16_t, int16_t>, &translated_load<uint32_t, int32_t>,
       &translated_load<uint64_t, uint64_t>, &translated_load<uint8_t, uint8_t>, &translated_load<uint16_t, uint16_t>,
       &translated_load<uint32_t, uint32_t>},
      {&translated_store<uint8_t>, &translated_store<uint16_t>, &translated_store<uint32_t>, &translated_store<uint64_t>},
      &translated_other, &loads, &stores};
  code_.set_size(size_t{cluster_.translation_cache_kib.get()} << 10);
  const BlockRetire retire{offset(&settled_), offset(&s_.minstret), offset(&s_.insn_cycles), offset(time_.ps_address()),
                           offset(&s_.events[0]), b.own_cycles, b.own_ps, b.events, b.event_id, b.event_n};
  // The gate's eight bytes are declared side by side (hart.h).
  if (offset(&block_abort_) != offset(&stop_) + 1 || offset(&chain_closed_) != offset(&stop_) + 2 ||
      offset(&fetch_key_) != offset(&stop_) + 3 || offset(&irq_gate_) != offset(&stop_) + 4)
    throw std::logic_error("Hart: the chain gate's fields are not side by side");
  // Blocks enter the next block in their code when the I-cache hits again, or
  // always in a functional run (and its translation is held).
  const auto in_block = [&b](const void* field) {
    return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(&b));
  };
  const InlineEnter enter{offset(&dmi_gen_),
                          offset(time_.ps_address()),
                          offset(&stall_ps_[StallFetch]),
                          offset(&s_.pc),
                          icache_.fields(this),
                          offset(history_.pos_address()),
                          offset(history_.mask_address()),
                          offset(history_.ring_address()),
                          offset(&lazy_),
                          offset(&settled_),
                          in_block(&b.fetch_gen),
                          in_block(&b.lines),
                          in_block(&b.first_line),
                          in_block(&b.fetch_hit_ps),
                          offset(tlb_.inserts_address()),
                          in_block(&b.tlb_until),
                          icache_.hit_time() == 0,
                          functional_};
  const BlockChain chain{offset(&stop_), b.key, offset(&end_pc_), offset(time_.ps_address()),
                         offset(time_.quantum_address()), offset(&insn_stop_), offset(&s_.minstret),
                         b.link_pc, reinterpret_cast<const void* const*>(b.link),
                         in_block(&b.code),
                         b.key ? &translated_enter<true> : &translated_enter<false>, &enter, &b,
                         &translated_quantum_end};
  b.code = translate_block(b.insns.data(), b.insns.size(), b.pc, helpers, &retire, &chain, code_);
  if (b.code && cluster_.perf_map.get()) {
    const auto* start = reinterpret_cast<const uint8_t*>(b.code);
    PerfMap::instance().add(start, code_.used() - (start - code_.base()), id_, b.pc, b.key);
  }
  // A full arena is emptied at the next block boundary (the code runs until then).
  if (!b.code && code_.full()) code_full_ = true;
}

void Hart::drop_translations() {
  for (auto& blocks : blocks_)
    for (auto& [pc, b] : blocks) b.code = nullptr;
  code_.reset();
  code_full_ = false;
  translate_again_ = true;
}

}  // namespace avp

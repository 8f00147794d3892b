// Block translation on the hart's side (block_translator.h): which blocks get
// host code, and the helpers that code calls for loads, stores and every
// instruction it does not inline. A helper does what the threaded loop
// (hart_chain.cpp) does for the instruction: the pc and the instruction
// executing are the hart's before it runs, traps and errors are caught and
// kept for run_insns to rethrow, and an aborted block or a stopped hart is
// reported, so translated and interpreted blocks give the same results.
#include "harts/hart.h"
#include "harts/hart_cluster.h"

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
  static const TranslationHelpers helpers = {
      {&translated_load<uint8_t, int8_t>, &translated_load<uint16_t, int16_t>, &translated_load<uint32_t, int32_t>,
       &translated_load<uint64_t, uint64_t>, &translated_load<uint8_t, uint8_t>, &translated_load<uint16_t, uint16_t>,
       &translated_load<uint32_t, uint32_t>},
      {&translated_store<uint8_t>, &translated_store<uint16_t>, &translated_store<uint32_t>, &translated_store<uint64_t>},
      &translated_other};
  code_.set_size(size_t{cluster_.translation_cache_kib.get()} << 10);
  const auto offset = [this](const void* field) {
    return static_cast<int32_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(this));
  };
  const BlockRetire retire{offset(&settled_), offset(&s_.minstret), offset(&s_.mcycle), offset(time_.ps_address()),
                           offset(&s_.events[0]), b.own_cycles, b.own_ps, b.events, b.event_id, b.event_n};
  const BlockChain chain{offset(&chain_code_), offset(&stop_), offset(&block_abort_), offset(&kernel_),
                         offset(triggers_.native_armed_address()), offset(time_.ps_address()),
                         offset(time_.quantum_address()), offset(&limit_), offset(&s_.minstret), offset(&ret_addr_),
                         offset(&s_.mip), offset(&s_.mie), offset(&debug_), offset(&tracer_), offset(&fetch_key_), b.key,
                         b.link_pc, reinterpret_cast<const void* const*>(b.link),
                         static_cast<int32_t>(reinterpret_cast<const char*>(&b.code) - reinterpret_cast<const char*>(&b)),
                         b.key ? &translated_enter<true> : &translated_enter<false>};
  b.code = translate_block(b.insns.data(), b.insns.size(), b.pc, helpers, &retire, &chain, code_);
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

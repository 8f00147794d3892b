// Block translation on the hart's side (block_translator.h): which blocks get
// host code, and the helpers that code calls for loads, stores and every
// instruction it does not inline. A helper does what the threaded loop
// (hart_chain.cpp) does for the instruction: the pc and the instruction
// executing are the hart's before it runs, traps and errors are caught and
// kept for run_insns to rethrow, and an aborted block or a stopped hart is
// reported, so translated and interpreted blocks give the same results.
#include <cstddef>
#include <type_traits>

#include "harts/hart.h"
#include "harts/hart_cluster.h"
#include "perf_map.h"

namespace avp {

using namespace rv;

JitStep Hart::failed() noexcept {
  translated_error_ = std::current_exception();
  return {0, kExitTrapped};
}

JitStep Hart::kernel_needed() noexcept {
  kernel_needed_ = true;
  return {0, kExitTrapped};
}

JitStep Hart::trapped(const TrapException& t) noexcept {
  pending_trap_ = t;
  trap_pending_ = true;
  return {0, kExitTrapped};
}

template <typename T, typename R>
JitStep Hart::translated_load(void* hart, uint64_t addr, uint64_t pc, const Insn* d) noexcept {
  Hart& h = *static_cast<HartHotState*>(hart)->hart;
  const HartHotState::HelperCall call{h.hot_};
  h.hot_.s.pc = pc;
  h.cur_ = d;
  // The code did the quick checks (InlineLoads): a load here is a miss, or
  // in another region.
  if (h.device_poll_due(addr, pc)) {
    h.threaded_from_load_ = true;
    return {0, kExitTrapped};
  }
  h.in_translated_load_ = true;
  try {
    T raw;
    const bool done = h.data_.load_unless_kernel<T>(addr, raw);
    h.in_translated_load_ = false;
    if (!done) return h.kernel_needed();
    const auto v = static_cast<uint64_t>(static_cast<R>(raw));
    return {v, h.hot_.block_abort || h.hot_.stop ? kExitAborted : kExitDone};
  } catch (const TrapException& t) {
    h.in_translated_load_ = false;
    return h.trapped(t);
  } catch (const NeedsKernel&) {
    h.in_translated_load_ = false;
    return h.kernel_needed();
  } catch (...) {
    h.in_translated_load_ = false;
    return h.failed();
  }
}

template <typename T>
JitStep Hart::translated_store(void* hart, uint64_t addr, uint64_t v, uint64_t pc, const Insn* d) noexcept {
  Hart& h = *static_cast<HartHotState*>(hart)->hart;
  const HartHotState::HelperCall call{h.hot_};
  h.hot_.s.pc = pc;
  h.cur_ = d;
  // The code did the quick checks (InlineStores): a store here is a miss,
  // in another region, near a reservation or on decoded code.
  try {
    if (!h.data_.store_unless_kernel<T>(addr, static_cast<T>(v))) return h.kernel_needed();
    return {0, h.hot_.block_abort || h.hot_.stop ? kExitAborted : kExitDone};
  } catch (const TrapException& t) {
    return h.trapped(t);
  } catch (const NeedsKernel&) {
    return h.kernel_needed();
  } catch (...) {
    return h.failed();
  }
}

JitStep Hart::translated_other(void* hart, uint64_t pc, const Insn* d) noexcept {
  Hart& h = *static_cast<HartHotState*>(hart)->hart;
  const HartHotState::HelperCall call{h.hot_};
  h.hot_.s.pc = pc;
  h.cur_ = d;
  if (h.slice_.in_slice() && h.other_needs_kernel(*d)) return h.kernel_needed();  // as exec_other, without a throw
  const auto went_on = [&h](uint64_t next) -> JitStep {
    return {next, h.hot_.block_abort || h.hot_.stop ? kExitAborted : kExitDone};
  };
  try {
    // An ECALL's trap without a throw: a system call's throw and unwind cost
    // about 13 k host instructions (4-hart Linux boot: 1.1 % of them).
    if (d->op == rv::ECALL) {
      if (const std::optional<TrapException> t = h.ecall()) return h.trapped(*t);
      return went_on(pc + d->len);
    }
    return went_on(h.exec_other(*d, pc));
  } catch (const TrapException& t) {
    return h.trapped(t);
  } catch (const NeedsKernel&) {
    return h.kernel_needed();
  } catch (...) {
    return h.failed();
  }
}

// Translated code addresses a decoded block's fields as the hart's: by offsetof.
static_assert(std::is_standard_layout_v<DecodedBlock>, "translated code addresses its fields by offsetof");

void Hart::translate(const Block& b) {
  using namespace hot_offsets;
  static const InlineFp kInlineFp = inline_fp(__builtin_cpu_supports("fma"));
  // The loads' and the stores' fast paths: the same cache fields, each its
  // region; in a functional run no D-cache unless it warms the caches
  // (data_path.h, DataPath::data_time).
  const bool caches_run = hot_.caches_run();
  const CacheQuickState* dcache = caches_run ? &hot_.dcache : nullptr;
  const InlineLoads loads = inline_accesses(/*stores=*/false, dcache);
  InlineStores stores{inline_accesses(/*stores=*/true, dcache), nullptr, nullptr, 0, 0};
  cluster_.describe_plain_stores(stores);
  const TranslationHelpers helpers = {
      {&translated_load<uint8_t, int8_t>, &translated_load<uint16_t, int16_t>, &translated_load<uint32_t, int32_t>,
       &translated_load<uint64_t, uint64_t>, &translated_load<uint8_t, uint8_t>, &translated_load<uint16_t, uint16_t>,
       &translated_load<uint32_t, uint32_t>},
      {&translated_store<uint8_t>, &translated_store<uint16_t>, &translated_store<uint32_t>, &translated_store<uint64_t>},
      &translated_other, &loads, &stores, &kInlineFp, kHartFromRegs};
  CodeArena& arena = blocks_.code();
  arena.set_size(size_t{cluster_.translation_cache_kib.get()} << 10);
  const BlockRetire retire = block_retire(b);
  // Blocks enter the next block in their code when the I-cache hits again, or
  // always in a functional run that does not warm the caches (and its translation is held).
  const InlineEnter enter = inline_enter(icache_.hit_time() == 0, !caches_run, hot_.history);
  BlockChain chain =
      block_chain(b, b.key ? &translated_enter<true> : &translated_enter<false>, &enter, &translated_quantum_end);
  if (hot_.lockstep_period_ps) {
    static_assert((int64_t{kMaxBlockInsns} << kChainLeftShift) <= INT32_MAX, "a block's count step is an imm32");
    chain.count = hot_offsets::at(offsetof(HartHotState, chain_count));
    chain.count_event = kEvBranch;
    chain.bound_reached = &translated_bound_reached;
  }
  b.code = translate_block(b.insns.data(), b.insns.size(), b.pc, helpers, &retire, &chain, arena, &b.jumps);
  if (b.code) BlockCache::translated(b);
  if (b.code && cluster_.perf_map.get()) {
    const auto* start = reinterpret_cast<const uint8_t*>(b.code);
    PerfMap::instance().add(start, arena.used() - (start - arena.base()), id_, b.pc, b.key);
  }
  // A full arena is emptied at the next block boundary (BlockCache::catch_up; the code runs until then).
}

}  // namespace avp

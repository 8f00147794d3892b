// A hart's decoded block (Hart::Block): its instructions, what running it
// retires, its I-cache lines, its links to the blocks that ran after it and
// its host code. Aligned to host lines (base/host_lines.h): harts on
// different host threads decode blocks at the same moment.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/host_lines.h"
#include "harts/block_translator.h"
#include "harts/perf_events.h"
#include "harts/rv_insn.h"

namespace avp {

class PageWrites;

// A block ends at a control transfer, a system instruction, the end of its page or this many instructions.
inline constexpr unsigned kMaxBlockInsns = 64;

struct alignas(kHostLine) DecodedBlock {
  // First, in one host line, what going from one translated block to the
  // next reads (translated_chain.cpp: this block's links, the next one's
  // code, translation and first I-cache line), then the rest of the next
  // one's I-cache fields: chaining through code that no longer fits the
  // host's caches misses on as few lines as can be.
  //
  // The last two blocks that ran after this one (decoded for the same fetch
  // regime): run_chain follows them without a lookup. link_pc ~0: none (a
  // pc is never odd). linked_from: the blocks whose links hold this one,
  // unlinked when it is dropped (BlockCache::drop).
  mutable uint64_t link_pc[2] = {~0ull, ~0ull};
  mutable const DecodedBlock* link[2] = {nullptr, nullptr};
  // Its host code (block_translator.h), if translated; a full translation
  // cache drops it (and not the block: dropping it would decode it again,
  // and decoding looks up the TLB, so results would depend on the cache's size).
  mutable TranslatedBlock code = nullptr;
  // Translated fetches: the TLB's inserts() at which the entry its page's
  // translation came from is replaced (Hart::translate_fetch_again); ~0: none;
  // 0 after a change of translation, until its next entry checks its pages.
  mutable uint64_t tlb_until = ~0ull;
  // Whether the block's code is cacheable memory (I-cache misses fill lines
  // from it), the I-cache lines it spans (line size 2^fetch_line_bits) and
  // what they cost when they all hit, as of DMI generation fetch_gen. (The
  // I-cache is configured before the first block is located, once.)
  mutable uint64_t fetch_gen = ~0ull, first_line = 0, fetch_hit_ps = 0;
  mutable uint32_t lines = 0;
  mutable uint32_t fetch_way[2] = {};  // where its first two lines were last found (CacheModel::access_line)
  mutable uint8_t fetch_line_bits = 0;
  mutable uint8_t next_link = 0;
  std::vector<rv::Insn, HostLineAllocator<rv::Insn>> insns;
  uint64_t pc = 0, bytes = 0;
  uint64_t ppc = 0;  // physical address of pc (pc itself without translation)
  // A translated fetch whose one instruction crosses into the next page: the
  // physical address of its second half (its code is 2 bytes at ppc and 2
  // here); ~0: the block's code is the `bytes` from ppc.
  uint64_t ppc_tail = ~0ull;
  mutable bool fetch_cached = false;
  bool fetch_uncached = false;  // an NC or IO page (Svpbmt): every entry reads its lines over the bus
  uint8_t key = 0;  // the fetch regime it was decoded for (BlockCache::kFetchKeys)
  // Checked fetches: its pages' translation was checked since the last change
  // of translation (BlockCache::make_live).
  mutable bool live = false;
  // What running all of it retires (HartHotState::retire): its instructions'
  // own time and cycles beyond one each (HartState::extra_cycles), and its
  // instructions per PerfEvent (`events` kinds).
  uint64_t own_ps = 0, extra_cycles = 0;
  // ps_before[i]: the own time of the instructions before instruction i (n + 1 entries).
  std::vector<uint64_t, HostLineAllocator<uint64_t>> ps_before;
  uint8_t events = 0;
  uint8_t event_id[rv::kNumPerfEvents] = {}, event_n[rv::kNumPerfEvents] = {};
  mutable bool dropping = false;  // chosen by BlockCache::drop_written or drop_changed
  // Its code's pages had code_generation writes (base/page_writes.h) when
  // its code was last found to be what it decoded, at host addresses
  // code_host (and code_tail, the second half of an instruction that crosses
  // into the next page); code_writes nullptr: its writes are not counted, it
  // is compared with memory (Hart::code_changed).
  mutable const PageWrites* code_writes = nullptr;
  mutable const uint8_t* code_host = nullptr;
  mutable const uint8_t* code_tail = nullptr;
  mutable uint64_t code_generation = 0;
  mutable std::vector<const DecodedBlock*> linked_from;
  mutable uint32_t interpreted = 0;  // entries interpreted before it was translated (Hart::translated_again)
  // Its code's direct jumps (block_translator.h), aimed by BlockCache at
  // the blocks it links to; valid while `code` is set.
  mutable DirectJumps jumps;

  // Whether its code has bytes in the physical range [lo, hi).
  bool holds_code_in(uint64_t lo, uint64_t hi) const {
    if (ppc_tail == ~0ull) return ppc < hi && lo < ppc + bytes;
    return (ppc < hi && lo < ppc + 2) || (ppc_tail < hi && lo < ppc_tail + 2);
  }
  // The physical pages (4 KiB) its code lies in: first_page(), and last_page() if different.
  uint64_t first_page() const { return ppc >> 12; }
  uint64_t last_page() const { return (ppc_tail == ~0ull ? ppc + bytes - 1 : ppc_tail) >> 12; }
};
static_assert(offsetof(DecodedBlock, first_line) + sizeof(uint64_t) <= kHostLine, "chaining reads one line of a block");

}  // namespace avp

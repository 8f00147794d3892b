// A hart's decoded blocks: insertion, the drops and their deferral (block_cache.h).
#include "harts/block_cache.h"

#include <cstring>

namespace avp {

const DecodedBlock& BlockCache::insert(DecodedBlock&& b) {
  const uint64_t pc = b.pc;
  const uint8_t key = b.key;
  const DecodedBlock& stored = blocks_[key].emplace(pc, std::move(b)).first->second;
  auto& pages = code_pages_[key];
  pages[stored.first_page()].push_back(&stored);
  if (stored.last_page() != stored.first_page()) pages[stored.last_page()].push_back(&stored);
  ++epoch_;
  if (key) make_live(stored);
  if (pc != return_pc_) slots_[slot_of(pc)] = {pc, &stored, key};
  return stored;
}

void BlockCache::set_return_pc(uint64_t pc) {
  return_pc_ = pc;
  for (auto& blocks : blocks_) {
    const auto it = blocks.find(pc);
    if (it == blocks.end()) continue;
    const DecodedBlock& b = it->second;
    unlink_from(b);
    b.linked_from.clear();
    Slot& slot = slots_[slot_of(pc)];
    if (slot.block == &b) slot = Slot{};
  }
}

void BlockCache::unlink_from(const DecodedBlock& v) {
  for (const DecodedBlock* from : v.linked_from) {
    for (unsigned i = 0; i < 2; ++i)
      if (from->link[i] == &v) {
        from->link[i] = nullptr;
        from->link_pc[i] = ~0ull;
      }
    aim_jump(*from, v.pc, nullptr);
  }
}

void BlockCache::translated(const DecodedBlock& b) {
  for (const DecodedBlock* to : b.link)
    if (to) aim_jump(b, to->pc, to);
  for (const DecodedBlock* from : b.linked_from) aim_jump(*from, b.pc, &b);
}

void BlockCache::aim_jump(const DecodedBlock& from, uint64_t pc, const DecodedBlock* to) {
  if (!from.code) return;
  auto* const code = reinterpret_cast<uint8_t*>(from.code);
  const uint8_t* target = code + from.jumps.lookup;
  if (to && to->code && to->jumps.entry) target = reinterpret_cast<const uint8_t*>(to->code) + to->jumps.entry;
  for (unsigned i = 0; i < 2; ++i) {
    if (!from.jumps.at[i] || from.jumps.pc[i] != pc) continue;
    uint8_t* const displacement = code + from.jumps.at[i];
    const auto rel = static_cast<int32_t>(target - (displacement + 4));  // one arena: within 2 GiB
    std::memcpy(displacement, &rel, sizeof rel);
  }
}

bool BlockCache::holds_code_page(uint64_t page) const {
  for (const auto& pages : code_pages_)
    if (pages.count(page)) return true;
  return false;
}

void BlockCache::drop(const std::vector<const DecodedBlock*>& victims) {
  if (victims.empty()) return;
  ++epoch_;
  holders_.blocks_going();
  for (const DecodedBlock* v : victims) {  // every victim is still alive here
    unlink_from(*v);
    for (const DecodedBlock* to : v->link)
      if (to) remove(to->linked_from, v);
  }
  for (const DecodedBlock* v : victims) {
    auto& pages = code_pages_[v->key];
    for (const uint64_t page : {v->first_page(), v->last_page()}) {
      const auto it = pages.find(page);
      if (it == pages.end()) continue;
      remove(it->second, v);
      if (it->second.empty()) pages.erase(it);
    }
    if (v->live) remove(live_, v);
    Slot& slot = slots_[slot_of(v->pc)];
    if (slot.block == v) slot = Slot{};
    blocks_[v->key].erase(v->pc);
  }
}

void BlockCache::clear() {
  holders_.blocks_going();
  for (unsigned k = 0; k < kFetchKeys; ++k) forget(k);
  for (Slot& slot : slots_) slot = Slot{};
  live_.clear();
  code_.reset();
  code_drops_.clear();
  forget_checked_ = expire_live_ = false;
}

void BlockCache::forget(unsigned key) {
  ++epoch_;
  blocks_[key].clear();
  code_pages_[key].clear();
}

bool BlockCache::forget_checked() {
  if (!live_.empty()) return forget_checked_ = true;
  forget_checked_now();
  return false;
}

void BlockCache::forget_checked_now() {
  bool any = false;
  for (unsigned k = 1; k < kFetchKeys; ++k) any |= !blocks_[k].empty();
  if (!any) return;
  holders_.blocks_going();
  for (unsigned k = 1; k < kFetchKeys; ++k) forget(k);
  for (Slot& slot : slots_)
    if (slot.key) slot = Slot{};
  live_.clear();
}

bool BlockCache::expire_live() {
  if (live_.empty()) return false;
  return expire_live_ = true;
}

void BlockCache::expire_live_now() {
  for (const DecodedBlock* b : live_) {
    b->tlb_until = 0;
    b->live = false;
  }
  live_.clear();
  expire_live_ = false;
}

void BlockCache::do_deferred() {
  if (code_.full()) drop_host_code();
  if (forget_checked_) {
    forget_checked_now();
    forget_checked_ = false;
  }
  if (expire_live_) expire_live_now();
  if (!code_drops_.empty()) drop_written();
}

// Like QEMU's invalidation of a written page's translation blocks: only the
// blocks with code in a written range go (in every fetch regime); the blocks
// linked to them forget the link, and the others stay decoded and translated.
void BlockCache::drop_written() {
  std::vector<const DecodedBlock*> victims;
  for (const auto& [lo, hi] : code_drops_)
    for (unsigned k = 0; k < kFetchKeys; ++k)
      for (uint64_t page = lo >> 12; page <= (hi - 1) >> 12; ++page) {
        const auto it = code_pages_[k].find(page);
        if (it == code_pages_[k].end()) continue;
        for (const DecodedBlock* b : it->second)
          if (!b->dropping && b->holds_code_in(lo, hi)) {
            b->dropping = true;
            victims.push_back(b);
          }
      }
  code_drops_.clear();
  drop(victims);
}

// The blocks stay: dropping them would decode them again, and decoding looks
// up the TLB, so results would depend on the translation cache's size.
void BlockCache::drop_host_code() {
  for (auto& blocks : blocks_)
    for (auto& [pc, b] : blocks) b.code = nullptr;
  code_.reset();
  translate_again_ = true;
}

}  // namespace avp

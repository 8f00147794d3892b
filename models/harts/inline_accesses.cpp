#include "inline_accesses.h"

#include <type_traits>

#include "harts/dmi_region.h"
#include "harts/page_region_cache.h"
#include "shared_routines.h"
#include "translated_chain.h"

namespace avp {

// Portable byte emission, as translated_chain.cpp's, which uses it too.
void emit_previous_holds(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line, x86::Reg way,
                         std::vector<size_t>& no, bool last) {
  using namespace x86;
  a.alu_from_mem(CMP, line, hart, last ? c.last_line : c.prev_line);
  no.push_back(a.jcc(NE));
  a.load(way, hart, last ? c.last_way : c.prev_way);
  a.alu_from_mem(CMP, line, way, c.way_tag);
  no.push_back(a.jcc(NE));
}

void emit_hinted_holds(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line, x86::Reg hint, x86::Reg way,
                       std::vector<size_t>& no) {
  using namespace x86;
  a.alu_from_mem(CMP, hint, hart, c.way_count);
  no.push_back(a.jcc(AE));
  a.mov_imm(way, static_cast<uint64_t>(c.way_size));
  a.imul(way, hint);
  a.alu_from_mem(ADD, way, hart, c.ways);
  a.alu_from_mem(CMP, line, way, c.way_tag);
  no.push_back(a.jcc(NE));
}

#if defined(__x86_64__)

namespace {

static_assert(std::has_unique_object_representations_v<RegionAgain>, "compared byte by byte");
static_assert(std::is_trivially_copyable_v<DmiRegion> && sizeof(DmiRegion) % 8 == 0, "copied as 8-byte words");
constexpr int32_t kRegionWords = sizeof(DmiRegion) / 8;

// Copies the DmiRegion at [from + from_at] to [to + to_at], using `tmp`.
void emit_copy_region(x86::Asm& a, x86::Reg to, int32_t to_at, x86::Reg from, int32_t from_at, x86::Reg tmp) {
  for (int32_t w = 0; w < kRegionWords; ++w) {
    a.load(tmp, from, from_at + 8 * w);
    a.store(to, to_at + 8 * w, tmp);
  }
}

// Whether the DmiRegion at [r + at] holds the `rcx` bytes at rsi: else one of
// the jumps added to `no` is taken. Uses rax and r8.
void emit_holds(x86::Asm& a, x86::Reg r, int32_t at, std::vector<size_t>& no) {
  using namespace x86;
  a.mov(RAX, RSI);
  a.alu_from_mem(SUB, RAX, r, at + static_cast<int32_t>(offsetof(DmiRegion, base)));
  a.alu_from_mem(CMP, RAX, r, at + static_cast<int32_t>(offsetof(DmiRegion, size)));
  no.push_back(a.jcc(AE));
  a.load(R8, r, at + static_cast<int32_t>(offsetof(DmiRegion, size)));
  a.alu(SUB, R8, RAX);
  a.alu(CMP, R8, RCX);
  no.push_back(a.jcc(B));
}

// The routine an access outside the region in use calls before its helper
// (shared_routines.h; rdi: the hart, rsi: the address, rcx: its bytes):
// HartHotState::region_again's steps, ZF set when the region in use holds
// the access now; else ZF clear and nothing changed. Uses rax and r8 .. r11.
std::vector<uint8_t> make_region_again(const void* layout) {
  using namespace x86;
  const auto& l = *static_cast<const RegionAgain*>(layout);
  Asm a;
  std::vector<size_t> not_before, no_page;
  emit_holds(a, RDI, l.before, not_before);  // the region before: the two swap
  for (int32_t w = 0; w < kRegionWords; ++w) {
    a.load(R8, RDI, l.in_use + 8 * w);
    a.load(R9, RDI, l.before + 8 * w);
    a.store(RDI, l.in_use + 8 * w, R9);
    a.store(RDI, l.before + 8 * w, R8);
  }
  a.alu(CMP, RAX, RAX);  // ZF set
  a.ret();
  for (size_t f : not_before) a.bind(f);
  a.mov(R10, RSI);  // the kept page's slot: r10 = the hart + slot * sizeof(DmiRegion)
  a.shift_imm(SHR, R10, PageRegionCache::kPageBits);
  a.alu_imm(AND, R10, PageRegionCache::kSlots - 1);
  a.mov_imm(R11, sizeof(DmiRegion));
  a.imul(R10, R11);
  a.alu(ADD, R10, RDI);
  emit_holds(a, R10, l.pages, no_page);
  emit_copy_region(a, RDI, l.before, RDI, l.in_use, R8);  // in use: the one before
  emit_copy_region(a, RDI, l.in_use, R10, l.pages, R8);   // the page: in use
  a.load(R8, RDI, l.page_hits);
  a.alu_mem_imm(ADD, R8, 0, 1);  // its TLB hit
  return finish_zf_routine(a, no_page);
}

// With the address in rsi and the hart in rdi: rax = its offset in the
// region at `l` (base .. ptr), all `bytes` of it within; else one of the
// jumps added to `elsewhere` (the first byte is outside) or `misaligned` is
// taken. Only the first byte is compared: regions are 8-byte aligned
// (DmiRegions::find), so an access aligned to its size lies all in a region
// that holds its first byte; a misaligned one goes to the helper.
void emit_region_offset(x86::Asm& a, const InlineLoads& l, unsigned bytes, std::vector<size_t>& elsewhere,
                        std::vector<size_t>& misaligned) {
  using namespace x86;
  if (bytes > 1) {
    a.test_imm(RSI, static_cast<int32_t>(bytes - 1));
    misaligned.push_back(a.jcc(NE));
  }
  a.mov(RAX, RSI);
  a.alu_from_mem(SUB, RAX, RDI, l.base);
  a.alu_from_mem(CMP, RAX, RDI, l.size);
  elsewhere.push_back(a.jcc(AE));
}

// The routine an access calls when its line is not the one accessed last
// (shared_routines.h; rdi: the hart, the line in `line`): hit_previous,
// else hit_way with the hart's hint for the line (not counted), ZF set; else
// ZF clear and nothing changed. Uses `hint`, `way` and `tmp`. At each
// access, this code made a kernel's block about a hundred bytes longer.
struct DataWayLayout {  // what it depends on: offsets and registers (int32_t: no padding)
  CacheFields dcache;
  int32_t way_hints, hint_count;
  int32_t line, hint, way, tmp;
};
static_assert(std::has_unique_object_representations_v<DataWayLayout>, "compared byte by byte");

// The routine's steps, at the place of the call when there is no routine.
std::vector<size_t> emit_data_way_or_previous(x86::Asm& a, const DataWayLayout& l) {
  using namespace x86;
  const auto line = static_cast<Reg>(l.line), hint = static_cast<Reg>(l.hint);
  return emit_way_or_previous_hit(a, l.dcache, RDI, line, hint, static_cast<Reg>(l.way), static_cast<Reg>(l.tmp), [&] {
    a.mov(hint, line);  // way_hints[line % hint_count]
    a.alu_imm(AND, hint, l.hint_count - 1, false);
    a.load32_indexed4(hint, RDI, hint, l.way_hints);
  });
}

std::vector<uint8_t> make_data_way_or_previous(const void* layout) {
  x86::Asm a;
  const std::vector<size_t> neither = emit_data_way_or_previous(a, *static_cast<const DataWayLayout*>(layout));
  return finish_zf_routine(a, neither);
}

// With the physical address in `line` and the hart in rdi: the D-cache's
// quick hits as the helpers' (hit_again, hit_way with the hart's hint for
// the line, hit_previous), the hit counted and its time added, a write's
// line marked dirty; falls through on a hit, else takes one of the jumps
// returned (nothing changed). `line` becomes the line; uses rcx, `hint`,
// `way` and `tmp`. `here`: the way-or-previous hits in this code, not by
// the shared routine's call (emit_inline_load's `in_loop`).
std::vector<size_t> emit_data_hit(x86::Asm& a, const InlineLoads& l, x86::Reg line, x86::Reg hint, x86::Reg way,
                                  x86::Reg tmp, bool write, bool here) {
  using namespace x86;
  a.shift_imm(SHR, line, static_cast<uint8_t>(l.line_bits));
  a.alu_from_mem(CMP, line, RDI, l.dcache.last_line);  // hit_again
  const size_t again = a.jcc(E);
  const DataWayLayout layout{l.dcache, l.way_hints, static_cast<int32_t>(l.hint_count), line, hint, way, tmp};
  std::vector<size_t> none;
  const void* routine =
      here ? nullptr : shared_routine("data_way_or_previous", make_data_way_or_previous, &layout, sizeof layout);
  if (routine) {
    a.mov_imm(hint, reinterpret_cast<uint64_t>(routine));
    a.call_reg(hint);
    none.push_back(a.jcc(NE));
  } else {
    none = emit_data_way_or_previous(a, layout);
  }
  a.bind(again);
  if (write) {  // the line's way is the last one now
    a.load(way, RDI, l.dcache.last_way);
    a.store_byte_imm(way, l.dcache.way_dirty, 1);
  }
  if (l.hit_ps == 0) {  // hits that take no time (a functional run warming the cache) are only counted
    a.alu_mem_imm(ADD, RDI, l.dcache.hits, 1);
  } else {
    a.mov_imm(RCX, l.hit_ps);
    emit_cache_hit(a, RDI, l.dcache.hits, l.time_ps, l.stall_ps, RCX);
  }
  return none;
}

constexpr unsigned kLoadBytes[] = {1, 2, 4, 8, 1, 2, 4};  // LB LH LW LD LBU LHU LWU

InlineAccess emit_load(x86::Asm& a, const InlineLoads& l, unsigned op, bool in_loop) {
  using namespace x86;
  const unsigned bytes = kLoadBytes[op - rv::LB];
  InlineAccess out{{}, {}, a.size(), bytes, &l.again};
  std::vector<size_t>& to_helper = out.to_helper;
  emit_region_offset(a, l, bytes, out.elsewhere, to_helper);
  if (l.timed) {
    a.mov(RDX, RSI);
    a.alu_from_mem(ADD, RDX, RDI, l.pa_delta);
    for (size_t f : emit_data_hit(a, l, RDX, R10, R8, R9, false, in_loop)) to_helper.push_back(f);
  }
  a.alu_from_mem(ADD, RAX, RDI, l.ptr);
  a.load_extended(RAX, RAX, 0, bytes, op <= rv::LD);
  return out;
}

InlineAccess emit_store(x86::Asm& a, const InlineStores& s, unsigned op, bool in_loop) {
  using namespace x86;
  const unsigned bytes = 1u << (op - rv::SB);
  const InlineLoads& l = s.region;
  InlineAccess out{{}, {}, a.size(), bytes, &l.again};
  std::vector<size_t>& to_helper = out.to_helper;
  emit_region_offset(a, l, bytes, out.elsewhere, to_helper);
  a.mov_imm(R8, reinterpret_cast<uint64_t>(s.reservations));  // no reservation (Hart::stored's first case)
  a.alu_mem_imm(CMP, R8, 0, 0, false);
  to_helper.push_back(a.jcc(NE));
  // No code in the physical address's granule, which holds all of the store
  // (aligned, no wider than a granule): a code-free region, or
  // code_map[granule] 0, or the granule beyond the map. The D-cache takes
  // the address in r9.
  const Reg granule = l.timed ? R10 : R9;
  const auto pa_to_r9 = [&] {
    a.mov(R9, RSI);
    a.alu_from_mem(ADD, R9, RDI, l.pa_delta);
  };
  if (l.timed) pa_to_r9();  // the D-cache's, whatever the region
  a.cmp_byte_imm(RDI, l.code_free, 0);
  const size_t code_free = a.jcc(NE);
  if (l.timed) a.mov(granule, R9);
  else pa_to_r9();
  a.shift_imm(SHR, granule, static_cast<uint8_t>(s.granule_bits));
  a.alu_imm(CMP, granule, static_cast<int32_t>(s.code_map_bytes));
  const size_t beyond = a.jcc(AE);
  a.mov_imm(R8, reinterpret_cast<uint64_t>(s.code_map));
  a.cmp_byte_indexed(R8, granule, 0);
  to_helper.push_back(a.jcc(NE));
  a.bind(beyond);
  a.bind(code_free);
  if (l.timed)
    for (size_t f : emit_data_hit(a, l, R9, R10, R11, R8, true, in_loop)) to_helper.push_back(f);
  a.alu_from_mem(ADD, RAX, RDI, l.ptr);
  a.store_sized(RAX, 0, RDX, bytes);
  return out;
}

// `l` with the region before's fields for the region in use's.
InlineLoads on_region_before(InlineLoads l) {
  const int32_t shift = l.again.before - l.again.in_use;
  for (int32_t* field : {&l.base, &l.size, &l.ptr, &l.pa_delta, &l.code_free}) *field += shift;
  return l;
}

}  // namespace

AccessAgain emit_access_again(x86::Asm& a, const InlineAccess& fast) {
  using namespace x86;
  AccessAgain out;
  for (size_t f : fast.elsewhere) a.bind(f);
  if (fast.loads || fast.stores) {
    const RegionAgain& r = *fast.again;
    a.lea(R8, RDI, r.not_counted);
    a.alu_from_mem(CMP, R8, RDI, r.page_hits);
    const size_t counted = a.jcc(NE);
    InlineAccess before;
    if (fast.loads) {
      before = emit_load(a, on_region_before(*fast.loads), fast.op, true);
    } else {
      InlineStores s = *fast.stores;
      s.region = on_region_before(s.region);
      before = emit_store(a, s, fast.op, true);
    }
    out.done.push_back(a.jmp());
    out.to_helper = std::move(before.to_helper);
    for (size_t f : before.elsewhere) a.bind(f);
    a.bind(counted);
  }
  const void* routine = shared_routine("region_again", make_region_again, fast.again, sizeof *fast.again);
  if (!routine) return out;
  a.mov_imm(RCX, fast.bytes);
  a.mov_imm(R11, reinterpret_cast<uint64_t>(routine));
  a.call_reg(R11);
  a.bind(a.jcc(E), fast.check);
  return out;
}

InlineAccess emit_inline_load(x86::Asm& a, const InlineLoads& l, unsigned op, bool in_loop) {
  InlineAccess out = emit_load(a, l, op, in_loop);
  out.op = op;
  out.loads = in_loop ? &l : nullptr;  // its code again on the region before (emit_access_again)
  return out;
}

InlineAccess emit_inline_store(x86::Asm& a, const InlineStores& s, unsigned op, bool in_loop) {
  InlineAccess out = emit_store(a, s, op, in_loop);
  out.op = op;
  out.stores = in_loop ? &s : nullptr;  // its code again on the region before (emit_access_again)
  return out;
}

std::vector<uint8_t> finish_zf_routine(x86::Asm& a, const std::vector<size_t>& no) {
  using namespace x86;
  a.alu(CMP, RSP, RSP);  // ZF set
  a.ret();
  for (size_t f : no) a.bind(f);
  a.test(RSP, RSP);  // ZF clear: the stack pointer is never 0
  a.ret();
  return a.bytes();
}

std::vector<size_t> emit_way_or_previous_hit(x86::Asm& a, const CacheFields& c, x86::Reg hart, x86::Reg line,
                                             x86::Reg hint, x86::Reg way, x86::Reg tmp,
                                             const std::function<void()>& load_hint) {
  using namespace x86;
  std::vector<size_t> neither, not_previous;
  emit_previous_holds(a, c, hart, line, way, not_previous);  // hit_previous: as a hit in that way (the two swap)
  const size_t hit = a.size();
  a.alu_from_mem(CMP, way, hart, c.last_way);  // remembered: another way makes the last one the previous
  const size_t same_way = a.jcc(E);
  a.load(tmp, hart, c.last_line);
  a.store(hart, c.prev_line, tmp);
  a.load(tmp, hart, c.last_way);
  a.store(hart, c.prev_way, tmp);
  a.bind(same_way);
  a.store(hart, c.last_line, line);
  a.store(hart, c.last_way, way);
  a.load(tmp, hart, c.clock);  // the way's use: ++clock
  a.alu_imm(ADD, tmp, 1);
  a.store(hart, c.clock, tmp);
  a.store(way, c.way_used, tmp);
  const size_t done = a.jmp();
  for (size_t f : not_previous) a.bind(f);
  load_hint();
  emit_hinted_holds(a, c, hart, line, hint, way, neither);  // hit_way
  a.bind(a.jmp(), hit);
  a.bind(done);
  return neither;
}

#endif

}  // namespace avp

// The DMI regions a hart was granted on its bus (tlm_dmi), kept until the
// bus invalidates them: its loads, stores and fetches there move their bytes
// directly. A request carries a FetchExtension (a target with an execute
// permission refuses a fetch it does not allow and says whether the region
// may be fetched from and read as data) and a PageWritesExtension (memory
// that counts the writes to its pages says where: base/page_writes.h). The
// launch's read-only range (HartLaunch::read_only_*) clips writable regions
// around it. Every change counts in the generation translated code compares
// (HartHotState::dmi_gen). The addresses the bus refused lately are kept
// too, until any invalidation: a device register polled through the slow
// path (a UART's status, a timer) asks once, not at every access.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include <tlm>

#include "base/local_time.h"
#include "base/unit.h"
#include "harts/dmi_region.h"
#include "harts/slice_state.h"

namespace avp {

class DmiRegions {
 public:
  // generation: where changes are counted; time: the hart's local time,
  // caught up before a request; slice: no request is made in a slice.
  DmiRegions(tlm::tlm_initiator_socket<>& bus, UnitId unit, unsigned core, uint64_t& generation, LocalTime& time,
             const SliceState& slice)
      : bus_(bus), unit_(unit), core_(core), generation_(generation), time_(time), slice_(slice) {}

  // The region granted for [addr] (fetch: to an instruction fetch), asking
  // the bus when none is (in a slice: throws NeedsKernel); nullptr: none.
  DmiRegion* find(uint64_t addr, bool write, bool fetch = false);
  // As find, without asking the bus.
  DmiRegion* known(uint64_t addr, bool write, bool fetch = false) {
    for (DmiRegion& r : regions_)
      if (addr - r.base < r.size && (fetch ? r.exec : write ? r.wr : r.rd)) return &r;
    return nullptr;
  }
  const std::vector<DmiRegion>& all() const { return regions_; }
  // The bus's invalidation of [start, end].
  void invalidate(uint64_t start, uint64_t end);

  // Stores refused in [base, base + size) (size 0: none). True when it
  // changed: every region goes (writable ones are clipped around it).
  bool set_read_only(uint64_t base, uint64_t size);
  bool read_only(uint64_t addr, uint64_t len) const {
    return ro_size_ && addr < ro_base_ + ro_size_ && ro_base_ < addr + len;
  }

 private:
  // A refused request, by the address asked for: the kinds (kRefusedRead,
  // kRefusedWrite, kRefusedFetch) the bus refused there. The bus answers
  // an address the same way until it invalidates a range.
  enum : uint8_t { kRefusedRead = 1, kRefusedWrite = 2, kRefusedFetch = 4 };
  struct Refused {
    uint64_t addr = ~0ull;
    uint8_t kinds = 0;
  };
  static constexpr unsigned kRefusedSlots = 8;
  static uint8_t refused_kind(bool write, bool fetch) {
    return fetch ? kRefusedFetch : write ? kRefusedWrite : kRefusedRead;
  }
  Refused& refused_slot(uint64_t addr) { return refused_[(addr >> 2) % kRefusedSlots]; }

  tlm::tlm_initiator_socket<>& bus_;
  const UnitId unit_;
  const unsigned core_;
  uint64_t& generation_;
  LocalTime& time_;
  const SliceState& slice_;
  std::vector<DmiRegion> regions_;
  std::array<Refused, kRefusedSlots> refused_{};  // direct-mapped by address
  uint64_t ro_base_ = 0, ro_size_ = 0;
};

}  // namespace avp

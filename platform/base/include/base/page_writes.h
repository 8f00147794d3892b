// Write generations of a memory's 4 KiB pages: how a DMI user that keeps
// something derived from the memory's bytes (a hart's decoded code) tells
// that a page has not been written since it looked, without comparing bytes.
// The memory counts every write that reaches it through TLM (b_transport,
// transport_dbg) and through its host-side writer; stores through DMI
// pointers are the DMI user's own to track (a hart's stores drop the decoded
// code they hit themselves). Once anything may write the storage behind the
// memory's back (its raw pointer handed out, the storage shared with another
// process), the pages are untracked: every page may have changed.
// A memory attaches its PageWrites to a DMI grant through PageWritesExtension,
// which harts set on their DMI requests. Counted and read in the simulation
// thread (TLM transport is never called from a hart's parallel slice).
#pragma once
#include <cstdint>

#include <tlm>

namespace avp {

class PageWrites {
 public:
  static constexpr unsigned kPageBits = 12;
  PageWrites() = default;
  ~PageWrites();
  // Counts the pages of the storage [storage, storage + size) (reserved lazily, as the storage is); once.
  void cover(const uint8_t* storage, uint64_t size);
  PageWrites(const PageWrites&) = delete;
  PageWrites& operator=(const PageWrites&) = delete;

  // [offset, offset + len) of the storage was written (after its bytes changed).
  void wrote(uint64_t offset, uint64_t len) {
    if (len == 0) return;
    for (uint64_t p = offset >> kPageBits; p <= (offset + len - 1) >> kPageBits; ++p) ++count_[p];
    ++writes_;
  }
  void untrack() { tracked_ = false; }
  bool tracked() const { return tracked_; }
  // The writes counted on any page so far: unchanged, no page's generation changed.
  uint64_t writes() const { return writes_; }
  bool holds(const uint8_t* p, uint64_t len) const {
    return p >= storage_ && static_cast<uint64_t>(p - storage_) < size_ && len <= size_ - (p - storage_);
  }
  // The writes so far on the pages [p, p + len) touches (host bytes the
  // storage holds), summed: any later write there changes it. Read before
  // the bytes a user keeps. Meaningless when untracked.
  uint64_t generation(const uint8_t* p, uint64_t len) const {
    const uint64_t off = p - storage_;
    uint64_t g = 0;
    for (uint64_t page = off >> kPageBits; page <= (off + len - 1) >> kPageBits; ++page) g += count_[page];
    return g;
  }

 private:
  const uint8_t* storage_ = nullptr;
  uint64_t size_ = 0;
  uint64_t* count_ = nullptr;
  uint64_t writes_ = 0;
  bool tracked_ = true;
};

// Set by an initiator on a DMI request; a target that counts its writes answers with them.
struct PageWritesExtension : tlm::tlm_extension<PageWritesExtension> {
  const PageWrites* writes = nullptr;  // DMI answer: the granted storage's write generations
  tlm::tlm_extension_base* clone() const override { return new PageWritesExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const PageWritesExtension&>(o); }
};

}  // namespace avp

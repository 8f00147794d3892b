// Executable memory for translated blocks (block_translator.h): one mapping
// per hart, filled from the start and emptied as a whole, when every decoded
// block is dropped (QEMU's translation cache does the same when it fills).
#pragma once
#include <cstddef>
#include <cstdint>

namespace avp {

class CodeArena {
 public:
  static constexpr size_t kDefaultSize = size_t{16} << 20;
  explicit CodeArena(size_t size = kDefaultSize) : size_(size) {}
  void set_size(size_t size) {  // before the first add: the mapping is made then
    if (!mapped_) size_ = size;
  }
  ~CodeArena();
  CodeArena(const CodeArena&) = delete;
  CodeArena& operator=(const CodeArena&) = delete;

  // Copies `n` bytes of code in; nullptr when the arena is full or the host
  // gives no executable memory (the block is then interpreted).
  void* add(const uint8_t* code, size_t n);
  void reset() { used_ = 0; full_ = false; }
  bool full() const { return full_; }
  size_t used() const { return used_; }  // bytes up to the end of the last code added
  const uint8_t* base() const { return base_; }

 private:
  static constexpr size_t kHugePage = size_t{2} << 20;
  uint8_t* base_ = nullptr;
  size_t size_, used_ = 0;
  size_t ready_ = 0;  // the arena's bytes up to here are populated, or asked to be (base/prefault.h)
  bool mapped_ = false, full_ = false;
};

}  // namespace avp

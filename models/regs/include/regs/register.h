// Typed registers declared as members of the block that owns them (in the
// style of VCML's reg<T>): name, offset, width (8 to 64 bits), reset value,
// access rights, optional read/write callbacks, arrays (count elements at a
// stride) and per-unit banks (one copy of every value per bank). The register
// block (register_block.h) decodes accesses and applies the misuse rules.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace avp {

// RO: writes are misuse. WO: reads are misuse. RW: plain storage.
// W1C: a write clears the stored bits written as 1.
enum class Access : uint8_t { RO, WO, RW, W1C };
const char* access_name(Access a);

class RegisterBlock;

class RegisterBase {
 public:
  RegisterBase(RegisterBlock& block, std::string name, uint64_t offset, unsigned bytes, Access access, uint64_t reset,
               unsigned count, uint64_t stride);
  virtual ~RegisterBase() = default;
  RegisterBase(const RegisterBase&) = delete;
  RegisterBase& operator=(const RegisterBase&) = delete;

  const std::string& name() const { return name_; }
  uint64_t offset() const { return offset_; }
  unsigned bytes() const { return bytes_; }
  Access access() const { return access_; }
  uint64_t reset_value() const { return reset_; }
  unsigned count() const { return count_; }
  uint64_t stride() const { return stride_; }
  bool readable() const { return access_ != Access::WO; }
  bool writable() const { return access_ != Access::RO; }
  std::string element_name(unsigned idx) const { return count_ > 1 ? name_ + "[" + std::to_string(idx) + "]" : name_; }

  // Checked accesses from the block: `mask` selects the bytes written.
  virtual uint64_t read_element(unsigned idx) = 0;
  virtual void write_element(unsigned idx, uint64_t value, uint64_t mask) = 0;
  virtual void reset() = 0;

 protected:
  unsigned bank() const;

 private:
  RegisterBlock& block_;
  std::string name_;
  uint64_t offset_;
  unsigned bytes_;
  Access access_;
  uint64_t reset_;
  unsigned count_;
  uint64_t stride_;
};

template <typename T>
class Reg : public RegisterBase {
  static_assert(std::is_unsigned_v<T> && sizeof(T) <= 8, "registers are 8, 16, 32 or 64 bits");

 public:
  using ReadFn = std::function<T(unsigned idx)>;
  using WriteFn = std::function<void(unsigned idx, T value, T mask)>;

  Reg(RegisterBlock& block, std::string name, uint64_t offset, Access access, T reset = 0, unsigned count = 1,
      uint64_t stride = sizeof(T))
      : RegisterBase(block, std::move(name), offset, sizeof(T), access, reset, count, stride) {}

  // The read callback replaces the stored value: T() or T(unsigned idx).
  template <typename F>
  Reg& on_read(F f) {
    if constexpr (std::is_invocable_v<F, unsigned>) read_ = std::move(f);
    else read_ = [f = std::move(f)](unsigned) { return f(); };
    return *this;
  }
  // Called after the access rule has updated the stored value, with the value
  // written: void(T), void(unsigned idx, T) or void(unsigned idx, T value, T mask)
  // (mask: the bytes the access wrote, for 32-bit halves of a 64-bit register).
  template <typename F>
  Reg& on_write(F f) {
    if constexpr (std::is_invocable_v<F, unsigned, T, T>) write_ = std::move(f);
    else if constexpr (std::is_invocable_v<F, unsigned, T>) write_ = [f = std::move(f)](unsigned i, T v, T) { f(i, v); };
    else write_ = [f = std::move(f)](unsigned, T v, T) { f(v); };
    return *this;
  }

  // The stored value (of the current bank).
  T get(unsigned idx = 0) const { return values().at(idx); }
  void set(T v, unsigned idx = 0) { values().at(idx) = v; }
  operator T() const { return get(); }
  Reg& operator=(T v) {
    set(v);
    return *this;
  }

  uint64_t read_element(unsigned idx) override { return read_ ? read_(idx) : get(idx); }
  void write_element(unsigned idx, uint64_t value, uint64_t mask) override {
    T& stored = values().at(idx);
    const T v = static_cast<T>(value), m = static_cast<T>(mask);
    if (access() == Access::W1C) stored = static_cast<T>(stored & ~(v & m));
    else stored = static_cast<T>((stored & ~m) | (v & m));
    if (write_) write_(idx, access() == Access::W1C ? static_cast<T>(v & m) : stored, m);
  }
  void reset() override { banks_.clear(); }

 private:
  std::vector<T>& values() const {
    auto it = banks_.find(bank());
    if (it == banks_.end()) it = banks_.emplace(bank(), std::vector<T>(count(), static_cast<T>(reset_value()))).first;
    return it->second;
  }

  mutable std::map<unsigned, std::vector<T>> banks_;
  ReadFn read_;
  WriteFn write_;
};

}  // namespace avp

// A bank of 32-bit registers declared with offset, name and read/write
// callbacks (VCML style): no hand-written address decode in the devices.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace avp {

class RegisterBank {
 public:
  using Read = std::function<uint32_t()>;
  using Write = std::function<void(uint32_t)>;
  struct Reg {
    std::string name;
    Read read;    // null: write-only (reads return 0)
    Write write;  // null: read-only (writes are ignored and logged by the caller)
  };

  void add(uint32_t offset, std::string name, Read r, Write w) { regs_[offset] = Reg{std::move(name), std::move(r), std::move(w)}; }
  // A plain storage register.
  void storage(uint32_t offset, std::string name, uint32_t& v) {
    add(offset, std::move(name), [&v] { return v; }, [&v](uint32_t x) { v = x; });
  }
  const Reg* find(uint32_t offset) const {
    auto it = regs_.find(offset);
    return it == regs_.end() ? nullptr : &it->second;
  }

 private:
  std::map<uint32_t, Reg> regs_;
};

}  // namespace avp

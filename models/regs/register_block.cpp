#include "regs/register_block.h"

#include <cstring>
#include <iomanip>
#include <iterator>
#include <stdexcept>

namespace avp {

const char* access_name(Access a) {
  switch (a) {
    case Access::RO: return "RO";
    case Access::WO: return "WO";
    case Access::RW: return "RW";
    case Access::W1C: return "W1C";
  }
  return "?";
}

RegisterBase::RegisterBase(RegisterBlock& block, std::string name, uint64_t offset, unsigned bytes, Access access,
                           uint64_t reset, unsigned count, uint64_t stride)
    : block_(block), name_(std::move(name)), offset_(offset), bytes_(bytes), access_(access), reset_(reset),
      count_(count), stride_(stride) {
  block.add(this);
}

unsigned RegisterBase::bank() const { return block_.bank(); }

RegisterBlock::RegisterBlock(const sc_core::sc_object* owner, std::string name, uint64_t size, Misuse policy,
                             const std::string& latency_name, sc_core::sc_time default_latency)
    : latency(owner, latency_name, default_latency, "latency of one access to the " + name + " registers"),
      name_(std::move(name)), size_(size), policy_(policy), log_(std::string(owner->name())) {}

// Registers are fixed at elaboration: a layout error is a programming error,
// found before any element is entered.
void RegisterBlock::add(RegisterBase* r) {
  if ((r->count() > 1 && r->stride() < r->bytes()) || r->offset() % r->bytes())
    throw std::logic_error(name_ + "." + r->name() + ": bad register layout");
  for (unsigned i = 0; i < r->count(); ++i) {
    const uint64_t at = r->offset() + i * r->stride();
    auto next = elements_.lower_bound(at);
    const bool overlaps_next = next != elements_.end() && next->first < at + r->bytes();
    const bool overlaps_prev = next != elements_.begin() && std::prev(next)->first + std::prev(next)->second.first->bytes() > at;
    if (at + r->bytes() > size_ || overlaps_next || overlaps_prev)
      throw std::logic_error(name_ + "." + r->element_name(i) + ": outside the block or overlapping another register");
  }
  for (unsigned i = 0; i < r->count(); ++i) elements_.emplace(r->offset() + i * r->stride(), std::make_pair(r, i));
  regs_.push_back(r);
}

RegisterBlock::Hit RegisterBlock::decode(uint64_t offset, unsigned len, bool is_write, Fault& fault,
                                         const char*& why) const {
  auto fails = [&](Fault f, const char* w) {
    fault = f;
    why = w;
    return Hit{};
  };
  auto it = elements_.upper_bound(offset);
  if (it == elements_.begin()) return fails(Fault::Unmapped, "no register at this offset");
  --it;
  RegisterBase* r = it->second.first;
  const uint64_t at = offset - it->first;
  if (at >= r->bytes()) return fails(Fault::Unmapped, "no register at this offset");
  const bool whole = len == r->bytes() && at == 0;
  const bool half = r->bytes() == 8 && len == 4 && (at == 0 || at == 4);
  if (!whole && !half) return fails(Fault::Size, "access size or alignment does not match the register");
  if (is_write && !r->writable()) return fails(Fault::Rights, "write of a read-only register");
  if (!is_write && !r->readable()) return fails(Fault::Rights, "read of a write-only register");
  const unsigned shift = static_cast<unsigned>(at * 8);
  const uint64_t mask = len == 8 ? ~0ull : ((1ull << (len * 8)) - 1) << shift;
  return {r, it->second.second, mask, shift};
}

RegisterBlock::Outcome RegisterBlock::misuse(bool is_write, uint64_t offset, unsigned len, Fault fault, const char* why) {
  last_fault_ = fault;
  AVP_LOG(log_, Warn, name_ << " " << (is_write ? "write" : "read") << " of " << len << " bytes at offset 0x" << std::hex
                            << offset << (policy_ == Misuse::Ignore ? " ignored (" : " answered with an error (") << why << ")");
  return Outcome::Misused;
}

RegisterBlock::Outcome RegisterBlock::read(uint64_t offset, unsigned len, uint64_t& value) {
  const char* why = "";
  Fault fault = Fault::None;
  const Hit h = decode(offset, len, false, fault, why);
  if (!h.reg) {
    value = ~0ull;
    return misuse(false, offset, len, fault, why);
  }
  value = (h.reg->read_element(h.idx) & h.mask) >> h.shift;
  return Outcome::Read;
}

RegisterBlock::Outcome RegisterBlock::write(uint64_t offset, unsigned len, uint64_t value) {
  const char* why = "";
  Fault fault = Fault::None;
  const Hit h = decode(offset, len, true, fault, why);
  if (!h.reg) return misuse(true, offset, len, fault, why);
  h.reg->write_element(h.idx, value << h.shift, h.mask);
  return Outcome::Written;
}

RegisterBlock::Outcome RegisterBlock::access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += latency.get();
  bank_ = selector_ ? selector_(gp) : 0;
  const unsigned len = gp.get_data_length();
  const uint64_t offset = gp.get_address();
  const bool sized = len <= 8 && gp.get_streaming_width() >= len && !gp.get_byte_enable_ptr();
  const char* bad_size = "access size or alignment does not match the register";
  Outcome out;
  uint64_t v = 0;
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  current_gp_ = &gp;
  current_delay_ = &delay;
  current_response_ = &status;
  const char* refused = check_ ? check_(gp) : nullptr;
  if (refused) {
    out = misuse(gp.is_write(), offset, len, Fault::Unmapped, refused);
    if (gp.is_read() && policy_ == Misuse::Ignore) std::memset(gp.get_data_ptr(), 0xFF, len);
  } else if (gp.is_write()) {
    if (sized) std::memcpy(&v, gp.get_data_ptr(), len);
    out = sized ? write(offset, len, v) : misuse(true, offset, len, Fault::Size, bad_size);
  } else {
    out = sized ? read(offset, len, v) : misuse(false, offset, len, Fault::Size, bad_size);
    if (out == Outcome::Read) std::memcpy(gp.get_data_ptr(), &v, len);
    else if (policy_ == Misuse::Ignore) std::memset(gp.get_data_ptr(), 0xFF, len);
  }
  current_gp_ = nullptr;
  current_delay_ = nullptr;
  current_response_ = nullptr;
  if (out == Outcome::Misused && policy_ == Misuse::BusError)
    status = last_fault_ == Fault::Size       ? tlm::TLM_BURST_ERROR_RESPONSE
             : last_fault_ == Fault::Unmapped ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                              : tlm::TLM_COMMAND_ERROR_RESPONSE;
  gp.set_response_status(status);
  return out;
}

unsigned RegisterBlock::debug(tlm::tlm_generic_payload& gp) {
  if (!gp.is_read() || gp.get_data_length() > 8 || (check_ && check_(gp))) return 0;
  bank_ = selector_ ? selector_(gp) : 0;
  const char* why = "";
  Fault fault = Fault::None;
  const Hit h = decode(gp.get_address(), gp.get_data_length(), false, fault, why);
  if (!h.reg) return 0;
  current_gp_ = &gp;
  const uint64_t v = (h.reg->read_element(h.idx) & h.mask) >> h.shift;
  current_gp_ = nullptr;
  std::memcpy(gp.get_data_ptr(), &v, gp.get_data_length());
  return gp.get_data_length();
}

void RegisterBlock::reset() {
  for (RegisterBase* r : regs_) r->reset();
}

void RegisterBlock::print(std::ostream& os) const {
  os << name_ << " (misuse: " << (policy_ == Misuse::Ignore ? "ignored" : "bus error") << ")\n";
  for (const auto& [at, e] : elements_) {
    const RegisterBase* r = e.first;
    os << "  0x" << std::hex << std::setw(4) << std::setfill('0') << at << std::dec << std::setfill(' ') << "  " << std::setw(2)
       << r->bytes() * 8 << "-bit  " << std::setw(3) << access_name(r->access()) << "  reset 0x" << std::hex
       << r->reset_value() << std::dec << "  " << r->element_name(e.second) << "\n";
  }
}

}  // namespace avp

// Command-buffer encoder for host code: one method per CMP command, producing
// the little-endian 64-bit chunks of cmp_packets.h.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "cmp/cmp_packets.h"

namespace avp {

class CommandBuffer {
 public:
  CommandBuffer& nop(unsigned payload_chunks = 0) {
    emit(AVP_CMP_NOP, 0, std::vector<uint64_t>(payload_chunks, 0));
    return *this;
  }
  CommandBuffer& finish() { return emit(AVP_CMP_FINISH, 0, {}); }
  CommandBuffer& write_reg(unsigned reg, uint64_t value) { return emit(AVP_CMP_WRITE_REG64, reg, {value}); }
  CommandBuffer& load_reg(unsigned reg, uint64_t src_addr) { return emit(AVP_CMP_LOAD_REG64, reg, {src_addr}); }
  CommandBuffer& store_reg(unsigned reg, uint64_t dst_addr) { return emit(AVP_CMP_STORE_REG64, reg, {dst_addr}); }
  CommandBuffer& store_imm(uint32_t dst_addr, uint64_t value) { return emit(AVP_CMP_STORE_IMM64, dst_addr, {value}); }
  CommandBuffer& copy_mem(uint32_t count, uint64_t src, uint64_t dst, uint64_t unit) {
    return emit(AVP_CMP_COPY_MEM64, count, {src, dst, unit});
  }
  CommandBuffer& run_kernel_slice(unsigned max_harts, uint64_t instances, uint64_t slice_id) {
    return emit(AVP_CMP_RUN_KERNEL_SLICE, max_harts & 0xFF, {instances, slice_id});
  }
  CommandBuffer& run_instances(unsigned max_harts, uint64_t instances, std::initializer_list<uint64_t> args) {
    if (args.size() > 7) throw std::invalid_argument("RUN_INSTANCES takes at most 7 extra arguments");
    std::vector<uint64_t> p{instances};
    p.insert(p.end(), args.begin(), args.end());
    return emit(AVP_CMP_RUN_INSTANCES, AVP_CMP_RUN_INLINE(max_harts & 0xFF, args.size()), p);
  }
  CommandBuffer& sync_cache(unsigned flags) { return emit(AVP_CMP_SYNC_CACHE, flags, {}); }
  // A memory window (registers 8..39 of window n); size in bytes.
  CommandBuffer& window(unsigned n, uint64_t base, uint64_t target, uint64_t size, unsigned mode, unsigned perms,
                        uint64_t scale = 0, bool interleave = false, unsigned stride = 0) {
    write_reg(AVP_CMP_WINDOW_BASE0 + n, base);
    write_reg(AVP_CMP_WINDOW_TARGET0 + n, target);
    write_reg(AVP_CMP_WINDOW_SCALE0 + n, scale);
    return write_reg(AVP_CMP_WINDOW_MODE0 + n, AVP_CMP_WIN_ACTIVE | AVP_CMP_WIN_MODE(mode) | (uint64_t(perms & 7) << 4) |
                                                   (interleave ? AVP_CMP_WIN_INTERLEAVE : 0) | AVP_CMP_WIN_STRIDE(stride) |
                                                   AVP_CMP_WIN_SIZE(size));
  }
  // Appends a raw chunk (for malformed-buffer tests).
  CommandBuffer& raw(uint64_t chunk) {
    chunks_.push_back(chunk);
    return *this;
  }

  const std::vector<uint64_t>& chunks() const { return chunks_; }
  uint64_t size_bytes() const { return chunks_.size() * 8; }

 private:
  CommandBuffer& emit(unsigned op, uint32_t inl, const std::vector<uint64_t>& payload) {
    chunks_.push_back(AVP_CMP_HEADER(op, payload.size(), inl));
    chunks_.insert(chunks_.end(), payload.begin(), payload.end());
    return *this;
  }
  std::vector<uint64_t> chunks_;
};

}  // namespace avp

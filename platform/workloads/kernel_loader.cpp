#include "kernel_loader.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "accel_device.h"

#include "base/elf_loader.h"
#include "base/local_time.h"
#include "platform/platform.h"
#include "platform/workload.h"

namespace avp {

LoadedKernel load_kernel(const std::string& elf, uint64_t dram, uint64_t capacity,
                         const std::function<bool(uint64_t, const void*, uint64_t)>& write) {
  // The image is linked at a window address, which is only known once every
  // segment is read: keep the bytes, then place them relative to its first page.
  struct Piece {
    uint64_t addr;
    std::vector<uint8_t> bytes;
  };
  std::vector<Piece> pieces;
  ElfImage img = load_elf(elf, [&](uint64_t a, const void* d, uint64_t len) {
    const auto* b = static_cast<const uint8_t*>(d);
    pieces.push_back({a, std::vector<uint8_t>(b, b + len)});
    return true;
  });
  LoadedKernel k;
  k.dram = dram;
  k.link_base = img.lowest & ~0xFFFull;
  k.size = img.highest - k.link_base;
  k.entry = img.entry;
  if (k.size > capacity)
    throw ElfError(elf + ": the image is " + std::to_string(k.size) + " bytes from its first page, more than the " +
                   std::to_string(capacity) + " bytes it is loaded into");
  for (const Piece& p : pieces)
    if (!write(dram + (p.addr - k.link_base), p.bytes.data(), p.bytes.size()))
      throw ElfError(elf + ": cannot write the bytes linked at " + std::to_string(p.addr) + " to device memory");
  register_symbols(img);  // the harts run it at its link addresses (through the window)
  return k;
}

bool host_write(Platform& p, uint64_t addr, const void* data, uint64_t len) {
  LocalTime time;
  const auto* b = static_cast<const uint8_t*>(data);
  for (uint64_t off = 0; off < len; off += 4096) {
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(4096, len - off));
    if (time.annotate([&](sc_core::sc_time& d) { return p.device_port.write(addr + off, b + off, n, d); }) != tlm::TLM_OK_RESPONSE)
      return false;
  }
  time.sync();
  return true;
}

bool host_read(Platform& p, uint64_t addr, void* data, uint64_t len) {
  LocalTime time;
  auto* b = static_cast<uint8_t*>(data);
  for (uint64_t off = 0; off < len; off += 4096) {
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(4096, len - off));
    if (time.annotate([&](sc_core::sc_time& d) { return p.device_port.read(addr + off, b + off, n, d); }) != tlm::TLM_OK_RESPONSE)
      return false;
  }
  time.sync();
  return true;
}

unsigned run_command_buffer(Platform& p, const CommandBuffer& cb, uint64_t addr) {
  if (!host_write(p, addr, cb.chunks().data(), cb.size_bytes())) return AVP_CMP_ERR_MEMORY;
  const uint64_t before = p.cmp.completed_count();
  if (!p.cmp.submit(addr, cb.size_bytes())) return AVP_CMP_ERR_MEMORY;
  while (!p.cmp.idle()) sc_core::wait(p.cmp.idle_event());
  return p.cmp.completed_count() > before ? 0 : p.cmp.status().error_code;
}

bool load_kernel_into(AccelDevice& dev, const char* elf, const char* who, LoadedKernel& k) {
  constexpr uint64_t kBlock = 1 << 20;
  const uint64_t kernel_at = dev.alloc(kBlock, 4096);
  try {
    k = load_kernel(elf, kernel_at, kBlock, [&](uint64_t a, const void* d, uint64_t len) { return dev.write(a, d, len); });
    k.return_addr = dev.info().tcim_base;
  } catch (const ElfError& e) {
    std::fprintf(stderr, "%s: %s\n", who, e.what());
    return false;
  }
  return true;
}

CommandBuffer& append_kernel_setup(CommandBuffer& cb, const LoadedKernel& k) {
  return cb.window(0, k.link_base, k.dram, (k.size + 0xFFF) & ~0xFFFull, AVP_CMP_WIN_SHARED, 7)
      .sync_cache(AVP_CMP_SYNC_ICACHE)
      .write_reg(AVP_CMP_ENTRY_PT_FN, k.entry)
      .write_reg(AVP_CMP_RETURN_ADDR, k.return_addr)
      .write_reg(AVP_CMP_STACK_TOP, 0);
}

int execute_and_wait(AccelDevice& dev, const CommandBuffer& cb, const char* who) {
  if (!dev.execute(cb)) {
    std::fprintf(stderr, "%s: cannot submit the command buffer\n", who);
    return 2;
  }
  const CmpError err = dev.wait_idle();
  if (err.code) {
    std::fprintf(stderr, "%s: command buffer failed: %s\n", who, err.describe().c_str());
    return 1;
  }
  return 0;
}

bool arg_in(const WorkloadArgs& args, const char* workload, uint32_t lo, uint32_t hi, uint32_t& value) {
  if (args.args.empty()) return true;
  char* end = nullptr;
  const unsigned long v = std::strtoul(args.args[0].c_str(), &end, 10);
  if (args.args[0].empty() || *end || v < lo || v > hi) {
    std::fprintf(stderr, "%s: argument '%s' is not a number in %u..%u\n", workload, args.args[0].c_str(), lo, hi);
    return false;
  }
  value = static_cast<uint32_t>(v);
  return true;
}

}  // namespace avp

#include "acceldev/acceldev_iommu.h"

#include "pcie/bar0_regs.h"

namespace avp {

bool AcceldevIommu::fault(uint32_t ctx, UnitId unit, uint64_t addr, bool write, const char* why,
                          sc_core::sc_time* delay) {
  if (!delay) return false;  // debug accesses fail without side effects
  if (!engine_.launch_faulted(ctx))
    AVP_LOG(log_, Warn, unit_name(unit) << " for context " << ctx << ": " << (write ? "write" : "read")
                                        << " at host-window offset 0x" << std::hex << addr << " refused: " << why);
  engine_.context_fault(ctx, *delay);
  return false;
}

bool AcceldevIommu::translate(uint32_t ctx, UnitId unit, uint64_t addr, unsigned len, bool write,
                              std::vector<Piece>& out, sc_core::sc_time* delay) {
  out.clear();
  const uint64_t configs = engine_.contexts_base();
  if (ctx >= ACCELDEV_MAX_CONTEXTS || !configs) return fault(ctx, unit, addr, write, "no such context", delay);
  if (delay && engine_.launch_faulted(ctx)) return fault(ctx, unit, addr, write, "the launch already faulted", delay);
  const uint64_t slot = addr / ACCELDEV_BUFFER_MAX_SIZE;
  if (len == 0 || slot >= ACCELDEV_NUM_BUFFERS || (addr + len - 1) / ACCELDEV_BUFFER_MAX_SIZE != slot)
    return fault(ctx, unit, addr, write, "outside the 16 slots of 4 MiB", delay);
  uint64_t pt = 0;
  const uint64_t entry = configs + ACCELDEV_CONTEXT_CONFIG_SIZE * ctx + 8 * slot;
  if (!read_(entry, &pt, 8, delay)) return fault(ctx, unit, addr, write, "config entry unreadable", delay);
  if (pt == 0) return fault(ctx, unit, addr, write, "slot not bound", delay);
  if (pt >= (1ull << 40)) return fault(ctx, unit, addr, write, "page table beyond 40 bits", delay);
  for (uint64_t va = addr % ACCELDEV_BUFFER_MAX_SIZE, done = 0; done < len;) {
    uint32_t pte = 0;
    if (!read_(pt + 4 * (va >> 12), &pte, 4, delay)) return fault(ctx, unit, addr, write, "page table unreadable", delay);
    if (!(pte & ACCELDEV_PTE_PRESENT)) return fault(ctx, unit, addr, write, "page not present", delay);
    const unsigned n = static_cast<unsigned>(std::min<uint64_t>(ACCELDEV_PAGE_SIZE - (va & 0xFFF), len - done));
    out.push_back({(static_cast<uint64_t>(pte >> 4) << 12) | (va & 0xFFF), static_cast<unsigned>(done), n});
    va += n;
    done += n;
  }
  return true;
}

}  // namespace avp

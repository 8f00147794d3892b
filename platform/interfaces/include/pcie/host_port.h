// What host software needs of the host side of the PCIe link: configuration
// and BAR accesses (timed by the link model, so call them from a SystemC
// thread), the interrupt line, and host memory for its buffers. The root
// complex (models/pcie) implements it; the host libraries in platform/host_software see only
// this interface.
#pragma once
#include <cstdint>

#include <systemc>

namespace avp {

class HostPort {
 public:
  virtual ~HostPort() = default;

  virtual uint32_t cfg_read32(uint32_t off) = 0;
  virtual void cfg_write32(uint32_t off, uint32_t v) = 0;
  virtual uint32_t mmio_read32(uint32_t off) = 0;           // BAR0
  virtual void mmio_write32(uint32_t off, uint32_t v) = 0;  // BAR0, posted
  virtual uint64_t mmio_read64(uint32_t off) = 0;           // BAR0, one 8-byte request
  virtual void mmio_write64(uint32_t off, uint64_t v) = 0;  // BAR0, posted, one 8-byte request
  virtual bool bar2_write(uint64_t off, const void* data, uint64_t len) = 0;
  virtual bool bar2_read(uint64_t off, void* data, uint64_t len) = 0;

  // The device's interrupt as the host sees it (INTx level or an MSI).
  virtual bool irq_level() const = 0;
  virtual const sc_core::sc_event& irq_event() const = 0;

  // Host memory: an allocator for driver and runtime buffers (never returns
  // 0; align is a power of two) and direct access for host code.
  virtual uint64_t alloc(uint64_t size, uint64_t align = 4096) = 0;
  virtual uint8_t* host_ptr(uint64_t pa) = 0;
};

}  // namespace avp

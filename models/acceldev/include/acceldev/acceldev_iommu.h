// Context isolation for work launched by an Acceldev context (docs/acceldev.md):
// the IOMMU in front of the endpoint's device-to-host path. A device access to the host window that carries a
// context (base/unit.h) sees that context's window, not host memory: slot s
// at window offset s x 4 MiB maps the buffer bound to slot s, translated
// through the context's config entry and the buffer's page table on every
// access (no translation is cached, as the config array is authoritative).
// Anything else is a fault that puts the context in error.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/unit.h"
#include "acceldev/acceldev_engine.h"
#include "pcie/context_translator.h"

namespace avp {

class AcceldevIommu {
 public:
  // Reads host memory for a walk: timed (`delay`) or, with delay == nullptr, a debug read.
  using HostRead = std::function<bool(uint64_t pa, void* data, unsigned len, sc_core::sc_time* delay)>;
  using Piece = HostPiece;

  AcceldevIommu(const std::string& name, AcceldevEngine& engine, HostRead read)
      : engine_(engine), read_(std::move(read)), log_(name) {}

  // Translates [addr, addr + len) of context `ctx`'s window (addr is the
  // offset in the host window) into pieces that each lie in one page. False
  // on a fault: a timed access reports it (the context goes in error), a
  // debug access (delay == nullptr) only fails.
  bool translate(uint32_t ctx, UnitId unit, uint64_t addr, unsigned len, bool write, std::vector<Piece>& out,
                 sc_core::sc_time* delay);

 private:
  bool fault(uint32_t ctx, UnitId unit, uint64_t addr, bool write, const char* why, sc_core::sc_time* delay);
  AcceldevEngine& engine_;
  HostRead read_;
  Logger log_;
};

}  // namespace avp

// Unit identifiers and the TLM extension that carries them on every transaction.
#pragma once
#include <cstdint>
#include <string>
#include <tlm>

namespace avp {

// A unit is `kind << 24 | index` (platform.md section 2).
enum class UnitKind : uint32_t { None = 0, External = 1, Cmp = 2, Hart = 3, Core = 4, Dma = 5 };

using UnitId = uint32_t;

constexpr UnitId make_unit(UnitKind kind, uint32_t index = 0) {
  return (static_cast<uint32_t>(kind) << 24) | (index & 0xFFFFFFu);
}
constexpr UnitKind unit_kind(UnitId u) { return static_cast<UnitKind>(u >> 24); }
constexpr uint32_t unit_index(UnitId u) { return u & 0xFFFFFFu; }

constexpr UnitId kHostUnit = make_unit(UnitKind::External, 0);
constexpr UnitId kCmpUnit = make_unit(UnitKind::Cmp, 0);

std::string unit_name(UnitId u);

// The Acceldev context on whose behalf a transaction is made, like a PCIe
// PASID (docs/acceldev.md, "Context isolation"): 0..254 for work launched by
// a context's CMP_SUBMIT, whose host-window accesses the endpoint translates
// through that context's page tables; kNoContext for the platform's own work
// (host-submitted command buffers, the AQL processor), which sees host
// physical memory.
constexpr uint32_t kNoContext = 0xFFFFFFFFu;

// Attached once to an initiator's payload and kept there; cloned/copied as a value.
// `core` is the core of a hart initiator (harts are grouped in cores), so core-local
// views can be resolved without knowing the cluster shape.
struct UnitExtension : tlm::tlm_extension<UnitExtension> {
  UnitId unit = 0;
  uint32_t core = 0;
  uint32_t context = kNoContext;

  UnitExtension() = default;
  UnitExtension(UnitId u, uint32_t c, uint32_t ctx = kNoContext) : unit(u), core(c), context(ctx) {}
  tlm::tlm_extension_base* clone() const override { return new UnitExtension(unit, core, context); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    const auto& o = static_cast<const UnitExtension&>(other);
    unit = o.unit;
    core = o.core;
    context = o.context;
  }
};

// The unit of a payload, or None when the initiator attached no extension.
inline UnitId unit_of(const tlm::tlm_generic_payload& gp) {
  const UnitExtension* ext = gp.get_extension<UnitExtension>();
  return ext ? ext->unit : make_unit(UnitKind::None);
}

// Sets the unit on a payload, reusing an attached extension when there is one
// (its context stays).
void set_unit(tlm::tlm_generic_payload& gp, UnitId unit, uint32_t core = 0);

// The context of a payload (kNoContext without an extension), and setting it.
inline uint32_t context_of(const tlm::tlm_generic_payload& gp) {
  const UnitExtension* ext = gp.get_extension<UnitExtension>();
  return ext ? ext->context : kNoContext;
}
void set_context(tlm::tlm_generic_payload& gp, uint32_t context);

}  // namespace avp

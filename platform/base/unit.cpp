#include "base/unit.h"

namespace avp {

std::string unit_name(UnitId u) {
  const std::string idx = std::to_string(unit_index(u));
  switch (unit_kind(u)) {
    case UnitKind::External: return "host";
    case UnitKind::Cmp: return "cmp";
    case UnitKind::Hart: return "hart" + idx;
    case UnitKind::Core: return "core" + idx;
    case UnitKind::Dma: return "dma" + idx;
    case UnitKind::None: break;
  }
  return "unit?";
}

void set_unit(tlm::tlm_generic_payload& gp, UnitId unit, uint32_t core) {
  UnitExtension* ext = gp.get_extension<UnitExtension>();
  if (ext) {
    ext->unit = unit;
    ext->core = core;
  } else {
    gp.set_extension(new UnitExtension(unit, core));
  }
}

void set_context(tlm::tlm_generic_payload& gp, uint32_t context) {
  UnitExtension* ext = gp.get_extension<UnitExtension>();
  if (ext) ext->context = context;
  else gp.set_extension(new UnitExtension(make_unit(UnitKind::None), 0, context));
}

}  // namespace avp

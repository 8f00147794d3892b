// Marks a read as an instruction fetch: TLM has no such attribute, and targets
// with an execute permission (the CMP's memory windows) must tell a fetch from
// a data read. Harts attach it to their fetch reads and DMI requests.
#pragma once
#include <tlm>

namespace avp {

struct FetchExtension : tlm::tlm_extension<FetchExtension> {
  tlm::tlm_extension_base* clone() const override { return new FetchExtension; }
  void copy_from(const tlm::tlm_extension_base&) override {}
};

inline bool is_fetch(const tlm::tlm_generic_payload& gp) { return gp.get_extension<FetchExtension>() != nullptr; }

}  // namespace avp

// Instruction fetch and execute permission on TLM: TLM has no such attribute,
// and targets with an execute permission (the CMP's memory windows) must tell
// a fetch from a data read. Harts attach this extension to their fetch reads
// (fetch = true) and to every DMI request; a target with permissions answers
// on a DMI grant whether the region may be fetched from and read as data, so
// one grant serves both kinds of access.
#pragma once
#include <tlm>

namespace avp {

struct FetchExtension : tlm::tlm_extension<FetchExtension> {
  bool fetch = false;    // the access (or DMI request) is an instruction fetch
  bool exec_ok = true;   // DMI answer: the granted region may be fetched from
  bool read_ok = true;   // DMI answer: the granted region may be read as data
  tlm::tlm_extension_base* clone() const override { return new FetchExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const FetchExtension&>(o); }
};

inline bool is_fetch(const tlm::tlm_generic_payload& gp) {
  const FetchExtension* f = gp.get_extension<FetchExtension>();
  return f && f->fetch;
}

}  // namespace avp

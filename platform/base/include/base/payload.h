// Filling a TLM generic payload for one plain access (no byte enables,
// streaming width = length, response reset): the one place every initiator
// prepares its transactions.
#pragma once
#include <cstdint>
#include <tlm>

namespace avp {

inline void prepare_payload(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, uint64_t addr, const void* data,
                            unsigned len) {
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(const_cast<void*>(data)));
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace avp

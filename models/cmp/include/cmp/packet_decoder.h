// Decoding of command packets, behind an interface so that the RTL decoder
// (rtl/, Verilator) can replace or shadow the TLM reference decoder.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "cmp/cmp_names.h"
#include "cmp/cmp_packets.h"

namespace avp {

struct DecodedCommand {
  uint8_t opcode = 0;
  uint32_t inline_value = 0;
  uint32_t payload_chunks = 0;  // payload chunks the packet occupies
  uint64_t payload[8] = {};     // the payload (NOP payloads are skipped, not kept)
  avp_cmp_error error = AVP_CMP_OK;
  unsigned cycles = 0;          // decode cycles (the RTL decoder's cycle count; 1 + payload for TLM)
  std::string describe() const;
};

class PacketDecoder {
 public:
  virtual ~PacketDecoder() = default;
  // Decodes the packet starting at chunks[0]; `available` chunks remain in the
  // buffer and `chunks` holds min(available, 9) of them (header + 8 payload).
  virtual DecodedCommand decode(const uint64_t* chunks, size_t available) = 0;
  // The simulated time (ps) the next decode starts at and the time of one
  // decode cycle: the time base of the RTL decoder's waveform. Models without one ignore it.
  virtual void set_time(uint64_t start_ps, uint64_t cycle_ps) {}
  // The run ended: writes the coverage file of a decoder that collects one
  // (the RTL decoder's coverage build). Others have none.
  virtual void write_coverage() {}
};

// The reference decoder (platform.md section 3).
class TlmPacketDecoder : public PacketDecoder {
 public:
  DecodedCommand decode(const uint64_t* chunks, size_t available) override;
};

// Payload chunks of an opcode given its inline field, or -1 for NOP (any) / unknown.
int expected_payload(unsigned opcode, uint32_t inline_value);

}  // namespace avp

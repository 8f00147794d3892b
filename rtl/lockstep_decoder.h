// Lockstep co-simulation of two decoders in the style of Ibex's co-simulation
// checker: one step per command, field-by-field comparison, and a list of
// readable mismatches. A mismatch makes the decoded command an error
// (AVP_CMP_ERR_LOCKSTEP), so the command processor stops the buffer and
// reports it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cmp/packet_decoder.h"

namespace avp {

struct DecoderMismatch {
  uint64_t command_index;
  std::vector<uint64_t> chunks;  // the raw chunks presented
  DecodedCommand reference, dut;
  std::vector<std::string> fields;  // the fields that differ
  std::string describe() const;
};

class LockstepDecoder : public PacketDecoder {
 public:
  LockstepDecoder(std::unique_ptr<PacketDecoder> reference, std::unique_ptr<PacketDecoder> dut)
      : ref_(std::move(reference)), dut_(std::move(dut)) {}
  DecodedCommand decode(const uint64_t* chunks, size_t available) override;
  const std::vector<DecoderMismatch>& mismatches() const { return mismatches_; }
  uint64_t commands() const { return index_; }

 private:
  std::unique_ptr<PacketDecoder> ref_, dut_;
  std::vector<DecoderMismatch> mismatches_;
  uint64_t index_ = 0;
};

}  // namespace avp

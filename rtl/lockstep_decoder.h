// Lockstep co-simulation of two decoders in the style of Ibex's co-simulation
// checker (dv/cosim/cosim.h): step() presents one packet to both, compares the
// decodings field by field and keeps a list of readable mismatches. A mismatch
// (or an RTL that never answers: RtlPacketDecoder's timeout) makes the decoded
// command an error (AVP_CMP_ERR_LOCKSTEP), so the command processor stops the
// buffer and reports it. Statistics: packets compared, mismatches, RTL cycles.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "base/stats.h"
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
  // stats_prefix: where the statistics register ("<prefix>.packets_compared" ...).
  LockstepDecoder(std::unique_ptr<PacketDecoder> reference, std::unique_ptr<PacketDecoder> dut,
                  const std::string& stats_prefix = "cmp.lockstep");
  // One packet through both decoders: false on a mismatch (recorded; `out` is
  // then the DUT's decoding with error AVP_CMP_ERR_LOCKSTEP).
  bool step(const uint64_t* chunks, size_t available, DecodedCommand& out);
  DecodedCommand decode(const uint64_t* chunks, size_t available) override;
  void set_time(uint64_t start_ps, uint64_t cycle_ps) override {
    ref_->set_time(start_ps, cycle_ps);
    dut_->set_time(start_ps, cycle_ps);
  }
  void write_coverage() override { dut_->write_coverage(); }
  const std::vector<DecoderMismatch>& mismatches() const { return mismatches_; }
  uint64_t commands() const { return compared_.value(); }
  uint64_t rtl_cycles() const { return rtl_cycles_.value(); }

 private:
  std::unique_ptr<PacketDecoder> ref_, dut_;
  std::vector<DecoderMismatch> mismatches_;
  Counter compared_, mismatch_count_, rtl_cycles_;
};

}  // namespace avp

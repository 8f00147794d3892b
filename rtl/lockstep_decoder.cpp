#include "lockstep_decoder.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "base/log.h"

namespace avp {

std::string DecoderMismatch::describe() const {
  std::ostringstream os;
  os << "decoder mismatch at command " << command_index << " in field(s)";
  for (const auto& f : fields) os << " " << f;
  os << "\n  reference (TLM): " << reference.describe() << "\n  RTL:             " << dut.describe() << "\n  chunks:";
  for (uint64_t c : chunks) os << " 0x" << std::hex << std::setw(16) << std::setfill('0') << c;
  return os.str();
}

LockstepDecoder::LockstepDecoder(std::unique_ptr<PacketDecoder> reference, std::unique_ptr<PacketDecoder> dut,
                                 const std::string& stats_prefix)
    : ref_(std::move(reference)),
      dut_(std::move(dut)),
      compared_(stats_prefix + ".packets_compared", "packets decoded by both the TLM and the RTL decoder", "packets"),
      mismatch_count_(stats_prefix + ".mismatches", "packets on which the decoders disagreed (or the RTL timed out)",
                      "packets"),
      rtl_cycles_(stats_prefix + ".rtl_cycles", "clock cycles the RTL decoder ran", "cycles") {}

bool LockstepDecoder::step(const uint64_t* chunks, size_t available, DecodedCommand& out) {
  const DecodedCommand r = ref_->decode(chunks, available);
  out = dut_->decode(chunks, available);
  const uint64_t index = compared_.value();
  compared_.inc();
  rtl_cycles_.inc(out.cycles);
  std::vector<std::string> diff;
  if (r.error != out.error) diff.push_back("error");
  if (r.opcode != out.opcode) diff.push_back("opcode");
  if (r.inline_value != out.inline_value) diff.push_back("inline");
  if (r.payload_chunks != out.payload_chunks) diff.push_back("payload_count");
  if (r.error == AVP_CMP_OK || r.error == AVP_CMP_ERR_BAD_REGISTER)
    for (unsigned i = 0; i < std::min(8u, r.payload_chunks); ++i)
      if (r.payload[i] != out.payload[i]) diff.push_back("payload[" + std::to_string(i) + "]");
  if (diff.empty()) return true;
  DecoderMismatch m{index, {}, r, out, diff};
  m.chunks.assign(chunks, chunks + std::min<size_t>(available, 1 + std::min(8u, r.payload_chunks)));
  Logger log("cmp.lockstep");
  AVP_LOG(log, Error, m.describe());
  mismatches_.push_back(std::move(m));
  mismatch_count_.inc();
  out.error = AVP_CMP_ERR_LOCKSTEP;
  return false;
}

DecodedCommand LockstepDecoder::decode(const uint64_t* chunks, size_t available) {
  DecodedCommand d;
  step(chunks, available, d);
  return d;
}

}  // namespace avp

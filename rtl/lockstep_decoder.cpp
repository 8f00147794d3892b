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

DecodedCommand LockstepDecoder::decode(const uint64_t* chunks, size_t available) {
  const DecodedCommand r = ref_->decode(chunks, available);
  DecodedCommand d = dut_->decode(chunks, available);
  std::vector<std::string> diff;
  if (r.error != d.error) diff.push_back("error");
  if (r.opcode != d.opcode) diff.push_back("opcode");
  if (r.inline_value != d.inline_value) diff.push_back("inline");
  if (r.payload_chunks != d.payload_chunks) diff.push_back("payload_count");
  if (r.error == AVP_CMP_OK || r.error == AVP_CMP_ERR_BAD_REGISTER)
    for (unsigned i = 0; i < std::min(8u, r.payload_chunks); ++i)
      if (r.payload[i] != d.payload[i]) diff.push_back("payload[" + std::to_string(i) + "]");
  const uint64_t index = index_++;
  if (diff.empty()) return d;
  DecoderMismatch m{index, {}, r, d, diff};
  m.chunks.assign(chunks, chunks + std::min<size_t>(available, 1 + std::min(8u, r.payload_chunks)));
  Logger log("cmp.lockstep");
  AVP_LOG(log, Error, m.describe());
  mismatches_.push_back(std::move(m));
  d.error = AVP_CMP_ERR_LOCKSTEP;
  return d;
}

}  // namespace avp

// libFuzzer target: the command processor's packet decoder on arbitrary
// bytes. Every decode must return (no crash, no read past the chunks given),
// and a packet it accepts must fit the buffer and carry its exact payload.
#include <cstdint>
#include <cstring>
#include <vector>

#include "cmp/packet_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint64_t> chunks(size / 8);
  if (!chunks.empty()) std::memcpy(chunks.data(), data, chunks.size() * 8);
  avp::TlmPacketDecoder d;
  for (size_t at = 0; at < chunks.size();) {
    // The decoder sees at most 9 chunks, as the command processor fetches them.
    uint64_t window[9] = {};
    const size_t n = std::min<size_t>(9, chunks.size() - at);
    std::memcpy(window, chunks.data() + at, n * 8);
    const avp::DecodedCommand c = d.decode(window, chunks.size() - at);
    if (c.error) break;
    if (1 + c.payload_chunks > chunks.size() - at) __builtin_trap();  // accepted a packet past the end
    if (c.opcode != AVP_CMP_NOP && static_cast<int>(c.payload_chunks) != avp::expected_payload(c.opcode, c.inline_value))
      __builtin_trap();
    at += 1 + c.payload_chunks;
  }
  return 0;
}

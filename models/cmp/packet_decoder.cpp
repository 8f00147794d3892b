#include "cmp/packet_decoder.h"

#include <sstream>

namespace avp {

int expected_payload(unsigned opcode, uint32_t inl) {
  switch (opcode) {
    case AVP_CMP_FINISH: return 0;
    case AVP_CMP_WRITE_REG64: case AVP_CMP_LOAD_REG64: case AVP_CMP_STORE_REG64: case AVP_CMP_STORE_IMM64: return 1;
    case AVP_CMP_COPY_MEM64: return 3;
    case AVP_CMP_RUN_KERNEL_SLICE: return 2;
    case AVP_CMP_RUN_INSTANCES: return 1 + static_cast<int>((inl >> 8) & 7);
    case AVP_CMP_SYNC_CACHE: return 0;
    default: return -1;
  }
}

DecodedCommand TlmPacketDecoder::decode(const uint64_t* chunks, size_t available) {
  DecodedCommand d;
  if (available == 0) {
    d.error = AVP_CMP_ERR_NO_FINISH;
    return d;
  }
  const uint64_t h = chunks[0];
  d.opcode = static_cast<uint8_t>(AVP_CMP_HEADER_OPCODE(h));
  d.inline_value = AVP_CMP_HEADER_INLINE(h);
  d.cycles = 1;
  if ((h & AVP_CMP_HEADER_MASK) != AVP_CMP_HEADER_VALUE) {
    d.error = AVP_CMP_ERR_BAD_HEADER;
    return d;
  }
  const unsigned count = AVP_CMP_HEADER_COUNT(h);
  if (count & 1) {
    d.error = AVP_CMP_ERR_ODD_COUNT;
    return d;
  }
  d.payload_chunks = count / 2;
  if (1 + static_cast<size_t>(d.payload_chunks) > available) {
    d.error = AVP_CMP_ERR_TRUNCATED;
    return d;
  }
  d.cycles += d.payload_chunks;
  if (d.opcode == AVP_CMP_NOP) return d;
  const int expected = expected_payload(d.opcode, d.inline_value);
  if (expected < 0) {
    d.error = AVP_CMP_ERR_UNKNOWN_OPCODE;
    return d;
  }
  if (static_cast<int>(d.payload_chunks) != expected) {
    d.error = AVP_CMP_ERR_PAYLOAD_COUNT;
    return d;
  }
  for (unsigned i = 0; i < d.payload_chunks; ++i) d.payload[i] = chunks[1 + i];
  const bool reg_op = d.opcode == AVP_CMP_WRITE_REG64 || d.opcode == AVP_CMP_LOAD_REG64 || d.opcode == AVP_CMP_STORE_REG64;
  if (reg_op && d.inline_value >= AVP_CMP_NUM_REGS) d.error = AVP_CMP_ERR_BAD_REGISTER;
  return d;
}

std::string DecodedCommand::describe() const {
  std::ostringstream os;
  os << cmp_opcode_name(opcode) << " inline=0x" << std::hex << inline_value << std::dec << " payload=" << payload_chunks;
  if (error) os << " error=" << cmp_error_name(error);
  return os.str();
}

}  // namespace avp

// Agent dispatch packets: the table of agent functions (docs/aql.md, "Agent
// dispatch"). Data moves through the processor's bus socket in chunks, each
// timed by the interconnect like the processor's other accesses.
#include <algorithm>
#include <sstream>
#include <vector>

#include "aql/aql_processor.h"

namespace avp {

using namespace aql;

namespace {
constexpr uint64_t kChunk = 4096;  // bytes per bus transaction of a fill or copy
std::string to_hex(uint64_t v) {
  std::ostringstream os;
  os << std::hex << v;
  return os.str();
}
}  // namespace

QueueError AqlProcessor::agent_dispatch(const hsa_agent_dispatch_packet_t& p, std::string& why) {
  if (p.reserved0 || p.reserved2) {
    why = "reserved fields of the agent dispatch packet are not 0";
    return kErrInvalidPacket;
  }
  switch (p.type) {
    case kAgentNop: return kErrNone;
    case kAgentFill: {
      const uint64_t dst = p.arg[0], words = p.arg[2];
      const uint32_t value = static_cast<uint32_t>(p.arg[1]);
      if (dst & 3) {
        why = "memory fill destination is not 4-byte aligned";
        return kErrInvalidPacket;
      }
      if (words > (~0ull - dst) / 4) {
        why = "memory fill runs past the end of the address space";
        return kErrMemory;
      }
      std::vector<uint32_t> pattern(static_cast<size_t>(std::min<uint64_t>(words, kChunk / 4)), value);
      for (uint64_t done = 0; done < words; done += pattern.size()) {
        const uint64_t n = std::min<uint64_t>(pattern.size(), words - done);
        if (!device_write(dst + 4 * done, pattern.data(), static_cast<unsigned>(4 * n))) {
          why = "memory fill cannot write device address 0x" + to_hex(dst + 4 * done);
          return kErrMemory;
        }
      }
      return kErrNone;
    }
    case kAgentCopy: {
      const uint64_t dst = p.arg[0], src = p.arg[1], bytes = p.arg[2];
      if (bytes > ~0ull - dst || bytes > ~0ull - src) {
        why = "memory copy runs past the end of the address space";
        return kErrMemory;
      }
      // Overlapping ranges: copy backwards when the destination is above the source.
      const bool backwards = dst > src && dst < src + bytes;
      std::vector<uint8_t> buf(static_cast<size_t>(std::min(bytes, kChunk)));
      for (uint64_t done = 0; done < bytes;) {
        const uint64_t n = std::min<uint64_t>(buf.size(), bytes - done);
        const uint64_t at = backwards ? bytes - done - n : done;
        if (!device_read(src + at, buf.data(), static_cast<unsigned>(n))) {
          why = "memory copy cannot read device address 0x" + to_hex(src + at);
          return kErrMemory;
        }
        if (!device_write(dst + at, buf.data(), static_cast<unsigned>(n))) {
          why = "memory copy cannot write device address 0x" + to_hex(dst + at);
          return kErrMemory;
        }
        done += n;
      }
      return kErrNone;
    }
    default:
      why = "unknown agent function " + std::to_string(p.type);
      return kErrInvalidPacket;
  }
}

}  // namespace avp

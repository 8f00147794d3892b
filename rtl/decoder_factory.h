// The command processor's decoder chosen by the cmp.decoder parameter.
#pragma once
#include <memory>
#include <string>

#include "cmp/packet_decoder.h"

namespace avp {
// "tlm", "rtl" or "lockstep" (both, compared command by command); throws
// ParamError naming cmp.decoder otherwise.
std::unique_ptr<PacketDecoder> make_packet_decoder(const std::string& name);
}  // namespace avp

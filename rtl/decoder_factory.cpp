#include "decoder_factory.h"

#include "base/params.h"
#include "lockstep_decoder.h"
#include "rtl_packet_decoder.h"
#include "Vcmd_decoder.h"

namespace avp {

std::unique_ptr<PacketDecoder> make_packet_decoder(const std::string& name) {
  if (name == "tlm") return std::make_unique<TlmPacketDecoder>();
  if (name == "rtl") return std::make_unique<RtlPacketDecoder<Vcmd_decoder>>();
  if (name == "lockstep")
    return std::make_unique<LockstepDecoder>(std::make_unique<TlmPacketDecoder>(), std::make_unique<RtlPacketDecoder<Vcmd_decoder>>());
  throw ParamError("cmp.decoder: '" + name + "' is not one of tlm, rtl, lockstep");
}

}  // namespace avp

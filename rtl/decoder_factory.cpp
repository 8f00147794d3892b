#include "decoder_factory.h"

#include "base/params.h"
#include "lockstep_decoder.h"
#include "rtl_packet_decoder.h"
#include "Vcmd_decoder.h"

namespace avp {

std::unique_ptr<PacketDecoder> make_packet_decoder(const std::string& name, const std::string& rtl_vcd) {
  if (name == "tlm") {
    if (!rtl_vcd.empty()) throw ParamError("cmp.rtl_vcd (--rtl-vcd): needs cmp.decoder=rtl or lockstep, not tlm");
    return std::make_unique<TlmPacketDecoder>();
  }
  try {
    if (name == "rtl") return std::make_unique<RtlPacketDecoder<Vcmd_decoder>>(rtl_vcd);
    if (name == "lockstep")
      return std::make_unique<LockstepDecoder>(std::make_unique<TlmPacketDecoder>(),
                                               std::make_unique<RtlPacketDecoder<Vcmd_decoder>>(rtl_vcd));
  } catch (const std::runtime_error& e) {
    throw ParamError(std::string("cmp.rtl_vcd: ") + e.what());
  }
  throw ParamError("cmp.decoder: '" + name + "' is not one of tlm, rtl, lockstep");
}

}  // namespace avp

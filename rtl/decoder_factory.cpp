#include "decoder_factory.h"

#include "base/params.h"
#include "lockstep_decoder.h"
#include "rtl_packet_decoder.h"
#include "Vcmd_decoder.h"
#include "Vcmd_decoder_cov.h"

namespace avp {

namespace {

std::unique_ptr<PacketDecoder> make_rtl(const std::string& rtl_vcd, const std::string& rtl_coverage) {
  if (rtl_coverage.empty()) return std::make_unique<RtlPacketDecoder<Vcmd_decoder>>(rtl_vcd);
  return std::make_unique<RtlPacketDecoder<Vcmd_decoder_cov>>(rtl_vcd, rtl_coverage);
}

}  // namespace

std::unique_ptr<PacketDecoder> make_packet_decoder(const std::string& name, const std::string& rtl_vcd,
                                                   const std::string& rtl_coverage) {
  if (name == "tlm") {
    if (!rtl_vcd.empty()) throw ParamError("cmp.rtl_vcd (--rtl-vcd): needs cmp.decoder=rtl or lockstep, not tlm");
    if (!rtl_coverage.empty())
      throw ParamError("cmp.rtl_coverage (--rtl-coverage): needs cmp.decoder=rtl or lockstep, not tlm");
    return std::make_unique<TlmPacketDecoder>();
  }
  try {
    if (name == "rtl") return make_rtl(rtl_vcd, rtl_coverage);
    if (name == "lockstep")
      return std::make_unique<LockstepDecoder>(std::make_unique<TlmPacketDecoder>(), make_rtl(rtl_vcd, rtl_coverage));
  } catch (const std::runtime_error& e) {
    throw ParamError(std::string(rtl_coverage.empty() ? "cmp.rtl_vcd: " : "cmp.rtl_vcd/cmp.rtl_coverage: ") + e.what());
  }
  throw ParamError("cmp.decoder: '" + name + "' is not one of tlm, rtl, lockstep");
}

}  // namespace avp

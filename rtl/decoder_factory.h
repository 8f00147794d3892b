// The command processor's decoder chosen by the cmp.decoder parameter.
#pragma once
#include <memory>
#include <string>

#include "cmp/packet_decoder.h"

namespace avp {
// "tlm", "rtl" or "lockstep" (both, compared command by command); throws
// ParamError naming cmp.decoder otherwise. rtl_vcd: a VCD file of the RTL
// decoder's pins (cmp.rtl_vcd; needs rtl or lockstep). rtl_coverage: the
// coverage .dat of the RTL decoder (cmp.rtl_coverage; needs rtl or lockstep;
// the RTL is then its coverage build), written by write_coverage().
std::unique_ptr<PacketDecoder> make_packet_decoder(const std::string& name, const std::string& rtl_vcd = "",
                                                   const std::string& rtl_coverage = "");
}  // namespace avp

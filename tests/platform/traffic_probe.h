// A hart's Probe (base/cache_traffic.h) through an initiator socket, for the
// interconnect and memory tests: the answer at an address.
#pragma once
#include <cstdint>

#include <tlm>

#include "base/cache_traffic.h"
#include "base/unit.h"

namespace avp::test {

template <typename Socket>
CacheTrafficExtension probe_at(Socket& socket, uint64_t addr) {
  CacheTrafficExtension c;
  uint8_t buf[4];
  tlm::tlm_generic_payload gp;
  set_unit(gp, make_unit(UnitKind::Hart, 0), 0);
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(buf);
  gp.set_data_length(4);
  gp.set_extension(&c);
  socket->transport_dbg(gp);
  gp.clear_extension(&c);
  return c;
}

}  // namespace avp::test

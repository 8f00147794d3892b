// xext/xcmd on the hart side: lun translation and dispatch through the hart's
// xintf socket (platform.md section 6).
#include <algorithm>

#include "base/unit.h"
#include "harts/hart.h"
#include "harts/hart_cluster.h"
#include "xintf_payload.h"

namespace avp {

using namespace rv;

void Hart::exec_xintf(const Insn& d) {
  settle();
  hot_.time.catch_up();
  const uint64_t rs1 = hot_.s.x[d.rs1], rs2 = hot_.s.x[d.rs2];
  uint64_t rd = 0;
  if (d.op == XEXT) {
    // `lui rd, UUID` sign-extends on RV64: a 20-bit uuid with bit 19 set arrives
    // with bits 63..31 all ones and is taken as the 20-bit uuid.
    uint64_t uuid = rs1 >> 12;
    if ((rs1 >> 31) == 0x1FFFFFFFFull) uuid &= 0xFFFFF;
    const int lun = cluster_.xintf_map().lookup_lun(uuid, rs1 & 0xFFF, hot_.s.priv);
    rd = lun < 0 ? d.rm /* 0 trap, 1 return zero, 2 return minus one */ : (static_cast<uint64_t>(lun) | rs2 << 12);
  } else {
    const unsigned lun = rs1 & 0xFFF;
    if (lun == 1) {
      rd = 0;
    } else if (lun == 2) {
      rd = ~0ull;
    } else {
      const XintfRoute* r = lun == 0 ? nullptr : cluster_.xintf_map().route(lun, hot_.s.priv);
      if (!r) illegal(d);
      XintfPayload p{rs1, rs2, 0, static_cast<uint32_t>(r->device), r->subdevice, d.rm, 0};
      tlm::tlm_generic_payload gp;
      set_unit(gp, make_unit(UnitKind::Hart, id_), core_);
      gp.set_command(tlm::TLM_WRITE_COMMAND);
      gp.set_address(xintf_address(p));
      gp.set_data_ptr(reinterpret_cast<unsigned char*>(&p));
      gp.set_data_length(sizeof(p));
      gp.set_streaming_width(sizeof(p));
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      // Not annotate(): the device runs in the hart's place and uses its local time (set_local_time).
      sc_core::sc_time delay = hot_.time.offset();
      // The call's time (waits included), less what a barrier device already counted.
      const sc_core::sc_time before = sc_core::sc_time_stamp() + delay;
      const uint64_t barrier_before = hot_.stall_ps[StallBarrier];
      xintf->b_transport(gp, delay);
      cluster_.spin_waits_touched();  // the device may have changed what a spinning loop reads
      hot_.time.set(delay);
      const uint64_t call_ps = to_ps(hot_.time.now() - before);
      hot_.stall_ps[StallXintf] += call_ps - std::min(call_ps, hot_.stall_ps[StallBarrier] - barrier_before);
      if (gp.get_response_status() != tlm::TLM_OK_RESPONSE) illegal(d);  // hardware configuration error
      // A device's illegal-instruction trap ("hardware configuration error":
      // an unknown command) carries the instruction, like every illegal instruction.
      if (p.fault && p.fault_cause == kIllegalInsn) illegal(d);
      if (p.fault) throw TrapException{p.fault_cause, p.fault_tval};
      rd = p.rd;
    }
  }
  hot_.s.x[d.rd] = rd;
  hot_.s.x[0] = 0;
}

}  // namespace avp

#include "sysdev/plic.h"

#include <cstring>

#include "sysdev/sysdev_regs.h"

namespace avp {

Plic::Plic(sc_core::sc_module_name name, unsigned harts)
    : sc_module(name),
      socket("socket"),
      access_latency(this, "access_latency", sc_core::sc_time(2, sc_core::SC_NS), "latency of a PLIC register access"),
      context(2 * harts),
      priority_(AVP_PLIC_SOURCES, 0),
      enable_(2 * harts, 0),
      threshold_(2 * harts, 0),
      line_(2 * harts, false),
      log_(this->name()),
      claims_(this, "claims", "interrupts claimed", "claims"),
      errors_(this, "errors", "accesses answered with an error", "accesses") {
  socket.register_b_transport(this, &Plic::b_transport);
  socket.register_transport_dbg(this, &Plic::transport_dbg);
}

void Plic::set_source(unsigned source, bool level) {
  if (source == 0 || source >= AVP_PLIC_SOURCES) return;
  const uint32_t bit = 1u << source;
  level_ = level ? (level_ | bit) : (level_ & ~bit);
  // The gateway forwards a request while the line is high and the previous one has completed.
  if (level && !(in_service_ & bit)) pending_ |= bit;
  if (!level) pending_ &= ~bit;
  update();
}

void Plic::pulse_source(unsigned source) {
  if (source == 0 || source >= AVP_PLIC_SOURCES || (in_service_ >> source) & 1) return;
  pending_ |= 1u << source;
  update();
}

unsigned Plic::best(unsigned ctx) const {
  unsigned id = 0, prio = 0;
  const uint32_t candidates = pending_ & enable_[ctx];
  for (unsigned s = 1; s < AVP_PLIC_SOURCES; ++s)
    if (((candidates >> s) & 1) && priority_[s] > prio) id = s, prio = priority_[s];  // ties: lowest id
  return id;
}

void Plic::update() {
  for (unsigned c = 0; c < contexts(); ++c) {
    const unsigned s = best(c);
    const bool level = s != 0 && priority_[s] > threshold_[c];
    if (level == line_[c]) continue;
    line_[c] = level;
    context[c].signal(level);
  }
}

bool Plic::read(uint64_t off, uint32_t& v, bool debug) {
  if (off < AVP_PLIC_PRIORITY(AVP_PLIC_SOURCES)) {
    v = priority_[off / 4];
    return true;
  }
  if (off == AVP_PLIC_PENDING) {
    v = pending_;
    return true;
  }
  if (off >= AVP_PLIC_ENABLE(0) && off < AVP_PLIC_ENABLE(contexts())) {
    v = (off & 0x7F) == 0 ? enable_[(off - AVP_PLIC_ENABLE(0)) / 0x80] : 0;  // sources 32.. do not exist
    return true;
  }
  if (off >= AVP_PLIC_THRESHOLD(0) && off < AVP_PLIC_THRESHOLD(contexts())) {
    const unsigned c = static_cast<unsigned>((off - AVP_PLIC_THRESHOLD(0)) / 0x1000);
    const uint64_t reg = (off - AVP_PLIC_THRESHOLD(0)) % 0x1000;
    if (reg == 0) v = threshold_[c];
    else if (reg == 4) {
      v = best(c);
      if (v && !debug) {  // claiming moves the source from pending to in service
        pending_ &= ~(1u << v);
        in_service_ |= 1u << v;
        claims_.inc();
        update();
      }
    } else return false;
    return true;
  }
  return false;
}

bool Plic::write(uint64_t off, uint32_t v) {
  if (off < AVP_PLIC_PRIORITY(AVP_PLIC_SOURCES)) {
    if (off) priority_[off / 4] = v & AVP_PLIC_PRIORITY_MAX;  // source 0 does not exist: priority stays 0
  } else if (off == AVP_PLIC_PENDING) {
    // read-only: writes are ignored
  } else if (off >= AVP_PLIC_ENABLE(0) && off < AVP_PLIC_ENABLE(contexts())) {
    if ((off & 0x7F) == 0) enable_[(off - AVP_PLIC_ENABLE(0)) / 0x80] = v & ~1u;
  } else if (off >= AVP_PLIC_THRESHOLD(0) && off < AVP_PLIC_THRESHOLD(contexts())) {
    const unsigned c = static_cast<unsigned>((off - AVP_PLIC_THRESHOLD(0)) / 0x1000);
    const uint64_t reg = (off - AVP_PLIC_THRESHOLD(0)) % 0x1000;
    if (reg == 0) threshold_[c] = v & AVP_PLIC_PRIORITY_MAX;
    else if (reg == 4) {
      // Completion of a source the context does not enable is ignored (PLIC specification).
      if (v > 0 && v < AVP_PLIC_SOURCES && ((enable_[c] >> v) & 1)) {
        in_service_ &= ~(1u << v);
        if ((level_ >> v) & 1) pending_ |= 1u << v;
      }
    } else return false;
  } else {
    return false;
  }
  update();
  return true;
}

void Plic::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += access_latency.get();
  const uint64_t off = gp.get_address();
  uint32_t v = 0;
  bool ok = gp.get_data_length() == 4 && !(off & 3) && !gp.get_byte_enable_ptr();
  if (ok && gp.is_read()) {
    ok = read(off, v, false);
    if (ok) std::memcpy(gp.get_data_ptr(), &v, 4);
  } else if (ok) {
    std::memcpy(&v, gp.get_data_ptr(), 4);
    ok = write(off, v);
  }
  if (ok) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  errors_.inc();
  AVP_LOG(log_, Warn, (gp.is_read() ? "read" : "write") << " of " << gp.get_data_length() << " bytes at offset 0x"
                                                        << std::hex << off << ": not a PLIC register (32-bit aligned accesses only)");
  gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

unsigned Plic::transport_dbg(tlm::tlm_generic_payload& gp) {
  uint32_t v = 0;
  if (!gp.is_read() || gp.get_data_length() != 4 || (gp.get_address() & 3) || !read(gp.get_address(), v, true)) return 0;
  std::memcpy(gp.get_data_ptr(), &v, 4);
  return 4;
}

}  // namespace avp

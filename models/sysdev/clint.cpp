#include "sysdev/clint.h"

#include <cstring>

#include "base/local_time.h"
#include "sysdev/sysdev_regs.h"

namespace avp {

Clint::Clint(sc_core::sc_module_name name, unsigned harts)
    : sc_module(name),
      socket("socket"),
      frequency(this, "frequency", 1'000'000'000, "mtime ticks per simulated second (the timebase-frequency of the device tree)"),
      access_latency(this, "access_latency", sc_core::sc_time(2, sc_core::SC_NS), "latency of a CLINT register access"),
      msip(harts),
      mtip(harts),
      mtimecmp_(harts, ~0ull),
      msip_(harts, false),
      mtip_(harts, false),
      log_(this->name()),
      accesses_(this, "accesses", "register accesses", "accesses"),
      timer_irqs_(this, "timer_interrupts", "machine timer interrupts raised (mtime reached mtimecmp)", "interrupts"),
      errors_(this, "errors", "accesses answered with an error", "accesses") {
  if (frequency.get() == 0 || frequency.get() > 1'000'000'000'000ull)
    throw ParamError(std::string(this->name()) + ".frequency: must be 1 Hz .. 1 THz");
  if (1'000'000'000'000ull % frequency.get() == 0) ps_per_tick_ = 1'000'000'000'000ull / frequency.get();
  socket.register_b_transport(this, &Clint::b_transport);
  socket.register_transport_dbg(this, &Clint::transport_dbg);
  SC_HAS_PROCESS(Clint);
  SC_METHOD(on_timer);
  sensitive << timer_event_;
  dont_initialize();
}

uint64_t Clint::mtime_at_ps(uint64_t ps) const {
  // The same floor of ps * frequency / 10^12 either way; harts read it at every `csrr time`.
  const uint64_t ticks = ps_per_tick_ ? ps / ps_per_tick_
                                      : static_cast<uint64_t>(static_cast<unsigned __int128>(ps) * frequency.get() /
                                                              1'000'000'000'000ull);
  return ticks + static_cast<uint64_t>(offset_);
}

bool Clint::read32(uint64_t off, const sc_core::sc_time& now, uint32_t& v) const {
  const uint64_t n = harts();
  if (off < AVP_CLINT_MTIMECMP(0)) {
    if (off / 4 >= n) return false;
    v = msip_[off / 4] ? 1 : 0;
    return true;
  }
  if (off >= AVP_CLINT_MTIMECMP(0) && off < AVP_CLINT_MTIMECMP(n)) {
    const uint64_t cmp = mtimecmp_[(off - AVP_CLINT_MTIMECMP(0)) / 8];
    v = static_cast<uint32_t>((off & 4) ? cmp >> 32 : cmp);
    return true;
  }
  if (off == AVP_CLINT_MTIME || off == AVP_CLINT_MTIME + 4) {
    const uint64_t t = mtime_at(now);
    v = static_cast<uint32_t>((off & 4) ? t >> 32 : t);
    return true;
  }
  return false;
}

bool Clint::write32(uint64_t off, const sc_core::sc_time& now, uint32_t v) {
  const uint64_t n = harts();
  auto half = [&](uint64_t old) {
    return (off & 4) ? (old & 0xFFFFFFFFull) | (static_cast<uint64_t>(v) << 32) : (old & ~0xFFFFFFFFull) | v;
  };
  if (off < AVP_CLINT_MTIMECMP(0)) {
    if (off / 4 >= n) return false;
    const unsigned h = static_cast<unsigned>(off / 4);
    msip_[h] = v & 1;  // bits 31:1 are zero (WARL)
    msip[h].signal(msip_[h]);
    return true;
  }
  if (off >= AVP_CLINT_MTIMECMP(0) && off < AVP_CLINT_MTIMECMP(n)) {
    uint64_t& cmp = mtimecmp_[(off - AVP_CLINT_MTIMECMP(0)) / 8];
    cmp = half(cmp);
    return true;
  }
  if (off == AVP_CLINT_MTIME || off == AVP_CLINT_MTIME + 4) {
    const uint64_t t = half(mtime_at(now));
    offset_ += static_cast<int64_t>(t - mtime_at(now));
    return true;
  }
  return false;
}

bool Clint::access(tlm::tlm_generic_payload& gp, const sc_core::sc_time& now, bool debug) {
  const uint64_t off = gp.get_address();
  const unsigned len = gp.get_data_length();
  if ((len != 4 && len != 8) || (off & (len - 1)) || gp.get_byte_enable_ptr()) return false;
  unsigned char* p = gp.get_data_ptr();
  for (unsigned i = 0; i < len; i += 4) {
    uint32_t v = 0;
    if (gp.is_read()) {
      if (!read32(off + i, now, v)) return false;
      std::memcpy(p + i, &v, 4);
    } else {
      if (debug) return false;  // debuggers may look, not raise interrupts
      std::memcpy(&v, p + i, 4);
      if (!write32(off + i, now, v)) return false;
    }
  }
  if (gp.is_write()) update(now);
  return true;
}

void Clint::update(const sc_core::sc_time& now) {
  const uint64_t t = mtime_at(now);
  uint64_t next = ~0ull;  // earliest mtimecmp still ahead
  for (unsigned h = 0; h < harts(); ++h) {
    const bool level = t >= mtimecmp_[h];
    if (level != mtip_[h]) {
      mtip_[h] = level;
      if (level) timer_irqs_.inc();
      mtip[h].signal(level);
    }
    if (!level && mtimecmp_[h] < next) next = mtimecmp_[h];
  }
  if (next == ~0ull) return;
  // The simulated time at which mtime reaches `next` (rounded up to the next ps).
  const unsigned __int128 ticks = next - static_cast<uint64_t>(offset_);
  const unsigned __int128 ps = (ticks * 1'000'000'000'000ull + frequency.get() - 1) / frequency.get();
  const uint64_t now_ps = to_ps(sc_core::sc_time_stamp());
  if (ps > (static_cast<unsigned __int128>(1) << 62)) return;  // beyond any simulation
  const uint64_t at = static_cast<uint64_t>(ps);
  timer_event_.notify(sc_core::sc_time(static_cast<double>(at > now_ps ? at - now_ps : 0), sc_core::SC_PS));
}

void Clint::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  delay += access_latency.get();
  accesses_.inc();
  if (access(gp, sc_core::sc_time_stamp() + delay, false)) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  errors_.inc();
  AVP_LOG(log_, Warn, (gp.is_read() ? "read" : "write") << " of " << gp.get_data_length() << " bytes at offset 0x"
                                                        << std::hex << gp.get_address()
                                                        << ": not a CLINT register (32/64-bit aligned accesses only)");
  gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

unsigned Clint::transport_dbg(tlm::tlm_generic_payload& gp) {
  if (StableReadExtension* s = avp::stable_read(gp)) return stable_read(gp, *s);
  return access(gp, sc_core::sc_time_stamp(), true) ? gp.get_data_length() : 0;
}

// A read changes nothing but the access count; only mtime depends on the time.
unsigned Clint::stable_read(tlm::tlm_generic_payload& gp, StableReadExtension& s) {
  if (!gp.is_read()) return 0;
  if (s.kind == StableReadExtension::Repeat) {
    accesses_.inc(s.times);
    return gp.get_data_length();
  }
  if (!access(gp, sc_core::sc_time_stamp(), true)) return 0;
  const uint64_t off = gp.get_address();
  const bool mtime = off == AVP_CLINT_MTIME || off == AVP_CLINT_MTIME + 4;
  if (mtime && gp.get_data_length() != 8) return gp.get_data_length();  // a half of the clock: Unstable
  s.answer = mtime ? StableReadExtension::Clock : StableReadExtension::Constant;
  s.clock = mtime ? this : nullptr;
  s.delay += access_latency.get();
  return gp.get_data_length();
}

}  // namespace avp

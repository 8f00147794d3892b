// A block of registers (register.h) behind one target: the address decode,
// the access latency and the misuse rules live here, once for every block.
//
// A legal access hits one register element with the register's width at its
// offset; a 64-bit register also takes an aligned 32-bit access to either half
// (the write callback sees the mask of the half written). Anything else is
// misuse: an access of another size or alignment, an unmapped offset, a read
// of a write-only or a write of a read-only register. Misuse never changes
// state, is logged (Warn) and reported to the caller; the block's policy says
// what the initiator sees:
//   Ignore:   reads return all-ones, writes are dropped, response OK (PCIe BAR
//             rules: a host never sees a bus error from a register).
//   BusError: the response is an error (the hart takes an access fault):
//             TLM_BURST_ERROR_RESPONSE for a bad size or alignment,
//             TLM_ADDRESS_ERROR_RESPONSE for an unmapped offset,
//             TLM_COMMAND_ERROR_RESPONSE for a read of WO or a write of RO.
// Per-unit banks: when a bank selector is set, every register keeps one copy of
// its values per bank, chosen per access (the DMA's register set per unit).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "base/log.h"
#include "base/params.h"
#include "regs/register.h"

namespace avp {

class RegisterBlock {
 public:
  enum class Misuse { Ignore, BusError };
  enum class Outcome { Read, Written, Misused };

  // `name` names the block in logs and register maps; registers lie in
  // [0, size). `latency` is the parameter "<owner>.<latency_name>", added to
  // the delay of every access.
  RegisterBlock(const sc_core::sc_object* owner, std::string name, uint64_t size, Misuse policy,
                const std::string& latency_name, sc_core::sc_time latency = sc_core::SC_ZERO_TIME);
  RegisterBlock(const RegisterBlock&) = delete;
  RegisterBlock& operator=(const RegisterBlock&) = delete;

  Param<sc_core::sc_time> latency;

  // Serves a TLM access (address = offset in the block) and sets its response.
  Outcome access(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // Debug access: reads only (through read callbacks, which have no side effects).
  unsigned debug(tlm::tlm_generic_payload& gp);
  // Direct accesses of `len` bytes (tests, fuzzers, the block's own owner).
  Outcome read(uint64_t offset, unsigned len, uint64_t& value);
  Outcome write(uint64_t offset, unsigned len, uint64_t value);

  // Bank of the accesses that follow: `selector(gp)` when set, else 0.
  void set_bank_selector(std::function<unsigned(const tlm::tlm_generic_payload&)> selector) {
    selector_ = std::move(selector);
  }
  // A check before every TLM and debug access: a non-null reason refuses the
  // access as an unmapped one (for registers only some initiators may reach).
  void set_access_check(std::function<const char*(const tlm::tlm_generic_payload&)> check) { check_ = std::move(check); }
  // The TLM access being served, for callbacks that need its initiator or
  // time (null outside one: direct read()/write(); the delay is null for debug
  // accesses). A callback may add to the delay, or wait it away, and may answer
  // an error through current_response() (OK unless it does). A callback that
  // waits takes them at entry: another access may be served meanwhile.
  const tlm::tlm_generic_payload* current_payload() const { return current_gp_; }
  sc_core::sc_time* current_delay() const { return current_delay_; }
  tlm::tlm_response_status* current_response() const { return current_response_; }
  unsigned bank() const { return bank_; }

  void reset();  // every register to its reset value, every bank
  const std::string& name() const { return name_; }
  uint64_t size() const { return size_; }
  const std::vector<RegisterBase*>& registers() const { return regs_; }
  // "offset width access reset name" lines, in offset order.
  void print(std::ostream& os) const;

 private:
  friend class RegisterBase;
  void add(RegisterBase* r);
  struct Hit {
    RegisterBase* reg = nullptr;
    unsigned idx = 0;
    uint64_t mask = 0;  // bytes of the register the access covers (bit mask)
    unsigned shift = 0; // bit position of the access in the register
  };
  enum class Fault { None, Size, Unmapped, Rights };
  // The register element an access of `len` bytes at `offset` legally hits, or
  // the kind of misuse and its description.
  Hit decode(uint64_t offset, unsigned len, bool is_write, Fault& fault, const char*& why) const;
  Outcome misuse(bool is_write, uint64_t offset, unsigned len, Fault fault, const char* why);

  std::string name_;
  uint64_t size_;
  Misuse policy_;
  std::vector<RegisterBase*> regs_;
  std::map<uint64_t, std::pair<RegisterBase*, unsigned>> elements_;  // offset -> element
  std::function<unsigned(const tlm::tlm_generic_payload&)> selector_;
  std::function<const char*(const tlm::tlm_generic_payload&)> check_;
  const tlm::tlm_generic_payload* current_gp_ = nullptr;
  sc_core::sc_time* current_delay_ = nullptr;
  tlm::tlm_response_status* current_response_ = nullptr;
  unsigned bank_ = 0;
  Fault last_fault_ = Fault::None;  // of the last misuse, for the response
  Logger log_;
};

}  // namespace avp

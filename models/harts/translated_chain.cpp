#include "harts/translated_chain.h"

namespace avp {

std::vector<size_t> emit_chain_stops(x86::Asm& a, const BlockChain& c, std::vector<QuantumEnd>& quantum_ends) {
  using namespace x86;
  std::vector<size_t> end;
  a.alu_mem_imm(CMP, R8, c.gate, static_cast<int32_t>(uint32_t{c.key} << 24), false);  // little-endian: the key is byte 3
  end.push_back(a.jcc(NE));
  a.load(RCX, R8, c.time_ps);
  a.alu_from_mem(CMP, RCX, R8, c.quantum_ps);
  if (c.quantum_end) {
    const size_t jump = a.jcc(AE);
    quantum_ends.push_back({jump, a.size()});
  } else {
    end.push_back(a.jcc(AE));
  }
  a.load(RCX, R8, c.limit);
  a.test(RCX, RCX);
  const size_t no_limit = a.jcc(E);
  a.alu_from_mem(CMP, RCX, R8, c.minstret);
  end.push_back(a.jcc(BE));  // limit <= minstret
  a.bind(no_limit);
  a.cmp_byte(R8, c.kernel, 0);
  const size_t not_kernel = a.jcc(E);
  a.alu_from_mem(CMP, RAX, R8, c.ret_addr);
  end.push_back(a.jcc(E));
  a.bind(not_kernel);
  a.load(RCX, R8, c.mip);
  a.alu_from_mem(AND, RCX, R8, c.mie);
  end.push_back(a.jcc(NE));
  return end;
}

void emit_quantum_end(x86::Asm& a, const BlockChain& c, const QuantumEnd& q, size_t retired) {
  using namespace x86;
  a.bind(q.jump);
  a.push(RAX);  // the pc; with the padding the stack stays 16-byte aligned at the call
  a.alu_imm(SUB, RSP, 8);
  a.mov(RDI, R8);
  a.call(reinterpret_cast<const void*>(c.quantum_end));
  a.alu_imm(ADD, RSP, 8);
  a.pop(RCX);
  a.load(R8, RSP, 0);
  a.test(RAX, RAX);
  a.mov(RAX, RCX);
  a.bind(a.jcc(E), retired);
  a.bind(a.jmp(), q.resume);
}

std::vector<size_t> emit_chain_checks(x86::Asm& a, const BlockChain& c, std::vector<QuantumEnd>& quantum_ends) {
  using namespace x86;
  std::vector<size_t> end = emit_chain_stops(a, c, quantum_ends);
  // The linked block: rcx = link[i] for the i with link_pc[i] == pc (set
  // whenever link_pc[i] is a pc), both addressed from rdx = &link_pc[i].
  const auto link_from_pc = static_cast<int32_t>(reinterpret_cast<const char*>(c.link) -
                                                 reinterpret_cast<const char*>(c.link_pc));
  a.mov_imm(RDX, reinterpret_cast<uint64_t>(c.link_pc));
  a.alu_from_mem(CMP, RAX, RDX, 0);
  const size_t first = a.jcc(E);
  a.alu_from_mem(CMP, RAX, RDX, 8);
  end.push_back(a.jcc(NE));
  a.alu_imm(ADD, RDX, 8);
  a.bind(first);
  a.load(RCX, RDX, link_from_pc);
  a.load(RDX, RCX, c.code_in_block);
  a.test(RDX, RDX);
  end.push_back(a.jcc(E));
  return end;
}

std::vector<size_t> emit_self_loop(x86::Asm& a, const BlockChain& c, size_t body, std::vector<size_t>& to_enter,
                                   std::vector<QuantumEnd>& quantum_ends) {
  using namespace x86;
  std::vector<size_t> end = emit_chain_stops(a, c, quantum_ends);
  a.mov_imm(RCX, reinterpret_cast<uint64_t>(c.self));
  emit_inline_enter(a, *c.inline_enter, c.key, c.code_in_block, &body);
  to_enter.push_back(a.jmp());
  return end;
}

size_t emit_enter_next(x86::Asm& a, const BlockChain& c) {
  using namespace x86;
  if (c.inline_enter) emit_inline_enter(a, *c.inline_enter, c.key, c.code_in_block, nullptr);
  a.mov(RBX, RAX);  // the pc, kept across the call (the registers are written back)
  if (c.enter_stub) {
    a.mov_imm(R11, reinterpret_cast<uint64_t>(c.enter_stub));
    a.call_reg(R11);
  } else {
    a.mov(RDI, R8);
    a.mov(RSI, RCX);
    a.mov(RDX, RAX);
    a.call(reinterpret_cast<const void*>(c.enter));
  }
  a.test(RAX, RAX);
  const size_t failed = a.jcc(E);
  a.jmp_rax();
  a.bind(failed);
  a.mov(RAX, RBX);
  a.mov_imm(RDX, uint64_t{kExitEnterFailed} << 32);
  return a.jmp();
}

}  // namespace avp

#include "harts/translated_chain.h"

namespace avp {

std::vector<size_t> emit_chain_checks(x86::Asm& a, const BlockChain& c) {
  using namespace x86;
  std::vector<size_t> end;
  if (c.block_abort == c.stop + 1) {  // both bytes at once
    a.cmp_word_zero(R8, c.stop);
    end.push_back(a.jcc(NE));
  } else {
    for (int32_t flag : {c.stop, c.block_abort}) {
      a.cmp_byte(R8, flag, 0);
      end.push_back(a.jcc(NE));
    }
  }
  a.cmp_byte(R8, c.chain_enabled, 0);
  end.push_back(a.jcc(E));
  a.load(RCX, R8, c.time_ps);
  a.alu_from_mem(CMP, RCX, R8, c.quantum_ps);
  end.push_back(a.jcc(AE));
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
  a.load(RCX, R8, c.debug_hook);
  a.alu_from_mem(OR, RCX, R8, c.tracer);
  end.push_back(a.jcc(NE));
  a.cmp_byte(R8, c.armed, 0);
  end.push_back(a.jcc(NE));
  a.cmp_byte(R8, c.fetch_key, c.key);
  end.push_back(a.jcc(NE));
  // The linked block: rcx = link[i] for the i with link_pc[i] == pc.
  a.mov_imm(RDX, reinterpret_cast<uint64_t>(c.link_pc));
  a.mov_imm(RCX, reinterpret_cast<uint64_t>(c.link));
  a.alu_from_mem(CMP, RAX, RDX, 0);
  const size_t first = a.jcc(E);
  a.alu_from_mem(CMP, RAX, RDX, 8);
  end.push_back(a.jcc(NE));
  a.alu_imm(ADD, RCX, 8);
  a.bind(first);
  a.load(RCX, RCX, 0);
  a.test(RCX, RCX);
  end.push_back(a.jcc(E));
  a.load(RDX, RCX, c.code_in_block);
  a.test(RDX, RDX);
  end.push_back(a.jcc(E));
  return end;
}

size_t emit_enter_next(x86::Asm& a, const BlockChain& c) {
  using namespace x86;
  a.mov(RBX, RAX);  // the pc, kept across the call (the registers are written back)
  a.mov(RDI, R8);
  a.mov(RSI, RCX);
  a.mov(RDX, RAX);
  a.call(reinterpret_cast<const void*>(c.enter));
  a.test(RAX, RAX);
  const size_t failed = a.jcc(E);
  a.jmp_rax();
  a.bind(failed);
  a.mov(RAX, RBX);
  a.mov_imm(RDX, uint64_t{kExitEnterFailed} << 32);
  return a.jmp();
}

}  // namespace avp

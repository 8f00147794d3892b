// RV64C: the results of every compressed instruction (rv_compressed_ops.S).
#include "sig.h"

void c_ops(uint64_t out[64]);

static const char* const names[] = {
    "c.li -32", "c.li 31", "c.lui 0xfffff", "c.lui 0x1f", "c.addi -32", "c.addiw overflow", "c.addiw 0 (sext.w)",
    "c.addi16sp -32", "c.addi4spn 1020", "c.mv", "c.add", "c.sub", "c.xor", "c.or", "c.and", "c.subw", "c.addw",
    "c.andi -16", "c.srli 63", "c.srai 4", "c.srai 63", "c.slli 63", "c.slli 1", "c.lw sign-extends", "c.ld",
    "c.sw", "c.sd", "c.fld/c.fsd", "c.lwsp", "c.ldsp", "c.swsp", "c.sdsp", "c.fldsp/c.fsdsp", "c.j", "c.beqz taken",
    "c.bnez not taken", "c.bnez taken", "c.jr", "c.jalr link - pc",
};

int main(int hart) {
  static uint64_t out[64];
  sig_begin("rv_compressed");
  c_ops(out);
  for (unsigned i = 0; i < ARRAY_SIZE(names); i++) sig(names[i], out[i]);
  sig_end();
  return 0;
}

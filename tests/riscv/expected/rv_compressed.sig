--- begin signature rv_compressed
c.li -32: ffffffffffffffe0
c.li 31: 000000000000001f
c.lui 0xfffff: fffffffffffff000
c.lui 0x1f: 000000000001f000
c.addi -32: ffffffffffffffff
c.addiw overflow: ffffffff80000000
c.addiw 0 (sext.w): ffffffff80000000
c.addi16sp -32: 0000000000000020
c.addi4spn 1020: 00000000000003fc
c.mv: 123456789abcdef0
c.add: 21436587a9cbedff
c.sub: 032547698badcfe1
c.xor: 1d3b597795b3d1ff
c.or: 1f3f5f7f9fbfdfff
c.and: 020406080a0c0e00
c.subw: 000000007fffffff
c.addw: ffffffff80000000
c.andi -16: 123456789abcdef0
c.srli 63: 0000000000000000
c.srai 4: fffffffffffffff0
c.srai 63: 0000000000000000
c.slli 63: 8000000000000000
c.slli 1: 2468acf13579bde0
c.lw sign-extends: fffffffff0000001
c.ld: 400921fb54442d18
c.sw: 00000000fffffffe
c.sd: fffffffffffffffe
c.fld/c.fsd: 400921fb54442d18
c.lwsp: ffffffff87654321
c.ldsp: 8765432112345678
c.swsp: 1234567800000000
c.sdsp: 8765432112345678
c.fldsp/c.fsdsp: 8765432112345678
c.j: 0000000000000000
c.beqz taken: 0000000000000005
c.bnez not taken: 0000000000000007
c.bnez taken: 0000000000000007
c.jr: 000000000000000a
c.jalr link - pc: 0000000000000002
--- end signature

/* Every RV64C instruction (except c.ebreak, in rv_priv_m), written with explicit
 * c.* mnemonics so the assembler emits exactly these encodings.
 * void c_ops(uint64_t out[64]): out[i] = result of step i (see rv_compressed.c). */
	.option rvc
	.option norelax
	.text
	.globl c_ops
	.type c_ops, @function
c_ops:
	addi	sp, sp, -64
	sd	ra, 56(sp)
	sd	s0, 48(sp)
	sd	s1, 40(sp)
	mv	t6, a0
#define OUT(reg, n) sd reg, (8 * (n))(t6)

	/* constants and immediates */
	c.li	a1, -32
	OUT(a1, 0)
	c.li	a2, 31
	OUT(a2, 1)
	c.lui	a3, 0xfffff
	OUT(a3, 2)
	c.lui	a4, 0x1f
	OUT(a4, 3)
	c.addi	a2, -32
	OUT(a2, 4)
	li	a1, 0x7fffffff
	c.addiw	a1, 1
	OUT(a1, 5)
	li	a5, 0x180000000
	c.addiw	a5, 0			/* sext.w */
	OUT(a5, 6)
	mv	t0, sp
	c.addi16sp sp, -32
	sub	t1, t0, sp
	c.addi16sp sp, 32
	OUT(t1, 7)
	c.addi4spn a0, sp, 1020
	sub	t1, a0, sp
	OUT(t1, 8)
	c.nop
	/* register-register */
	li	s0, 0x123456789abcdef0
	li	s1, 0x0f0f0f0f0f0f0f0f
	c.mv	a0, s0
	OUT(a0, 9)
	c.mv	a0, s0
	c.add	a0, s1
	OUT(a0, 10)
	c.mv	a0, s0
	c.sub	a0, s1
	OUT(a0, 11)
	c.mv	a0, s0
	c.xor	a0, s1
	OUT(a0, 12)
	c.mv	a0, s0
	c.or	a0, s1
	OUT(a0, 13)
	c.mv	a0, s0
	c.and	a0, s1
	OUT(a0, 14)
	li	a0, 0x80000000
	li	a1, 1
	c.subw	a0, a1
	OUT(a0, 15)
	li	a0, 0x7fffffff
	c.addw	a0, a1
	OUT(a0, 16)
	c.mv	a0, s0
	c.andi	a0, -16
	OUT(a0, 17)
	c.mv	a0, s0
	c.srli	a0, 63
	OUT(a0, 18)
	li	a0, -256
	c.srai	a0, 4
	OUT(a0, 19)
	c.mv	a0, s0
	c.srai	a0, 63
	OUT(a0, 20)
	c.mv	a0, s1
	c.slli	a0, 63
	OUT(a0, 21)
	c.mv	a0, s0
	c.slli	a0, 1
	OUT(a0, 22)
	/* loads and stores: s0 base, sp-relative */
	la	s0, c_data
	c.lw	a0, 0(s0)
	OUT(a0, 23)
	c.ld	a0, 8(s0)
	OUT(a0, 24)
	c.li	a1, -2
	c.sw	a1, 16(s0)
	ld	a0, 16(s0)
	OUT(a0, 25)
	c.sd	a1, 24(s0)
	ld	a0, 24(s0)
	OUT(a0, 26)
	c.fld	fa0, 8(s0)
	c.fsd	fa0, 32(s0)
	ld	a0, 32(s0)
	OUT(a0, 27)
	li	a0, 0x8765432112345678
	sd	a0, 0(sp)
	sd	zero, 8(sp)
	c.lwsp	a1, 4(sp)
	OUT(a1, 28)
	c.ldsp	a1, 0(sp)
	OUT(a1, 29)
	c.swsp	a1, 12(sp)
	ld	a0, 8(sp)
	OUT(a0, 30)
	c.sdsp	a1, 16(sp)
	ld	a0, 16(sp)
	OUT(a0, 31)
	c.fldsp	fa1, 0(sp)
	c.fsdsp	fa1, 24(sp)
	ld	a0, 24(sp)
	OUT(a0, 32)
	/* control transfer */
	li	a0, 0
	c.j	1f
	li	a0, 1
1:	OUT(a0, 33)
	li	a1, 0
	li	a0, 5
	c.beqz	a1, 2f
	li	a0, 6
2:	OUT(a0, 34)
	c.bnez	a1, 3f
	li	a0, 7
3:	OUT(a0, 35)
	li	a1, 9
	c.bnez	a1, 4f
	li	a0, 8
4:	OUT(a0, 36)
	la	a1, 5f
	li	a0, 10
	c.jr	a1
	li	a0, 11
5:	OUT(a0, 37)
	la	a1, 7f
6:	c.jalr	a1
	c.nop				/* skipped */
7:	la	t0, 6b
	sub	t1, ra, t0		/* link = address of c.jalr + 2 */
	OUT(t1, 38)

	ld	ra, 56(sp)
	ld	s0, 48(sp)
	ld	s1, 40(sp)
	addi	sp, sp, 64
	ret
	.size c_ops, . - c_ops

	.data
	.balign 8
c_data:
	.dword 0x00000000f0000001
	.dword 0x400921fb54442d18
	.dword 0
	.dword 0
	.dword 0

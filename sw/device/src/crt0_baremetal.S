/* Start-up for bare-metal programs (accel-vp and qemu-virt).
 * accel-vp: the loader enters every hart here in M-mode with a0 = hart id and
 *           sp = top of the hart's TCDM slice.
 * qemu-virt: QEMU enters every hart with a0 = mhartid and no stack; hart 0
 *           takes the stack reserved by qemu-virt.ld, the others park.
 * Then: gp, FP unit on (mstatus.FS = Initial, fcsr = 0), and the C part. */
	.section .text.init.enter, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
#ifdef AVP_TARGET_QEMU_VIRT
	csrr	a0, mhartid
	bnez	a0, 1f
	la	sp, __avp_stack_top
#endif
	li	t0, (1 << 13)
	csrs	mstatus, t0
	csrw	fcsr, zero
	andi	sp, sp, -16
	mv	ra, zero
	call	_avp_start
1:	wfi
	j	1b
	.size _start, . - _start

/* Start-up for bare-metal programs (accel-vp and qemu-virt).
 * accel-vp: the loader enters every hart here in M-mode with a0 = hart id and
 *           sp = top of the hart's TCDM slice.
 * qemu-virt: QEMU enters every hart with a0 = mhartid and no stack; harts
 *           below __avp_qemu_harts take their stack from the area reserved
 *           by qemu-virt.ld (hart h: top - h x stack size), the others park.
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
	la	t0, __avp_boot_params
	ld	t1, 0(t0)		/* harts */
	bgeu	a0, t1, 1f
	ld	t1, 8(t0)		/* stack size */
	mul	t1, t1, a0
	la	sp, __avp_stack_top
	sub	sp, sp, t1
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

/* QEMU stand-in for the command processor's kernel launch (kernel_harness.c).
 * uint64_t kernel_launch(const launch_regs* r): enters r->pc in M-mode with
 * a0..a7 = r->a[], sp = r->sp, ra = the return point, and gp/tp poisoned
 * (kernels must not rely on them). Returns 0 when the kernel returns, or
 * 0x100 | code when it exits through ECALL a7=0 (kernel_trap). */
	.option norelax
	.text
	.globl kernel_launch
kernel_launch:
	la	t0, host_ctx
	sd	ra, 0(t0)
	sd	sp, 8(t0)
	sd	gp, 16(t0)
	sd	tp, 24(t0)
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11
	sd	s\n, (32 + 8 * \n)(t0)
	.endr
	mv	t1, a0
	ld	t2, 0(t1)		/* pc */
	ld	sp, 8(t1)		/* sp */
	ld	a0, 16(t1)
	ld	a1, 24(t1)
	ld	a2, 32(t1)
	ld	a3, 40(t1)
	ld	a4, 48(t1)
	ld	a5, 56(t1)
	ld	a6, 64(t1)
	ld	a7, 72(t1)
	li	gp, 0x6770bad0
	li	tp, 0x7470bad0
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11
	li	s\n, 0x5a5a0000 + \n
	.endr
	la	ra, kernel_returned
	jr	t2
kernel_returned:
	li	a0, 0
back_to_host:
	la	t0, host_ctx
	ld	ra, 0(t0)
	ld	sp, 8(t0)
	ld	gp, 16(t0)
	ld	tp, 24(t0)
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11
	ld	s\n, (32 + 8 * \n)(t0)
	.endr
	ret

/* M-mode trap entry while a kernel runs: ECALL a7=1 prints the string at a0
 * and resumes with every register preserved (as accel-vp does); ECALL a7=0
 * ends the kernel with code a0; anything else ends it with 0x200 | mcause. */
#define SAVED 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	.balign 4
	.globl kernel_trap_entry
kernel_trap_entry:
	addi	sp, sp, -256
	.irp r, SAVED
	sd	x\r, (\r * 8)(sp)
	.endr
	csrr	t0, mcause
	li	t1, 11
	bne	t0, t1, 2f
	li	t1, 1
	beq	a7, t1, 1f
	bnez	a7, 2f
	andi	a0, a0, 0xff
	ori	a0, a0, 0x100
	j	back_to_host
1:	/* print on the host's gp/tp, on a stack below the kernel's */
	la	t0, host_ctx
	ld	gp, 16(t0)
	ld	tp, 24(t0)
	call	avp_sys_print
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	.irp r, SAVED
	ld	x\r, (\r * 8)(sp)
	.endr
	addi	sp, sp, 256
	mret
2:	andi	a0, t0, 0xff
	ori	a0, a0, 0x200
	j	back_to_host

	.bss
	.balign 8
host_ctx:
	.space 128

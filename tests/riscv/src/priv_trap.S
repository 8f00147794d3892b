/* Trap plumbing of the privileged tests: M- and S-mode trap entries that save every
 * register and call m_trap()/s_trap() (priv.c), and run_in_mode(), which
 * runs a C function in U- or S-mode and comes back when it finishes (the
 * function's trampoline ends with an ECALL carrying RETURN_MAGIC in a7). */
	.option norelax
#define RETURN_MAGIC 0x52455455

	.text
	.globl run_in_mode
	.type run_in_mode, @function
/* void run_in_mode(uint64_t mode, void (*fn)(void)) */
run_in_mode:
	la	t0, m_ctx
	sd	ra, 0(t0)
	sd	sp, 8(t0)
	sd	s0, 16(t0)
	sd	s1, 24(t0)
	sd	s2, 32(t0)
	sd	s3, 40(t0)
	sd	s4, 48(t0)
	sd	s5, 56(t0)
	sd	s6, 64(t0)
	sd	s7, 72(t0)
	sd	s8, 80(t0)
	sd	s9, 88(t0)
	sd	s10, 96(t0)
	sd	s11, 104(t0)
	sd	gp, 112(t0)
	sd	tp, 120(t0)
	li	t1, (3 << 11)
	csrc	mstatus, t1
	slli	a0, a0, 11
	csrs	mstatus, a0
	la	t1, lower_trampoline
	csrw	mepc, t1
	mv	a0, a1
	mret
lower_trampoline:
	jalr	a0
	li	a7, RETURN_MAGIC
	ecall
1:	j	1b
mode_return:
	la	t0, m_ctx
	ld	ra, 0(t0)
	ld	sp, 8(t0)
	ld	s0, 16(t0)
	ld	s1, 24(t0)
	ld	s2, 32(t0)
	ld	s3, 40(t0)
	ld	s4, 48(t0)
	ld	s5, 56(t0)
	ld	s6, 64(t0)
	ld	s7, 72(t0)
	ld	s8, 80(t0)
	ld	s9, 88(t0)
	ld	s10, 96(t0)
	ld	s11, 104(t0)
	ld	gp, 112(t0)
	ld	tp, 120(t0)
	ret
	.size run_in_mode, . - run_in_mode

.macro SAVE_ALL scratch
	csrrw	sp, \scratch, sp
	addi	sp, sp, -256
	.irp r, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sd	x\r, (\r * 8)(sp)
	.endr
	csrr	t0, \scratch
	sd	t0, 16(sp)
	mv	a0, sp
.endm
.macro RESTORE_ALL scratch
	.irp r, 1,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld	x\r, (\r * 8)(sp)
	.endr
	addi	sp, sp, 256
	csrrw	sp, \scratch, sp
.endm

	.balign 4
	.globl m_trap_entry
m_trap_entry:
	SAVE_ALL mscratch
	call	m_trap
	bnez	a0, 1f
	RESTORE_ALL mscratch
	mret
1:	addi	sp, sp, 256
	csrrw	sp, mscratch, sp
	j	mode_return

	.balign 4
	.globl s_trap_entry
s_trap_entry:
	SAVE_ALL sscratch
	call	s_trap
	bnez	a0, 1f
	RESTORE_ALL sscratch
	sret
	/* A delegated return request from U-mode: pass it on to M from S. */
1:	RESTORE_ALL sscratch
	li	a7, RETURN_MAGIC
	ecall
2:	j	2b

	.bss
	.balign 8
m_ctx:	.space 128

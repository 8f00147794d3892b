/* Start-up for the Linux user-mode variant (qemu-riscv64 reference runs):
 * one hart (id 0), the kernel's stack, FP already enabled by the kernel. */
	.section .text.init.enter, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	li	a0, 0
	andi	sp, sp, -16
	mv	ra, zero
	call	_avp_start
1:	j	1b
	.size _start, . - _start

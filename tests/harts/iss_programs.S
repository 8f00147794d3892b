# Small programs for the ISS unit tests (test_harts.cpp). Each global label is
# an entry point; kernels end by `ret` (HartLaunch::ra) or ECALL a7=0.
#define XCMD(k, rd, rs1, rs2) .insn r 0x0B, k, 0, rd, rs1, rs2
#define XEXT(f, rd, rs1, rs2) .insn r 0x0B, f, 1, rd, rs1, rs2
  .option norvc
  .text
  .globl add_one, exit42, print_hello, spin, illegal_op, xext_fallback, xcmd_lun0, hartinfo
  .globl priv_delegation, wfi_interrupt, mip_set_stip
  .globl self_modify, self_modify_linked, fence_i_add_one, lr_sc_two_harts
  .globl barriers
  .globl load_fault, fetch_fault
  .globl lr_sc, amo_misaligned, load_misaligned, fp_convert, fp_bad_rm, fp_min_snan, perf_instret, compressed
add_one:
  addi a0, a0, 1
  ret
exit42:
  li a0, 42
  li a7, 0
  ecall
print_hello:
  la a0, hello
  li a7, 1
  ecall
  ret
spin:
  j spin
illegal_op:
  nop
  .word 0x0000007B          # custom-3, no extension behind it
xext_fallback:
  lui t0, 0xBEEF0           # a uuid nothing implements
  XEXT(1, t1, t0, zero)     # xext0  -> lun 1
  XCMD(0, a0, t1, a1)       # -> 0
  XEXT(2, t2, t0, zero)     # xextm1 -> lun 2
  XCMD(3, a1, t2, a1)       # -> -1
  XEXT(0, a2, t0, zero)     # xext   -> lun 0
  mv a3, t1
  mv a4, t2
  ret
xcmd_lun0:
  XEXT(0, t1, zero, zero)   # uuid 0 -> lun 0
  XCMD(5, a0, t1, zero)     # traps: illegal instruction
  ret
hartinfo:
  lui t0, 0xACC01
  XEXT(0, t1, t0, zero)
  XCMD(0, a0, t1, zero)     # hart id
  XCMD(1, a1, t1, zero)     # core id
  XCMD(2, a2, t1, zero)     # harts per core
  mv a3, t1
  ret
priv_delegation:            # bare metal: M -> U, ECALL delegated to S, illegal CSR access back to M
  la t0, m_handler
  csrw mtvec, t0
  la t0, s_handler
  csrw stvec, t0
  li t0, 0x100              # ECALL from U-mode -> S
  csrw medeleg, t0
  li t0, 0x1800
  csrc mstatus, t0          # MPP = U
  la t0, user_code
  csrw mepc, t0
  mret
user_code:
  li a7, 99
  ecall                     # to s_handler
  csrr a0, mstatus          # illegal in U-mode, not delegated: to m_handler
  j user_code
s_handler:
  csrr a1, scause
  csrr a2, sepc
  csrr a5, sstatus
  addi t0, a2, 4
  csrw sepc, t0
  sret
m_handler:
  csrr a3, mcause
  csrr a4, mtval
  csrr a6, mepc
  li a0, 0
  li a7, 0
  ecall                     # host call: exit(0)
wfi_interrupt:              # bare metal: sleep until machine software interrupt
  la t0, irq_handler
  csrw mtvec, t0
  li t0, 8
  csrw mie, t0              # MSIE
  csrsi mstatus, 8          # MIE
1:
  wfi
  j 1b
irq_handler:
  csrr a0, mcause
  andi a0, a0, 0xff
  li a7, 0
  ecall                     # exit(cause)
mip_set_stip:               # bare metal: csrs mip (STIP) as OpenSBI's timer handler does; a0 = mip after
  li t0, 0x20
  csrs mip, t0
  csrr a0, mip
  li a7, 0
  ecall                     # exit(mip)
self_modify:                # rewrites code it has executed (no fence.i)
  mv t6, ra
  call smc_target
  mv a1, a0                 # 1
  la t0, smc_target
  li t1, 0x00200513         # li a0, 2
  sw t1, 0(t0)
  call smc_target
  mv ra, t6
  ret                       # a0 = 2
smc_target:
  li a0, 1
  ret
self_modify_linked:         # one call site before and after a rewrite of its callee: its link must go
  mv t6, ra
  li t5, 0
  li t4, 2
  la t0, smc_linked_target
  j 1f                      # the call site is a block of its own, entered twice
1:
  call smc_linked_target
  add t5, t5, a0
  li t1, 0x00300513         # li a0, 3
  sw t1, 0(t0)
  addi t4, t4, -1
  bnez t4, 1b
  mv a0, t5
  mv ra, t6
  ret                       # a0 = 1 + 3
smc_linked_target:
  li a0, 1
  ret
fence_i_add_one:            # fence.i, then add_one
  fence.i
  j add_one
lr_sc_two_harts:            # hart a0=0 reserves, hart a0=1 stores to the granule
  la t0, shared
  la t2, flag
  bnez a0, 2f
  lr.d t1, (t0)
1:
  ld t3, 0(t2)
  beqz t3, 1b
  sc.d a1, t1, (t0)         # must fail: the other hart stored to the granule
  ld a2, 0(t0)
  ret
2:
  li t4, 20000              # longer than a quantum: the other hart reserves first
3:
  addi t4, t4, -1
  bnez t4, 3b
  li t1, 7
  sd t1, 0(t0)
  sd t1, 0(t2)
  ret
barriers:                   # a0 = hart: work a0 * 5000 iterations, ECALL barrier, xintf barrier
  li t0, 5000
  mul t0, t0, a0
1:
  beqz t0, 2f
  addi t0, t0, -1
  j 1b
2:
  li a7, 2
  ecall                     # barrier across the launch
  rdtime a1
  slli t0, a0, 12           # work again, in the other order
  li t1, 20000
  sub t0, t1, t0
3:
  addi t0, t0, -1
  bnez t0, 3b
  lui t0, 0xACC02
  XEXT(0, t1, t0, zero)
  XCMD(0, zero, t1, zero)   # barrier across the running harts of the core
  rdtime a2
  ret
load_fault:
  li t0, 0x30000000         # nothing mapped there
  ld a0, 8(t0)
  ret
fetch_fault:
  li t0, 0x30000000
  jr t0
lr_sc:
  la t0, data
  lr.d t1, (t0)
  sc.d a0, t1, (t0)         # succeeds: 0
  lr.d t1, (t0)
  sd t1, 0(t0)              # breaks the reservation
  sc.d a1, t1, (t0)         # fails: non-zero
  sc.d a2, t1, (t0)         # no reservation: fails
  ret
amo_misaligned:
  la t0, data
  addi t0, t0, 4
  amoadd.d a0, a1, (t0)     # 8-byte AMO on a 4-byte boundary: store/AMO misaligned
  ret
load_misaligned:
  la t0, data
  li t1, 0x1122334455667788
  sd t1, 0(t0)
  sd zero, 8(t0)
  ld a0, 1(t0)              # handled in hardware
  ret
fp_convert:
  csrwi fflags, 0
  li t0, 0x7fc00000
  fmv.w.x f0, t0
  fcvt.w.s a0, f0           # NaN -> 0x7fffffff, NV
  csrr a1, fflags
  csrwi fflags, 0
  li t0, 0xff800000
  fmv.w.x f1, t0
  fcvt.w.s a2, f1           # -inf -> INT32_MIN, NV
  li t0, 0x3fc00000         # 1.5
  fmv.w.x f2, t0
  fcvt.w.s a3, f2, rne      # 2 (ties to even)
  fcvt.w.s a4, f2, rtz      # 1
  fcvt.w.s a5, f2, rmm      # 2
  li t0, 0xc0200000         # -2.5
  fmv.w.x f3, t0
  fcvt.w.s a6, f3, rmm      # -3
  fcvt.w.s a7, f3, rup      # -2
  ret
fp_bad_rm:
  csrwi frm, 5              # reserved rounding mode
  fadd.s f1, f0, f0         # dynamic rm -> illegal instruction
  ret
fp_min_snan:
  csrwi fflags, 0
  li t0, 0x7f800001         # signalling NaN
  fmv.w.x f0, t0
  li t0, 0x3f800000         # 1.0
  fmv.w.x f1, t0
  fmin.s f2, f0, f1         # 1.0, NV
  fmv.x.w a0, f2
  csrr a1, fflags
  fmax.s f3, f0, f0         # both NaN: canonical NaN
  fmv.x.w a2, f3
  fmv.x.d a3, f3            # NaN-boxed single
  fclass.s a4, f0           # signalling NaN: bit 8
  ret
perf_instret:
  li t0, 0x20100000
  nop
  nop
  ld a0, 0x10(t0)           # this hart's instret
  ret
  .option rvc
compressed:
  c.li a0, 5
  c.addi a0, 3
  c.slli a0, 2              # 32
  c.mv a1, a0
  c.add a1, a0              # 64
  c.jr ra
  .option norvc
  .data
  .balign 16
data:
  .dword 0, 0
shared:
  .dword 0
flag:
  .dword 0
hello:
  .string "hello from the hart"

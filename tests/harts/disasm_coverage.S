# Every RV64GC instruction form and the aliases objdump prints, for the
# disassembler test (test_disasm.cpp compares accel-vp's disassembly of each
# encoding with riscv64-unknown-elf-objdump -d). Assembled, never run.
  .option norvc
  .text
  .globl start
start:
  lui a0, 0x12345
  lui t6, 0xfffff
  auipc s0, 0x1
  jal ra, start
  jal zero, start
  jal a1, start
  jalr ra, 0(a0)
  jalr zero, 0(ra)
  jalr zero, 0(a2)
  jalr zero, 8(a2)
  jalr ra, -4(a3)
  jalr a4, 12(a5)
  beq a0, a1, start
  bne a0, a1, start
  blt a0, a1, start
  bge a0, a1, start
  bltu a0, a1, start
  bgeu a0, a1, start
  beq a0, zero, start
  bne a0, zero, start
  blt a0, zero, start
  bge a0, zero, start
  blt zero, a0, start
  bge zero, a0, start
  bltu a0, zero, start
  bgeu zero, a0, start
  lb a0, -1(a1)
  lh a0, 2(a1)
  lw a0, 4(a1)
  ld a0, 8(a1)
  lbu a0, 0(a1)
  lhu a0, 2047(a1)
  lwu a0, -2048(a1)
  sb a0, -1(a1)
  sh a0, 2(a1)
  sw a0, 4(a1)
  sd a0, 8(a1)
  addi a0, a1, 5
  addi a0, zero, -7
  addi a0, a1, 0
  addi zero, zero, 0
  slti a0, a1, 3
  sltiu a0, a1, 3
  sltiu a0, a1, 1
  xori a0, a1, 3
  xori a0, a1, -1
  ori a0, a1, 3
  andi a0, a1, 3
  andi a0, a1, 255
  slli a0, a1, 63
  srli a0, a1, 1
  srai a0, a1, 33
  add a0, a1, a2
  add a0, zero, a2
  sub a0, a1, a2
  sub a0, zero, a2
  sll a0, a1, a2
  slt a0, a1, a2
  slt a0, a1, zero
  slt a0, zero, a2
  sltu a0, a1, a2
  sltu a0, zero, a2
  xor a0, a1, a2
  srl a0, a1, a2
  sra a0, a1, a2
  or a0, a1, a2
  and a0, a1, a2
  addiw a0, a1, 5
  addiw a0, a1, 0
  slliw a0, a1, 31
  srliw a0, a1, 1
  sraiw a0, a1, 2
  addw a0, a1, a2
  subw a0, a1, a2
  subw a0, zero, a2
  sllw a0, a1, a2
  srlw a0, a1, a2
  sraw a0, a1, a2
  mul a0, a1, a2
  mulh a0, a1, a2
  mulhsu a0, a1, a2
  mulhu a0, a1, a2
  div a0, a1, a2
  divu a0, a1, a2
  rem a0, a1, a2
  remu a0, a1, a2
  mulw a0, a1, a2
  divw a0, a1, a2
  divuw a0, a1, a2
  remw a0, a1, a2
  remuw a0, a1, a2
  fence
  fence rw, rw
  fence r, w
  fence iorw, o
  fence.i
  ecall
  ebreak
  mret
  sret
  wfi
  sfence.vma
  sfence.vma a0
  sfence.vma a0, a1
  csrrw a0, mstatus, a1
  csrrs a0, mstatus, a1
  csrrc a0, mstatus, a1
  csrrwi a0, mstatus, 5
  csrrsi a0, mstatus, 5
  csrrci a0, mstatus, 5
  csrr a0, mepc
  csrw mtvec, a0
  csrs mie, a0
  csrc mip, a0
  csrwi mscratch, 3
  csrsi mstatus, 8
  csrci mstatus, 8
  csrr a0, mhartid
  csrr a0, mcause
  csrr a0, mtval
  csrr a0, satp
  csrr a0, sstatus
  csrr a0, 0x7c0
  csrr a0, mhpmcounter3
  csrr a0, pmpaddr0
  csrr a0, pmpcfg0
  rdcycle a0
  rdtime a0
  rdinstret a0
  frflags a0
  fsflags a0, a1
  fsflags a1
  frrm a0
  fsrm a0, a1
  fsrm a1
  frcsr a0
  fscsr a0, a1
  fscsr a1
  fsrmi a0, 1
  fsflagsi 3
  lr.w a0, (a1)
  sc.w a0, a2, (a1)
  amoswap.w a0, a2, (a1)
  amoadd.w a0, a2, (a1)
  amoxor.w a0, a2, (a1)
  amoand.w a0, a2, (a1)
  amoor.w a0, a2, (a1)
  amomin.w a0, a2, (a1)
  amomax.w a0, a2, (a1)
  amominu.w a0, a2, (a1)
  amomaxu.w a0, a2, (a1)
  lr.d.aq a0, (a1)
  sc.d.rl a0, a2, (a1)
  amoswap.d.aqrl a0, a2, (a1)
  amoadd.d a0, a2, (a1)
  amoxor.d a0, a2, (a1)
  amoand.d a0, a2, (a1)
  amoor.d a0, a2, (a1)
  amomin.d a0, a2, (a1)
  amomax.d a0, a2, (a1)
  amominu.d a0, a2, (a1)
  amomaxu.d a0, a2, (a1)
  flw fa0, 4(a1)
  fsw fa0, 4(a1)
  fld fs11, -8(sp)
  fsd ft11, 16(sp)
  fmadd.s fa0, fa1, fa2, fa3
  fmsub.s fa0, fa1, fa2, fa3, rtz
  fnmsub.s fa0, fa1, fa2, fa3
  fnmadd.s fa0, fa1, fa2, fa3, rne
  fmadd.d fa0, fa1, fa2, fa3
  fmsub.d fa0, fa1, fa2, fa3
  fnmsub.d fa0, fa1, fa2, fa3, rdn
  fnmadd.d fa0, fa1, fa2, fa3
  fadd.s fa0, fa1, fa2
  fsub.s fa0, fa1, fa2, rup
  fmul.s fa0, fa1, fa2
  fdiv.s fa0, fa1, fa2, rmm
  fsqrt.s fa0, fa1
  fsgnj.s fa0, fa1, fa2
  fsgnjn.s fa0, fa1, fa2
  fsgnjx.s fa0, fa1, fa2
  fmv.s fa0, fa1
  fneg.s fa0, fa1
  fabs.s fa0, fa1
  fmin.s fa0, fa1, fa2
  fmax.s fa0, fa1, fa2
  fcvt.w.s a0, fa1
  fcvt.wu.s a0, fa1, rtz
  fcvt.l.s a0, fa1
  fcvt.lu.s a0, fa1
  fmv.x.w a0, fa1
  feq.s a0, fa1, fa2
  flt.s a0, fa1, fa2
  fle.s a0, fa1, fa2
  fclass.s a0, fa1
  fcvt.s.w fa0, a1
  fcvt.s.wu fa0, a1
  fcvt.s.l fa0, a1, rne
  fcvt.s.lu fa0, a1
  fmv.w.x fa0, a1
  fadd.d fa0, fa1, fa2
  fsub.d fa0, fa1, fa2
  fmul.d fa0, fa1, fa2
  fdiv.d fa0, fa1, fa2
  fsqrt.d fa0, fa1, rtz
  fsgnj.d fa0, fa1, fa2
  fsgnjn.d fa0, fa1, fa2
  fsgnjx.d fa0, fa1, fa2
  fmv.d fa0, fa1
  fneg.d fa0, fa1
  fabs.d fa0, fa1
  fmin.d fa0, fa1, fa2
  fmax.d fa0, fa1, fa2
  fcvt.s.d fa0, fa1
  fcvt.s.d fa0, fa1, rtz
  fcvt.d.s fa0, fa1
  fcvt.w.d a0, fa1, rtz
  fcvt.wu.d a0, fa1
  fcvt.l.d a0, fa1
  fcvt.lu.d a0, fa1
  fmv.x.d a0, fa1
  feq.d a0, fa1, fa2
  flt.d a0, fa1, fa2
  fle.d a0, fa1, fa2
  fclass.d a0, fa1
  fcvt.d.w fa0, a1
  fcvt.d.wu fa0, a1
  fcvt.d.l fa0, a1
  fcvt.d.lu fa0, a1
  fmv.d.x fa0, a1
  .word 0xffffffff
  .option rvc
  c.addi4spn a0, sp, 16
  c.fld fa0, 8(a1)
  c.lw a0, 4(a1)
  c.ld a0, 8(a1)
  c.fsd fa0, 8(a1)
  c.sw a0, 4(a1)
  c.sd a0, 8(a1)
  c.nop
  c.addi a0, -3
  c.addiw a0, 5
  c.addiw a0, 0
  c.li a0, -1
  c.addi16sp sp, -64
  c.lui a0, 0x1f
  c.lui a0, 0xfffe0
  c.srli a0, 3
  c.srai a0, 3
  c.andi a0, 3
  c.sub a0, a1
  c.xor a0, a1
  c.or a0, a1
  c.and a0, a1
  c.subw a0, a1
  c.addw a0, a1
  c.j start
  c.beqz a0, .
  c.bnez a0, .
  c.slli a0, 3
  c.fldsp fa0, 8(sp)
  c.lwsp a0, 4(sp)
  c.ldsp a0, 8(sp)
  c.jr a0
  c.jr ra
  c.mv a0, a1
  c.mv a0, sp
  c.ebreak
  c.jalr a0
  c.add a0, a1
  c.fsdsp fa0, 8(sp)
  c.swsp a0, 4(sp)
  c.sdsp a0, 8(sp)

--- begin signature rv_priv
c.unimp (all-zero): M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
write read-only cycle: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
write read-only mhartid: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
reserved opcode 0x6b: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
c.jr x0: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
c.lwsp x0: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
c.ldsp x0: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
c.addi16sp 0: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
c.lui a0, 0: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
c.addiw x0: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
slliw shamt 32: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
srliw shamt 32: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
sraiw shamt 32: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
fadd.s rm=5: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
fadd.s rm=6: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
fadd.s dyn frm=5: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
fadd.s dyn frm=7: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
fadd.s dyn frm=0 (legal): no trap
fadd.s with FS=Off: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
csrr fcsr with FS=Off: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
ebreak in M: M cause=3 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
c.ebreak in M: M cause=3 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
ecall from M (a7=0x100): M cause=b epc_ok=1 tval_ok=1 prev_mode=3 traps=1
ecall from U: M cause=8 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
csrr mstatus in U: M cause=2 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
csrr sstatus in U: M cause=2 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
mret in U: M cause=2 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
sret in U: M cause=2 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
ebreak in U: M cause=3 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
rdcycle in U with mcounteren=0: M cause=2 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
ecall from S: M cause=9 epc_ok=1 tval_ok=1 prev_mode=1 traps=1
csrr mstatus in S: M cause=2 epc_ok=1 tval_ok=1 prev_mode=1 traps=1
mret in S: M cause=2 epc_ok=1 tval_ok=1 prev_mode=1 traps=1
sret in S with TSR=1: M cause=2 epc_ok=1 tval_ok=1 prev_mode=1 traps=1
csrr sstatus in S: no trap
sret: SIE SPIE SPP after: 0000000000000022
medeleg readback (ecall-U, illegal, breakpoint): 000000000000010c
delegated ecall from U: S cause=8 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
delegated illegal in U: S cause=2 epc_ok=1 tval_ok=1 prev_mode=0 traps=1
delegated illegal in S: S cause=2 epc_ok=1 tval_ok=1 prev_mode=1 traps=1
delegated ebreak in S: S cause=3 epc_ok=1 tval_ok=1 prev_mode=1 traps=1
ecall from S (not delegated): M cause=9 epc_ok=1 tval_ok=1 prev_mode=1 traps=1
illegal in M stays in M: M cause=2 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
mret: MIE MPIE MPP after: 0000000000000088
mepc bit 0 reads 0 (IALIGN=16): 0000000000001234
mscratch: fedcba9876543210
mtval writable: 0000000000000055
misa MXL: 0000000000000002
misa IMAFDC+S+U: 000000000014112d
mhartid: 0000000000000000
mstatus UXL SXL: 000000000000000a
sstatus.SIE visible in mstatus: 0000000000000001
mcycle/minstret advance: 0000000000000001
misaligned ld value: 0a09080706050403
misaligned sw result: ccdd050403020100
misaligned amoadd.d: M cause=6 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
misaligned lr.d: M cause=4 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
misaligned sc.w: M cause=6 epc_ok=1 tval_ok=1 prev_mode=3 traps=1
--- end signature

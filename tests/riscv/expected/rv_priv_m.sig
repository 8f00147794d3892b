--- begin signature rv_priv_m
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

--- begin signature rv_priv_su
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
--- end signature

--- begin signature rv_smp
harts: 0000000000000004
amoadd.d total / harts: 00000000000007d0
amoadd.w total / harts: 0000000000001770
lr/sc total / harts: 00000000000007d0
amoswap lock: counter / harts: 00000000000007d0
lost updates: 0000000000000000
amomaxu hart id: 0000000000000003
message passing errors: 0000000000000000
--- end signature

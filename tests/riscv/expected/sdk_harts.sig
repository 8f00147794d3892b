--- begin signature sdk_harts
hart id mask: 000000000000000f
start-up errors (bss, constructors, hart id): 0000000000000000
stacks distinct: 0000000000000001
tls blocks distinct: 0000000000000001
tls values per hart: 0000000000000001
barrier rounds: 0000000000000008
barrier errors: 0000000000000000
--- end signature

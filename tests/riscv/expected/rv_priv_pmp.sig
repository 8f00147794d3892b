--- begin signature rv_priv_pmp
napot rwx=0: U load32 cause=5 tval_ok=1
napot rwx=0: U store32 cause=7 tval_ok=1
napot rwx=0: U fetch32 cause=1 tval_ok=1
napot rwx=0: S load32 cause=5 tval_ok=1
napot rwx=0: S store32 cause=7 tval_ok=1
napot rwx=0: S fetch32 cause=1 tval_ok=1
napot rwx=0: M store32 cause=0 tval_ok=1
napot rwx=1: U load32 cause=0 tval_ok=1
napot rwx=1: U store32 cause=7 tval_ok=1
napot rwx=1: U fetch32 cause=1 tval_ok=1
napot rwx=1: S load32 cause=0 tval_ok=1
napot rwx=1: S store32 cause=7 tval_ok=1
napot rwx=1: S fetch32 cause=1 tval_ok=1
napot rwx=1: M store32 cause=0 tval_ok=1
napot rwx=3: U load32 cause=0 tval_ok=1
napot rwx=3: U store32 cause=0 tval_ok=1
napot rwx=3: U fetch32 cause=1 tval_ok=1
napot rwx=3: S load32 cause=0 tval_ok=1
napot rwx=3: S store32 cause=0 tval_ok=1
napot rwx=3: S fetch32 cause=1 tval_ok=1
napot rwx=3: M store32 cause=0 tval_ok=1
napot rwx=4: U load32 cause=5 tval_ok=1
napot rwx=4: U store32 cause=7 tval_ok=1
napot rwx=4: U fetch32 cause=0 tval_ok=1
napot rwx=4: S load32 cause=5 tval_ok=1
napot rwx=4: S store32 cause=7 tval_ok=1
napot rwx=4: S fetch32 cause=0 tval_ok=1
napot rwx=4: M store32 cause=0 tval_ok=1
napot rwx=5: U load32 cause=0 tval_ok=1
napot rwx=5: U store32 cause=7 tval_ok=1
napot rwx=5: U fetch32 cause=0 tval_ok=1
napot rwx=5: S load32 cause=0 tval_ok=1
napot rwx=5: S store32 cause=7 tval_ok=1
napot rwx=5: S fetch32 cause=0 tval_ok=1
napot rwx=5: M store32 cause=0 tval_ok=1
napot rwx=7: U load32 cause=0 tval_ok=1
napot rwx=7: U store32 cause=0 tval_ok=1
napot rwx=7: U fetch32 cause=0 tval_ok=1
napot rwx=7: S load32 cause=0 tval_ok=1
napot rwx=7: S store32 cause=0 tval_ok=1
napot rwx=7: S fetch32 cause=0 tval_ok=1
napot rwx=7: M store32 cause=0 tval_ok=1
na4 before napot, in na4: S load32 cause=5 tval_ok=1
na4 before napot, next word: S load32 cause=0 tval_ok=1
na4 before napot, straddling: S load64 cause=5 tval_ok=1
na4 before napot, straddling: U store64 cause=7 tval_ok=1
tor, last word: S load32 cause=5 tval_ok=1
tor, first word above: S load32 cause=0 tval_ok=1
tor, straddling the top: S load64 cause=5 tval_ok=1
tor, below the base: S load32 cause=0 tval_ok=1
tor, empty range: S load32 cause=0 tval_ok=1
no entry matches: S load32 cause=5 tval_ok=1
no entry matches: U store32 cause=7 tval_ok=1
no entry matches: M load32 cause=0 tval_ok=1
entry above matches: S load32 cause=0 tval_ok=1
pmpcfg0=00000000190c0000 pmpaddr3=00000123456789ab
locked na4 read-only: M load32 cause=0 tval_ok=1
locked na4 read-only: M store32 cause=7 tval_ok=1
locked na4 read-only: M load32 cause=0 tval_ok=1
locked entry after writes: pmpcfg0=0000000000910000 pmpaddr2 unchanged=1
locked tor: pmpaddr3 unchanged=1 pmpaddr4 unchanged=1
locked tor rwx: M store32 cause=0 tval_ok=1
locked tor rwx: U load32 cause=0 tval_ok=1
--- end signature

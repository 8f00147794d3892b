--- begin signature rv_priv_trig
tselect=1 reads 1
tselect=0 reads 0
type 6 tdata1 read back: 1, tdata2: 1
exec trigger S|U, S exec: cause=3 epc_ok=1 from=1
exec trigger S|U, U exec: cause=3 epc_ok=1 from=0
exec trigger S|U, load elsewhere, S load: cause=0
exec trigger U only, S exec: cause=0
exec trigger U only, U exec: cause=3 epc_ok=1 from=0
type 2 exec trigger S, S exec: cause=3 epc_ok=1 from=1
type 2 exec trigger S, U exec: cause=0
exec trigger disabled, S exec: cause=0
load trigger, S load: cause=3 tval_ok=1 from=1
load trigger, U load: cause=3 tval_ok=1 from=0
load trigger, S store: cause=0
load trigger, word below, S load: cause=0
load trigger, far above, S load: cause=0
store trigger, S store: cause=3 tval_ok=1 from=1
store trigger, U store: cause=3 tval_ok=1 from=0
store trigger, U load: cause=0
load/store trigger S only, U store: cause=0
load/store trigger S only, S store: cause=3 tval_ok=1 from=1
load/store trigger S only, S load: cause=3 tval_ok=1 from=1
type 2 load trigger U, U load: cause=3 tval_ok=1 from=0
type 2 load trigger U, S load: cause=0
load trigger disabled, S load: cause=0
--- end signature

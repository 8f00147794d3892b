--- begin signature rv_csr
fcsr after writing ~0: 00000000000000ff
fflags view: 000000000000001f
frm view: 0000000000000007
csrrwi frm old: 0000000000000007
fcsr after frm=2: 000000000000005f
csrrci fflags old: 000000000000001f
fcsr after clearing NV|OF|NX: 000000000000004a
csrrsi fflags old: 000000000000000a
fcsr after setting NX: 000000000000004b
csrrs fcsr old: 000000000000004b
fcsr after setting frm=7: 00000000000000eb
csrrc fcsr old: 00000000000000eb
fcsr after clearing frm bits 6:5: 000000000000008b
csrrs x0: 000000000000008b
csrrci 0: 000000000000008b
fcsr unchanged: 000000000000008b
csrrw x0 fflags=3: 0000000000000083
fsflags old: 0000000000000003
fsrm old: 0000000000000004
frcsr: 000000000000009f
fscsr old: 000000000000009f
fcsr cleared: 0000000000000000
fcsr after 0/0: 0000000000000010
cycle advances: 0000000000000001
time does not go back: 0000000000000001
instret advances: 0000000000000001
generated code: 000000000000002a
modified code after fence.i: 000000000000002b
--- end signature

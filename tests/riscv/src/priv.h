// Trap plumbing shared by the privileged tests (rv_priv_m, rv_priv_su):
// M- and S-mode handlers that record the last trap and step over the
// faulting instruction, run_in_mode() (priv_trap.S), and report(), which
// prints a trap relative to the faulting instruction so signatures do not
// depend on the load address.
#pragma once
#include "avp/csr.h"
#include "sig.h"

#define MODE_U 0
#define MODE_S 1
#define MODE_M 3

typedef struct { char who; uint64_t cause, epc, tval, prev_mode; } trap_record;
extern volatile trap_record last;
extern volatile unsigned trap_count;
// When set, the next M-mode trap resumes here instead of after the faulting
// instruction (for faults whose pc cannot be read, such as fetch faults).
extern volatile uint64_t resume_pc;

void run_in_mode(uint64_t mode, void (*fn)(void));
// Installs the trap vectors and stacks and opens memory to S/U-mode (PMP).
void priv_setup(void);
// Prints the last trap (or "no trap") and clears the trap count.
void report(const char* name, uint64_t pc, uint64_t tval_expected);

// 32-bit ebreak (the assembler would otherwise compress it to c.ebreak).
#define EBREAK32 ".option push\n.option norvc\nebreak\n.option pop"
// Executes `insn` at a label and returns the label's address.
#define AT(insn) ({ uint64_t pc_; __asm__ volatile("la %0, 1f\n1: " insn : "=&r"(pc_) :: "memory", "a7"); pc_; })

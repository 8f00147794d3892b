// Debug triggers (Sdtrig, RISC-V Debug Specification 1.0, chapter 5) as
// M-mode firmware programs them: tselect range, tdata1 read-back of mcontrol6
// (type 6), execute triggers on an instruction, load and store triggers on a
// word, the privilege-mode bits, mcontrol (type 2), and a trigger whose
// enables are cleared. Every trigger has action 0 (breakpoint exception,
// cause 3, taken in M-mode). Only triggers 0 and 1 are used (QEMU has two)
// and only cases where QEMU 7.2 and the specification agree: M-mode triggers
// (tcontrol), chains, NAPOT and range matches are covered by the unit tests
// (tests/harts/test_triggers.cpp). Results are printed without addresses.
#include "priv.h"

#define TYPE2 (2ull << 60)
#define TYPE6 (6ull << 60)
#define T_LOAD 1ull
#define T_STORE 2ull
#define T_EXEC 4ull
#define T_U 8ull
#define T_S 16ull
#define T_M 64ull

#define CSR_READ(n) ({ uint64_t v_; __asm__ volatile("csrr %0, " #n : "=r"(v_)::"memory"); v_; })
#define CSR_WRITE(n, v) __asm__ volatile("csrw " #n ", %0" ::"r"((uint64_t)(v)) : "memory")

static volatile uint32_t words[64] __attribute__((aligned(64)));
static volatile int g_kind;  // 0 load, 1 store, 2 execute (the nop at `exec_point`)
static volatile uint64_t g_addr, g_value;
static volatile uint64_t exec_point;

static void set_trigger(unsigned i, uint64_t tdata1, uint64_t tdata2) {
  CSR_WRITE(0x7a0, i);
  CSR_WRITE(0x7a1, TYPE6);  // no enables while tdata2 changes
  CSR_WRITE(0x7a2, tdata2);
  CSR_WRITE(0x7a1, tdata1);
}

static void access_fn(void) {
  if (g_kind == 0) {
    g_value = *(volatile uint32_t*)g_addr;
  } else if (g_kind == 1) {
    *(volatile uint32_t*)g_addr = 0x5a5a5a5au;
  } else {
    // A 4-byte nop at a known address (the M-mode handler steps over it).
    __asm__ volatile(".option push\n.option norvc\nla t0, 1f\nsd t0, 0(%0)\n1: addi x0, x0, 0\n.option pop"
                     ::"r"(&exec_point) : "t0", "memory");
  }
}

// Runs one access in `mode` and prints whether a breakpoint trap came from it.
static void check(const char* what, uint64_t mode, int kind, uint64_t addr) {
  static const char* const kinds[] = {"load", "store", "exec"};
  static const char* const modes[] = {"U", "S", "?", "M"};
  g_kind = kind;
  g_addr = addr;
  trap_count = 0;
  run_in_mode(mode, access_fn);
  const int trapped = trap_count != 0;
  printf("%s, %s %s: cause=%llx", what, modes[mode], kinds[kind], (unsigned long long)(trapped ? last.cause : 0));
  if (trapped && kind == 2) printf(" epc_ok=%d", last.epc == exec_point);
  if (trapped && kind != 2) printf(" tval_ok=%d", last.tval == addr);
  if (trapped) printf(" from=%llu", (unsigned long long)last.prev_mode);
  printf("\n");
  trap_count = 0;
}

static void selection(void) {
  CSR_WRITE(0x7a0, 1);
  printf("tselect=1 reads %llu\n", (unsigned long long)CSR_READ(0x7a0));
  CSR_WRITE(0x7a0, 0);
  printf("tselect=0 reads %llu\n", (unsigned long long)CSR_READ(0x7a0));
  const uint64_t t6 = TYPE6 | T_S | T_U | T_LOAD | T_STORE;
  set_trigger(1, t6, (uint64_t)&words[8]);
  printf("type 6 tdata1 read back: %d, tdata2: %d\n", CSR_READ(0x7a1) == t6, CSR_READ(0x7a2) == (uint64_t)&words[8]);
  set_trigger(1, TYPE6, 0);
}

static void execute(void) {
  // Find the nop's address: run the function once in M-mode.
  g_kind = 2;
  access_fn();
  set_trigger(0, TYPE6 | T_EXEC | T_S | T_U, exec_point);
  check("exec trigger S|U", MODE_S, 2, 0);
  check("exec trigger S|U", MODE_U, 2, 0);
  check("exec trigger S|U, load elsewhere", MODE_S, 0, (uint64_t)&words[0]);
  set_trigger(0, TYPE6 | T_EXEC | T_U, exec_point);
  check("exec trigger U only", MODE_S, 2, 0);
  check("exec trigger U only", MODE_U, 2, 0);
  set_trigger(0, TYPE2 | T_EXEC | T_S, exec_point);
  check("type 2 exec trigger S", MODE_S, 2, 0);
  check("type 2 exec trigger S", MODE_U, 2, 0);
  set_trigger(0, TYPE6 | T_S | T_U, exec_point);  // no enables
  check("exec trigger disabled", MODE_S, 2, 0);
}

static void data(void) {
  const uint64_t w = (uint64_t)&words[16];
  set_trigger(1, TYPE6 | T_LOAD | T_S | T_U, w);
  check("load trigger", MODE_S, 0, w);
  check("load trigger", MODE_U, 0, w);
  check("load trigger", MODE_S, 1, w);
  check("load trigger, word below", MODE_S, 0, w - 4);
  check("load trigger, far above", MODE_S, 0, w + 64);
  set_trigger(1, TYPE6 | T_STORE | T_S | T_U, w);
  check("store trigger", MODE_S, 1, w);
  check("store trigger", MODE_U, 1, w);
  check("store trigger", MODE_U, 0, w);
  set_trigger(1, TYPE6 | T_STORE | T_LOAD | T_S, w);
  check("load/store trigger S only", MODE_U, 1, w);
  check("load/store trigger S only", MODE_S, 1, w);
  check("load/store trigger S only", MODE_S, 0, w);
  set_trigger(1, TYPE2 | T_LOAD | T_U, w);
  check("type 2 load trigger U", MODE_U, 0, w);
  check("type 2 load trigger U", MODE_S, 0, w);
  set_trigger(1, TYPE6, 0);
  check("load trigger disabled", MODE_S, 0, w);
}

int main(void) {
  sig_begin("rv_priv_trig");
  priv_setup();
  selection();
  execute();
  data();
  set_trigger(0, TYPE6, 0);
  set_trigger(1, TYPE6, 0);
  sig_end();
  return 0;
}

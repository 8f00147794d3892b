// accel-vp's Linux self-test: the initramfs's /init (static, riscv64-linux-gnu).
// Mounts proc, sys and dev, checks what a kernel on the platform must do (harts,
// futexes, atomics, FP, fork/exec/COW, page faults, signals, timers, /proc),
// prints one "selftest: PASS|FAIL name: detail" line per check and powers off:
// reboot(RB_POWER_OFF) (SBI SRST, exit status 0) when every check passed, else
// a FAIL write of the failure count to the SiFive test device through /dev/mem
// (docs/linux.md). `selftest.fail=1` on the kernel command line makes the
// futex check expect one increment too many: the negative control.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fenv.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"

#define LOCK_ROUNDS 2000
#define FP_TERMS 4000

static int negative_control;  // selftest.fail=1

static int dt_harts(void) {
  DIR* d = opendir("/proc/device-tree/cpus");
  if (!d) return -1;
  struct dirent* e;
  int n = 0;
  while ((e = readdir(d))) n += strncmp(e->d_name, "cpu@", 4) == 0;
  closedir(d);
  return n;
}

// --- threads on every hart: futex lock, atomics, FP ---------------------------------

static _Atomic int lock_word;  // 0 free, 1 locked, 2 locked with waiters (Drepper's mutex)
static long futex_waits;       // under the lock
static long locked_counter;    // under the lock
static _Atomic long atomic_counter;
static long cas_counter;
static pthread_barrier_t start_line;

static void futex_lock(void) {
  int c = 0;
  if (__atomic_compare_exchange_n(&lock_word, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) return;
  if (c != 2) c = __atomic_exchange_n(&lock_word, 2, __ATOMIC_ACQUIRE);
  while (c != 0) {
    syscall(SYS_futex, &lock_word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
    __atomic_fetch_add(&futex_waits, 1, __ATOMIC_RELAXED);
    c = __atomic_exchange_n(&lock_word, 2, __ATOMIC_ACQUIRE);
  }
}

static void futex_unlock(void) {
  if (__atomic_fetch_sub(&lock_word, 1, __ATOMIC_RELEASE) != 1) {
    __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
    syscall(SYS_futex, &lock_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
  }
}

// sum 1/k^2 in the thread's rounding mode, the lock taken between terms so that
// threads switch (and their FP state is saved and restored) mid-sum.
static double fp_series(int take_lock) {
  double s = 0;
  for (int k = 1; k <= FP_TERMS; ++k) {
    s += 1.0 / ((double)k * k);
    if (take_lock && k % (FP_TERMS / LOCK_ROUNDS) == 0) {
      futex_lock();
      const long v = locked_counter;
      for (volatile int spin = 0; spin < 20; ++spin) {
      }
      locked_counter = v + 1;  // a lost update if two threads were inside
      futex_unlock();
      __atomic_fetch_add(&atomic_counter, 1, __ATOMIC_SEQ_CST);
      long old = __atomic_load_n(&cas_counter, __ATOMIC_RELAXED);
      while (!__atomic_compare_exchange_n(&cas_counter, &old, old + 1, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
      }
    }
  }
  return sqrt(s * 6.0);
}

struct worker {
  pthread_t thread;
  int cpu;
  int ran_on;     // getcpu() after pinning and after the work
  int ran_after;
  int pinned;     // sched_setaffinity succeeded
  int rounding;   // FE_* mode this thread runs in
  int rounding_kept;
  double result;
};

static void* worker_main(void* arg) {
  struct worker* w = arg;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(w->cpu, &set);
  w->pinned = sched_setaffinity(0, sizeof set, &set) == 0;
  w->ran_on = sched_getcpu();
  fesetround(w->rounding);
  pthread_barrier_wait(&start_line);
  w->result = fp_series(1);
  w->rounding_kept = fegetround() == w->rounding;
  w->ran_after = sched_getcpu();
  return NULL;
}

static void check_harts(int ncpu) {
  struct worker* ws = calloc((size_t)ncpu, sizeof *ws);
  double expect[2];
  const int modes[2] = {FE_TONEAREST, FE_UPWARD};
  for (int m = 0; m < 2; ++m) {
    fesetround(modes[m]);
    expect[m] = fp_series(0);
  }
  fesetround(FE_TONEAREST);
  pthread_barrier_init(&start_line, NULL, (unsigned)ncpu);
  for (int i = 0; i < ncpu; ++i) {
    ws[i].cpu = i;
    ws[i].rounding = modes[i % 2];
    pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]);
  }
  int on_own_hart = 0, fp_ok = 0;
  for (int i = 0; i < ncpu; ++i) {
    pthread_join(ws[i].thread, NULL);
    on_own_hart += ws[i].pinned && ws[i].ran_on == i && ws[i].ran_after == i;
    fp_ok += ws[i].rounding_kept && memcmp(&ws[i].result, &expect[i % 2], sizeof(double)) == 0;
  }
  pthread_barrier_destroy(&start_line);
  const long want = (long)ncpu * LOCK_ROUNDS + negative_control;
  check(on_own_hart == ncpu, "affinity", "%d of %d threads pinned ran on their own hart", on_own_hart, ncpu);
  check(locked_counter == want, "futex", "%ld increments under a futex lock, %ld expected, %ld FUTEX_WAITs%s", locked_counter,
        want, futex_waits, negative_control ? " (negative control: one too many expected)" : "");
  check(atomic_counter == (long)ncpu * LOCK_ROUNDS && cas_counter == (long)ncpu * LOCK_ROUNDS, "atomics",
        "amoadd %ld, lr/sc %ld of %ld", (long)atomic_counter, cas_counter, (long)ncpu * LOCK_ROUNDS);
  check(fp_ok == ncpu && fabs(expect[0] - M_PI) < 1e-3 && expect[1] > expect[0], "fp",
        "%d of %d threads bit-exact in their rounding mode (sqrt(6*sum 1/k^2) = %.9f nearest, %.9f upward)", fp_ok, ncpu,
        expect[0], expect[1]);
  free(ws);
}

// --- processes ------------------------------------------------------------------------

static void check_fork_exec(void) {
  const size_t len = 64 * 1024;
  unsigned char* buf = malloc(len);
  for (size_t i = 0; i < len; ++i) buf[i] = (unsigned char)(i * 7);
  pid_t pid = fork();
  if (pid == 0) {
    int same = 1;
    for (size_t i = 0; i < len; ++i) same &= buf[i] == (unsigned char)(i * 7);
    memset(buf, 0xA5, len);  // copy-on-write: the parent must not see this
    int mine = 1;
    for (size_t i = 0; i < len; ++i) mine &= buf[i] == 0xA5;
    _exit(same && mine ? 0 : 1);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  int kept = 1;
  for (size_t i = 0; i < len; ++i) kept &= buf[i] == (unsigned char)(i * 7);
  check(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && kept, "fork-cow",
        "child saw the parent's 64 KiB and wrote its own copy (status %d), parent's copy %s", st, kept ? "intact" : "CHANGED");
  free(buf);

  pid = fork();
  if (pid == 0) {
    char* argv[] = {"/init", "--exit-with", "42", NULL};
    execv("/init", argv);
    _exit(127);
  }
  st = 0;
  waitpid(pid, &st, 0);
  check(WIFEXITED(st) && WEXITSTATUS(st) == 42, "exec-wait", "exec'd /init --exit-with 42, wait status %d", WEXITSTATUS(st));
}

// --- memory mappings and page faults --------------------------------------------------

static sigjmp_buf fault_jump;
static volatile void* fault_addr;
static void on_segv(int sig, siginfo_t* si, void* ctx) {
  (void)sig;
  (void)ctx;
  fault_addr = si->si_addr;
  siglongjmp(fault_jump, 1);
}

// 1 when reading (write = 0) or writing p faults with si_addr == p.
static int faults(volatile unsigned char* p, int write) {
  fault_addr = NULL;
  if (sigsetjmp(fault_jump, 1) == 0) {
    if (write) *p = 1;
    else (void)*p;
    return 0;
  }
  return fault_addr == (void*)p;
}

static void check_mmap(void) {
  struct sigaction sa = {0};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
  const long page = sysconf(_SC_PAGESIZE);
  const int pages = 16;
  unsigned char* m = mmap(NULL, (size_t)(page * pages), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  int zero = 1;
  for (int i = 0; i < pages; ++i) {
    zero &= m[i * page] == 0;  // first touch: a fault maps a zero page
    memset(m + i * page, i + 1, (size_t)page);
  }
  int ok = m != MAP_FAILED && zero;
  mprotect(m + 3 * page, (size_t)page, PROT_NONE);
  mprotect(m + 5 * page, (size_t)page, PROT_READ);
  const int none_read = faults(m + 3 * page + 8, 0), ro_write = faults(m + 5 * page, 1), ro_read = !faults(m + 5 * page, 0);
  mprotect(m + 3 * page, (size_t)page, PROT_READ | PROT_WRITE);
  const int back = m[3 * page + 8] == 4 && m[5 * page] == 6;
  munmap(m + 7 * page, (size_t)page);
  const int unmapped = faults(m + 7 * page, 0);
  munmap(m, (size_t)(page * pages));
  signal(SIGSEGV, SIG_DFL);
  check(ok && none_read && ro_write && ro_read && back && unmapped, "mmap-faults",
        "16 pages zero-filled on first touch %d, PROT_NONE read SIGSEGV %d, PROT_READ write SIGSEGV %d and read ok %d, "
        "data back after mprotect %d, munmap'd page SIGSEGV %d",
        zero, none_read, ro_write, ro_read, back, unmapped);
}

// --- signals --------------------------------------------------------------------------

static volatile sig_atomic_t usr1_count, usr2_count, chld_count;
static void on_usr1(int s) { (void)s; ++usr1_count; }
static void on_usr2(int s) { (void)s; ++usr2_count; }
static void on_chld(int s) { (void)s; ++chld_count; }

static void check_signals(void) {
  signal(SIGUSR1, on_usr1);
  signal(SIGUSR2, on_usr2);
  signal(SIGCHLD, on_chld);
  kill(getpid(), SIGUSR1);
  sigset_t block, pending;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR2);
  sigprocmask(SIG_BLOCK, &block, NULL);
  raise(SIGUSR2);
  sigpending(&pending);
  const int was_pending = sigismember(&pending, SIGUSR2) && usr2_count == 0;
  sigprocmask(SIG_UNBLOCK, &block, NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    kill(parent, SIGUSR1);
    _exit(0);
  }
  int st;
  waitpid(pid, &st, 0);
  check(usr1_count == 2 && usr2_count == 1 && was_pending && chld_count >= 1, "signals",
        "SIGUSR1 from self and from a child %d, blocked SIGUSR2 pending then delivered %d/%d, SIGCHLD %d", usr1_count,
        was_pending, usr2_count, chld_count);
  signal(SIGCHLD, SIG_DFL);
}

// --- time -----------------------------------------------------------------------------

static double seconds(const struct timespec* t) { return (double)t->tv_sec + (double)t->tv_nsec * 1e-9; }

// The `time` CSR: the CLINT's mtime (OpenSBI lets S and U mode read it; the
// CLINT's registers themselves are M-mode only under OpenSBI's PMP).
static uint64_t rdtime(void) {
  uint64_t t;
  __asm__ volatile("rdtime %0" : "=r"(t));
  return t;
}

// CLOCK_MONOTONIC read between two reads of mtime: a host that deschedules a
// hart between the reads (QEMU on a loaded machine) only widens the bracket.
struct bracketed_time {
  uint64_t mtime_before, mtime_after;
  struct timespec monotonic;
};

static struct bracketed_time read_bracketed(void) {
  struct bracketed_time t;
  t.mtime_before = rdtime();
  clock_gettime(CLOCK_MONOTONIC, &t.monotonic);
  t.mtime_after = rdtime();
  return t;
}

static void check_time(void) {
  uint64_t freq = 0;
  dt_cells("/proc/device-tree/cpus/timebase-frequency", &freq, 1);
  struct timespec req = {0, 20 * 1000 * 1000};
  const struct bracketed_time b0 = read_bracketed();
  const int slept = nanosleep(&req, NULL) == 0;
  const struct bracketed_time b1 = read_bracketed();
  const double elapsed = seconds(&b1.monotonic) - seconds(&b0.monotonic);
  check(slept && elapsed >= 0.020 && elapsed < 1.0, "nanosleep", "20 ms asked, %.6f s by CLOCK_MONOTONIC", elapsed);
  // The clock must advance at mtime's rate (1 %, plus a tick of either clock).
  const double shortest = freq ? (double)(b1.mtime_before - b0.mtime_after) / (double)freq : 0;
  const double longest = freq ? (double)(b1.mtime_after - b0.mtime_before) / (double)freq : 0;
  check(freq && elapsed >= shortest * 0.99 - 1e-6 && elapsed <= longest * 1.01 + 1e-6, "clock-vs-mtime",
        "CLOCK_MONOTONIC %.6f s within mtime's %.6f..%.6f s (%llu..%llu ticks at the device tree's %llu Hz)", elapsed,
        shortest, longest, (unsigned long long)(b1.mtime_before - b0.mtime_after),
        (unsigned long long)(b1.mtime_after - b0.mtime_before), (unsigned long long)freq);
  struct timespec r0, r1;
  clock_gettime(CLOCK_REALTIME, &r0);
  clock_gettime(CLOCK_REALTIME, &r1);
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  check(seconds(&r1) >= seconds(&r0) && seconds(&now) >= seconds(&b1.monotonic), "clocks-monotonic", "CLOCK_REALTIME and CLOCK_MONOTONIC never go back");
}

// --- /proc ----------------------------------------------------------------------------

static void check_cpuinfo(int ncpu) {
  static char info[32768], dt_isa[256], mmu[64];
  read_text("/proc/cpuinfo", info, sizeof info);
  read_text("/proc/device-tree/cpus/cpu@0/riscv,isa", dt_isa, sizeof dt_isa);
  read_text("/proc/device-tree/cpus/cpu@0/mmu-type", mmu, sizeof mmu);
  const size_t base_len = strcspn(dt_isa, "_");
  int processors = 0, harts_seen = 0, isa_ok = 0, mmu_ok = 0, mmu_mode = 0;
  for (char* line = strtok(info, "\n"); line; line = strtok(NULL, "\n")) {
    int n;
    if (sscanf(line, "processor : %d", &n) == 1) ++processors;
    if (sscanf(line, "hart : %d", &n) == 1 && n >= 0 && n < 32) harts_seen |= 1 << n;
    if (strncmp(line, "isa\t\t: ", 7) == 0) {
      const char* isa = line + 7;
      int ok = strncmp(isa, dt_isa, base_len) == 0 && (isa[base_len] == 0 || isa[base_len] == '_');
      // every multi-letter extension Linux reports is in the device tree's string
      for (const char* x = strchr(isa, '_'); ok && x; x = strchr(x + 1, '_')) {
        char ext[40];
        snprintf(ext, sizeof ext, "%.*s", (int)strcspn(x, "_\n") + 1, x);
        ok = strstr(dt_isa, ext) != NULL;
      }
      isa_ok += ok;
    }
    // Linux 6.1 probes satp (Sv57, Sv48, Sv39) rather than reading mmu-type: every hart the same mode
    if (strncmp(line, "mmu\t\t: sv", 9) == 0) {
      const int sv = atoi(line + 9);
      if (!mmu_mode) mmu_mode = sv;
      mmu_ok += (sv == 39 || sv == 48 || sv == 57) && sv == mmu_mode;
    }
  }
  check(processors == ncpu && harts_seen == (1 << ncpu) - 1 && isa_ok == ncpu && mmu_ok == ncpu, "cpuinfo",
        "%d processors, harts mask 0x%x, %d isa lines agree with the device tree's %s, %d say sv%d (device tree: %s)",
        processors, harts_seen, isa_ok, dt_isa, mmu_ok, mmu_mode, mmu);
}

static long irq_total(const char* line, int ncpu) {
  long total = 0;
  const char* p = strchr(line, ':');
  if (!p) return -1;
  ++p;
  for (int i = 0; i < ncpu; ++i) total += strtol(p, (char**)&p, 10);
  return total;
}

static void check_interrupts(int ncpu) {
  static char text[32768];
  read_text("/proc/interrupts", text, sizeof text);
  long uart = -1, timer = -1, ipi = 0;
  for (char* line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (strstr(line, "ttyS0")) uart = irq_total(line, ncpu);
    if (strstr(line, "riscv-timer")) timer = irq_total(line, ncpu);
    if (strstr(line, "IPI") || strstr(line, "Rescheduling")) ipi += irq_total(line, ncpu);
  }
  check(uart >= 1 && timer >= 1, "interrupts", "ttyS0 (UART on the PLIC) %ld, riscv-timer %ld, IPIs %ld", uart, timer, ipi);
}

// --- power off ------------------------------------------------------------------------

int main(int argc, char** argv) {
  if (argc == 3 && strcmp(argv[1], "--exit-with") == 0) return atoi(argv[2]);
  checks_begin("selftest");
  const int mounted = mount_filesystems();
  char cmdline[1024] = "";
  read_text("/proc/cmdline", cmdline, sizeof cmdline);
  negative_control = strstr(cmdline, "selftest.fail=1") != NULL;
  const int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), dt = dt_harts();
  printf("accel-vp Linux self-test: %d harts online\n", ncpu);
  fflush(stdout);
  check(mounted, "mounts", "proc on /proc, sysfs on /sys, devtmpfs on /dev");
  check(ncpu == dt && ncpu > 0 && ncpu <= 32, "harts-online", "%d online, %d in the device tree", ncpu, dt);
  if (ncpu > 0 && ncpu <= 32) {
    check_harts(ncpu);
    check_cpuinfo(ncpu);
    check_interrupts(ncpu);
  }
  check_fork_exec();
  check_mmap();
  check_signals();
  check_time();
  finish_and_power_off();
  return 0;
}

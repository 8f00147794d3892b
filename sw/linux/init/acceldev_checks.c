// The host system's Acceldev driver checks (acceldev_checks.h): the module
// /lib/modules/acceldev.ko, then each program of /acceldev-tests in its own
// process, its output on the console, its exit status checked; then the
// module is unloaded.
#define _GNU_SOURCE
#include "acceldev_checks.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checks.h"

#define MODULE_PATH "/lib/modules/acceldev.ko"
#define TESTS_DIR "/acceldev-tests"
#define DEVICE_NODE "/dev/acceldev0"
// Simulated seconds a program may take before it is killed (SIGALRM).
#define PROGRAM_LIMIT_S 600

struct program {
  const char* name;
  int expected_status;  // exit status, or 128 + signal
  const char* why;      // what a nonzero expected status stands for
};

static const struct program programs[] = {
    {"devfile_ops", 0, NULL},
    {"devfile_mmap", 0, NULL},
    {"devfile_threads", 0, NULL},
    {"devfile_clients", 0, NULL},
    {"devfile_close_buffer", 0, NULL},
    // The emulation refuses a forked child its parent's contexts (EIO); with
    // the kernel driver the child's WAIT succeeds, it exits 10 and the
    // program 1 (docs/linux-driver.md).
    {"devfile_dup_fork", 1, "a forked child shares its parent's context"},
    {"devfile_hostile", 0, NULL},
    {"acceldev_driver", 0, NULL},
};

static void load_module(void) {
  const int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);
  const long rc = fd < 0 ? -1 : syscall(SYS_finit_module, fd, "", 0);
  check(rc == 0, "module-load", "finit_module(%s): %s", MODULE_PATH, rc == 0 ? "loaded" : strerror(errno));
  if (fd >= 0) close(fd);
}

static void check_bound(const char* pci_dev) {
  char path[512], target[512] = "";
  snprintf(path, sizeof path, "/sys/bus/pci/devices/%s/driver", pci_dev);
  const ssize_t n = readlink(path, target, sizeof target - 1);
  if (n > 0) target[n] = 0;
  const char* base = strrchr(target, '/');
  check(base && strcmp(base, "/acceldev") == 0, "module-bind", "%s -> %s", path, n > 0 ? target : "(no driver)");
}

// The device node devtmpfs made, with the numbers the misc class gives.
static void check_node(void) {
  char text[32] = "";
  unsigned major_nr = 0, minor_nr = 0;
  const int known = read_text("/sys/class/misc/acceldev0/dev", text, sizeof text) > 0 &&
                    sscanf(text, "%u:%u", &major_nr, &minor_nr) == 2;
  struct stat st;
  const int ok = known && stat(DEVICE_NODE, &st) == 0 && S_ISCHR(st.st_mode) && major(st.st_rdev) == major_nr &&
                 minor(st.st_rdev) == minor_nr;
  check(ok, "devnode", "%s, character device %u:%u", DEVICE_NODE, major_nr, minor_nr);
}

// Every file of the driver is closed: the module unloads, its driver and node go.
static void unload_module(void) {
  const long rc = syscall(SYS_delete_module, "acceldev", O_NONBLOCK);
  const int err = rc == 0 ? 0 : errno;
  struct stat st;
  const int gone = stat("/sys/bus/pci/drivers/acceldev", &st) != 0 && stat(DEVICE_NODE, &st) != 0;
  check(rc == 0 && gone, "module-unload", "delete_module: %s; driver and %s %s", rc == 0 ? "done" : strerror(err),
        DEVICE_NODE, gone ? "gone" : "still there");
}

static int run_program(const char* name) {
  char path[256];
  snprintf(path, sizeof path, TESTS_DIR "/%s", name);
  fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    char* const argv[] = {path, NULL};
    alarm(PROGRAM_LIMIT_S);  // kept across execve
    execv(path, argv);
    _exit(127);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void acceldev_checks(const char* pci_dev, const char* only) {
  load_module();
  check_bound(pci_dev);
  check_node();
  for (size_t i = 0; i < sizeof programs / sizeof programs[0]; ++i) {
    const struct program* p = &programs[i];
    if (only && strcmp(only, p->name) != 0) continue;
    const int status = run_program(p->name);
    if (p->expected_status == 0)
      check(status == 0, p->name, "exit status %d", status);
    else
      check(status == p->expected_status, p->name, "exit status %d (expected %d: %s)", status, p->expected_status,
            p->why);
  }
  unload_module();
}

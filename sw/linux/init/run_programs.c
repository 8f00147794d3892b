#define _GNU_SOURCE
#include "run_programs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "checks.h"

#define MAX_ARGS 16

// One `fullsystem.run=` value: PATH[,ARG...], run to its end.
static void run_one(char* spec) {
  char* argv[MAX_ARGS + 1] = {0};
  int argc = 0;
  for (char* save = NULL, *a = strtok_r(spec, ",", &save); a && argc < MAX_ARGS; a = strtok_r(NULL, ",", &save))
    argv[argc++] = a;
  const char* name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
  fflush(stdout);
  const pid_t pid = fork();
  if (pid == 0) {
    execv(argv[0], argv);
    printf("fullsystem: cannot run %s: %s\n", argv[0], strerror(errno));
    fflush(stdout);
    _exit(127);
  }
  int status = 0;
  const int waited = pid > 0 && waitpid(pid, &status, 0) == pid;
  if (!waited) check(0, name, "%s: %s", pid < 0 ? "fork failed" : "waitpid failed", strerror(errno));
  else if (WIFEXITED(status)) check(WEXITSTATUS(status) == 0, name, "%s exited with status %d", argv[0], WEXITSTATUS(status));
  else check(0, name, "%s ended by signal %d", argv[0], WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

void run_programs(const char* cmdline) {
  static const char key[] = "fullsystem.run=";
  for (const char* at = strstr(cmdline, key); at; at = strstr(at, key)) {
    at += sizeof key - 1;
    char spec[256];
    const size_t len = strcspn(at, " \n");
    if (len == 0 || len >= sizeof spec) {
      check(0, "run", "fullsystem.run=%.*s: empty or longer than %zu characters", (int)len, at, sizeof spec - 1);
      continue;
    }
    memcpy(spec, at, len);
    spec[len] = 0;
    run_one(spec);
  }
}

#include "platform/run_signals.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <ctime>

#include "base/raw_terminal.h"

namespace avp {
namespace {

std::atomic<int> g_stop{0};
std::atomic<int64_t> g_stop_ns{0};  // when the first stop signal came (CLOCK_MONOTONIC)
std::atomic<bool> g_console{false};
std::atomic<int> g_snapshots{0};

// A repeat of the first signal this soon is the same request delivered twice,
// not a user insisting: `timeout` sends its signal to the child and then to
// the child's process group, so the child may take both.
constexpr int64_t kDuplicateNs = 50'000'000;

int64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);  // async-signal-safe
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

void on_stop(int sig) {
  int none = 0;
  const int64_t now = monotonic_ns();
  if (g_stop.compare_exchange_strong(none, sig)) {
    g_stop_ns.store(now);
  } else if (none != sig || now - g_stop_ns.load() >= kDuplicateNs) {
    // The run did not reach its next quantum (blocked, or the user insists): leave now.
    restore_terminal();  // async-signal-safe: the terminal leaves raw mode on this path too
    static const char msg[] = "\naccel-vp: interrupted again, exiting at once\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    _exit(128 + sig);
  }
}

void on_snapshot(int) { g_snapshots.fetch_add(1); }

}  // namespace

void install_run_signals() {
  struct sigaction sa {};
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sa.sa_handler = on_snapshot;
  sigaction(SIGUSR1, &sa, nullptr);
}

int stop_signal() { return g_stop.load(); }

void request_console_stop() {
  int none = 0;
  if (g_stop.compare_exchange_strong(none, SIGINT)) g_console.store(true);
}

const char* stop_cause() {
  const int sig = g_stop.load();
  return !sig ? "" : g_console.load() ? "Ctrl-A x" : signal_name(sig);
}

bool take_snapshot_request() {
  int n = g_snapshots.load();
  while (n > 0)
    if (g_snapshots.compare_exchange_weak(n, 0)) return true;
  return false;
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGUSR1: return "SIGUSR1";
    default: return "signal";
  }
}

}  // namespace avp

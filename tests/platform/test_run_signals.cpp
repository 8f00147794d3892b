// Signals on a running simulation: SIGINT/SIGTERM stop it at the next quantum
// with every output written and exit status 128 + signal; SIGUSR1 writes the
// statistics so far and the run goes on.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "accel_vp_cli.h"

namespace {

using avp::test::read_json;
using avp::test::read_text;

// The simulator running the never-ending program, output in `dir`/log.txt.
struct Running {
  pid_t pid = -1;
  std::string dir;
  explicit Running(const std::string& d, const std::string& extra = "") : dir(d) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string cmd = std::string("exec ") + ACCEL_VP + " --no-progress -o " + dir + " " + extra + " run --elf " +
                            SPIN_ELF + " > " + dir + "/log.txt 2>&1";
    pid = fork();
    if (pid == 0) {
      execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
      _exit(127);
    }
  }
  // Waits until the run loop catches `sig` (its handler shows in /proc), i.e. the simulation runs.
  // The pid is the shell until it execs accel-vp, and the shell may catch the signal too.
  bool wait_until_catching(int sig) const {
    for (int i = 0; i < 2000; ++i) {
      std::string comm;
      std::getline(std::ifstream("/proc/" + std::to_string(pid) + "/comm"), comm);
      if (comm != "accel-vp") {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      std::ifstream st("/proc/" + std::to_string(pid) + "/status");
      std::string line;
      while (std::getline(st, line))
        if (line.rfind("SigCgt:", 0) == 0 && (std::stoull(line.substr(7), nullptr, 16) >> (sig - 1) & 1)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  int wait_exit() {
    int st = 0;
    waitpid(pid, &st, 0);
    pid = -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
  }
  ~Running() {
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

void wait_for_file(const std::string& path) {
  for (int i = 0; i < 2000 && !std::filesystem::exists(path); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

TEST(RunSignals, SigintStopsAtTheNextQuantumWithEveryOutputWritten) {
  Running r("sig_int", "--timeline sig_int/timeline.json");
  ASSERT_TRUE(r.wait_until_catching(SIGINT));
  kill(r.pid, SIGINT);
  EXPECT_EQ(r.wait_exit(), 130);
  const std::string log = read_text(r.dir + "/log.txt");
  EXPECT_NE(log.find("interrupted by SIGINT"), std::string::npos) << log;
  EXPECT_NE(log.find("accel-vp summary"), std::string::npos) << log;
  const auto m = read_json(r.dir + "/manifest.json");
  EXPECT_EQ(m["interrupted_by"], "SIGINT");
  EXPECT_EQ(m["finished"], false);
  EXPECT_EQ(m["exit_code"], 130);
  EXPECT_GT(m["simulated_time_ns"].get<double>(), 0);
  // Stopped on a quantum boundary.
  const double q = m["quantum_ns"].get<double>();
  const double t = m["simulated_time_ns"].get<double>();
  EXPECT_DOUBLE_EQ(t / q, static_cast<double>(static_cast<uint64_t>(t / q))) << t;
  EXPECT_EQ(read_json(r.dir + "/report.json")["run"]["exit_code"], 130);
  EXPECT_TRUE(std::filesystem::exists(r.dir + "/report.html"));
  EXPECT_TRUE(read_json(r.dir + "/timeline.json").contains("traceEvents"));
}

TEST(RunSignals, SigtermStopsWithStatus143) {
  Running r("sig_term");
  ASSERT_TRUE(r.wait_until_catching(SIGTERM));
  kill(r.pid, SIGTERM);
  EXPECT_EQ(r.wait_exit(), 143);
  EXPECT_EQ(read_json(r.dir + "/manifest.json")["interrupted_by"], "SIGTERM");
}

TEST(RunSignals, Sigusr1WritesTheStatisticsSoFarAndTheRunGoesOn) {
  Running r("sig_usr1");
  ASSERT_TRUE(r.wait_until_catching(SIGUSR1));
  kill(r.pid, SIGUSR1);
  wait_for_file(r.dir + "/report.json");
  ASSERT_TRUE(std::filesystem::exists(r.dir + "/report.json"));
  // Still running: it answers a stop afterwards, and its final time is past the snapshot's.
  EXPECT_EQ(waitpid(r.pid, nullptr, WNOHANG), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const double snap = read_json(r.dir + "/manifest.json")["simulated_time_ns"].get<double>();
  EXPECT_TRUE(read_json(r.dir + "/manifest.json")["snapshot"].get<bool>());
  kill(r.pid, SIGINT);
  EXPECT_EQ(r.wait_exit(), 130);
  const auto m = read_json(r.dir + "/manifest.json");
  EXPECT_FALSE(m.contains("snapshot"));
  EXPECT_GT(m["simulated_time_ns"].get<double>(), snap);
  EXPECT_NE(read_text(r.dir + "/log.txt").find("the run goes on"), std::string::npos);
}

TEST(RunSignals, ASecondSigintExitsAtOnceEvenWhenTheRunCannotReachAQuantum) {
  // Waiting for GDB, the simulation never reaches its next quantum.
  Running r("sig_twice", "--gdb 0");
  ASSERT_TRUE(r.wait_until_catching(SIGINT));
  kill(r.pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(r.pid, SIGINT);
  EXPECT_EQ(r.wait_exit(), 130);
  EXPECT_NE(read_text(r.dir + "/log.txt").find("exiting at once"), std::string::npos);
}

}  // namespace

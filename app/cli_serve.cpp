// `accel-vp serve [--socket PATH]` and `accel-vp exec [--socket PATH] -- PROG
// [ARGS...]`: the platform as a device for host programs in their own
// processes, through the host bridge (docs/host-bridge.md).
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "accelvp_bridge_proto.h"
#include "cli.h"
#include "host_bridge.h"
#include "platform/platform.h"

namespace avp {
namespace {

const char* const kPreloadLibrary = "libaccelvp-acceldev.so";

std::string default_socket(const CliContext& ctx) {
  const char* run = std::getenv("XDG_RUNTIME_DIR");
  const std::string name = "accel-vp-" + std::to_string(getpid()) + ".sock";
  if (run && *run && std::filesystem::is_directory(run)) return std::string(run) + "/" + name;
  std::error_code ec;
  std::filesystem::create_directories(ctx.session.out_dir, ec);
  return std::filesystem::absolute(ctx.session.out_dir).string() + "/" + name;
}

// The device-file library next to the executable: <bin>/lib in the build
// tree, <bin>/../lib once installed. Empty when neither exists.
std::string find_preload_library() {
  char exe[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return {};
  exe[n] = 0;
  const std::filesystem::path dir = std::filesystem::path(exe).parent_path();
  for (const auto& p : {dir / "lib" / kPreloadLibrary, dir.parent_path() / "lib" / kPreloadLibrary})
    if (std::filesystem::exists(p)) return p.string();
  return {};
}

// Forks PROG with the bridge's socket (and the device-file library) in its
// environment. The child's output goes where ours goes.
pid_t spawn_program(const std::vector<std::string>& argv, const std::string& socket, bool preload) {
  std::string ld = preload ? find_preload_library() : std::string();
  if (preload && ld.empty())
    std::cerr << "accel-vp: " << kPreloadLibrary << " not found next to the executable: no /dev/acceldev0 for the program\n";
  if (const char* old = std::getenv("LD_PRELOAD"); !ld.empty() && old && *old) ld += std::string(":") + old;
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  setenv(AVPB_SOCKET_ENV, socket.c_str(), 1);
  if (!ld.empty()) setenv("LD_PRELOAD", ld.c_str(), 1);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  std::fprintf(stderr, "accel-vp: cannot run %s: %s\n", args[0], std::strerror(errno));
  _exit(127);
}

std::unique_ptr<HostBridge> open_bridge(Platform& p, const std::string& path, CliContext& ctx) {
  try {
    return std::make_unique<HostBridge>(p, path);
  } catch (const std::runtime_error& e) {
    std::cerr << "accel-vp: cannot serve on " << path << ": " << e.what() << "\n";
    ctx.exit_code = 2;
    return nullptr;
  }
}

}  // namespace

void add_serve_commands(CLI::App& app, CliContext& ctx) {
  auto socket = std::make_shared<std::string>();
  auto* serve = app.add_subcommand("serve", "wait for host programs on a Unix-domain socket (docs/host-bridge.md)");
  serve->add_option("--socket", *socket, "socket path (default: $XDG_RUNTIME_DIR or the output directory)");
  serve->callback([&ctx, socket] {
    auto platform = make_platform(ctx);
    const std::string path = socket->empty() ? default_socket(ctx) : *socket;
    auto bridge_or = open_bridge(*platform, path, ctx);
    if (!bridge_or) return;
    HostBridge& bridge = *bridge_or;
    std::printf("accel-vp: serving on %s\n", path.c_str());
    std::fflush(stdout);
    RunResult r = run_session(*platform, ctx.session, "serve", [&](Platform&) { return bridge.serve(-1); });
    ctx.exit_code = r.exit_code;
  });

  auto prog = std::make_shared<std::vector<std::string>>();
  auto no_preload = std::make_shared<bool>(false);
  auto* exec = app.add_subcommand("exec", "run a host program against the platform: accel-vp exec [options] -- PROG [ARGS...]");
  exec->add_option("--socket", *socket, "socket path (default: $XDG_RUNTIME_DIR or the output directory)");
  exec->add_flag("--no-preload", *no_preload, "do not give the program /dev/acceldev0 (no LD_PRELOAD)");
  exec->add_option("prog", *prog, "the program and its arguments, after --")->required()->expected(1, -1);
  exec->callback([&ctx, socket, prog, no_preload] {
    auto platform = make_platform(ctx);
    const std::string path = socket->empty() ? default_socket(ctx) : *socket;
    auto bridge_or = open_bridge(*platform, path, ctx);
    if (!bridge_or) return;
    HostBridge& bridge = *bridge_or;
    ctx.session.quiet = true;  // the program's output is the output
    pid_t child = -1;
    RunResult r = run_session(*platform, ctx.session, "exec:" + prog->front(), [&](Platform&) {
      child = spawn_program(*prog, path, !*no_preload);
      return child < 0 ? 127 : bridge.serve(child);
    });
    if (child > 0 && !r.finished) {  // the platform stopped first (time limit): the program goes too
      kill(child, SIGKILL);
      waitpid(child, nullptr, 0);
    }
    ctx.exit_code = r.exit_code;
  });
}

}  // namespace avp

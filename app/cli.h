// Shared pieces of the `accel-vp` command line: global options and platform
// construction. Each subcommand lives in its own cli_*.cpp file.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "platform/session.h"

namespace avp {

class Platform;

struct CliContext {
  SessionOptions session;
  std::vector<std::string> log_specs;  // "module=level"
  int verbosity = 0;
  int exit_code = 0;
  std::string dump_config;  // non-empty: write the resolved configuration there after elaboration
  int gdb_port = -1;  // >= 0: serve GDB on this port (0: any free port) and wait for it
  bool gdb_wait_first = false;  // -S: wait at the first instruction (not before the run)
  bool gdb_no_wait = false;     // --gdb-no-wait: run at once, a debugger may attach at any time
};

// Refuses an empty value (an empty file or directory name is always a mistake).
extern const CLI::Validator kNonEmpty;

// Applies logging options and presets, then elaborates the platform. Throws
// ParamError for bad configuration (unknown names, wrong types, overlaps).
std::unique_ptr<Platform> make_platform(CliContext& ctx);
// The same into `p`, with what `extend` builds beside the platform (the host
// system of `boot --system host`), so that presets and --set reach its
// parameters too; the caller keeps what it builds alive no longer than `p`.
void make_platform(CliContext& ctx, std::unique_ptr<Platform>& p, const std::function<void(Platform&)>& extend);

void add_run_command(CLI::App& app, CliContext& ctx);
void add_info_command(CLI::App& app, CliContext& ctx);
void add_cmdbuf_command(CLI::App& app, CliContext& ctx);
void add_sweep_command(CLI::App& app, CliContext& ctx);
void add_boot_command(CLI::App& app, CliContext& ctx);  // boot and dtb
void add_serve_commands(CLI::App& app, CliContext& ctx);  // serve, exec

}  // namespace avp

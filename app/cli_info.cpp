// `accel-vp info`: the resolved platform (address map, units, workloads,
// parameters, versions) without running anything.
#include <iostream>

#include "cli.h"
#include "platform/info.h"
#include "platform/platform.h"

namespace avp {

void add_info_command(CLI::App& app, CliContext& ctx) {
  auto* cmd = app.add_subcommand("info", "print the resolved platform: address map, units, parameters, versions");
  static bool registers = false;
  cmd->add_flag("--registers", registers, "print the register map of every register block instead");
  cmd->callback([&ctx] {
    auto platform = make_platform(ctx);
    if (registers) print_registers(*platform, std::cout);
    else print_info(*platform, std::cout);
  });
}

}  // namespace avp

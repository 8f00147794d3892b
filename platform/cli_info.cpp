// `accel-vp info`: the resolved platform (address map, units, workloads,
// parameters, versions) without running anything.
#include <iostream>

#include "cli.h"
#include "info.h"
#include "platform.h"

namespace avp {

void add_info_command(CLI::App& app, CliContext& ctx) {
  auto* cmd = app.add_subcommand("info", "print the resolved platform: address map, units, parameters, versions");
  cmd->callback([&ctx] {
    auto platform = make_platform(ctx);
    print_info(*platform, std::cout);
  });
}

}  // namespace avp

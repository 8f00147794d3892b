// The GDB server as the command line sets it up (--gdb PORT, -g, -S) with
// the platform's monitor commands (`monitor windows`, `monitor stats`).
#pragma once
#include <memory>

#include "cli.h"
#include "debug/gdb_server.h"

namespace avp {

// Null without --gdb/-g. `threads`: the harts GDB lists (0: all) of
// `cluster` (null: the accelerator's; `boot --system host` serves the host's).
// Its attach() waits for the debugger as the options ask: before anything
// runs, or (-S) when the first hart is about to execute its first instruction.
std::unique_ptr<GdbServer> make_gdb_server(const CliContext& ctx, Platform& p, unsigned threads = 0,
                                           HartCluster* cluster = nullptr);

}  // namespace avp

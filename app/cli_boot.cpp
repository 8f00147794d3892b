// `accel-vp boot` (the firmware boot flow, platform/boot.h) and `accel-vp dtb`
// (writes the generated device tree).
#include <fstream>
#include <memory>
#include <iostream>

#include "platform/boot.h"
#include "cli.h"
#include "cli_gdb.h"
#include "platform/boot_machine.h"
#include "platform/device_tree.h"
#include "platform/host_system.h"
#include "platform/platform.h"

namespace avp {

namespace {

// The host system of `--system host` with `harts` harts, built beside the
// accelerator while the platform is elaborated (its parameters take presets
// and --set); nothing for `--system accelerator`.
std::function<void(Platform&)> host_system_of(const std::string& system, unsigned harts,
                                              std::unique_ptr<HostSystem>& host) {
  if (system != "host") return {};
  return [harts, &host](Platform& p) { host = std::make_unique<HostSystem>("host_system", p, harts); };
}

// --harts of the host system: checked before anything is built.
bool host_harts_ok(const std::string& system, unsigned harts, const char* command, CliContext& ctx) {
  if (system != "host" || (harts >= 1 && harts <= Platform::kMaxHarts)) return true;
  std::cerr << "accel-vp: " << command << ": --harts " << harts << ": the host system has 1 to "
            << Platform::kMaxHarts << " harts\n";
  ctx.exit_code = 2;
  return false;
}

BootMachine machine_of(Platform& p, HostSystem* host) { return host ? host->machine() : accelerator_machine(p); }

const std::vector<std::string> kSystems = {"accelerator", "host"};

}  // namespace

void add_boot_command(CLI::App& app, CliContext& ctx) {
  auto o = std::make_shared<BootOptions>();
  auto* cmd = app.add_subcommand("boot", "boot firmware (OpenSBI, U-Boot, ...) on the harts with the system devices and a device tree");
  cmd->add_option("--firmware", o->firmware, "firmware: ELF, or a raw binary at --firmware-addr")->required();
  cmd->add_option("--firmware-addr", o->firmware_addr, "load address of a raw firmware binary (default 0x80000000)");
  cmd->add_option("--kernel", o->kernel, "next stage (U-Boot, a kernel): ELF or raw image");
  cmd->add_option("--kernel-addr", o->kernel_addr, "load address of a raw --kernel image (default 0x80200000, OpenSBI fw_jump's)");
  cmd->add_option("--initrd", o->initrd, "initramfs (Linux): placed at the first 2 MiB boundary after the kernel, in /chosen");
  auto system = std::make_shared<std::string>("accelerator");
  cmd->add_option("--system", *system,
                  "what boots: accelerator (its own management harts, default) or host (a host computer with the "
                  "accelerator behind its PCIe host bridge, docs/full-system.md)")
      ->check(CLI::IsMember(kSystems));
  cmd->add_option("--harts", o->harts, "harts that boot (default 1); with --system host, the host's harts");
  cmd->add_option("--dtb", o->dtb, "device-tree blob to pass instead of the generated one");
  cmd->add_option("--dtb-addr", o->dtb_addr, "where the device tree is placed (default: 2 MiB below the end of DRAM)");
  cmd->add_option("--bootargs", o->bootargs, "chosen/bootargs of the generated device tree");
  cmd->add_option("--uart", o->uart, "UART connection: stdio (default), tcp:PORT or pty");
  auto gdb_device = std::make_shared<int>(-1);
  cmd->add_option("--gdb-device", *gdb_device,
                  "with --system host: a second GDB server, for the accelerator's harts, which a debugger may attach "
                  "at any time (0: any free port)");
  cmd->callback([&ctx, o, system, gdb_device] {
    if (!host_harts_ok(*system, o->harts, "boot", ctx)) return;
    if (*gdb_device >= 0 && *system != "host") {
      std::cerr << "accel-vp: boot: --gdb-device needs --system host (--gdb serves the accelerator's harts)\n";
      ctx.exit_code = 2;
      return;
    }
    std::unique_ptr<Platform> platform;
    std::unique_ptr<HostSystem> host;  // goes before the platform it is built beside
    make_platform(ctx, platform, host_system_of(*system, o->harts, host));
    auto machine = std::make_unique<BootMachine>(machine_of(*platform, host.get()));
    // GDB serves the booted harts (the host's with --system host); --gdb-device the accelerator's beside them.
    std::unique_ptr<GdbServer> gdb = make_gdb_server(ctx, *platform, o->harts, &machine->harts);
    std::unique_ptr<GdbServer> device_gdb;
    if (*gdb_device >= 0) {
      device_gdb = std::make_unique<GdbServer>(platform->harts, static_cast<unsigned>(*gdb_device));
      device_gdb->attach_while_running();
    }
    if (gdb || device_gdb)
      ctx.session.between_chunks = [g = gdb.get(), d = device_gdb.get()] {
        if (g) g->poll_attach();
        if (d) d->poll_attach();
      };
    ctx.session.quiet = false;
    ctx.session.uart_on_stdio = o->uart == "stdio";
    RunResult r = run_session(*platform, ctx.session, "boot:" + o->firmware, [o, &machine, &gdb, &device_gdb](Platform&) {
      const int code = run_boot(*machine, *o, gdb.get());
      if (gdb) gdb->finish(code);
      if (device_gdb) device_gdb->finish(code);
      return code;
    });
    ctx.exit_code = r.exit_code;
  });

  auto out = std::make_shared<std::string>();
  auto harts = std::make_shared<unsigned>(1);
  auto bootargs = std::make_shared<std::string>();
  auto dtb_system = std::make_shared<std::string>("accelerator");
  auto* dtb = app.add_subcommand("dtb", "write the generated device tree (the one `boot` passes) to a file");
  dtb->add_option("-o,--output", *out, "output file (.dtb)")->required();
  dtb->add_option("--harts", *harts, "harts listed (default 1)");
  dtb->add_option("--bootargs", *bootargs, "chosen/bootargs");
  dtb->add_option("--system", *dtb_system, "whose tree: accelerator (default) or host")->check(CLI::IsMember(kSystems));
  dtb->callback([&ctx, out, harts, bootargs, dtb_system] {
    if (!host_harts_ok(*dtb_system, *harts, "dtb", ctx)) return;
    std::unique_ptr<Platform> platform;
    std::unique_ptr<HostSystem> host;  // goes before the platform it is built beside
    make_platform(ctx, platform, host_system_of(*dtb_system, *harts, host));
    try {
      const BootMachine machine = machine_of(*platform, host.get());
      DeviceTreeOptions t;
      t.harts = *harts;
      t.bootargs = *bootargs;
      const auto blob = build_device_tree(machine, t);
      std::ofstream f(*out, std::ios::binary);
      if (!f.write(reinterpret_cast<const char*>(blob.data()), static_cast<std::streamsize>(blob.size())))
        throw std::runtime_error(*out + ": cannot write");
      std::cout << "device tree: " << blob.size() << " bytes, " << *harts << " hart(s), written to " << *out << "\n";
    } catch (const std::exception& e) {
      std::cerr << "accel-vp: dtb: " << e.what() << "\n";
      ctx.exit_code = 2;
    }
  });
}

}  // namespace avp

#include "cli_gdb.h"

#include <cstdio>

#include "base/stats.h"
#include "platform/platform.h"

namespace avp {

namespace {

std::string hex(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v));
  return s;
}

std::string windows_text(const Platform& p) {
  std::string out;
  for (unsigned n = 0; n < AVP_CMP_NUM_WINDOWS; ++n) {
    const WindowUnit::Window& w = p.windows.window(n);
    out += "window " + std::to_string(n) + ": ";
    if (!w.active()) {
      out += "inactive\n";
      continue;
    }
    out += hex(w.base) + ".." + hex(w.base + w.size() - 1) + " -> " + hex(w.target) + " (mode " + hex(w.mode) +
           ", scale " + hex(w.scale) + ")\n";
  }
  return out;
}

// `stats [FILTER]`: every statistic whose name contains FILTER, as name = value.
std::string stats_text(const std::string& filter) {
  std::string out;
  for (const StatBase* s : StatRegistry::instance().all())
    if (s->name().find(filter) != std::string::npos) {
      const nlohmann::json j = s->to_json();
      out += s->name() + " = " + (j.contains("value") ? j["value"].dump() + " " + s->unit() : j.dump()) + "\n";
    }
  return out.empty() ? "no statistic matches '" + filter + "'\n" : out;
}

// `mtree`: the device address map (as `accel-vp info` prints it).
std::string address_map_text(const Platform& p) {
  std::string out;
  char buf[160];
  for (const auto& r : p.bus.ranges()) {
    std::snprintf(buf, sizeof buf, "0x%012llx .. 0x%012llx  %-14s -> port %s\n", static_cast<unsigned long long>(r.base),
                  static_cast<unsigned long long>(r.base + r.size - 1), r.name.c_str(), p.bus.port_name(r.port).c_str());
    out += buf;
  }
  return out;
}

}  // namespace

std::unique_ptr<GdbServer> make_gdb_server(const CliContext& ctx, Platform& p, unsigned threads, HartCluster* cluster) {
  if (ctx.gdb_wait_first && ctx.gdb_port < 0) throw CLI::ValidationError("-S", "needs --gdb PORT or -g");
  if (ctx.gdb_no_wait && ctx.gdb_port < 0) throw CLI::ValidationError("--gdb-no-wait", "needs --gdb PORT or -g");
  if (ctx.gdb_no_wait && ctx.gdb_wait_first) throw CLI::ValidationError("--gdb-no-wait", "excludes -S");
  if (ctx.gdb_port < 0) return nullptr;
  HartCluster& harts = cluster ? *cluster : p.harts;
  auto gdb = std::make_unique<GdbServer>(harts, static_cast<unsigned>(ctx.gdb_port));
  if (threads) gdb->set_threads(threads);
  gdb->set_first_instruction_stop(ctx.gdb_wait_first);
  if (ctx.gdb_no_wait) gdb->attach_while_running();
  gdb->set_monitor([&p, &harts](const std::string& command, std::string& out) {
    if (command == "help") {
      out = "monitor windows        the CMP memory windows (base..end -> target)\n"
            "monitor mtree          the device address map (QEMU's info mtree)\n"
            "monitor stats [TEXT]   the statistics so far, running harts' counts included (those whose name contains TEXT)\n";
      return true;
    }
    if (command == "windows") {
      out = windows_text(p);
      return true;
    }
    if (command == "mtree") {
      out = address_map_text(p);
      return true;
    }
    if (command == "stats" || command.rfind("stats ", 0) == 0) {
      harts.update_running_stats(sc_core::sc_time_stamp());
      out = stats_text(command.size() > 6 ? command.substr(6) : "");
      return true;
    }
    return false;
  });
  return gdb;
}

}  // namespace avp

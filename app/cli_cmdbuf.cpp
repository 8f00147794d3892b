// `accel-vp cmdbuf FILE.bin... [--load ELF] [--write ADDR=FILE]... [--dump ADDR:LEN]...`:
// places raw command buffers in device DRAM, runs them in order on the
// command processor, prints its status after each and dumps memory as hex.
// Exit code 0 when every buffer finished, 1 on a command error, 2 on bad input
// (not regular files, partial 8-byte chunks, too large, dumps out of memory).
// With `--gdb PORT` the debugger attaches after the loads and writes, before
// the first buffer runs.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "base/input_file.h"
#include "base/params.h"
#include "cli.h"
#include "cmp/packet_decoder.h"
#include "cli_gdb.h"
#include "base/elf_loader.h"
#include "platform/platform.h"

namespace avp {

namespace {

// Reads a regular file; on failure `error` says why.
bool read_file(const std::string& path, std::vector<uint8_t>& out, std::string& error) {
  error = input_file_problem(path);
  if (!error.empty()) return false;
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = "cannot open";
    return false;
  }
  out.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

// A dump is printed as text: larger ones belong in a file written by the program.
constexpr uint64_t kMaxDumpBytes = 16 << 20;

// False when the range is not readable device memory.
bool hex_dump(Platform& p, uint64_t addr, uint64_t len) {
  std::vector<uint8_t> b(len);
  if (!p.device_port.read_debug(addr, b.data(), len)) {
    std::fprintf(stderr, "accel-vp cmdbuf: --dump 0x%llx:%llu: not device memory\n", static_cast<unsigned long long>(addr),
                 static_cast<unsigned long long>(len));
    return false;
  }
  for (uint64_t i = 0; i < len; i += 16) {
    std::printf("%012llx:", static_cast<unsigned long long>(addr + i));
    for (uint64_t k = i; k < i + 16 && k < len; ++k) std::printf(" %02x", b[k]);
    std::printf("\n");
  }
  return true;
}

int run_cmdbuf(Platform& p, const std::vector<std::string>& buffers, const std::vector<std::string>& elfs,
               const std::vector<std::string>& writes, const std::vector<std::string>& dumps, GdbServer* gdb) {
  auto debug_write = [&](uint64_t a, const void* d, uint64_t n) { return p.device_port.write_debug(a, d, n); };
  for (const auto& e : elfs) {
    try {
      const ElfImage img = load_elf(e, debug_write);
      register_symbols(img);
      std::printf("loaded %s: entry 0x%llx\n", e.c_str(), static_cast<unsigned long long>(img.entry));
    } catch (const ElfError& err) {
      std::fprintf(stderr, "accel-vp cmdbuf: %s\n", err.what());
      return 2;
    }
  }
  for (const auto& w : writes) {
    const size_t eq = w.find('=');
    std::vector<uint8_t> data;
    std::string error = "expected ADDR=FILE";
    if (eq == std::string::npos || !read_file(w.substr(eq + 1), data, error)) {
      std::fprintf(stderr, "accel-vp cmdbuf: --write %s: %s\n", w.c_str(), error.c_str());
      return 2;
    }
    const uint64_t addr = parse_u64(w.substr(0, eq), "--write address");
    if (!debug_write(addr, data.data(), data.size())) {
      std::fprintf(stderr, "accel-vp cmdbuf: --write %s: 0x%llx is not device memory\n", w.c_str(), static_cast<unsigned long long>(addr));
      return 2;
    }
  }
  if (gdb) gdb->attach();
  const uint64_t dram_end = p.dram_base() + p.dram.size();
  uint64_t at = p.dram_base() + p.dram.size() / 2;  // buffers live in the upper half of DRAM
  int code = 0;
  for (const auto& path : buffers) {
    std::vector<uint8_t> data;
    std::string error;
    if (!read_file(path, data, error)) {
      std::fprintf(stderr, "accel-vp cmdbuf: %s: %s\n", path.c_str(), error.c_str());
      return 2;
    }
    if (data.size() % 8) {
      std::fprintf(stderr, "accel-vp cmdbuf: %s: %zu bytes, not a whole number of 8-byte chunks (%zu trailing bytes)\n",
                   path.c_str(), data.size(), data.size() % 8);
      return 2;
    }
    if (data.size() > dram_end - at) {
      std::fprintf(stderr, "accel-vp cmdbuf: %s: %zu bytes do not fit in the %llu bytes of DRAM left for command buffers\n",
                   path.c_str(), data.size(), static_cast<unsigned long long>(dram_end - at));
      return 2;
    }
    if (!debug_write(at, data.data(), data.size())) return 2;
    const uint64_t before = p.cmp.completed_count();
    p.cmp.submit(at, data.size());
    while (!p.cmp.idle()) sc_core::wait(p.cmp.idle_event());
    const CmpStatusWord s = p.cmp.status();
    if (p.cmp.completed_count() > before) {
      std::printf("%s: finished (%zu bytes), completed buffers %llu\n", path.c_str(), data.size(),
                  static_cast<unsigned long long>(p.cmp.completed_count()));
    } else {
      code = 1;
      std::printf("%s: error %u (%s) at offset %llu, opcode %s", path.c_str(), s.error_code, cmp_error_name(s.error_code),
                  static_cast<unsigned long long>(s.error_offset), cmp_opcode_name(s.error_info & 0xFF));
      if (s.error_info & (1u << 31))
        std::printf(", %s", cmp_error_detail(s.error_code, s.error_info, s.error_pc, s.error_cause).c_str());
      std::printf("\n");
    }
    at += (data.size() + 0xFFF) & ~0xFFFull;
  }
  for (const auto& d : dumps) {
    const size_t colon = d.find(':');
    if (colon == std::string::npos) {
      std::fprintf(stderr, "accel-vp cmdbuf: --dump %s: expected ADDR:LEN\n", d.c_str());
      return 2;
    }
    const uint64_t addr = parse_u64(d.substr(0, colon), "--dump address"), len = parse_u64(d.substr(colon + 1), "--dump length");
    if (len == 0 || len > kMaxDumpBytes) {
      std::fprintf(stderr, "accel-vp cmdbuf: --dump %s: the length must be 1..%llu bytes\n", d.c_str(),
                   static_cast<unsigned long long>(kMaxDumpBytes));
      return 2;
    }
    if (!hex_dump(p, addr, len)) code = 2;
  }
  return code;
}

}  // namespace

void add_cmdbuf_command(CLI::App& app, CliContext& ctx) {
  auto* cmd = app.add_subcommand("cmdbuf", "run raw command buffers on the command processor and dump memory");
  auto buffers = std::make_shared<std::vector<std::string>>();
  auto elfs = std::make_shared<std::vector<std::string>>();
  auto writes = std::make_shared<std::vector<std::string>>();
  auto dumps = std::make_shared<std::vector<std::string>>();
  cmd->add_option("buffers", *buffers, "binary command buffers (little-endian 64-bit chunks), run in order")->required();
  cmd->add_option("--load", *elfs, "load an ELF file into device memory at its physical addresses");
  cmd->add_option("--write", *writes, "place a file's bytes at an address: ADDR=FILE");
  cmd->add_option("--dump", *dumps, "print memory as hex after the run: ADDR:LEN");
  cmd->callback([&ctx, buffers, elfs, writes, dumps] {
    auto platform = make_platform(ctx);
    std::unique_ptr<GdbServer> gdb = make_gdb_server(ctx, *platform);
    if (gdb) ctx.session.between_chunks = [g = gdb.get()] { g->poll_attach(); };
    RunResult r = run_session(*platform, ctx.session, "cmdbuf", [&](Platform& p) {
      int code = 2;
      try {
        code = run_cmdbuf(p, *buffers, *elfs, *writes, *dumps, gdb.get());
      } catch (const ParamError& e) {
        std::fprintf(stderr, "accel-vp cmdbuf: %s\n", e.what());
      }
      if (gdb) gdb->finish(code);
      return code;
    });
    ctx.exit_code = r.exit_code;
  });
}

}  // namespace avp

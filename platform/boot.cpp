#include "boot.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <vector>

#include "device_tree.h"
#include "base/elf_loader.h"
#include "base/input_file.h"
#include "platform.h"

namespace avp {

namespace {


bool is_elf(const std::vector<uint8_t>& d) { return d.size() >= 4 && d[0] == 0x7F && d[1] == 'E' && d[2] == 'L' && d[3] == 'F'; }

// An input file for memory at `addr`, checked (a regular file that fits
// there) before it is read; errors name the option and the file.
std::vector<uint8_t> read_image(Platform& p, const std::string& what, const std::string& path, uint64_t addr) {
  try {
    const uint64_t size = input_file_size(path);
    if (size == 0) throw std::runtime_error("the file is empty");
    if (!p.is_memory(addr, size))
      throw std::runtime_error(std::to_string(size) + " bytes at 0x" +
                               [&] { char b[32]; std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(addr)); return std::string(b); }() +
                               " do not fit in device memory");
    return read_input_file(path, size);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(what + " " + path + ": " + e.what());
  }
}

// Places an ELF or raw image; returns its entry (the load address of a raw image).
uint64_t place(Platform& p, const std::string& what, const std::string& path, uint64_t addr,
               std::map<std::string, uint64_t>* symbols = nullptr) {
  auto write = [&](uint64_t a, const void* d, uint64_t len) { return p.device_port.write_debug(a, d, len); };
  std::vector<uint8_t> head;
  try {
    head = read_input_prefix(path, 4);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(what + " " + path + ": " + e.what());
  }
  if (is_elf(head)) {
    const ElfImage img = load_elf(path, write);
    register_symbols(img);
    if (symbols) *symbols = img.symbols;
    return img.entry;
  }
  const std::vector<uint8_t> data = read_image(p, what, path, addr);
  write(addr, data.data(), data.size());
  return addr;
}

}  // namespace

int run_boot(Platform& p, const BootOptions& o) {
  uint64_t entry = 0, dtb_addr = o.dtb_addr ? o.dtb_addr : default_dtb_address(p);
  std::vector<uint8_t> dtb;
  std::map<std::string, uint64_t> symbols;
  try {
    if (o.harts == 0 || o.harts > p.num_harts())
      throw std::runtime_error("--harts " + std::to_string(o.harts) + ": the platform has " + std::to_string(p.num_harts()) + " harts");
    p.uart.connect(o.uart);
    entry = place(p, "--firmware", o.firmware, o.firmware_addr, &symbols);
    if (!o.kernel.empty()) place(p, "--kernel", o.kernel, o.kernel_addr);
    if (!o.dtb.empty()) {
      dtb = read_image(p, "--dtb", o.dtb, dtb_addr);
      if (dtb.size() < 40) throw std::runtime_error("--dtb " + o.dtb + ": not a device-tree blob (" + std::to_string(dtb.size()) + " bytes)");
    } else {
      DeviceTreeOptions t;
      t.harts = o.harts;
      t.bootargs = o.bootargs;
      t.htif = symbols.count("tohost") != 0;
      dtb = build_device_tree(p, t);
    }
    if (!p.is_memory(dtb_addr, dtb.size()) || !p.device_port.write_debug(dtb_addr, dtb.data(), dtb.size()))
      throw std::runtime_error("the device tree (" + std::to_string(dtb.size()) + " bytes) does not fit in memory at its address");
  } catch (const std::exception& e) {
    std::cerr << "accel-vp: boot: " << e.what() << "\n";
    return 2;
  }
  if (o.uart != "stdio") std::cerr << "accel-vp: UART on " << p.uart.backend().description() << "\n";

  int code = 1;
  bool ended = false;
  unsigned stopped = 0;
  sc_core::sc_event end;
  p.poweroff.on_poweroff = [&](int c, const std::string& what, const sc_core::sc_time&) {
    if (ended) return;
    code = c;
    ended = true;
    end.notify(sc_core::SC_ZERO_TIME);
  };
  if (symbols.count("tohost")) {  // a program that talks HTIF (Spike's riscv-tests, pk-less programs)
    p.htif.on_exit = p.poweroff.on_poweroff ? [&](int c) { p.poweroff.on_poweroff(c, "HTIF exit", sc_core::sc_time_stamp()); }
                                            : std::function<void(int)>();
    p.htif.put = [&](uint8_t c) { p.uart.backend_output(c); };
    p.htif.start(symbols["tohost"], symbols.count("fromhost") ? symbols["fromhost"] : symbols["tohost"] + 64);
  }
  for (unsigned h = 0; h < o.harts; ++h) {
    HartLaunch l;
    l.pc = entry;
    l.a[0] = h;
    l.a[1] = dtb_addr;
    l.firmware = true;
    l.instruction_limit = ~0ull;  // firmware runs until it powers off, the time limit or Ctrl-C
    p.harts.start_bare_metal(h, l, [&, h](const HartExit& e) {
      std::cerr << "accel-vp: hart " << h << " " << e.describe() << "\n";
      if (++stopped == o.harts && !ended) end.notify(sc_core::SC_ZERO_TIME);
    });
  }
  // Ctrl-C and SIGTERM stop the session's run loop, which records the run as interrupted.
  while (!ended && stopped < o.harts) sc_core::wait(end);
  std::fflush(stdout);
  return code;
}

}  // namespace avp

#include "platform/boot.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <vector>

#include "platform/boot_machine.h"
#include "debug/gdb_server.h"
#include "platform/device_tree.h"
#include "harts/hart_cluster.h"
#include "sysdev/htif.h"
#include "sysdev/poweroff_device.h"
#include "sysdev/uart16550.h"
#include "base/elf_loader.h"
#include "base/input_file.h"
#include "platform/platform.h"

namespace avp {

namespace {


bool is_elf(const std::vector<uint8_t>& d) { return d.size() >= 4 && d[0] == 0x7F && d[1] == 'E' && d[2] == 'L' && d[3] == 'F'; }

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// An input file for memory at `addr`, checked (a regular file that fits
// there) before it is read; errors name the option and the file.
std::vector<uint8_t> read_image(const BootMachine& m, const std::string& what, const std::string& path, uint64_t addr) {
  try {
    const uint64_t size = input_file_size(path);
    if (size == 0) throw std::runtime_error("the file is empty");
    if (!m.is_memory(addr, size))
      throw std::runtime_error(std::to_string(size) + " bytes at " + hex(addr) + " do not fit in memory");
    return read_input_file(path, size);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(what + " " + path + ": " + e.what());
  }
}

struct Placed {
  uint64_t entry = 0;  // the load address of a raw image
  uint64_t end = 0;    // first byte after the image in memory (with its bss)
};

// The memory a raw RISC-V Linux Image occupies (its header's image_size,
// which counts the bss) when the header says so, else the file's size.
uint64_t raw_image_size(const std::vector<uint8_t>& d) {
  static const char kMagic2[4] = {'R', 'S', 'C', 0x05};
  uint64_t image_size = 0;
  if (d.size() >= 64 && std::memcmp(d.data() + 56, kMagic2, 4) == 0) std::memcpy(&image_size, d.data() + 16, 8);
  return std::max<uint64_t>(image_size, d.size());
}

// Places an ELF or raw image.
Placed place(BootMachine& m, const std::string& what, const std::string& path, uint64_t addr,
               std::map<std::string, uint64_t>* symbols = nullptr) {
  auto write = [&](uint64_t a, const void* d, uint64_t len) { return m.loader.write_debug(a, d, len); };
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
    return {img.entry, img.highest};
  }
  const std::vector<uint8_t> data = read_image(m, what, path, addr);
  write(addr, data.data(), data.size());
  return {addr, addr + raw_image_size(data)};
}

// The initramfs goes at the first 2 MiB boundary after the kernel; it must
// end below the device tree.
std::pair<uint64_t, uint64_t> place_initrd(BootMachine& m, const std::string& path, uint64_t kernel_end, uint64_t dtb_addr) {
  constexpr uint64_t kAlign = 2ull << 20;
  const uint64_t start = (kernel_end + kAlign - 1) & ~(kAlign - 1);
  const std::vector<uint8_t> data = read_image(m, "--initrd", path, start);
  const uint64_t end = start + data.size();
  if (start <= dtb_addr && end > dtb_addr)
    throw std::runtime_error("--initrd " + path + ": " + std::to_string(data.size()) + " bytes at " + hex(start) +
                             " (after the kernel) do not fit in memory below the device tree at " + hex(dtb_addr));
  m.loader.write_debug(start, data.data(), data.size());
  return {start, end};
}

}  // namespace

int run_boot(BootMachine& m, const BootOptions& o, GdbServer* gdb) {
  uint64_t entry = 0, dtb_addr = o.dtb_addr ? o.dtb_addr : default_dtb_address(m.dram_base, m.dram_size);
  std::vector<uint8_t> dtb;
  std::map<std::string, uint64_t> symbols;
  try {
    if (o.harts == 0 || o.harts > m.harts.num_harts())
      throw std::runtime_error("--harts " + std::to_string(o.harts) + ": the platform has " + std::to_string(m.harts.num_harts()) + " harts");
    m.uart.connect(o.uart);
    entry = place(m, "--firmware", o.firmware, o.firmware_addr, &symbols).entry;
    std::pair<uint64_t, uint64_t> initrd{0, 0};
    if (!o.initrd.empty() && o.kernel.empty()) throw std::runtime_error("--initrd " + o.initrd + ": needs --kernel");
    if (!o.initrd.empty() && !o.dtb.empty()) throw std::runtime_error("--initrd " + o.initrd + ": needs the generated device tree, not --dtb");
    if (!o.kernel.empty()) {
      const Placed kernel = place(m, "--kernel", o.kernel, o.kernel_addr);
      if (!o.initrd.empty()) initrd = place_initrd(m, o.initrd, kernel.end, dtb_addr);
    }
    if (!o.dtb.empty()) {
      dtb = read_image(m, "--dtb", o.dtb, dtb_addr);
      if (dtb.size() < 40) throw std::runtime_error("--dtb " + o.dtb + ": not a device-tree blob (" + std::to_string(dtb.size()) + " bytes)");
    } else {
      DeviceTreeOptions t;
      t.harts = o.harts;
      t.bootargs = o.bootargs;
      t.htif = m.htif && symbols.count("tohost") != 0;
      t.initrd_start = initrd.first;
      t.initrd_end = initrd.second;
      dtb = build_device_tree(m, t);
    }
    if (!m.is_memory(dtb_addr, dtb.size()) || !m.loader.write_debug(dtb_addr, dtb.data(), dtb.size()))
      throw std::runtime_error("the device tree (" + std::to_string(dtb.size()) + " bytes) does not fit in memory at its address");
  } catch (const std::exception& e) {
    std::cerr << "accel-vp: boot: " << e.what() << "\n";
    return 2;
  }
  if (o.uart != "stdio") std::cerr << "accel-vp: UART on " << m.uart.backend().description() << "\n";

  int code = 1;
  bool ended = false;
  unsigned stopped = 0;
  sc_core::sc_event end;
  m.poweroff.on_poweroff = [&](int c, const std::string& what, const sc_core::sc_time&) {
    if (ended) return;
    code = c;
    ended = true;
    end.notify(sc_core::SC_ZERO_TIME);
  };
  if (m.htif && symbols.count("tohost")) {  // a program that talks HTIF (Spike's riscv-tests, pk-less programs)
    m.htif->on_exit = m.poweroff.on_poweroff ? [&](int c) { m.poweroff.on_poweroff(c, "HTIF exit", sc_core::sc_time_stamp()); }
                                             : std::function<void(int)>();
    m.htif->put = [&](uint8_t c) { m.uart.backend_output(c); };
    m.htif->start(symbols["tohost"], symbols.count("fromhost") ? symbols["fromhost"] : symbols["tohost"] + 64);
  }
  // The debugger connects when the first hart is about to run the firmware's
  // entry, every image in memory (as `run --elf`).
  if (gdb) gdb->attach_at_first_instruction();
  for (unsigned h = 0; h < o.harts; ++h) {
    HartLaunch l;
    l.pc = entry;
    l.a[0] = h;
    l.a[1] = dtb_addr;
    l.firmware = true;
    l.instruction_limit = ~0ull;  // firmware runs until it powers off, the time limit or Ctrl-C
    m.harts.start_bare_metal(h, l, [&, h](const HartExit& e) {
      std::cerr << "accel-vp: hart " << h << " " << e.describe() << "\n";
      if (++stopped == o.harts && !ended) end.notify(sc_core::SC_ZERO_TIME);
    });
  }
  // Ctrl-C and SIGTERM are the session's (run_signals.h): it stops the run
  // between chunks with every output written and the signal as the ending.
  while (!ended && stopped < o.harts) sc_core::wait(end);
  std::fflush(stdout);
  return code;
}

}  // namespace avp

#include "gdb_target_xml.h"

#include <sstream>

namespace avp {

std::string gdb_target_xml() {
  static const char* const x[] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0",
                                  "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                  "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  static const std::pair<const char*, unsigned> csrs[] = {
      {"mstatus", 0x300}, {"misa", 0x301}, {"medeleg", 0x302}, {"mideleg", 0x303}, {"mie", 0x304}, {"mtvec", 0x305},
      {"mscratch", 0x340}, {"mepc", 0x341}, {"mcause", 0x342}, {"mtval", 0x343}, {"mip", 0x344}, {"sstatus", 0x100},
      {"stvec", 0x105}, {"sepc", 0x141}, {"scause", 0x142}, {"stval", 0x143}, {"satp", 0x180}, {"mhartid", 0xF14},
      {"mcycle", 0xB00}, {"minstret", 0xB02}};
  std::ostringstream os;
  os << "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n"
        "<architecture>riscv:rv64</architecture>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n";
  for (unsigned i = 0; i < 32; ++i)
    os << "<reg name=\"" << x[i] << "\" bitsize=\"64\" regnum=\"" << i << "\" type=\"" << (i == 1 || i == 8 ? "code_ptr" : i == 2 ? "data_ptr" : "int") << "\"/>\n";
  os << "<reg name=\"pc\" bitsize=\"64\" regnum=\"32\" type=\"code_ptr\"/>\n</feature>\n<feature name=\"org.gnu.gdb.riscv.fpu\">\n";
  for (unsigned i = 0; i < 32; ++i) os << "<reg name=\"f" << i << "\" bitsize=\"64\" regnum=\"" << 33 + i << "\" type=\"ieee_double\"/>\n";
  os << "<reg name=\"fflags\" bitsize=\"32\" regnum=\"66\" type=\"int\"/>\n<reg name=\"frm\" bitsize=\"32\" regnum=\"67\" type=\"int\"/>\n"
        "<reg name=\"fcsr\" bitsize=\"32\" regnum=\"68\" type=\"int\"/>\n</feature>\n<feature name=\"org.gnu.gdb.riscv.csr\">\n";
  for (const auto& [name, n] : csrs) os << "<reg name=\"" << name << "\" bitsize=\"64\" regnum=\"" << 65 + n << "\" type=\"int\"/>\n";
  os << "</feature>\n<feature name=\"org.gnu.gdb.riscv.virtual\">\n<reg name=\"priv\" bitsize=\"64\" regnum=\"" << kGdbPriv
     << "\" type=\"int\"/>\n</feature>\n</target>\n";
  return os.str();
}

}  // namespace avp

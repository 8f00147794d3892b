// `--trace` and the trap report through the accel-vp command line: a
// bare-metal program that faults (fault.c) is traced and its report checked.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace {

struct Result {
  int code;
  std::string out;
};

Result run(const std::string& args) {
  const std::string cmd = std::string(ACCEL_VP) + " --no-progress " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), f)) out.append(buf.data(), n);
  const int st = pclose(f);
  return {WEXITSTATUS(st), out};
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

bool has(const std::string& text, const std::string& re) { return std::regex_search(text, std::regex(re)); }

}  // namespace

TEST(Trace, TrapReportNamesHartPcSymbolSourceDisassemblyCauseHistoryAndRegisters) {
  const Result r = run(std::string("-o trace_fault run --elf ") + FAULT_ELF);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "hart 0: unhandled store/AMO access fault \\(cause 7\\), tval 0x30000000\n"
                         "  at 0x[0-9a-f]+ <store_to(\\+0x[0-9a-f]+)?>  [0-9a-f]+ +s[dw] a1,0\\(a0\\)\n"
                         "  source [^\n]*fault\\.c:9\n"
                         "  last 16 instructions \\(oldest first\\):\n"))
      << r.out;
  // The register file: a0 holds the faulting address, a1 the value stored.
  EXPECT_TRUE(has(r.out, "  registers:\n    ra  [0-9a-f]{16}  sp  [0-9a-f]{16}  gp  [0-9a-f]{16}  tp  [0-9a-f]{16}\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "a0  0000000030000000  a1  0000000000000007")) << r.out;
  // The same post-mortem in the manifest.
  const std::string m = slurp("trace_fault/manifest.json");
  EXPECT_TRUE(has(m, "\"traps\": \\[")) << m.substr(0, 2000);
  EXPECT_TRUE(has(m, "\"source\": \"[^\"]*fault\\.c:9\"")) << m.substr(0, 2000);
  EXPECT_TRUE(has(m, "\"a0\": \"0x30000000\"")) << m.substr(0, 2000);
  EXPECT_TRUE(has(m, "\"cause_name\": \"store/AMO access fault\"")) << m.substr(0, 2000);
  // The history ends with the faulting store, after the call from main.
  EXPECT_TRUE(has(r.out, "<main\\+0x[0-9a-f]+>  [0-9a-f]+ +(jal|call) [0-9a-f]+ <store_to>\n"
                         "(    .*\n)*    0x[0-9a-f]+ <store_to(\\+0x[0-9a-f]+)?>  [0-9a-f]+ +s[dw] a1,0\\(a0\\)\n"))
      << r.out;
}

// Eight harts stopped by the same store: one full report, one line naming
// how many harts ended the same way, and the trap counted as an error.
TEST(Trace, ATrapThatStopsManyHartsTheSameWayIsReportedOnce) {
  const Result r = run(std::string("-o trace_fault8 run --elf ") + FAULT_ELF + " --harts 8");
  EXPECT_EQ(r.code, 1) << r.out;
  size_t reports = 0;
  for (size_t at = r.out.find("unhandled store/AMO access fault"); at != std::string::npos;
       at = r.out.find("unhandled store/AMO access fault", at + 1))
    ++reports;
  EXPECT_EQ(reports, 1u) << r.out;
  EXPECT_TRUE(has(r.out, "error harts: hart [0-7]: unhandled store/AMO access fault")) << r.out;
  EXPECT_TRUE(has(r.out, "accel-vp: hart 0 trap: store/AMO access fault \\(cause 7\\) at pc 0x[0-9a-f]+ <store_to[^\n]*; "
                         "7 more harts ended the same way \\(1-7\\)\n"))
      << r.out;
  EXPECT_TRUE(has(r.out, "warnings/errors  [0-9]+/[1-9]")) << r.out;
}

TEST(Trace, InstructionsAndMemoryAccessesAreSymbolisedPerHart) {
  const Result r = run(std::string("-o trace_insn --trace insn,mem run --elf ") + FAULT_ELF);
  EXPECT_EQ(r.code, 1) << r.out;
  const std::string t = slurp("trace_insn/trace.log");
  // "<time> ns  hart0  insn <pc> <sym>  <encoding>  <disassembly>"
  EXPECT_TRUE(has(t, "\n +[0-9]+\\.[0-9]{3} ns  hart0 +insn 0x[0-9a-f]+ <main>  [0-9a-f]+ +")) << t.substr(0, 2000);
  EXPECT_TRUE(has(t, "hart0 +mem W 8 0x[0-9a-f]+ <table\\+0x8> = 0x0000000000000007\n")) << t.substr(0, 2000);
  EXPECT_TRUE(has(t, "hart0 +mem R 8 0x[0-9a-f]+ <table\\+0x8> = 0x0000000000000007\n"));
  // The faulting store is traced as an instruction; its access never completed.
  EXPECT_TRUE(has(t, "insn 0x[0-9a-f]+ <store_to(\\+0x[0-9a-f]+)?>  [0-9a-f]+ +s[dw] a1,0\\(a0\\)\n"));
  EXPECT_FALSE(has(t, "mem W 8 0x30000000"));
}

TEST(Trace, WindowAndHartFiltersSelectEvents) {
  Result r = run(std::string("-o trace_win --trace insn --trace-window 60ns:300ns --trace-file trace_win.log run --elf ") + FAULT_ELF);
  EXPECT_EQ(r.code, 1) << r.out;
  std::istringstream lines(slurp("trace_win.log"));
  unsigned n = 0;
  for (std::string l; std::getline(lines, l); ++n) {
    const double ns = std::stod(l);
    EXPECT_GE(ns, 60.0) << l;
    EXPECT_LT(ns, 300.0) << l;
  }
  EXPECT_EQ(n, 71u);  // deterministic: the instructions hart 0 starts in that window
  r = run(std::string("-o trace_h1 --trace insn --trace-harts 1 run --elf ") + FAULT_ELF + " --harts 2");
  EXPECT_EQ(r.code, 1) << r.out;
  const std::string t = slurp("trace_h1/trace.log");
  EXPECT_TRUE(has(t, "hart1 +insn")) << t.substr(0, 500);
  EXPECT_FALSE(has(t, "hart0 "));
}

TEST(Trace, BadOptionsAreClearErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"--trace insn,bogus", "--trace insn,bogus: unknown category 'bogus' (expected insn, mem, cmp, dma, pcie, aql or all)"},
      {"--trace insn --trace-window 5us:1us", "--trace-window 5us:1us: the end is not after the start"},
      {"--trace insn --trace-window 5parsecs", "--trace-window 5parsecs: expected FROM:TO"},
      {"--trace insn --trace-window 5:1us", "--trace-window start"},
      {"--trace insn --trace-harts 2-1", "--trace-harts 2-1: range '2-1' is empty"},
      {"--trace insn --trace-harts 0,x", "--trace-harts 0,x: 'x' is not a hart number"},
      {"--trace insn --trace-harts 0,999", "--trace-harts 0,999: hart 999 does not exist (the platform has 8 harts)"},
      {"--trace-window 1us:2us", "--trace-window needs --trace CATEGORIES"},
  };
  for (const auto& [options, message] : cases) {
    const Result r = run(std::string("-o trace_bad ") + options + " run --elf " + FAULT_ELF);
    EXPECT_EQ(r.code, 2) << options;
    EXPECT_NE(r.out.find(message), std::string::npos) << options << "\n" << r.out;
  }
}

TEST(Trace, DeviceCategoriesWriteOneLinePerCommandTransferTlpAndPacket) {
  Result r = run("-o trace_dev --trace cmp,dma,pcie run vecadd");
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string t = slurp("trace_dev/trace.log");
  EXPECT_TRUE(has(t, "ns  cmp +cmp RUN_INSTANCES inline=0x300 payload=4 buffer 0x[0-9a-f]+ offset 0x78 "
                     "payload 0x400,0x[0-9a-f]+,0x[0-9a-f]+,0x[0-9a-f]+ took [0-9.]+ [pnum]?s\n"))
      << t.substr(0, 3000);
  EXPECT_TRUE(has(t, "ns  cmp\\.dispatch cmp RUN_INSTANCES 1024 instances on 8 harts, took [0-9.]+ [pnum]?s\n"));
  EXPECT_TRUE(has(t, "ns  link\\.down +pcie MWr payload [0-9]+ B, tlp 1/[0-9]+\n"));
  EXPECT_FALSE(has(t, " insn "));
  r = run("-o trace_aql --trace aql run aql-vecadd");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(slurp("trace_aql/trace.log"), "aql #0 dispatch dims 1 grid [0-9]+x1x1 workgroup [0-9]+x1x1 kernel_object 0x"));
}

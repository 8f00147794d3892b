// `accel-vp sweep`: the grid, determinism per point, resuming an interrupted
// sweep, the tables and chart, the Slurm script, and errors for bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "accel_vp_cli.h"

using namespace avp::test;
namespace fs = std::filesystem;

namespace {

const std::string kGrid = "sweep --workload memcheck --param dram.read_latency=10ns,100ns --param platform.seed=1,2 "
                          "--metrics simulated_time_ns,dram.reads.value,bus.dram.bytes.value";

std::string point(const std::string& out, const std::string& latency, int seed) {
  return out + "/point_dram.read_latency-" + latency + "_platform.seed-" + std::to_string(seed);
}

}  // namespace

TEST(Sweep, EveryFamilyOfParametersIsSweepable) {
  const CliResult r = run_accel_vp("--list-params");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* name : {"platform.cores", "platform.harts_per_core", "dma.channels", "link.generation", "link.lanes",
                           "harts.icache.size", "harts.dcache.size", "dram.read_latency", "cmp.launch_latency"})
    EXPECT_NE(r.out.find(std::string("\n  ") + name + " "), std::string::npos) << name;
}

TEST(Sweep, TablesAndChartHoldEveryPointAndAreTheSameWhateverTheParallelism) {
  fs::remove_all("sweep_j1");
  fs::remove_all("sweep_j2");
  const CliResult a = run_accel_vp("-o sweep_j1 " + kGrid + " --jobs 1");
  ASSERT_EQ(a.code, 0) << a.out;
  EXPECT_NE(a.out.find("4 points, 0 already done, 4 run, 0 failed"), std::string::npos) << a.out;
  ASSERT_EQ(run_accel_vp("-o sweep_j2 " + kGrid + " --jobs 2").code, 0);
  const std::string csv = read_text("sweep_j1/results.csv");
  EXPECT_EQ(csv, read_text("sweep_j2/results.csv"));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "dram.read_latency,platform.seed,simulated_time_ns,dram.reads.value,bus.dram.bytes.value");
  const auto r = read_json("sweep_j1/results.json");
  ASSERT_EQ(r["rows"].size(), 4u);
  EXPECT_EQ(r["axes"], nlohmann::json({"dram.read_latency", "platform.seed"}));
  EXPECT_EQ(r["rows"][0]["dram.read_latency"], "10ns");
  EXPECT_EQ(r["rows"][1]["platform.seed"], "2");  // the first axis varies slowest
  EXPECT_LT(r["rows"][0]["simulated_time_ns"].get<double>(), r["rows"][2]["simulated_time_ns"].get<double>());
  EXPECT_EQ(r["rows"][0]["dram.reads.value"], r["rows"][2]["dram.reads.value"]);  // same work, slower memory
  const std::string html = read_text("sweep_j1/sweep.html");
  EXPECT_NE(html.find("\"rows\""), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // nothing fetched
  EXPECT_EQ(html.find("https://"), std::string::npos);
  // Units recorded for the charts; numbers rounded to 10 significant digits (no float noise).
  EXPECT_EQ(r["units"]["simulated_time_ns"], "ns");
  EXPECT_EQ(r["units"]["bus.dram.bytes.value"], "bytes");
  EXPECT_FALSE(std::regex_search(csv, std::regex("[0-9]\\.[0-9]{10,}"))) << csv;
}

TEST(Sweep, AMetricAtZeroEverywhereIsChartedAsSuch) {
  fs::remove_all("sweep_zero");
  const CliResult r = run_accel_vp("-o sweep_zero sweep --workload memcheck --param platform.seed=1,2 --metrics dma.bytes.value");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = read_json("sweep_zero/results.json");
  EXPECT_EQ(j["rows"][0]["dma.bytes.value"], 0);
  EXPECT_EQ(j["units"]["dma.bytes.value"], "bytes");  // the chart's axis and title carry it (sweep.chart draws it)
}

TEST(Sweep, TheSamePointTwiceGivesIdenticalResults) {
  fs::remove_all("sweep_det_a");
  fs::remove_all("sweep_det_b");
  ASSERT_EQ(run_accel_vp("-o sweep_det_a " + kGrid).code, 0);
  ASSERT_EQ(run_accel_vp("-o sweep_det_b " + kGrid).code, 0);
  for (const char* lat : {"10ns", "100ns"})
    for (int seed : {1, 2}) {
      const auto a = read_json(point("sweep_det_a", lat, seed) + "/manifest.json");
      const auto b = read_json(point("sweep_det_b", lat, seed) + "/manifest.json");
      EXPECT_EQ(a["simulated_time_ns"], b["simulated_time_ns"]);
      EXPECT_EQ(a["statistics"], b["statistics"]);
      EXPECT_EQ(a["config_hash"], b["config_hash"]);
    }
}

TEST(Sweep, ResumingRunsOnlyThePointsThatDidNotComplete) {
  fs::remove_all("sweep_resume");
  ASSERT_EQ(run_accel_vp("-o sweep_resume " + kGrid).code, 0);
  const std::string full = read_text("sweep_resume/results.csv");
  // An interrupted sweep: one point never wrote its manifest, one was killed
  // while writing it.
  fs::remove(point("sweep_resume", "10ns", 2) + "/manifest.json");
  const std::string cut = read_text(point("sweep_resume", "100ns", 1) + "/manifest.json");
  std::ofstream(point("sweep_resume", "100ns", 1) + "/manifest.json") << cut.substr(0, cut.size() / 2);
  const auto kept = fs::last_write_time(point("sweep_resume", "10ns", 1) + "/manifest.json");
  const CliResult r = run_accel_vp("-o sweep_resume " + kGrid);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("4 points, 2 already done, 2 run, 0 failed"), std::string::npos) << r.out;
  EXPECT_EQ(fs::last_write_time(point("sweep_resume", "10ns", 1) + "/manifest.json"), kept);
  EXPECT_EQ(read_text("sweep_resume/results.csv"), full);
  // Nothing left to run.
  EXPECT_NE(run_accel_vp("-o sweep_resume " + kGrid).out.find("4 already done, 0 run"), std::string::npos);
  // Another base configuration is another experiment: every point runs again.
  const CliResult other = run_accel_vp("-o sweep_resume --set dram.write_latency=50ns " + kGrid);
  EXPECT_NE(other.out.find("4 points, 0 already done, 4 run"), std::string::npos) << other.out;
}

TEST(Sweep, SlurmModeWritesAJobArrayOfTheMissingPoints) {
  fs::remove_all("sweep_slurm");
  const std::string args = "-o sweep_slurm sweep --slurm --workload memcheck --param platform.seed=1,2,3";
  const CliResult r = run_accel_vp(args, "env PATH=/nonexistent");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("sbatch is not on PATH"), std::string::npos) << r.out;
  std::string s = read_text("sweep_slurm/sweep.sbatch");
  EXPECT_NE(s.find("#SBATCH --array=0-2\n"), std::string::npos) << s;
  EXPECT_NE(s.find("'platform.seed=3'"), std::string::npos) << s;
  // Run one point locally: the next script holds only the other two.
  ASSERT_EQ(run_accel_vp("-o sweep_slurm sweep --workload memcheck --param platform.seed=2").code, 0);
  ASSERT_EQ(run_accel_vp(args, "env PATH=/nonexistent").code, 0);
  s = read_text("sweep_slurm/sweep.sbatch");
  EXPECT_NE(s.find("#SBATCH --array=0-1\n"), std::string::npos) << s;
  EXPECT_EQ(s.find("'platform.seed=2'"), std::string::npos) << s;
}

TEST(Sweep, SlurmScriptOnlyPassesPartitionTimeAndMemoryAndSubmitsNothing) {
  fs::remove_all("sweep_slurm_opts");
  // A sbatch on PATH that would fail the test if it were called.
  fs::create_directories("sweep_slurm_opts/bin");
  std::ofstream("sweep_slurm_opts/bin/sbatch") << "#!/bin/sh\necho SBATCH-CALLED; exit 1\n";
  fs::permissions("sweep_slurm_opts/bin/sbatch", fs::perms::owner_all);
  const std::string path = "env PATH=" + fs::absolute("sweep_slurm_opts/bin").string() + ":/usr/bin:/bin";
  const CliResult r = run_accel_vp("-o sweep_slurm_opts sweep --slurm --slurm-script-only --slurm-partition debug "
                                   "--slurm-time 00:10:00 --slurm-mem 2G --workload memcheck --param platform.seed=1,2",
                                   path);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("SBATCH-CALLED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not submitted (--slurm-script-only)"), std::string::npos) << r.out;
  const std::string s = read_text("sweep_slurm_opts/sweep.sbatch");
  for (const char* line : {"#SBATCH --partition=debug\n", "#SBATCH --time=00:10:00\n", "#SBATCH --mem=2G\n"})
    EXPECT_NE(s.find(line), std::string::npos) << line << s;
  // Without --slurm the Slurm options are an error.
  EXPECT_EQ(run_accel_vp("-o sweep_slurm_opts sweep --slurm-mem 2G --workload memcheck --param platform.seed=1").code, 2);
}

TEST(Sweep, AFailedSubmissionSaysWhatToDo) {
  fs::remove_all("sweep_slurm_down");
  fs::create_directories("sweep_slurm_down/bin");
  // sbatch as it fails when no controller answers.
  std::ofstream("sweep_slurm_down/bin/sbatch")
      << "#!/bin/sh\necho 'sbatch: error: Batch job submission failed: Unable to contact slurm controller' >&2; exit 1\n";
  fs::permissions("sweep_slurm_down/bin/sbatch", fs::perms::owner_all);
  const std::string path = "env PATH=" + fs::absolute("sweep_slurm_down/bin").string() + ":/usr/bin:/bin";
  const CliResult r = run_accel_vp("-o sweep_slurm_down sweep --slurm --workload memcheck --param platform.seed=1", path);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("Unable to contact slurm controller"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("scontrol ping"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists("sweep_slurm_down/sweep.sbatch"));
}

TEST(Sweep, HasItsOwnDefaultDirectoryAndNeverSharesOneWithARun) {
  fs::remove_all("sweep_own");
  fs::create_directories("sweep_own");
  // Without -o: accel-vp-sweep in the working directory, not accel-vp-out.
  const CliResult r = run_accel_vp("sweep --workload memcheck --param platform.seed=1", "cd sweep_own &&");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::exists("sweep_own/accel-vp-sweep/results.csv"));
  EXPECT_FALSE(fs::exists("sweep_own/accel-vp-out"));
  // A single run's directory is refused.
  ASSERT_EQ(run_accel_vp("-o sweep_own/single run memcheck").code, 0);
  const CliResult mixed = run_accel_vp("-o sweep_own/single sweep --workload memcheck --param platform.seed=1");
  EXPECT_EQ(mixed.code, 2) << mixed.out;
  EXPECT_NE(mixed.out.find("holds a single run"), std::string::npos) << mixed.out;
}

TEST(Sweep, BadInputIsAClearErrorBeforeAnythingRuns) {
  struct Case {
    std::string args, message;
  };
  const Case cases[] = {
      {"--param no.such=1,2", "--param no.such: no such parameter"},
      {"--param link.generation=2,x", "link.generation"},
      {"--param link.generation", "expected name=v1,v2"},
      {"--param link.generation=", "no values"},
      {"--param link.generation=1 --param link.generation=2", "given twice"},
      {"--param link.generation=1,1", "share the directory"},
      {"--param link.generation=1 --metrics simulated_time_ns,cmp.bussy.fraction", "--metrics cmp.bussy.fraction"},
      {"--param link.generation=1 --workload nope", "--workload nope: no such workload"},
      {"--param link.generation=1 --jobs 0", "--jobs"},
  };
  for (const auto& c : cases) {
    fs::remove_all("sweep_bad");
    const CliResult r = run_accel_vp("-o sweep_bad sweep " + c.args);
    EXPECT_NE(r.code, 0) << c.args;
    EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_FALSE(fs::exists("sweep_bad/point_link.generation-1")) << c.args;
  }
}

TEST(Sweep, AFailingPointIsReportedWithItsErrorAndRunsAgainOnResume) {
  fs::remove_all("sweep_fail");
  const std::string args = "-o sweep_fail sweep --workload memcheck --param link.generation=1,9";
  const CliResult r = run_accel_vp(args);
  EXPECT_EQ(r.code, 1) << r.out;
  // The cause: its exit status and the error of its run (not the last line of its log).
  EXPECT_NE(r.out.find("point_link.generation-9 failed (exit 2) accel-vp: configuration error: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("link.generation"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("] point_link.generation-1 done in "), std::string::npos) << r.out;  // per-point progress
  EXPECT_NE(r.out.find("2 points, 0 already done, 2 run, 1 failed"), std::string::npos) << r.out;
  const std::string csv = read_text("sweep_fail/results.csv");
  EXPECT_NE(csv.find("\n9,\n"), std::string::npos) << csv;  // no value
  EXPECT_NE(run_accel_vp(args).out.find("2 points, 1 already done, 1 run, 1 failed"), std::string::npos);
}

TEST(Sweep, PerUnitMetricsMayNameUnitsTheSweptShapeAdds) {
  fs::remove_all("sweep_shape");
  const CliResult r = run_accel_vp("-o sweep_shape --set platform.cores=1 --set platform.harts_per_core=1 sweep --workload "
                                   "memcheck --param platform.harts_per_core=1,2 --metrics harts.hart1.dcache_misses.value");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(read_text("sweep_shape/results.csv"), "platform.harts_per_core,harts.hart1.dcache_misses.value\n1,\n2,0\n");
}

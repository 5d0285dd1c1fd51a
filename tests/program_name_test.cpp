// How usage and messages name the program: the suite's ./run_bench by default, else the binary's own name.
#include "cli/program_name.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "app/commands.hpp"
#include "cudabench/main.hpp"

namespace cudabench::app {
using namespace cudabench::cli;
namespace {

/// Names the program for one test, and gives the default back after it (other tests read usage texts).
struct named_as {
  explicit named_as(std::string_view name) { name_program(name); }
  ~named_as() { name_program("./run_bench"); }
};

TEST(ProgramName, DefaultIsRunBench) {
  EXPECT_EQ(program_title(), "./run_bench");
  EXPECT_EQ(program_name(), "run_bench");
  EXPECT_EQ(command_title(command_named("compare")), "./run_bench compare");
}

TEST(ProgramName, ArgvZerosFileNameOnceNamedByNoneElse) {
  const named_as unnamed("");
  name_program_from("/home/me/build/saxpy_bench");
  EXPECT_EQ(program_title(), "saxpy_bench");
  EXPECT_FALSE(program_is_cudabench());
  EXPECT_EQ(program_name(), "saxpy_bench");
  name_program_from("/elsewhere/other");  // named already: kept
  EXPECT_EQ(program_title(), "saxpy_bench");
  const std::string help = command_help("run", {"saxpy, saxpy/cpu", "--sizes=saxpy=1048576", "--axis=saxpy.n=8",
                                                       "families:", {{"saxpy   2", "y = a x + y"}}});
  EXPECT_EQ(help.rfind("usage: saxpy_bench [options]\n", 0), 0u) << help;
  EXPECT_NE(help.find("saxpy_bench compare BASELINE.json CURRENT.json [options]   (saxpy_bench compare --help)"), std::string::npos);
  EXPECT_NE(help.find("(e.g. saxpy, saxpy/cpu)"), std::string::npos);
  EXPECT_NE(help.find("--sizes=saxpy=1048576"), std::string::npos);
  EXPECT_NE(help.find("--axis=saxpy.n=8"), std::string::npos);
  EXPECT_NE(help.find("\nfamilies:\n  saxpy   2" + std::string(14, ' ') + "y = a x + y\n"), std::string::npos) << help;
  EXPECT_EQ(help.find("run_bench"), std::string::npos) << help;
  EXPECT_EQ(help.find("conv2d"), std::string::npos) << help;
}

TEST(ProgramName, TheInstalledReportBinaryNamesItself) {
  const named_as unnamed("");
  name_program_from("/usr/local/bin/cudabench-report");
  EXPECT_EQ(program_title(), "cudabench-report");
  EXPECT_EQ(command_title(command_named("compare")), "cudabench-report compare");
  const std::string help = command_help("compare", {});
  EXPECT_EQ(help.rfind("usage: cudabench-report compare ", 0), 0u) << help;
  EXPECT_EQ(help.find("run_bench"), std::string::npos) << help;
  EXPECT_TRUE(program_is_cudabench());  // bisect's defaults are still the suite's
}

TEST(ProgramName, TheReportBinaryStartedByTheSuitesScriptIsTheSuite) {
  const named_as unnamed("");
  name_program_from("./run_bench");  // run_bench: exec -a ./run_bench build/app/cudabench-report
  EXPECT_EQ(program_title(), "./run_bench");
  EXPECT_EQ(program_name(), "run_bench");
}

TEST(ProgramName, TheSuiteNamedAfterItsScript) {
  const named_as suite("./run_bench");
  name_program_from("/repo/build/bench/cudabench");
  EXPECT_EQ(program_title(), "./run_bench");
  EXPECT_EQ(program_name(), "run_bench");
}

TEST(ProgramName, HelpExamplesComeFromTheRegisteredFamilies) {
  // unit_tests registers registry_test.cpp's families (test_z_first ... test_wide), none of the suite's.
  const help_examples ex = program_help_examples("quick");
  EXPECT_EQ(ex.filter, "test_wide, test_wide/v");
  EXPECT_EQ(ex.sizes, "--sizes=test_wide=1");
  EXPECT_EQ(ex.axis, "--axis=test_streams.streams=2,4");  // not a size axis, which --sizes is for
  EXPECT_EQ(ex.families_title, "families (cases in preset quick):");
  ASSERT_FALSE(ex.families.empty());
  EXPECT_EQ(ex.families.front().first.rfind("test_z_first ", 0), 0u) << ex.families.front().first;
  const auto sized = std::find_if(ex.families.begin(), ex.families.end(), [](const auto& f) { return f.first.starts_with("test_sized "); });
  ASSERT_NE(sized, ex.families.end());
  EXPECT_EQ(sized->second, "a family with a size axis");
}

TEST(ProgramName, DocsKeepTheSuitesExamples) {
  const std::string md = options_reference_markdown();
  EXPECT_NE(md.find("e.g. conv2d, image/pinned"), std::string::npos);
  EXPECT_EQ(md.find("{filter}"), std::string::npos);
  EXPECT_EQ(md.find("{sizes}"), std::string::npos);
  EXPECT_EQ(md.find("{axis}"), std::string::npos);
}

}  // namespace
}  // namespace cudabench::app

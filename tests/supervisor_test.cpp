// The supervisor's side of a worker's results file: a line per finished case, appended, read back whatever
// became of the worker.
#include "app/supervisor.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "results/results.hpp"
#include "results/results_json.hpp"
#include "results/run_builder.hpp"

using namespace cudabench;

namespace {
/// The fixture run with only its case `i`, as one line of JSON (as a worker records a finished case).
std::string one_case_line(const run_result& run, std::size_t i) {
  run_result one = run;
  one.cases = {run.cases.at(i)};
  one.index_cases();
  return to_json(one).dump() + "\n";
}
}  // namespace

TEST(Supervisor, AWorkersCasesAreReadLineByLineACutOffLastLineIsACaseNotFinished) {
  const run_result run = load_run(std::string(CUDABENCH_FIXTURES) + "/synthetic_base.json");
  ASSERT_GE(run.cases.size(), 3u);
  const std::string path = ::testing::TempDir() + "supervisor_test_worker.jsonl";
  const std::string third = one_case_line(run, 2);
  {
    std::ofstream out(path, std::ios::trunc);
    out << one_case_line(run, 0) << one_case_line(run, 1) << third.substr(0, third.size() / 2);  // killed mid-line
  }
  ::testing::internal::CaptureStderr();
  const std::optional<run_result> read = app::read_worker_results(path);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");  // a cut-off last line is no problem to report
  ASSERT_TRUE(read);
  ASSERT_EQ(read->cases.size(), 2u);
  EXPECT_EQ(read->cases[0].name, run.cases[0].name);
  EXPECT_EQ(read->cases[1].name, run.cases[1].name);
  EXPECT_EQ(read->cases[1].repetitions.size(), run.cases[1].repetitions.size());
  // As recorded: the summary is the run's assembly's to make, once (run_builder::finish).
  EXPECT_TRUE(read->cases[1].samples_s.empty());
  EXPECT_EQ(read->cases[1].median_s, 0);
  const run_result assembled = run_builder(*read).finish();
  EXPECT_NEAR(assembled.cases[1].median_s, run.cases[1].median_s, 1e-12);
  ASSERT_EQ(assembled.cases[1].samples_s.size(), run.cases[1].samples_s.size());
  for (std::size_t i = 0; i < run.cases[1].samples_s.size(); ++i)
    EXPECT_NEAR(assembled.cases[1].samples_s[i], run.cases[1].samples_s[i], 1e-12);
  std::filesystem::remove(path);
  EXPECT_FALSE(app::read_worker_results(path));  // a worker that finished no case left no file
}

// Rounds: the round as the statistics' unit, the shuffled orders, the record of rounds in the results, and
// the memo the rounds of a run share.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "app/rounds.hpp"
#include "cudabench/run_memo.hpp"
#include "io/atomic_file.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"
#include "results/results_model.hpp"

using namespace cudabench;

namespace {
case_result with_repetitions(const std::vector<std::pair<int, double>>& round_and_time) {
  case_result c;
  c.name = "fam/v/1";
  for (auto [round, t] : round_and_time) {
    repetition r;
    r.real_time_s = t;
    r.record.emplace().round = round;
    c.repetitions.push_back(r);
  }
  summarize_case(c);
  return c;
}
}  // namespace

// A round's value is its lower median: the faster of two repetitions (a slow one is interference), the middle
// of three.
TEST(Rounds, TheRoundIsTheUnitOfTheStatistics) {
  const case_result c = with_repetitions({{1, 1.0}, {1, 3.0}, {2, 5.0}, {2, 5.0}, {3, 12.0}, {3, 10.0}});
  EXPECT_EQ(c.rounds, 3u);
  EXPECT_EQ(c.samples_s, (std::vector<double>{1.0, 5.0, 10.0}));
  EXPECT_DOUBLE_EQ(c.median_s, 5.0);
  const case_result three = with_repetitions({{1, 4.0}, {1, 9.0}, {1, 2.0}, {2, 3.0}, {2, 3.5}, {2, 30.0}});
  EXPECT_EQ(three.samples_s, (std::vector<double>{4.0, 3.5}));
}

TEST(Rounds, OneRoundOrNoneKeepsEachRepetition) {
  const case_result one = with_repetitions({{1, 1.0}, {1, 2.0}, {1, 4.0}});
  EXPECT_EQ(one.samples_s, (std::vector<double>{1.0, 2.0, 4.0}));
  const case_result none = with_repetitions({{0, 1.0}, {0, 2.0}});
  EXPECT_EQ(none.rounds, 0u);
  EXPECT_EQ(none.samples_s, (std::vector<double>{1.0, 2.0}));
  // A file mixing rows with and without a round is read per repetition, not split into rounds.
  const case_result mixed = with_repetitions({{0, 1.0}, {1, 2.0}, {2, 3.0}});
  EXPECT_EQ(mixed.samples_s.size(), 3u);
}

TEST(Rounds, OrdersArePermutationsFixedBySeedAndRound) {
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i) names.push_back("case" + std::to_string(i));
  std::set<std::vector<std::string>> orders;
  for (int round = 1; round <= 5; ++round) {
    auto order = app::round_order(names, 42, round);
    EXPECT_EQ(order, app::round_order(names, 42, round));
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    auto want = names;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(sorted, want);
    orders.insert(order);
  }
  EXPECT_EQ(orders.size(), 5u);
  EXPECT_NE(app::round_order(names, 42, 1), app::round_order(names, 43, 1));
}

TEST(Rounds, TheResultsRecordRoundsSeedAndSetUpTimes) {
  run_result run;
  run.device.emplace();
  run.settings.preset = "nightly";
  run.settings.repetitions = 4;
  run.settings.rounds = 2;
  run.settings.shuffle_seed = 1234567;
  case_result c = with_repetitions({{1, 1e-3}, {1, 1.1e-3}, {2, 1.2e-3}, {2, 1.3e-3}});
  c.repetitions[0].record->setup_s = 0.5;
  c.repetitions[0].record->check_s = 0.25;
  c.repetitions[2].record->checked = false;
  run.selection.push_back(c);
  run.cases.push_back(c);
  run.index_cases();
  const run_result back = parse_run_text(to_json(run).dump(), "rounds.json");
  EXPECT_EQ(back.settings.rounds, 2);
  ASSERT_TRUE(back.settings.shuffle_seed.has_value());
  EXPECT_EQ(*back.settings.shuffle_seed, 1234567u);
  ASSERT_EQ(back.cases.size(), 1u);
  const case_result& b = back.cases[0];
  ASSERT_EQ(b.repetitions.size(), 4u);
  EXPECT_EQ(b.repetitions[3].record->round, 2);
  EXPECT_DOUBLE_EQ(b.repetitions[0].record->setup_s, 0.5);
  EXPECT_DOUBLE_EQ(b.repetitions[0].record->check_s, 0.25);
  EXPECT_FALSE(b.repetitions[2].record->checked);
  EXPECT_TRUE(b.repetitions[0].record->checked);
  EXPECT_EQ(b.samples_s.size(), 2u);
}

TEST(Rounds, TheMemoComputesOncePerRun) {
  int computed = 0;
  auto compute = [&] { return "value " + std::to_string(++computed); };
  ::unsetenv(run_memo_environment);
  EXPECT_EQ(run_memo("k", compute), "value 1");
  EXPECT_EQ(run_memo("k", compute), "value 2");  // no run: nothing kept
  const std::string dir = make_temp_directory("memo-test");
  ::setenv(run_memo_environment, dir.c_str(), 1);
  EXPECT_EQ(run_memo("algo/16384/dev0", compute), "value 3");
  EXPECT_EQ(run_memo("algo/16384/dev0", compute), "value 3");
  EXPECT_EQ(run_memo("algo/8192/dev0", compute), "value 4");
  EXPECT_EQ(run_memo("multi\nline key", compute), "value 5");  // not kept, still answered
  EXPECT_EQ(run_memo("multi\nline key", compute), "value 6");
  ::unsetenv(run_memo_environment);
  std::filesystem::remove_all(dir);
}

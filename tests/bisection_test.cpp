// Tests of analysis/bisection: the cases bisected, the classification rule, pooling and the search order.
#include "analysis/bisection.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <optional>

using namespace cudabench;

namespace {
case_result measured(const std::string& name, std::vector<double> times_s) {
  case_result c;
  c.name = name;
  for (double t : times_s) c.repetitions.push_back({.real_time_s = t});
  summarize_case(c);
  return c;
}

run_result run_of(std::vector<case_result> cases) {
  run_result r;
  r.cases = std::move(cases);
  r.index_cases();
  return r;
}

/// Runs the search against a known first bad candidate; the tested candidates in order.
std::vector<std::size_t> search(std::size_t n, std::size_t first_bad, const std::vector<std::size_t>& unbuildable,
                                bisection& b) {
  std::vector<std::size_t> order;
  while (const std::optional<std::size_t> next = b.next()) {
    order.push_back(*next);
    if (std::find(unbuildable.begin(), unbuildable.end(), *next) != unbuildable.end())
      b.skip(*next);
    else
      b.mark(*next, *next >= first_bad);
    if (order.size() > n) break;  // a search that never ends fails below
  }
  return order;
}
}  // namespace

TEST(Bisection, OnlyRegressionsAreBisected) {
  comparison c;
  c.cases.push_back({.name = "a", .v = verdict::regression, .base_median_s = 1, .cur_median_s = 1.3});
  c.cases.push_back({.name = "b", .v = verdict::improvement, .base_median_s = 1, .cur_median_s = 0.7});
  c.cases.push_back({.name = "c", .v = verdict::inconclusive, .base_median_s = 1, .cur_median_s = 1.3});
  const std::vector<bisected_case> cases = regressed_cases(c);
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0].name, "a");
  EXPECT_NEAR(cases[0].change(), 0.3, 1e-12);
}

TEST(Bisection, ARevisionIsBadAtHalfTheChangeInMostCases) {
  const std::vector<bisected_case> cases{{"a", 1.0, 1.3}, {"b", 2.0, 2.4}, {"c", 1.0, 1.1}};
  // a: +16% (>= half of +30%) bad; b: +9% (< half of +20%) good; c: +6% (>= half of +10%) bad: 2 of 3.
  const run_result none;  // the first measurement of the good end stands
  const revision_verdict bad =
      classify_revision(cases, run_of({measured("a", {1.16}), measured("b", {2.18}), measured("c", {1.06})}), none);
  EXPECT_EQ(bad.bad_votes, 2u);
  EXPECT_TRUE(bad.bad);
  ASSERT_TRUE(bad.changes[1]);
  EXPECT_NEAR(*bad.changes[1], 0.09, 1e-9);
  // Only a votes bad, and c is missing (votes good): 1 of 3.
  const revision_verdict good = classify_revision(cases, run_of({measured("a", {1.2}), measured("b", {2.1})}), none);
  EXPECT_EQ(good.bad_votes, 1u);
  EXPECT_FALSE(good.bad);
  EXPECT_FALSE(good.changes[2]);
}

TEST(Bisection, HalfTheCasesIsNotAMajority) {
  const std::vector<bisected_case> cases{{"a", 1.0, 1.3}, {"b", 1.0, 1.3}};
  EXPECT_FALSE(classify_revision(cases, run_of({measured("a", {1.3}), measured("b", {1.0})}), {}).bad);
  EXPECT_TRUE(classify_revision(cases, run_of({measured("a", {1.3}), measured("b", {1.2})}), {}).bad);
}

TEST(Bisection, AFailedCaseVotesGood) {
  const std::vector<bisected_case> cases{{"a", 1.0, 1.3}};
  run_result r = run_of({measured("a", {2.0})});
  r.cases[0].status = case_status::failed;
  EXPECT_FALSE(classify_revision(cases, r, {}).bad);
}

TEST(Bisection, TheChangeIsFromTheGoodEndMeasuredBesideIt) {
  // The machine got 40% slower since the ends were measured: a good revision measured beside a fresh good
  // end stays good, and a bad one is still bad.
  const std::vector<bisected_case> cases{{"a", 1.0, 1.3}};
  const run_result fresh_good = run_of({measured("a", {1.4})});
  const revision_verdict good = classify_revision(cases, run_of({measured("a", {1.42})}), fresh_good);
  EXPECT_FALSE(good.bad);
  EXPECT_NEAR(*good.changes[0], 1.42 / 1.4 - 1, 1e-9);
  EXPECT_TRUE(classify_revision(cases, run_of({measured("a", {1.82})}), fresh_good).bad);
  EXPECT_TRUE(
      classify_revision(cases, run_of({measured("a", {1.42})}), {}).bad);  // without it, drift looks like the change
}

TEST(Bisection, PoolingKeepsEveryProcessesRepetitions) {
  std::vector<run_result> runs;
  runs.push_back(run_of({measured("a", {1.0, 1.1}), measured("b", {5.0})}));
  runs.push_back(run_of({measured("a", {1.2, 1.3})}));
  runs.push_back(run_of({measured("a", {1.4}), measured("c", {7.0})}));
  const run_result pooled = pool_runs(std::move(runs));
  ASSERT_NE(pooled.find("a"), nullptr);
  EXPECT_EQ(pooled.find("a")->samples_s, (std::vector<double>{1.0, 1.1, 1.2, 1.3, 1.4}));
  EXPECT_DOUBLE_EQ(pooled.find("a")->median_s, 1.2);
  ASSERT_NE(pooled.find("c"), nullptr);
  EXPECT_EQ(pooled.find("b")->samples_s.size(), 1u);
}

TEST(Bisection, PoolingKeepsEachProcesssRoundsApart) {
  auto with_rounds = [](std::vector<std::pair<int, double>> reps) {
    case_result c = measured("a", {});
    for (auto [round, t] : reps) {
      repetition r;
      r.real_time_s = t;
      r.record.emplace().round = round;
      c.repetitions.push_back(r);
    }
    return c;
  };
  std::vector<run_result> runs;
  runs.push_back(run_of({with_rounds({{1, 1.0}, {2, 2.0}})}));
  runs.push_back(run_of({with_rounds({{1, 3.0}, {2, 4.0}})}));
  const run_result pooled = pool_runs(std::move(runs));
  EXPECT_EQ(pooled.find("a")->samples_s, (std::vector<double>{1.0, 2.0, 3.0, 4.0}));
}

TEST(Bisection, PooledProcessesWithoutRoundsAreARoundEach) {
  // Processes that recorded no rounds (one repetition or several each, as bisect's and the PR flow's ends run
  // them): each becomes a round, so the pooled case's samples are the processes' medians and compare can read
  // the spread between processes from them.
  auto process = [](std::vector<double> times) {
    case_result c = measured("a", {});
    for (double t : times) {
      repetition r;
      r.real_time_s = t;
      r.record.emplace();
      c.repetitions.push_back(r);
    }
    return c;
  };
  std::vector<run_result> runs;
  runs.push_back(run_of({process({1.0, 1.2, 1.1})}));
  runs.push_back(run_of({process({2.0})}));
  runs.push_back(run_of({process({3.0, 3.2})}));
  const run_result pooled = pool_runs(std::move(runs));
  EXPECT_EQ(pooled.find("a")->rounds, 3u);
  EXPECT_EQ(pooled.find("a")->samples_s, (std::vector<double>{1.1, 2.0, 3.0}));
}

TEST(Bisection, PooledGoogleBenchmarkProcessesAreARoundEach) {
  // A plain BENCHMARK() of a binary of ours (described, its rows carrying none of our records, only the
  // iterations Google Benchmark ran): each process is a round all the same, so the pull-request flow judges such
  // a case by the spread between its processes, as it judges the suite's own cases, and one disturbed process is
  // one sample. A foreign binary's rows stay pooled repetitions (PoolingKeepsEveryProcessesRepetitions).
  auto process = [](std::vector<double> times) {
    case_result c = measured("BM_spin", {});
    c.described = true;
    c.host_bound = true;
    for (double t : times) c.repetitions.push_back({.real_time_s = t, .iterations = 1500});
    return c;
  };
  std::vector<run_result> runs;
  for (double t : {1.0, 1.6, 1.02, 0.99, 1.01}) runs.push_back(run_of({process({t})}));
  const run_result pooled = pool_runs(std::move(runs));
  EXPECT_EQ(pooled.find("BM_spin")->rounds, 5u);
  EXPECT_EQ(pooled.find("BM_spin")->samples_s, (std::vector<double>{1.0, 1.6, 1.02, 0.99, 1.01}));
  for (const repetition& r : pooled.find("BM_spin")->repetitions) EXPECT_EQ(r.iterations, 1500u);
}

TEST(Bisection, FindsEveryFirstBadCandidate) {
  for (std::size_t n : {1u, 2u, 3u, 16u, 17u}) {
    for (std::size_t first_bad = 0; first_bad < n; ++first_bad) {
      bisection b(n);
      const std::vector<std::size_t> order = search(n, first_bad, {}, b);
      ASSERT_TRUE(b.found()) << n << " " << first_bad;
      EXPECT_EQ(b.range().first, first_bad) << n;
      EXPECT_LE(order.size(), std::size_t(std::bit_width(n))) << n << " " << first_bad;
    }
  }
}

TEST(Bisection, StepsLeftBoundsTheTestsStillToRun) {
  bisection b(16);
  EXPECT_EQ(b.steps_left(), 4u);  // 15 candidates before the bad end
  EXPECT_EQ(b.next(), 7u);
  b.mark(7, false);
  EXPECT_EQ(b.steps_left(), 3u);  // 8..14
}

TEST(Bisection, AnUnbuildableMiddleIsSteppedAround) {
  // 16 commits after good, the 11th (index 10) is the first bad and the one after it does not build.
  bisection b(16);
  const std::vector<std::size_t> order = search(16, 10, {11}, b);
  EXPECT_EQ(order, (std::vector<std::size_t>{7, 11, 12, 9, 10}));
  ASSERT_TRUE(b.found());
  EXPECT_EQ(b.range().first, 10u);
}

TEST(Bisection, SkippedRevisionsNextToTheAnswerLeaveARange) {
  bisection b(8);
  search(8, 4, {3, 4}, b);  // the first bad and the one before it do not build
  EXPECT_FALSE(b.found());
  EXPECT_EQ(b.range(), (std::pair<std::size_t, std::size_t>{3, 5}));
  EXPECT_EQ(b.next(), std::nullopt);
}

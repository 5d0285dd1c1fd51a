// Tests of results/run_builder: one pooling rule for rounds, bisect's processes and --devices.
#include "results/run_builder.hpp"

#include <gtest/gtest.h>

#include "analysis/bisection.hpp"
#include "app/rounds.hpp"

using namespace cudabench;

namespace {
/// A case measured once, in round 1 of its process, by code of digest `digest`.
case_result measured_by(const std::string& digest, double time_s) {
  case_result c;
  c.name = "image/sync";
  c.described = true;
  run_record rec;
  rec.round = 1;
  c.repetitions.push_back({.real_time_s = time_s, .record = rec});
  c.code.emplace();
  c.code->digest = digest;
  return c;
}

run_result run_of(case_result c) {
  run_result r;
  r.cases.push_back(std::move(c));
  r.finish_cases();
  return r;
}

/// What a pooled case says of its code identity and repetitions.
struct pooled_answer {
  std::string digest;
  bool problem = false;
  std::size_t repetitions = 0;
};

pooled_answer answer_of(const case_result& c) {
  return {c.code ? c.code->digest : "?", c.code && !c.code->problem.empty(), c.repetitions.size()};
}
}  // namespace

TEST(RunBuilder, DifferingCodeIdentityIsUnknownThroughEveryUser) {
  // bisect: two processes of a revision pooled
  std::vector<run_result> processes{run_of(measured_by("aaaa", 1.0)), run_of(measured_by("bbbb", 1.1))};
  const pooled_answer bisect = answer_of(*pool_runs(std::move(processes)).find("image/sync"));
  // rounds: two rounds of a supervised run merged
  app::supervised_run all, second;
  all.cases.emplace("image/sync", measured_by("aaaa", 1.0));
  second.cases.emplace("image/sync", measured_by("bbbb", 1.1));
  app::merge_round(all, std::move(second), 2, 2);
  const pooled_answer rounds = answer_of(all.cases.at("image/sync"));
  // the builder itself
  run_builder b(run_of(measured_by("aaaa", 1.0)));
  b.add(measured_by("bbbb", 1.1), origin::device);
  const pooled_answer built = answer_of(*b.finish().find("image/sync"));
  for (const pooled_answer& a : {bisect, rounds, built}) {
    EXPECT_EQ(a.digest, "");
    EXPECT_TRUE(a.problem);
    EXPECT_EQ(a.repetitions, 2u);
  }
}

TEST(RunBuilder, TheSameCodeIdentityIsKept) {
  std::vector<run_result> processes{run_of(measured_by("aaaa", 1.0)), run_of(measured_by("aaaa", 1.1))};
  const run_result pooled = pool_runs(std::move(processes));
  EXPECT_EQ(pooled.find("image/sync")->code->digest, "aaaa");
  EXPECT_EQ(pooled.find("image/sync")->rounds, 2u);  // each process's round told apart
}

TEST(RunBuilder, AFailureInAnyOriginEndsTheCaseAndOutranksASkip) {
  run_builder b(run_of(measured_by("aaaa", 1.0)));
  case_result skipped = measured_by("aaaa", 1.1);
  skipped.status = case_status::skipped;
  skipped.message = "no GPU";
  case_result failed = measured_by("aaaa", 1.2);
  failed.status = case_status::failed;
  failed.message = "check failed";
  b.add(skipped, origin::process);
  b.add(failed, origin::process);
  b.add(measured_by("aaaa", 1.3), origin::process);
  const run_result r = b.finish();
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].status, case_status::failed);
  EXPECT_EQ(r.cases[0].message, "check failed");
  EXPECT_EQ(r.cases[0].repetitions.size(), 4u);
}

TEST(RunBuilder, ANewNameIsAppendedInOrder) {
  run_builder b(run_of(measured_by("aaaa", 1.0)));
  case_result other = measured_by("cccc", 2.0);
  other.name = "image/async";
  b.add(other, origin::device);
  const run_result r = b.finish();
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[1].name, "image/async");
  EXPECT_EQ(r.cases[1].median_s, 2.0);
  EXPECT_EQ(r.find("image/async"), &r.cases[1]);
}

TEST(RunBuilder, LimitsAddTheirFractionWithoutSummarizingAgain) {
  case_result c = measured_by("aaaa", 1e-3);
  c.limit = "limits/read";
  c.repetitions[0].counters["bytes_per_second"] = 1e12;
  run_result run = run_of(c);
  run.cases[0].median_s = 42;  // a marker: a second summary would put the repetitions' median back
  apply_limits(run, {{"limits/read", {.rate = 2e12, .unit = "B/s"}}}, "this run");
  EXPECT_EQ(run.cases[0].median_s, 42);
  EXPECT_NEAR(run.cases[0].counters.at("limit_fraction"), 0.5, 1e-12);  // the summary's counters follow
  EXPECT_NEAR(run.cases[0].repetitions[0].counters.at("limit_fraction"), 0.5, 1e-12);
}

TEST(RunBuilder, FinishSummarizesWhatTheLimitsAdded) {
  case_result c = measured_by("aaaa", 1e-3);
  c.limit = "limits/read";
  c.repetitions[0].counters["bytes_per_second"] = 1e12;
  run_builder b(run_result{});
  b.add(c, origin::round);
  b.set_limits({{"limits/read", {.rate = 2e12, .unit = "B/s"}}}, "this run");
  const run_result run = b.finish();
  EXPECT_NEAR(run.cases[0].counters.at("limit_fraction"), 0.5, 1e-12);
  EXPECT_EQ(run.cases[0].median_s, 1e-3);
  EXPECT_EQ(run.limits.at("limits/read").from, "this run");
}

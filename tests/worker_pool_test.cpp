// Tests of harness/worker_pool: every worker runs once per round, rounds repeat, errors come back.
#include "harness/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

TEST(WorkerPool, EachWorkerRunsOncePerRound) {
  std::atomic<int> runs{0};
  std::vector<int> seen(4, 0);
  harness::worker_pool pool(4, [&](int i) { ++runs; ++seen[i]; });
  for (int round = 0; round < 50; ++round) pool.run_round();
  EXPECT_EQ(runs.load(), 200);
  for (int s : seen) EXPECT_EQ(s, 50);
}

TEST(WorkerPool, AJobsExceptionReachesTheCaller) {
  harness::worker_pool pool(3, [](int i) { if (i == 1) throw std::runtime_error("worker 1 failed"); });
  EXPECT_THROW(pool.run_round(), std::runtime_error);
  EXPECT_THROW(pool.run_round(), std::runtime_error);  // the pool survives a failed round
}

TEST(WorkerPool, JobsRunInsideTheCallersCaseRangeAndStage) {
  // NVTX ranges belong to a thread: each job opens the driving thread's case range and stage again, so a
  // profiler's NVTX filter finds the worker's launches under the case.
  std::vector<harness::open_ranges> seen(3);
  harness::worker_pool pool(3, [&](int i) { seen[i] = harness::worker_ranges(); });
  {
    harness::case_range c("dot/threads_streams/16777216/4");
    harness::phase_range warm(harness::phase::warmup);
    pool.run_round();
    for (auto& r : seen) {
      EXPECT_EQ(r.case_name, "dot/threads_streams/16777216/4");
      EXPECT_EQ(r.stage, harness::phase::warmup);
    }
    {
      harness::phase_range measure(harness::phase::measure);
      pool.run_round();
      for (auto& r : seen) EXPECT_EQ(r.stage, harness::phase::measure);
    }
    pool.run_round();
    for (auto& r : seen) EXPECT_EQ(r.stage, harness::phase::warmup);  // the stage closed, the previous one is back
  }
  pool.run_round();  // no case open: the jobs run without ranges
  for (auto& r : seen) EXPECT_EQ(r.case_name, "");
}

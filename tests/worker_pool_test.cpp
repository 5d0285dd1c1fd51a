// Tests of measure/worker_pool: every worker runs once per round, rounds repeat, errors come back.
#include "measure/worker_pool.hpp"
#include "measure/nvtx_ranges.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

TEST(WorkerPool, EachWorkerRunsOncePerRound) {
  std::atomic<int> runs{0};
  std::vector<int> seen(4, 0);
  cudabench::worker_pool pool(4, [&](int i) { ++runs; ++seen[i]; });
  for (int round = 0; round < 50; ++round) pool.run_round();
  EXPECT_EQ(runs.load(), 200);
  for (int s : seen) EXPECT_EQ(s, 50);
}

TEST(WorkerPool, AJobsExceptionReachesTheCaller) {
  cudabench::worker_pool pool(3, [](int i) { if (i == 1) throw std::runtime_error("worker 1 failed"); });
  EXPECT_THROW(pool.run_round(), std::runtime_error);
  EXPECT_THROW(pool.run_round(), std::runtime_error);  // the pool survives a failed round
}

TEST(WorkerPool, JobsRunInsideTheCallersCaseRangeAndStage) {
  // NVTX ranges belong to a thread: each job opens the driving thread's case range and stage again, so a
  // profiler's NVTX filter finds the worker's launches under the case.
  std::vector<cudabench::open_ranges> seen(3);
  cudabench::worker_pool pool(3, [&](int i) { seen[i] = cudabench::worker_ranges(); });
  {
    cudabench::case_range c("dot/threads_streams/16777216/4");
    cudabench::phase_range warm(cudabench::phase::warmup);
    pool.run_round();
    for (auto& r : seen) {
      EXPECT_EQ(r.case_name, "dot/threads_streams/16777216/4");
      EXPECT_EQ(r.stage, cudabench::phase::warmup);
    }
    {
      cudabench::phase_range measure(cudabench::phase::measure);
      pool.run_round();
      for (auto& r : seen) EXPECT_EQ(r.stage, cudabench::phase::measure);
    }
    pool.run_round();
    for (auto& r : seen) EXPECT_EQ(r.stage, cudabench::phase::warmup);  // the stage closed, the previous one is back
  }
  pool.run_round();  // no case open: the jobs run without ranges
  for (auto& r : seen) EXPECT_EQ(r.case_name, "");
}

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

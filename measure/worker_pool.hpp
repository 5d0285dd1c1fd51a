// A fixed set of host threads that run one job each per round, for a fixture that drives its case from
// several host threads (dot/threads_streams does): each job runs inside the case's NVTX range and stage.
#pragma once

#include <functional>
#include <memory>

namespace cudabench {

/// Threads are created once, in the fixture's constructor (outside any timed region); run_round() wakes
/// them and waits for all. A profiler's NVTX filter finds a worker's launches under the case's range.
/// Owns threads, so it is neither copyable nor movable.
class worker_pool {
 public:
  worker_pool(int workers, std::function<void(int)> job);
  ~worker_pool();
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;
  /// Runs job(i) on worker i for every worker; rethrows the first exception a job threw.
  void run_round();

 private:
  struct threads;
  std::unique_ptr<threads> threads_;
};

}  // namespace cudabench

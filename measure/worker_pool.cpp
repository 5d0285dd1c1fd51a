// The worker pool's threads: each round, every worker opens the driving thread's ranges again and runs its job.
#include "measure/worker_pool.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "measure/nvtx_ranges.hpp"

namespace cudabench {

struct worker_pool::threads {
  std::function<void(int)> job;
  std::vector<std::thread> pool;
  std::mutex m;
  std::condition_variable wake, done;
  unsigned long generation = 0;
  int pending = 0;
  open_ranges ranges;  ///< the caller's ranges for this round
  bool stopping = false;
  std::exception_ptr error;

  void loop(int i) {
    unsigned long seen = 0;
    for (;;) {
      open_ranges mine;
      {
        std::unique_lock<std::mutex> l(m);
        wake.wait(l, [&] { return stopping || generation != seen; });
        if (stopping) return;
        seen = generation;
        mine = ranges;
      }
      std::exception_ptr e;
      try {
        mirrored_ranges mirror(mine);
        job(i);
      } catch (...) { e = std::current_exception(); }
      std::lock_guard<std::mutex> l(m);
      if (e && !error) error = e;
      if (--pending == 0) done.notify_one();
    }
  }
};

worker_pool::worker_pool(int workers, std::function<void(int)> job) : threads_(std::make_unique<threads>()) {
  threads_->job = std::move(job);
  for (int i = 0; i < workers; ++i) threads_->pool.emplace_back([t = threads_.get(), i] { t->loop(i); });
}

worker_pool::~worker_pool() {
  {
    std::lock_guard<std::mutex> l(threads_->m);
    threads_->stopping = true;
  }
  threads_->wake.notify_all();
  for (auto& t : threads_->pool) t.join();
}

void worker_pool::run_round() {
  threads& t = *threads_;
  std::unique_lock<std::mutex> l(t.m);
  ++t.generation;
  t.ranges = driving_ranges();
  t.pending = int(t.pool.size());
  t.error = nullptr;
  t.wake.notify_all();
  t.done.wait(l, [&] { return t.pending == 0; });
  if (t.error) std::rethrow_exception(t.error);
}

}  // namespace cudabench

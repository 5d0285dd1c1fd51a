// A fixed set of host threads that run one job each per round (cases driven from several host threads).
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "cudabench/nvtx.hpp"

namespace cudabench {

/// Threads are created once, outside any timed region; run_round() wakes them and waits for all. Each job
/// runs inside the caller's case range and stage, opened again on the worker's thread (mirrored_ranges).
/// Owns threads, so it is neither copyable nor movable.
class worker_pool {
 public:
  worker_pool(int workers, std::function<void(int)> job) : job_(std::move(job)) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this, i] { loop(i); });
  }
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;
  ~worker_pool() {
    { std::lock_guard<std::mutex> l(m_); stopping_ = true; }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }
  /// Runs job(i) on worker i for every worker; rethrows the first exception a job threw.
  void run_round() {
    std::unique_lock<std::mutex> l(m_);
    ++generation_;
    ranges_ = driving_ranges();
    pending_ = int(threads_.size());
    error_ = nullptr;
    wake_.notify_all();
    done_.wait(l, [this] { return pending_ == 0; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void loop(int i) {
    unsigned long seen = 0;
    for (;;) {
      open_ranges ranges;
      {
        std::unique_lock<std::mutex> l(m_);
        wake_.wait(l, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        ranges = ranges_;
      }
      std::exception_ptr e;
      try {
        mirrored_ranges mirror(ranges);
        job_(i);
      } catch (...) { e = std::current_exception(); }
      std::lock_guard<std::mutex> l(m_);
      if (e && !error_) error_ = e;
      if (--pending_ == 0) done_.notify_one();
    }
  }
  std::function<void(int)> job_;
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable wake_, done_;
  unsigned long generation_ = 0;
  int pending_ = 0;
  open_ranges ranges_;  ///< the caller's ranges for this round
  bool stopping_ = false;
  std::exception_ptr error_;
};

}  // namespace cudabench

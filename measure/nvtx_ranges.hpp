// The harness's side of NVTX: the case range, the observer that sees every range (the --trace recorder),
// and the driving thread's open ranges that worker threads open again around their jobs.
#pragma once

#include <nvtx3/nvtx3.hpp>

#include <atomic>
#include <cstdlib>
#include <optional>
#include <string>

#include "cudabench/nvtx.hpp"

// GCC 12 and 13 warn that a range held in std::optional (mirrored_ranges) "may be used uninitialized" once
// inlined; it is engaged before use. Silenced for this header only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace cudabench {

/// The case range's name: the case name, with '/' replaced by $CUDABENCH_NVTX_SEPARATOR when that is set
/// (Nsight Compute's --nvtx-include reads '/' as range nesting, so profiling scripts set ':').
inline std::string nvtx_case_name(std::string name) {
  static const char* sep = std::getenv("CUDABENCH_NVTX_SEPARATOR");
  if (sep && *sep)
    for (auto& ch : name)
      if (ch == '/') ch = *sep;
  return name;
}

/// Sees the ranges of the project open and close, on every thread (the --trace recorder is one).
class range_observer {
 public:
  virtual ~range_observer() = default;
  /// A range opened on the calling thread; `category` is "case", "stage" or "phase". Returns whether it
  /// wants to be told when that range closes.
  virtual bool opened(const char* name, const char* category) noexcept = 0;
  /// The innermost range it wanted on the calling thread closed.
  virtual void closed() noexcept = 0;
};

/// The observer ranges report to (none: null). Set it while no range is open.
inline std::atomic<range_observer*>& current_range_observer() noexcept {
  static std::atomic<range_observer*> observer{nullptr};
  return observer;
}

/// Tells the current observer, if any, that a range opened; returns the observer to tell when it closes.
inline range_observer* report_opened(const char* name, const char* category) noexcept {
  range_observer* o = current_range_observer().load(std::memory_order_acquire);
  return o && o->opened(name, category) ? o : nullptr;
}

/// The case range and stage (setup, verify, warmup, measure, traced sample) open on the thread that drives
/// the cases.
/// NVTX ranges belong to a thread, so worker threads open them again around their jobs (worker_pool does):
/// a profiler's NVTX filter then finds a worker's launches under the case's range too.
struct open_ranges {
  std::string case_name;  ///< "" when no case is running
  phase stage = phase::setup;
};

/// The driving thread's ranges. Written by that thread only; workers read a copy handed over under a lock.
inline open_ranges& driving_ranges() noexcept {
  static open_ranges r;
  return r;
}

/// The ranges a worker thread has opened again for its current job (none: empty case name).
inline open_ranges& worker_ranges() noexcept {
  thread_local open_ranges r;
  return r;
}

/// A range named after a case, opened by the thread that drives it; everything the case does nests inside it.
class case_range {
 public:
  explicit case_range(const std::string& name)
      : range_{nvtx3::event_attributes{nvtx3::message{name}, nvtx3::color{argb}}},
        observer_(report_opened(name.c_str(), "case")) {
    driving_ranges() = {name, phase::setup};
  }
  ~case_range() {
    if (observer_) observer_->closed();
    driving_ranges().case_name.clear();
  }
  case_range(const case_range&) = delete;
  case_range& operator=(const case_range&) = delete;
  static constexpr std::uint32_t argb = 0xFF76B900u;

 private:
  nvtx3::scoped_range_in<nvtx_domain> range_;
  range_observer* observer_;
};

/// On a worker thread: the driving thread's case range and stage, opened again for the worker's job (seen
/// by NVTX only: the observer follows the driving thread).
class mirrored_ranges {
 public:
  explicit mirrored_ranges(const open_ranges& r) {
    if (r.case_name.empty()) return;
    case_.emplace(nvtx3::event_attributes{nvtx3::message{r.case_name}, nvtx3::color{case_range::argb}});
    stage_.emplace(nvtx3::event_attributes{nvtx3::message{phase_name(r.stage)}, nvtx3::color{phase_argb(r.stage)}});
    worker_ranges() = r;
  }
  ~mirrored_ranges() { worker_ranges().case_name.clear(); }
  mirrored_ranges(const mirrored_ranges&) = delete;
  mirrored_ranges& operator=(const mirrored_ranges&) = delete;

 private:
  std::optional<nvtx3::scoped_range_in<nvtx_domain>> case_;
  std::optional<nvtx3::scoped_range_in<nvtx_domain>> stage_;
};

}  // namespace cudabench

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

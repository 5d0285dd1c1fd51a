// NVTX ranges in the project's domain: one per case, one per phase inside it, a colour per phase.
#pragma once

#include <nvtx3/nvtx3.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

// GCC 12 and 13 warn that a range held in std::optional (mirrored_ranges) "may be used uninitialized" once
// inlined; it is engaged before use. Silenced for this header only.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace cudabench {

/// The NVTX domain every range of this project lives in.
struct nvtx_domain {
  static constexpr char const* name{"cudabench"};
};

/// Phases of a case, each with its own colour on a timeline.
enum class phase { setup, verify, warmup, measure, h2d, kernel, d2h, host, flush, trace };

const char* phase_name(phase p) noexcept;
std::uint32_t phase_argb(phase p) noexcept;

/// The case range's name: the case name, with '/' replaced by $CUDABENCH_NVTX_SEPARATOR when that is set
/// (Nsight Compute's --nvtx-include reads '/' as range nesting, so profiling scripts set ':').
inline std::string nvtx_case_name(std::string name) {
  static const char* sep = std::getenv("CUDABENCH_NVTX_SEPARATOR");
  if (sep && *sep)
    for (auto& ch : name) if (ch == '/') ch = *sep;
  return name;
}

/// Sees the ranges of this header open and close, on every thread (the harness's --trace recorder is one).
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

/// Tells the current observer, if any, that a range opened, and later that it closed.
class observed_range {
 public:
  observed_range(const char* name, const char* category, bool report) noexcept {
    if (range_observer* o = report ? current_range_observer().load(std::memory_order_acquire) : nullptr)
      if (o->opened(name, category)) observer_ = o;
  }
  ~observed_range() {
    if (observer_) observer_->closed();
  }
  observed_range(const observed_range&) = delete;
  observed_range& operator=(const observed_range&) = delete;
 private:
  range_observer* observer_ = nullptr;
};

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

/// A range named after a case; everything the case does nests inside it.
class case_range {
 public:
  /// `driving`: opened by the thread that drives the case (false for a worker's copy of it).
  explicit case_range(const std::string& name, bool driving = true)
      : range_{nvtx3::event_attributes{nvtx3::message{name}, nvtx3::color{0xFF76B900u}}}, driving_(driving),
        observed_(name.c_str(), "case", driving) {
    if (driving_) driving_ranges() = {name, phase::setup};
  }
  ~case_range() {
    if (driving_) driving_ranges().case_name.clear();
  }
  case_range(const case_range&) = delete;
  case_range& operator=(const case_range&) = delete;
 private:
  nvtx3::scoped_range_in<nvtx_domain> range_;
  bool driving_;
  observed_range observed_;
};

/// A range for one phase (copy in, kernel, copy out, ...). The stages (setup, verify, warmup, measure,
/// traced sample) are opened by the driving thread only, and recorded for worker threads to mirror.
class phase_range {
 public:
  explicit phase_range(phase p, bool driving = true)
      : range_{nvtx3::event_attributes{nvtx3::message{phase_name(p)}, nvtx3::color{phase_argb(p)}}},
        stage_(driving && is_stage(p)), previous_(stage_ ? driving_ranges().stage : p),
        observed_(phase_name(p), stage_ ? "stage" : "phase", stage_ || !is_stage(p)) {
    if (stage_) driving_ranges().stage = p;
  }
  ~phase_range() {
    if (stage_) driving_ranges().stage = previous_;
  }
  phase_range(const phase_range&) = delete;
  phase_range& operator=(const phase_range&) = delete;
  static bool is_stage(phase p) noexcept {
    return p == phase::setup || p == phase::verify || p == phase::warmup || p == phase::measure || p == phase::trace;
  }
 private:
  nvtx3::scoped_range_in<nvtx_domain> range_;
  bool stage_;
  phase previous_;
  observed_range observed_;
};

/// The ranges a worker thread has opened again for its current job (none: empty case name).
inline open_ranges& worker_ranges() noexcept {
  thread_local open_ranges r;
  return r;
}

/// On a worker thread: the driving thread's case range and stage, opened again for the worker's job.
class mirrored_ranges {
 public:
  explicit mirrored_ranges(const open_ranges& r) {
    if (r.case_name.empty()) return;
    case_.emplace(r.case_name, false);
    stage_.emplace(r.stage, false);
    worker_ranges() = r;
  }
  ~mirrored_ranges() { worker_ranges().case_name.clear(); }
  mirrored_ranges(const mirrored_ranges&) = delete;
  mirrored_ranges& operator=(const mirrored_ranges&) = delete;
 private:
  std::optional<case_range> case_;
  std::optional<phase_range> stage_;
};

inline const char* phase_name(phase p) noexcept {
  switch (p) {
    case phase::setup: return "setup";
    case phase::verify: return "verify";
    case phase::warmup: return "warmup";
    case phase::measure: return "measure";
    case phase::h2d: return "copy H2D";
    case phase::kernel: return "kernel";
    case phase::d2h: return "copy D2H";
    case phase::host: return "host work";
    case phase::flush: return "L2 flush";
    case phase::trace: return "traced sample";
  }
  return "?";
}

inline std::uint32_t phase_argb(phase p) noexcept {
  switch (p) {
    case phase::setup: return 0xFF9E9E9E;    // grey
    case phase::verify: return 0xFF8E24AA;   // purple
    case phase::warmup: return 0xFFFFB300;   // amber
    case phase::measure: return 0xFF3949AB;  // indigo
    case phase::h2d: return 0xFF1E88E5;      // blue
    case phase::kernel: return 0xFF43A047;   // green
    case phase::d2h: return 0xFFE53935;      // red
    case phase::host: return 0xFF6D4C41;     // brown
    case phase::flush: return 0xFF00ACC1;    // cyan
    case phase::trace: return 0xFFD81B60;    // pink
  }
  return 0xFFFFFFFF;
}

}  // namespace cudabench

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// NVTX phase ranges a fixture opens inside its case's range (copy in, kernel, copy out, host work), each
// with its own colour, in the project's NVTX domain.
#pragma once

#include <nvtx3/nvtx3.hpp>

#include <cstdint>

namespace cudabench {

/// The NVTX domain every range of this project lives in.
struct nvtx_domain {
  static constexpr char const* name{"cudabench"};
};

/// Phases of a case, each with its own colour on a timeline. The harness opens the stages (setup, verify,
/// warmup, measure, trace, flush); a fixture marks h2d, kernel, d2h and host inside run().
enum class phase { setup, verify, warmup, measure, h2d, kernel, d2h, host, flush, trace };

const char* phase_name(phase p) noexcept;
std::uint32_t phase_argb(phase p) noexcept;

/// A range for one phase, open for the object's lifetime: `phase_range p(phase::kernel);`. With --trace the
/// phase also appears above the case's traced timeline.
class phase_range {
 public:
  explicit phase_range(phase p);
  ~phase_range();
  phase_range(const phase_range&) = delete;
  phase_range& operator=(const phase_range&) = delete;

 private:
  nvtx3::scoped_range_in<nvtx_domain> range_;
  bool stage_;      ///< a stage opened by the thread driving the case (the harness's bookkeeping)
  phase previous_;  ///< the stage open before this one
  void* observer_;  ///< the harness's range observer told of this range, or null
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

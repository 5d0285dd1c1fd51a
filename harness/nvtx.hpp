// NVTX ranges in the project's domain: one per case, one per phase inside it, a colour per phase.
#pragma once

#include <nvtx3/nvtx3.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace harness {

/// The NVTX domain every range of this project lives in.
struct nvtx_domain {
  static constexpr char const* name{"cudabench"};
};

/// Phases of a case, each with its own colour on a timeline.
enum class phase { setup, verify, warmup, measure, h2d, kernel, d2h, host, flush };

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

/// A range named after a case; everything the case does nests inside it.
class case_range {
 public:
  explicit case_range(const std::string& name)
      : range_{nvtx3::event_attributes{nvtx3::message{name}, nvtx3::color{0xFF76B900u}}} {}
 private:
  nvtx3::scoped_range_in<nvtx_domain> range_;
};

/// A range for one phase (copy in, kernel, copy out, ...).
class phase_range {
 public:
  explicit phase_range(phase p)
      : range_{nvtx3::event_attributes{nvtx3::message{phase_name(p)},
                                       nvtx3::color{phase_argb(p)}}} {}
 private:
  nvtx3::scoped_range_in<nvtx_domain> range_;
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
  }
  return 0xFFFFFFFF;
}

}  // namespace harness

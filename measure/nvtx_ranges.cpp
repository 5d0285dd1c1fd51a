// The phase range's bookkeeping: a stage is recorded for worker threads to mirror, and the observer is told.
#include "measure/nvtx_ranges.hpp"

namespace cudabench {
namespace {
bool is_stage(phase p) noexcept {
  return p == phase::setup || p == phase::verify || p == phase::warmup || p == phase::measure || p == phase::trace;
}
}  // namespace

phase_range::phase_range(phase p)
    : range_{nvtx3::event_attributes{nvtx3::message{phase_name(p)}, nvtx3::color{phase_argb(p)}}},
      stage_(is_stage(p)),
      previous_(stage_ ? driving_ranges().stage : p),
      observer_(report_opened(phase_name(p), stage_ ? "stage" : "phase")) {
  if (stage_) driving_ranges().stage = p;
}

phase_range::~phase_range() {
  if (observer_) static_cast<range_observer*>(observer_)->closed();
  if (stage_) driving_ranges().stage = previous_;
}

}  // namespace cudabench

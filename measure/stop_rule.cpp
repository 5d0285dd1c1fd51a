// The stopping rule of the sampling loop.
#include "measure/stop_rule.hpp"

#include <utility>

#include "io/enum_names.hpp"

namespace cudabench {

const char* to_string(stop_reason r) {
  static constexpr std::pair<stop_reason, const char*> names[] = {
      {stop_reason::none, "none"}, {stop_reason::noise, "noise"}, {stop_reason::time_cap, "time_cap"}};
  return name_in(names, r);
}

stop_reason stop_rule(const running_stats& samples, double measured_s, const sampling_policy& p) {
  if (samples.count() == 0) return stop_reason::none;
  if (measured_s >= p.max_time_s || samples.count() >= p.max_samples) return stop_reason::time_cap;
  if (samples.count() < std::size_t(p.min_samples) || measured_s < p.min_time_s) return stop_reason::none;
  return samples.rel_stderr() <= p.target_noise ? stop_reason::noise : stop_reason::none;
}

stop_reason stop_rule(const std::vector<double>& samples_s, double measured_s, const sampling_policy& p) {
  running_stats r;
  for (double x : samples_s) r.add(x);
  return stop_rule(r, measured_s, p);
}

}  // namespace cudabench

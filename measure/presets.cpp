// The three presets. quick stays within 60 s of measuring on an H100; nightly feeds the rank test with five
// rounds (fresh processes) of two repetitions.
#include "cudabench/presets.hpp"

namespace cudabench {

preset preset_by_name(const std::string& name) {
  preset p;
  p.name = name;
  if (name == "quick") {
    p.level = 0;
    p.repetitions = 1;
    p.sampling = {.min_samples = 10, .min_time_s = 0.02, .max_time_s = 0.25, .target_noise = 0.005, .warmup_s = 0.005};
  } else if (name == "nightly") {
    p.level = 1;
    p.repetitions = 2;
    p.rounds = 5;
    p.sampling = {.min_samples = 10, .min_time_s = 0.02, .max_time_s = 0.1, .target_noise = 0.005, .warmup_s = 0.01};
  } else if (name == "full") {
    p.level = 2;
    p.repetitions = 2;
    p.rounds = 5;
    p.sampling = {.min_samples = 20, .min_time_s = 0.1, .max_time_s = 1.0, .target_noise = 0.005, .warmup_s = 0.05};
  } else {
    throw usage_error("unknown preset '" + name + "' (expected quick, nightly or full)");
  }
  return p;
}

}  // namespace cudabench

// --devices: the suite once per device, one child process each, in parallel; results merged.
#pragma once

#include <string>
#include <vector>

#include "app/run_plan.hpp"

namespace cudabench::app {

/// Runs the plan's command line once per device of its --devices, chosen among `visible` devices (ordinals 0 to
/// visible-1), and merges the results into its --json. Returns the worst child exit status (a device that fails
/// keeps the others' results).
int run_on_devices(const run_plan& plan, int visible);

/// The same among the devices CUDA sees here.
int run_on_devices(const run_plan& plan);

}  // namespace cudabench::app

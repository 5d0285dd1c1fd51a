// --devices: the suite once per device, one child process each, in parallel; results merged.
#pragma once

#include <string>
#include <vector>

#include "cli/options.hpp"

namespace cudabench::app {

/// Runs `args` (the runner's own arguments) once per device of opt.devices, chosen among `visible` devices
/// (ordinals 0 to visible-1), and merges the results into opt.json_path. Returns the worst child exit status
/// (a device that fails keeps the others' results).
int run_on_devices(const cli::run_options& opt, const std::vector<std::string>& args, int visible);

/// The same among the devices CUDA sees here.
int run_on_devices(const cli::run_options& opt, const std::vector<std::string>& args);

}  // namespace cudabench::app

// `run_bench bisect`: the commit that made the selected cases slower, found by building and measuring revisions.
#pragma once

#include <string>
#include <vector>

#include "cli/options.hpp"

namespace cudabench::app {

using namespace cudabench::cli;  // the command line (cli/) is the commands' own

/// Bisects between o.good and o.bad in the git repository around the current directory: builds each tested
/// revision in a worktree apart, runs the benchmark binary there with `binary_args` after its defaults
/// (--preset=nightly --filter=o.filter --json=...), and classifies it (analysis/bisection.hpp). Prints the first
/// bad commit (or the narrowest range) and writes o.json_path. 0 found, 1 nothing to bisect or no single
/// commit, 2 usage or input error, 130/143 interrupted.
int bisect_command(const command_options& o, const std::vector<std::string>& binary_args);

}  // namespace cudabench::app

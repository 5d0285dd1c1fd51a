// The benchmark binary's entry point, for a project that writes its own main() (cudabench::main has one).
#pragma once

namespace cudabench::app {

/// Runs every registered family as ./run_bench does: options, cases, JSON, comparison. Returns the exit
/// status (0 ok, 1 a case failed or a regression was found, 2 usage or input error).
int run_main(int argc, char** argv);

}  // namespace cudabench::app

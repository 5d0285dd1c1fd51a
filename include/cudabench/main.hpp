// The benchmark binary's entry point, for a project that writes its own main() (cudabench::main has one).
#pragma once

#include <string_view>

namespace cudabench::app {

/// Runs every registered family as ./run_bench does: options, cases, JSON, comparison; with a first argument
/// naming a command (compare, report, trend, gates, bisect, ...) runs that command instead. Returns the exit
/// status (0 ok, 1 a case failed or a regression was found, 2 usage or input error).
int run_main(int argc, char** argv);

/// How --help and messages name the program (default: argv[0]'s file name). Call it before run_main, or from
/// a static initializer beside the registrations.
void name_program(std::string_view name);

}  // namespace cudabench::app

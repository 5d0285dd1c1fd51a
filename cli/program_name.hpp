// How --help and messages name the program: the suite is "./run_bench" (the script that runs it), a user's
// binary its own file name.
#pragma once

#include <string>
#include <string_view>

#include "cli/option_table.hpp"

namespace cudabench::cli {

/// Names the program by argv[0]'s file name, unless name_program (cudabench/main.hpp) already named it.
void name_program_from(const char* argv0);

/// How usage names the suite (the default, also cudabench-report's).
inline constexpr std::string_view suite_title = "./run_bench";

/// How usage names the program: suite_title or, for a user's binary, "saxpy_bench".
std::string program_title();

/// How messages start: program_title() without a leading "./" ("run_bench: ...", "saxpy_bench: ...").
std::string program_name();

/// The runner's --help examples and family list, from the families registered in this binary (built for the
/// preset `preset_name`); the suite's own examples where the suite's families are there.
help_examples program_help_examples(const std::string& preset_name);

}  // namespace cudabench::cli

// How --help and messages name the program: the suite is "./run_bench" (the script that runs it), a user's
// binary and cudabench-report their own file name.
#pragma once

#include <string>
#include <string_view>

#include "cli/option_table.hpp"

namespace cudabench::cli {

/// Names the program by argv[0]'s file name, unless name_program (cudabench/main.hpp) already named it; the
/// suite's script's name (run_bench, as it starts cudabench-report) is the suite's title.
void name_program_from(const char* argv0);

/// Names the program `name`, whatever argv[0] is (what a project's name_program, cudabench/main.hpp, calls).
void name_program_as(std::string_view name);

/// How usage names the suite (the default, also cudabench-report's).
inline constexpr std::string_view suite_title = "./run_bench";

/// cudabench's own tool for the reports and bisect, named so where it is run by that name (installed).
inline constexpr std::string_view report_title = "cudabench-report";

/// Whether the program is cudabench's own (the suite, or cudabench-report), not a user's binary: its defaults
/// (bisect's build and binary) are cudabench's.
bool program_is_cudabench();

/// How usage names the program: suite_title or, for a user's binary, "saxpy_bench".
std::string program_title();

/// How messages start: program_title() without a leading "./" ("run_bench: ...", "saxpy_bench: ...").
std::string program_name();

/// `title` without a leading "./".
std::string program_name_of(std::string_view title);

}  // namespace cudabench::cli

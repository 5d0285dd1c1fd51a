// The exit status of a failed write to standard output, and the name of standard output among output paths.
#pragma once

#include <optional>
#include <string>

#include "io/output_sink.hpp"

namespace cudabench::app {

/// Runs a command's main with SIGPIPE ignored, and makes a failed write to standard output (a closed pipe,
/// a full disk, a closed descriptor) one line on standard error and exit status 2, never a silent death by
/// signal, an abort or an exit 0.
int with_checked_stdout(const char* who, int (*command)(int, char**), int argc, char** argv);

/// True for the output path that means standard output.
inline bool is_stdout(const std::optional<std::string>& path) { return path && descriptor_named(*path) == 1; }

}  // namespace cudabench::app

// Standard output for a document alone (`--json -`, `--csv -`), and the exit status of a failed write to it.
#pragma once

#include <optional>
#include <string>

#include "io/output_sink.hpp"

namespace cudabench::app {

/// `--json -`: from construction on, whatever the process prints to standard output goes to standard
/// error, so that write() (and every output_sink("-")) puts the document alone on the real standard output.
/// Restored on destruction.
class results_on_stdout {
 public:
  /// Writes all of `text` to the real standard output; throws input_error when it cannot (a closed pipe,
  /// a full disk).
  void write(const std::string& text) { output_sink("-").write(text); }
 private:
  standard_output_aside aside_;
};

/// Runs a command's main with SIGPIPE ignored, and makes a failed write to standard output (a closed pipe,
/// a full disk, a closed descriptor) one line on standard error and exit status 2, never a silent death by
/// signal, an abort or an exit 0.
int with_checked_stdout(const char* who, int (*command)(int, char**), int argc, char** argv);

/// True for the output path that means standard output.
inline bool is_stdout(const std::optional<std::string>& path) { return path && descriptor_named(*path) == 1; }

}  // namespace cudabench::app

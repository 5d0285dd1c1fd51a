// Where a run's results document goes: a file (written atomically) or, for `--json -`, standard output,
// which then carries nothing else.
#pragma once

#include <optional>
#include <string>

namespace cudabench::app {

/// `--json -`: from construction on, whatever the process prints to standard output goes to standard
/// error, so that write() can put the results document alone on the real standard output. Restored on
/// destruction.
class results_on_stdout {
 public:
  results_on_stdout();
  ~results_on_stdout();
  results_on_stdout(const results_on_stdout&) = delete;
  results_on_stdout& operator=(const results_on_stdout&) = delete;
  /// Writes all of `text` to the real standard output; throws input_error when it cannot (a closed pipe,
  /// a full disk).
  void write(const std::string& text);
 private:
  int fd_ = -1;
};

/// Runs a command's main and makes a failed write to standard output (a full disk, a closed descriptor)
/// one line on standard error and exit status 2, never an abort or a silent exit 0.
int with_checked_stdout(const char* who, int (*command)(int, char**), int argc, char** argv);

/// True for the `--json` value that means standard output.
inline bool is_stdout(const std::optional<std::string>& path) { return path && *path == "-"; }

}  // namespace cudabench::app

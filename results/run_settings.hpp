// How a run was made (context.cudabench): what the runner settles before its first case, and what a reader finds in a
// results file. One description of a run, from the runner to the writer and back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudabench {

/// How the code that registered a run's cases was built (context.cudabench.build).
/// A library of the project's own linked into the benchmark, as its compiler saw it.
struct library_build {
  std::string target;
  bool optimized = false;
  bool assertions = false;
};

struct code_build {
  std::string build_type;  ///< the CMake build type ("Release", "Debug", ...; "" unknown)
  bool optimized = false;  ///< the registering units and every library below optimized
  bool assertions = false;
  std::string flags;                     ///< the C++ flags of its build type ("" unknown)
  std::vector<library_build> libraries;  ///< the project's own libraries it links, where the package saw them
};

/// How the run was made (context.cudabench).
struct run_settings {
  int schema_version = 1;  ///< of the file it was read from (1: written before energy was recorded)
  std::string preset;
  int repetitions = 1;                        ///< per case, over all rounds
  int rounds = 1;                             ///< fresh worker processes the repetitions were spread over
  std::optional<std::uint64_t> shuffle_seed;  ///< the seed of the rounds' case orders (absent: suite order)
  std::string git_revision;
  bool git_dirty = false;
  std::string host_name;
  std::string started_utc;
  /// Why the run measured no energy at all (no GPU, --no-energy, --profile); "" where it read NVML, or did not say.
  std::string energy_absent;
  std::string cache = "declared";       ///< --cache: declared, hot or cold
  std::optional<std::string> injected;  ///< --inject-slowdown as "REGEX:PCT"
  /// The signal that stopped the run early ("SIGINT", "SIGTERM"): the run holds the finished cases only.
  std::optional<std::string> interrupted_by;
  bool incomplete = false;
  std::optional<code_build> build;  ///< absent: not recorded (earlier versions, foreign output)
};

/// A full commit hash as git names one: 40 lowercase hex digits. Nothing else names a revision in a results file:
/// a symbolic name (HEAD, a branch) or a short hash resolves to whatever it points at when it is read.
bool is_commit_hash(const std::string& text);
/// The revision recorded where there is none to name (no repository, no commit yet).
inline constexpr const char* unknown_revision = "unknown";

/// A run's settings as far as the runner knows them before it measures: the preset, the repetitions per case, git
/// (of the repository the current directory is in, so a project using the installed harness records its own
/// revision), the host name and the time it started; the runner sets the rest. $CUDABENCH_GIT_REVISION /
/// $CUDABENCH_GIT_DIRTY stand in for git in a copy without .git; a revision there that is not a full commit hash (or
/// `unknown`), or a dirty flag other than 1 or 0, is an input_error.
run_settings collect_run_settings(const std::string& preset, int repetitions);

}  // namespace cudabench

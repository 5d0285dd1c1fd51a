// Facts about a run that are not about the GPU: git revision, host, preset, time.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace cudabench {

struct run_info {
  std::string git_revision;  ///< "unknown" outside a git checkout
  bool git_dirty = false;
  std::string host_name;
  std::string preset;
  int repetitions = 1;      ///< per case, over all rounds
  int rounds = 1;           ///< worker processes the repetitions were spread over
  std::string started_utc;  ///< ISO 8601
};

/// A full commit hash as git names one: 40 lowercase hex digits. Nothing else names a revision in a results file:
/// a symbolic name (HEAD, a branch) or a short hash resolves to whatever it points at when it is read.
bool is_commit_hash(const std::string& text);
/// The revision recorded where there is none to name (no repository, no commit yet).
inline constexpr const char* unknown_revision = "unknown";

/// Reads git (of the repository the current directory is in, so a project using the installed harness
/// records its own revision) and the host name. $CUDABENCH_GIT_REVISION / $CUDABENCH_GIT_DIRTY stand in
/// for git in a copy without .git; a revision there that is not a full commit hash (or `unknown`), or a dirty flag
/// other than 1 or 0, is an input_error.
run_info collect_run_info(const std::string& preset, int repetitions);

}  // namespace cudabench

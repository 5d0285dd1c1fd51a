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

/// Reads git (of the repository the current directory is in, so a project using the installed harness
/// records its own revision) and the host name. $CUDABENCH_GIT_REVISION / $CUDABENCH_GIT_DIRTY stand in
/// for git in a copy without .git.
run_info collect_run_info(const std::string& preset, int repetitions);

}  // namespace cudabench

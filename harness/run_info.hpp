// Facts about a run that are not about the GPU: git revision, host, preset, time.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace harness {

struct run_info {
  std::string git_revision;  ///< "unknown" outside a git checkout
  bool git_dirty = false;
  std::string host_name;
  std::string preset;
  int repetitions = 1;
  std::string started_utc;  ///< ISO 8601
};

/// The source tree: $CUDABENCH_SOURCE_DIR (set by ./run_bench) or where this binary was built from.
std::string source_dir();

/// Reads git (of the source tree) and the host name.
run_info collect_run_info(const std::string& preset, int repetitions);

}  // namespace harness

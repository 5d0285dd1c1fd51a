// A run's settings before it measures: git revision, dirty flag, host name and start time.
#include "results/run_settings.hpp"

#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cudabench/errors.hpp"
#include "io/child_process.hpp"
#include "io/format.hpp"

namespace cudabench {
namespace {
/// The first line `git ARGS` printed in this directory; nullopt when git is missing or failed.
std::optional<std::string> git_says(const std::vector<std::string>& args) {
  try {
    const command_output r = run_git(args);
    if (r.exit_code != 0) return std::nullopt;
    return r.out.substr(0, r.out.find('\n'));
  } catch (const std::exception&) {  // no git, no temporary directory: the revision is unknown
    return std::nullopt;
  }
}

/// The revision of the working directory's repository and whether its tracked files differ from it, asked of
/// git once per process ("" where there is no commit to name: no repository, no git, no commit yet).
const std::pair<std::string, bool>& git_state() {
  static const std::pair<std::string, bool> state = [] {
    const std::optional<std::string> revision = git_says({"rev-parse", "HEAD"});
    if (!revision) return std::pair<std::string, bool>{"", false};
    const std::optional<std::string> status = git_says({"status", "--porcelain", "--untracked-files=no"});
    return std::pair<std::string, bool>{*revision, status && !status->empty()};
  }();
  return state;
}
}  // namespace

bool is_commit_hash(const std::string& text) {
  return text.size() == 40 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

run_settings collect_run_settings(const std::string& preset, int repetitions) {
  run_settings r;
  r.preset = preset;
  r.repetitions = repetitions;
  if (const char* rev = std::getenv("CUDABENCH_GIT_REVISION"); rev && *rev) {  // a copy without .git (GPU machine)
    r.git_revision = rev;
    if (!is_commit_hash(r.git_revision) && r.git_revision != unknown_revision)
      throw input_error(
          "CUDABENCH_GIT_REVISION: expects a full commit hash of 40 hex digits (git rev-parse HEAD), got '" +
          printable(r.git_revision.substr(0, 64)) + "'");
    // Anything but 1 or 0 (true, yes, dirty) would be recorded as clean without a word: refused instead.
    const std::string dirty = std::getenv("CUDABENCH_GIT_DIRTY") ? std::getenv("CUDABENCH_GIT_DIRTY") : "";
    if (!dirty.empty() && dirty != "1" && dirty != "0")
      throw input_error("CUDABENCH_GIT_DIRTY: expects 1 (dirty) or 0 (clean), got '" + dirty + "'");
    r.git_dirty = dirty == "1";
  } else {
    std::tie(r.git_revision, r.git_dirty) = git_state();
  }
  if (r.git_revision.empty()) r.git_revision = unknown_revision;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) r.host_name = host;
  std::time_t now = std::time(nullptr);
  char iso[32] = {};
  std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  r.started_utc = iso;
  return r;
}

}  // namespace cudabench

// Git revision, dirty flag and host name for the JSON context.
#include "results/run_info.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "cudabench/errors.hpp"

namespace cudabench {
namespace {
// Runs a short command and returns its first line of output ("" on failure).
std::string first_line_of(const std::string& cmd, bool& ok) {
  ok = false;
  FILE* p = ::popen((cmd + " 2>/dev/null").c_str(), "r");
  if (!p) return {};
  std::array<char, 512> buf{};
  std::string out;
  while (std::fgets(buf.data(), buf.size(), p)) out += buf.data();
  ok = ::pclose(p) == 0;
  auto nl = out.find('\n');
  return nl == std::string::npos ? out : out.substr(0, nl);
}
}  // namespace

run_info collect_run_info(const std::string& preset, int repetitions) {
  run_info r;
  r.preset = preset;
  r.repetitions = repetitions;
  const std::string git = "git ";
  bool ok = false;
  if (const char* rev = std::getenv("CUDABENCH_GIT_REVISION"); rev && *rev) {  // a copy without .git (GPU machine)
    r.git_revision = rev;
    // Anything but 1 or 0 (true, yes, dirty) would be recorded as clean without a word: refused instead.
    const std::string dirty = std::getenv("CUDABENCH_GIT_DIRTY") ? std::getenv("CUDABENCH_GIT_DIRTY") : "";
    if (!dirty.empty() && dirty != "1" && dirty != "0")
      throw input_error("CUDABENCH_GIT_DIRTY: expects 1 (dirty) or 0 (clean), got '" + dirty + "'");
    r.git_dirty = dirty == "1";
  } else {
    r.git_revision = first_line_of(git + "rev-parse HEAD", ok);
    if (!ok) r.git_revision.clear();  // a repository without a commit yet answers "HEAD" and fails
  }
  if (r.git_revision.empty()) r.git_revision = "unknown";
  else if (ok) {
    std::string status = first_line_of(git + "status --porcelain --untracked-files=no", ok);
    r.git_dirty = ok && !status.empty();
  }
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) r.host_name = host;
  std::time_t now = std::time(nullptr);
  char iso[32] = {};
  std::strftime(iso, sizeof iso, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  r.started_utc = iso;
  return r;
}

}  // namespace cudabench

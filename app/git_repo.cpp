// Git commands through child processes: a repository's commits and worktrees, for the bisect command.
#include "app/git_repo.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/atomic_file.hpp"
#include "io/child_process.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"

namespace cudabench::app {
namespace fs = std::filesystem;

namespace {
std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

/// The first line of git's complaint, for a one-line message.
std::string first_line(const std::string& text) {
  const std::string t = trimmed(text);
  return printable(t.substr(0, t.find('\n')));
}
}  // namespace

git_repo::git_repo(const std::string& directory) {
  const command_output r = run_git({"rev-parse", "--show-toplevel"}, directory);
  if (r.exit_code != 0) throw input_error(fmt::format("{} is not in a git repository", printable(directory)));
  top_ = trimmed(r.out);
}

command_output git_repo::git(const std::vector<std::string>& args) const { return run_git(args, top_); }

std::string git_repo::commit(const std::string& rev) const {
  const command_output r = git({"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"});
  if (r.exit_code != 0) throw input_error(fmt::format("'{}' is not a commit of {}", printable(rev), top_));
  return trimmed(r.out);
}

bool git_repo::is_ancestor(const std::string& older, const std::string& newer) const {
  return git({"merge-base", "--is-ancestor", older, newer}).exit_code == 0;
}

bool git_repo::has_commit(const std::string& hash) const {
  return git({"cat-file", "-e", hash + "^{commit}"}).exit_code == 0;
}

std::vector<std::string> git_repo::commits_between(const std::string& good, const std::string& bad) const {
  const command_output r = git({"rev-list", "--reverse", "--topo-order", "--ancestry-path", good + ".." + bad});
  if (r.exit_code != 0) throw input_error(fmt::format("git rev-list {}..{}: {}", good, bad, first_line(r.err)));
  return lines_of(r.out);
}

std::string git_repo::subject(const std::string& commit) const {
  return trimmed(git({"log", "-1", "--format=%s", commit}).out);
}

std::vector<std::string> git_repo::files(const std::string& commit) const {
  return lines_of(git({"show", "--format=", "--name-only", "--first-parent", commit}).out);
}

std::string git_repo::stat(const std::string& commit) const {
  return trimmed(git({"show", "--format=", "--stat", "--first-parent", commit}).out);
}

std::string git_repo::common_dir() const {
  const std::string dir = trimmed(git({"rev-parse", "--git-common-dir"}).out);
  return fs::absolute(fs::path(top_) / dir).lexically_normal().string();
}

git_worktree::git_worktree(const git_repo& repo, std::string path, const std::string& commit)
    : repo_(repo), path_(std::move(path)) {
  std::error_code ec;
  if (fs::exists(path_, ec)) {  // left by a bisect that was killed
    repo_.git({"worktree", "remove", "--force", "--force", path_});
    fs::remove_all(path_, ec);
  }
  repo_.git({"worktree", "prune"});
  const command_output r = repo_.git({"worktree", "add", "--detach", path_, commit});
  if (r.exit_code != 0) throw input_error(fmt::format("git worktree add {}: {}", path_, first_line(r.err)));
}

git_worktree::~git_worktree() {
  try {
    repo_.git({"worktree", "remove", "--force", "--force", path_});
    std::error_code ec;
    fs::remove_all(path_, ec);
    repo_.git({"worktree", "prune"});
  } catch (...) {  // a destructor never throws; a leftover worktree is removed by the next bisect
  }
}

void git_worktree::checkout(const std::string& commit) const {
  const command_output r = run_git({"checkout", "--quiet", "--detach", commit}, path_);
  if (r.exit_code != 0) throw input_error(fmt::format("git checkout {} in {}: {}", commit, path_, first_line(r.err)));
}

}  // namespace cudabench::app

// Git as the bisect command uses it: commands run as child processes in a repository or a worktree of it.
#pragma once

#include <string>
#include <vector>

#include "io/child_process.hpp"

namespace cudabench::app {

/// The git repository that holds a directory.
class git_repo {
 public:
  /// The repository `directory` is in; throws input_error naming it when it is not in one (or git is missing).
  explicit git_repo(const std::string& directory);
  const std::string& top() const { return top_; }
  /// `git ARGS` at the top level.
  command_output git(const std::vector<std::string>& args) const;
  /// The full hash of the commit `rev` names; throws input_error ("'REV' is not a commit of TOP").
  std::string commit(const std::string& rev) const;
  bool is_ancestor(const std::string& older, const std::string& newer) const;
  /// Whether `hash` (checked by is_commit_hash first: never an option) is a commit this repository holds
  /// (`git cat-file -e HASH^{commit}`).
  bool has_commit(const std::string& hash) const;
  /// The commits after `good` up to and including `bad`, oldest first (topological order on the ancestry path).
  std::vector<std::string> commits_between(const std::string& good, const std::string& bad) const;
  /// A commit's subject line; "" when it cannot be read.
  std::string subject(const std::string& commit) const;
  /// The files a commit changed (against its first parent).
  std::vector<std::string> files(const std::string& commit) const;
  /// `git show --stat` of a commit, without its message.
  std::string stat(const std::string& commit) const;
  /// The directory shared by every worktree (.git of the main one).
  std::string common_dir() const;

 private:
  std::string top_;
};

/// A detached worktree of a repository, removed (with everything built in it) when it goes.
class git_worktree {
 public:
  /// Adds it at `path` (a leftover worktree there is removed first) at `commit`; throws input_error.
  git_worktree(const git_repo& repo, std::string path, const std::string& commit);
  ~git_worktree();
  git_worktree(const git_worktree&) = delete;
  git_worktree& operator=(const git_worktree&) = delete;
  const std::string& path() const { return path_; }
  /// Checks `commit` out (detached), keeping untracked and ignored files (the build folder); throws input_error.
  void checkout(const std::string& commit) const;

 private:
  const git_repo& repo_;
  std::string path_;
};

}  // namespace cudabench::app

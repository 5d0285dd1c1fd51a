// One child process: started in its own process group, watched by the stop-signal forwarding, reaped by its owner.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace cudabench {

/// How to start a child process.
struct child_spec {
  std::vector<std::string> argv;         ///< argv[0] is the program's path (this_program() for this binary)
  std::vector<std::string> environment;  ///< NAME=value, the child's whole environment
  /// Standard output and standard error go to this file (created or truncated); unset: they are ours.
  std::optional<std::string> output_path;
  /// Standard error goes to this file instead (with output_path: only standard output goes there).
  std::optional<std::string> error_path;
  /// The child's working directory; unset: ours.
  std::optional<std::string> directory;
  /// Descriptors the child keeps under the same numbers, close-on-exec or not; every other descriptor opened
  /// close-on-exec stays with this process.
  std::vector<int> pass_fds;
  /// What a stop signal (install_stop_signals) does to it: passed on to the child alone, which stops after its
  /// current sample (a worker); to its whole process group, a shell and what it started (a build); or not at
  /// all, for a short command that has to finish (a clean-up). A second signal kills them all.
  enum class on_stop { child, group, none } stop = on_stop::child;
};

/// SIGINT and SIGTERM ask the run to stop after the current sample: the first is recorded in
/// interrupt_signal() and passed on once to every running child_process (workers, one process per device);
/// the same signal again within a second is that one delivered twice; a later one kills the children's
/// process groups and ends this process at once.
void install_stop_signals();

/// While one is alive, a stop signal ends the process at once, for the phases that cannot stop after a sample
/// (reading inputs, comparing, rendering, writing): the temporaries of outputs being written are removed (an
/// output_batch's outputs all stay as they were; one that comes while the batch renames waits until all are
/// new), `who: interrupted by SIGINT; no output was replaced` (or `; its outputs were written before it`) is
/// said on standard error, and the exit status is 128 + the signal. A stop that came before (recorded, not
/// acted on) ends it on construction.
class stop_at_once {
 public:
  explicit stop_at_once(const std::string& who);
  ~stop_at_once();
  stop_at_once(const stop_at_once&) = delete;
  stop_at_once& operator=(const stop_at_once&) = delete;
};

/// The path of this program (/proc/self/exe), to start it again as a child.
std::string this_program();

/// This process's environment without the variables whose names begin with `drop_prefix` ("" drops none),
/// followed by `extra` (NAME=value).
std::vector<std::string> inherited_environment(const std::string& drop_prefix,
                                               const std::vector<std::string>& extra = {});

/// A running (or ended, not yet reaped) child process. It runs in its own process group, so a terminal's ^C
/// reaches it once, through this process: SIGINT and SIGTERM are at their defaults in it and are passed on to
/// it by install_stop_signals()'s handler while it runs. Owns the process: one still running when its owner
/// goes away is killed (its whole group) and reaped. Movable, not copyable (one owner reaps it).
class child_process {
 public:
  /// Starts it; throws input_error naming argv[0] when it cannot be started.
  explicit child_process(const child_spec& spec);
  ~child_process();
  child_process(child_process&& other) noexcept;
  child_process& operator=(child_process&& other) noexcept;
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  pid_t pid() const { return pid_; }
  /// Whether it has been reaped (by wait(), try_wait() or wait_any()).
  bool reaped() const { return status_.has_value(); }
  /// Its status as waitpid gives it, once reaped.
  std::optional<int> status() const { return status_; }

  /// Waits until it ends (signals in between are waited through) and reaps it; returns its status.
  int wait();
  /// Reaps it if it has ended; nullopt while it runs.
  std::optional<int> try_wait();
  /// Sends `sig` to its process group (a kernel that never ends is stopped only with its process). No-op once reaped.
  void kill_group(int sig) const;

 private:
  void reaped_with(int status);
  void release() noexcept;

  pid_t pid_ = -1;
  std::optional<int> status_;
};

/// Waits until one of `children` that is not reaped yet ends, reaps it and returns its index; nullopt when all
/// are reaped. Other children of this process are left alone.
std::optional<std::size_t> wait_any(std::vector<child_process>& children);

/// What a short command printed, and how it ended.
struct command_output {
  int exit_code = -1;  ///< -1 when it did not exit normally
  std::string out, err;
};

/// Runs `argv` in `directory` (unset: ours) to its end and returns its output; throws input_error when it
/// cannot be started.
command_output run_captured(const std::vector<std::string>& argv, const std::optional<std::string>& directory,
                            child_spec::on_stop stop = child_spec::on_stop::child);

/// The path of the program `name` on $PATH (child processes are started by path); throws input_error when
/// it is not there.
std::string program_on_path(const std::string& name);

/// `git ARGS` in `directory` (unset: ours), run to its end (a stop signal does not cut it short: git commands
/// are short, and a clean-up must finish); throws input_error when git is not on $PATH or cannot be started.
command_output run_git(const std::vector<std::string>& args,
                       const std::optional<std::string>& directory = std::nullopt);

/// How a child process ended, from its wait status: "exit 3", "killed by signal 9", "stopped".
std::string wait_status_text(int status);

/// The last `n` lines of a log (a child's output) that are not blank, from its last 64 KiB, each made printable
/// and cut to 300 characters, joined by " | "; "" where it has none or cannot be read.
std::string log_tail(const std::string& path, std::size_t n = 1);

}  // namespace cudabench

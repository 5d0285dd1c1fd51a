// Child processes: posix_spawn in their own process group, the stop-signal forwarding to them, reaping.
#include "io/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "io/output_sink.hpp"

extern char** environ;

namespace cudabench {
namespace {

/// The child processes a stop signal is passed on to: a pid (the child alone) or minus a pid (its process
/// group) for the first signal; 0 a free slot.
std::atomic<pid_t> watched[128];

/// Open stop_at_once scopes, and the message's "who: " they say (set before the first opens).
std::atomic<int> at_once_depth{0};
char at_once_who[256];

void write_text(const char* text) noexcept {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t n = ::write(STDERR_FILENO, text, left);
    if (n <= 0) return;
    text += n;
    left -= std::size_t(n);
  }
}

char sigint_name[16], sigterm_name[16];  ///< signal_name() of the stop signals, for the handler

/// Ends the process now (async-signal-safe): outputs half written removed, one line saying whether its
/// outputs were replaced, 128 + `sig`. Called once may_end_process_now(sig) allowed it.
[[noreturn]] void end_at_once(int sig) noexcept {
  remove_temporaries_in_progress();
  write_text(at_once_who);
  write_text(": interrupted by ");
  write_text(sig == SIGINT ? sigint_name : sigterm_name);
  write_text(outputs_replaced() ? "; its outputs were written before it\n" : "; no output was replaced\n");
  ::_exit(128 + sig);
}

/// First SIGINT/SIGTERM: recorded and passed on to every child, which stops after its current sample (or,
/// within a stop_at_once scope, the process ends at once). A second one: the children (and their process
/// groups) are killed and this process ends by the signal.
/// While an output_batch renames its files into place, an ending is held until all are renamed.
extern "C" void forward_stop_signal(int sig) {
  if (at_once_depth.load() > 0) {
    if (may_end_process_now(sig)) end_at_once(sig);
    return;
  }
  const int kind = cudabench::classify_stop_signal(sig);
  if (kind == 0) return;  // the same stop, delivered twice
  const bool first = kind == 1;
  if (!first && !may_end_process_now(sig)) return;
  for (auto& c : watched)
    if (const pid_t target = c.load(); target != 0) ::kill(first ? target : -std::abs(target), first ? sig : SIGKILL);
  if (first) return;
  remove_temporaries_in_progress();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void watch(pid_t pid, child_spec::on_stop stop) {
  if (stop == child_spec::on_stop::none) return;
  const pid_t target = stop == child_spec::on_stop::group ? -pid : pid;
  for (auto& c : watched) {
    pid_t free_slot = 0;
    if (c.compare_exchange_strong(free_slot, target)) break;
  }
  if (const int sig = interrupt_signal().load()) ::kill(target, sig);  // asked to stop while it was starting
}

void unwatch(pid_t pid) noexcept {
  for (auto& c : watched) {
    pid_t mine = pid, group = -pid;
    if (c.compare_exchange_strong(mine, 0) || c.compare_exchange_strong(group, 0)) break;
  }
}

/// posix_spawn's settings for a child: its own process group, SIGINT and SIGTERM at their defaults (a parent
/// that ignores them, as a shell does for a background job, would otherwise pass that on).
class spawn_settings {
 public:
  explicit spawn_settings(const child_spec& spec) {
    posix_spawnattr_init(&attr_);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigdefault(&attr_, &defaults);
    posix_spawnattr_setpgroup(&attr_, 0);
    posix_spawnattr_setflags(&attr_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    posix_spawn_file_actions_init(&actions_);
    for (int fd : spec.pass_fds)  // dup2 onto itself clears close-on-exec in the child
      posix_spawn_file_actions_adddup2(&actions_, fd, fd);
    constexpr int create = O_WRONLY | O_CREAT | O_TRUNC;
    if (spec.output_path)
      posix_spawn_file_actions_addopen(&actions_, STDOUT_FILENO, spec.output_path->c_str(), create, 0644);
    if (spec.error_path)
      posix_spawn_file_actions_addopen(&actions_, STDERR_FILENO, spec.error_path->c_str(), create, 0644);
    else if (spec.output_path)
      posix_spawn_file_actions_adddup2(&actions_, STDOUT_FILENO, STDERR_FILENO);
    if (spec.directory) posix_spawn_file_actions_addchdir_np(&actions_, spec.directory->c_str());
  }
  ~spawn_settings() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }
  spawn_settings(const spawn_settings&) = delete;
  spawn_settings& operator=(const spawn_settings&) = delete;
  const posix_spawnattr_t* attr() const { return &attr_; }
  const posix_spawn_file_actions_t* actions() const { return &actions_; }

 private:
  posix_spawnattr_t attr_;
  posix_spawn_file_actions_t actions_;
};

std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

void install_stop_signals() {
  // The names the handler writes, copied before it can run (it may not allocate).
  std::snprintf(sigint_name, sizeof sigint_name, "%s", signal_name(SIGINT).c_str());
  std::snprintf(sigterm_name, sizeof sigterm_name, "%s", signal_name(SIGTERM).c_str());
  struct sigaction sa {};
  sa.sa_handler = forward_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

stop_at_once::stop_at_once(const std::string& who) {
  if (at_once_depth.load() == 0) {
    const std::size_t n = std::min(who.size(), sizeof at_once_who - 1);
    std::memcpy(at_once_who, who.data(), n);
    at_once_who[n] = '\0';
  }
  install_stop_signals();
  at_once_depth.fetch_add(1);
  if (const int sig = interrupt_signal().load(); sig && may_end_process_now(sig)) end_at_once(sig);
}

stop_at_once::~stop_at_once() { at_once_depth.fetch_sub(1); }

std::string this_program() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

std::vector<std::string> inherited_environment(const std::string& drop_prefix, const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (drop_prefix.empty() || std::strncmp(*e, drop_prefix.c_str(), drop_prefix.size()) != 0) env.emplace_back(*e);
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

child_process::child_process(const child_spec& spec) {
  if (spec.argv.empty()) throw input_error("cannot start a child process: no program named");
  const spawn_settings settings(spec);
  const std::vector<char*> argv = pointers(spec.argv), envp = pointers(spec.environment);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0], settings.actions(), settings.attr(), argv.data(), envp.data());
  if (rc != 0) throw input_error(fmt::format("cannot start {}: {}", spec.argv[0], std::strerror(rc)));
  pid_ = pid;
  watch(pid_, spec.stop);
}

child_process::~child_process() { release(); }

child_process::child_process(child_process&& other) noexcept : pid_(other.pid_), status_(other.status_) {
  other.pid_ = -1;
  other.status_.reset();
}

child_process& child_process::operator=(child_process&& other) noexcept {
  if (this != &other) {
    release();
    pid_ = other.pid_;
    status_ = other.status_;
    other.pid_ = -1;
    other.status_.reset();
  }
  return *this;
}

void child_process::release() noexcept {
  if (pid_ > 0 && !status_) {
    unwatch(pid_);
    ::kill(-pid_, SIGKILL);
    int st = 0;
    while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {}
  }
  pid_ = -1;
  status_.reset();
}

void child_process::reaped_with(int status) {
  status_ = status;
  unwatch(pid_);
}

int child_process::wait() {
  if (status_ || pid_ <= 0) return status_.value_or(0);
  int st = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &st, 0)) < 0 && errno == EINTR) {}
  reaped_with(r == pid_ ? st : 0);
  return *status_;
}

std::optional<int> child_process::try_wait() {
  if (status_ || pid_ <= 0) return status_;
  int st = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &st, WNOHANG)) < 0 && errno == EINTR) {}
  if (r == 0) return std::nullopt;
  reaped_with(r == pid_ ? st : 0);
  return status_;
}

void child_process::kill_group(int sig) const {
  if (pid_ > 0 && !status_) ::kill(-pid_, sig);
}

std::optional<std::size_t> wait_any(std::vector<child_process>& children) {
  for (;;) {
    bool running = false;
    for (std::size_t i = 0; i < children.size(); ++i) {
      if (children[i].reaped() || children[i].pid() <= 0) continue;
      if (children[i].try_wait()) return i;
      running = true;
    }
    if (!running) return std::nullopt;
    // Block until some child of this process has ended, without reaping it: it may be another owner's.
    siginfo_t info{};
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) continue;
    bool ours = false;
    for (const child_process& c : children) ours = ours || c.pid() == info.si_pid;
    if (!ours) {  // another owner's child ended and is not reaped yet (or waitid failed): look again shortly
      const timespec pause{0, 20'000'000};
      ::nanosleep(&pause, nullptr);
    }
  }
}

namespace {
std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

command_output run_captured(const std::vector<std::string>& argv, const std::optional<std::string>& directory,
                            child_spec::on_stop stop) {
  const temp_directory capture;
  child_spec spec{.argv = argv, .environment = inherited_environment(""), .stop = stop};
  spec.output_path = capture.path() + "/out";
  spec.error_path = capture.path() + "/err";
  spec.directory = directory;
  child_process child(spec);
  const int st = child.wait();
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, read_all(*spec.output_path), read_all(*spec.error_path)};
}

std::string program_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path && *path ? path : "/usr/bin:/bin");
  std::error_code ec;
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && std::filesystem::is_regular_file(dir + "/" + name, ec)) return dir + "/" + name;
  throw input_error(name + " is not on PATH");
}

command_output run_git(const std::vector<std::string>& args, const std::optional<std::string>& directory) {
  std::vector<std::string> argv{program_on_path("git")};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_captured(argv, directory, child_spec::on_stop::none);
}

std::string wait_status_text(int status) {
  if (WIFEXITED(status)) return fmt::format("exit {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("killed by signal {}", WTERMSIG(status));
  return "stopped";
}

std::string log_tail(const std::string& path, std::size_t n) {
  // Only the log's end is read, and each line is cut short: a log may be huge, or one line without end.
  constexpr std::streamoff tail_bytes = 64 * 1024;
  constexpr std::size_t line_chars = 300;
  std::ifstream in(path, std::ios::binary);
  if (!in.seekg(0, std::ios::end)) return "";
  const std::streamoff size = in.tellg();
  in.seekg(size > tail_bytes ? size - tail_bytes : 0);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank, or a CRLF log's empty line
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(printable(line, line_chars));
    if (lines.size() > n) lines.erase(lines.begin());
  }
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : " | ") + l;
  return out;
}

}  // namespace cudabench

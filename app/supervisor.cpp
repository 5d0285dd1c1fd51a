// The supervisor: one worker process at a time (posix_spawn of this binary in its own process group), a pipe
// on which the worker names each case as it starts it, a watchdog on that pipe, and the merge of what every
// worker wrote.
#include "app/supervisor.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "harness/atomic_file.hpp"
#include "harness/errors.hpp"
#include "harness/interrupt.hpp"
#include "harness/results.hpp"

extern char** environ;

namespace cudabench::app {
namespace {

constexpr const char* env_cases = "CUDABENCH_WORKER_CASES";
constexpr const char* env_results = "CUDABENCH_WORKER_RESULTS";
constexpr const char* env_trace = "CUDABENCH_WORKER_TRACE";
constexpr const char* env_fd = "CUDABENCH_WORKER_FD";
constexpr const char* env_parent = "CUDABENCH_WORKER_PARENT";
constexpr const char* env_progress = "CUDABENCH_WORKER_PROGRESS";

/// The child processes a stop signal is passed on to (0: a free slot).
std::atomic<pid_t> children[128];

/// First SIGINT/SIGTERM: recorded and passed on to every child, which stops after its current sample.
/// A second one: the children (and their process groups) are killed and this process ends by the signal.
extern "C" void forward_stop_signal(int sig) {
  const int kind = cudabench::classify_stop_signal(sig);
  if (kind == 0) return;  // the same stop, delivered twice
  const bool first = kind == 1;
  for (auto& c : children)
    if (const pid_t pid = c.load(); pid > 0) ::kill(first ? pid : -pid, first ? sig : SIGKILL);
  if (first) return;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

/// A private directory for the workers' files, removed with everything in it.
class scratch_dir {
 public:
  scratch_dir() : path_(make_temp_directory("cudabench-run")) {}
  ~scratch_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  const std::string& path() const { return path_; }
 private:
  std::string path_;
};

/// A file descriptor closed on destruction.
class fd_guard {
 public:
  explicit fd_guard(int fd = -1) : fd_(fd) {}
  ~fd_guard() { reset(); }
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  int get() const { return fd_; }
  void reset() { if (fd_ >= 0) ::close(fd_); fd_ = -1; }
 private:
  int fd_;
};

std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", sig);
}

/// The environment of a worker: ours without any CUDABENCH_WORKER_* variable, plus `extra`.
std::vector<std::string> worker_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "CUDABENCH_WORKER_", 17) != 0) env.emplace_back(*e);
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

/// What became of one worker.
struct worker_end {
  int status = 0;           ///< as waitpid gives it
  bool watchdog = false;    ///< killed by the watchdog
  std::string last_case;    ///< the case it last said it was starting ("" if none)
};

worker_end run_worker(const std::vector<std::string>& argv_strings, const std::vector<std::string>& env_strings,
                      int write_fd, int read_fd, double watchdog_s) {
  std::vector<char*> argv, envp;
  for (const std::string& a : argv_strings) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const std::string& e : env_strings) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: a terminal's ^C reaches it once, through us
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0], nullptr, &attr, argv.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw input_error(fmt::format("cannot start a worker process ({}): {}", argv_strings[0], std::strerror(rc)));
  watch_child(pid);
  ::close(write_fd);

  worker_end end;
  using clock = std::chrono::steady_clock;
  auto last = clock::now();
  std::string pending;
  for (bool open = true; open;) {
    pollfd p{read_fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, 200);
    if (ready > 0) {
      char buf[4096];
      const ssize_t n = ::read(read_fd, buf, sizeof buf);
      if (n > 0) {
        pending.append(buf, std::size_t(n));
        for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1)) {
          const std::string line = pending.substr(0, nl);
          if (line.rfind("start\t", 0) == 0) {
            end.last_case = line.substr(6);
            last = clock::now();
          }
        }
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        open = false;
      }
    }
    if (!end.watchdog && std::chrono::duration<double>(clock::now() - last).count() > watchdog_s) {
      ::kill(-pid, SIGKILL);  // a kernel that never ends can only be stopped with its process
      end.watchdog = true;
    }
  }
  while (::waitpid(pid, &end.status, 0) < 0 && errno == EINTR) {}
  unwatch_child(pid);
  return end;
}

/// The JSON a worker left at `path`, or null when there is none (or it cannot be read: the worker died first).
nlohmann::ordered_json read_json(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return nullptr;
  try {
    return nlohmann::ordered_json::parse(read_file(path));
  } catch (const std::exception&) {
    return nullptr;
  }
}

/// The results a worker left at `path` (read by the one reader of the schema), or nothing when there are
/// none yet or they cannot be read (the worker died while writing them, which the atomic write rules out).
std::optional<run_result> read_results(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;
  try {
    return load_run(path);
  } catch (const input_error&) {  // no case finished yet: its document holds no rows
    return std::nullopt;
  }
}

}  // namespace

void install_stop_signals() {
  struct sigaction sa{};
  sa.sa_handler = forward_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

void watch_child(pid_t pid) {
  for (auto& c : children) {
    pid_t free_slot = 0;
    if (c.compare_exchange_strong(free_slot, pid)) break;
  }
  if (const int sig = interrupt_signal().load()) ::kill(pid, sig);  // asked to stop while it was starting
}

void unwatch_child(pid_t pid) {
  for (auto& c : children) {
    pid_t mine = pid;
    if (c.compare_exchange_strong(mine, 0)) break;
  }
}

std::optional<worker_link> worker_link::from_environment() {
  const char* cases = std::getenv(env_cases);
  if (!cases) return std::nullopt;
  worker_link w;
  w.cases_file_ = cases;
  w.results_ = std::getenv(env_results) ? std::getenv(env_results) : "";
  w.trace_ = std::getenv(env_trace) ? std::getenv(env_trace) : "";
  w.progress_fd_ = std::getenv(env_fd) ? std::atoi(std::getenv(env_fd)) : -1;
  if (const char* progress = std::getenv(env_progress)) {
    unsigned long long before = 0, total = 0;
    if (std::sscanf(progress, "%llu/%llu", &before, &total) == 2) {
      w.before_ = before;
      w.total_ = total;
    }
  }
  // A worker must not outlive its supervisor (killed by the CI runner, say): it would hold the GPU.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (const char* parent = std::getenv(env_parent); parent && ::getppid() != std::atoi(parent)) std::_Exit(1);
  return w;
}

std::vector<std::string> worker_link::cases() const {
  std::ifstream in(cases_file_);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

void worker_link::starting(const std::string& name) const {
  if (progress_fd_ < 0) return;
  const std::string line = "start\t" + name + "\n";
  (void)write_all(progress_fd_, line);
}

supervised_run supervise(const std::vector<std::string>& args, const std::vector<std::string>& cases,
                         double watchdog_s, bool want_trace) {
  install_stop_signals();
  const scratch_dir dir;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  supervised_run out;
  std::vector<std::string> remaining = cases;
  for (int round = 0; !remaining.empty() && !out.interrupted_by; ++round) {
    const std::string list = fmt::format("{}/cases-{}.txt", dir.path(), round);
    const std::string results = fmt::format("{}/results-{}.json", dir.path(), round);
    const std::string trace = fmt::format("{}/trace-{}.json", dir.path(), round);
    {
      std::string text;
      for (const std::string& c : remaining) text += c + "\n";
      write_file_atomically(list, text);
    }
    int fds[2];
    if (::pipe(fds) != 0) throw input_error(fmt::format("cannot create a pipe for the worker process: {}", std::strerror(errno)));
    fd_guard read_end(fds[0]);
    ::fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    std::vector<std::string> argv{self};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> extra{
        fmt::format("{}={}", env_cases, list), fmt::format("{}={}", env_results, results),
        fmt::format("{}={}", env_fd, fds[1]), fmt::format("{}={}", env_parent, ::getpid()),
        fmt::format("{}={}/{}", env_progress, cases.size() - remaining.size(), cases.size())};
    if (want_trace) extra.push_back(fmt::format("{}={}", env_trace, trace));
    const worker_end end = run_worker(argv, worker_environment(extra), fds[1], read_end.get(), watchdog_s);

    // What it finished, whatever became of it afterwards.
    if (std::optional<run_result> done = read_results(results)) {
      if (out.host.empty()) out.host = done->host;
      if (!out.device) out.device = done->device;
      for (case_result& c : done->cases) out.cases[c.name] = std::move(c);
    }
    if (want_trace) {
      nlohmann::ordered_json t = read_json(trace);
      if (t.is_object() && t.contains("traceEvents") && t["traceEvents"].is_array()) {
        if (out.trace.is_null()) {
          out.trace = std::move(t);
        } else {
          for (auto& e : t["traceEvents"]) {
            if (e.contains("pid") && e["pid"].is_number_integer()) e["pid"] = e["pid"].get<int>() + 1000 * round;
            out.trace["traceEvents"].push_back(std::move(e));
          }
        }
      }
    }

    const int st = end.status;
    const bool exited = WIFEXITED(st);
    const int code = exited ? WEXITSTATUS(st) : -1;
    if (const int sig = interrupt_signal().load(); sig && !end.watchdog) {
      out.interrupted_by = sig;
      break;
    }
    std::string why;
    if (end.watchdog) {
      if (end.last_case.empty())
        throw input_error(fmt::format("the worker process started no case within {:g} s (--watchdog)", watchdog_s));
      why = fmt::format("hung: no progress for {:g} s, so its process was killed (--watchdog={:g})", watchdog_s, watchdog_s);
    } else if (exited && code == worker_exit_context_lost) {
      if (!out.cases.count(end.last_case)) why = "lost the CUDA context";
    } else if (WIFSIGNALED(st)) {
      if (end.last_case.empty())
        throw input_error(fmt::format("the worker process was killed by {} before its first case", signal_name(WTERMSIG(st))));
      why = fmt::format("its process was killed by {} while it ran", signal_name(WTERMSIG(st)));
    } else if (exited && (code == 0 || code == 1)) {
      break;  // every case it was given is done
    } else {
      throw worker_failed(code);  // it said why on standard error
    }
    if (!why.empty()) out.faulted[end.last_case] = why;
    // The reason as the worker recorded it, when it did (a lost context: the CUDA error of the case).
    std::string said = why;
    if (auto it = out.cases.find(end.last_case); said.empty() && it != out.cases.end())
      said = it->second.message.empty() ? std::string("failed") : it->second.message;
    std::vector<std::string> next;
    for (const std::string& c : remaining)
      if (!out.cases.count(c) && !out.faulted.count(c)) next.push_back(c);
    if (next.size() >= remaining.size())  // no progress: never start the same worker again
      throw input_error(fmt::format("the worker process stopped in {} without finishing it", end.last_case));
    remaining = std::move(next);
    fmt::print(stderr, "run_bench: {}: {}; {}\n", end.last_case, said,
               remaining.empty() ? std::string("no case left")
                                 : fmt::format("the {} remaining case(s) go on in a fresh process", remaining.size()));
    std::fflush(stderr);
  }
  return out;
}

}  // namespace cudabench::app

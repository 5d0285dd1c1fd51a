// The supervisor: one worker process at a time (a child_process of this binary), a pipe on which the worker
// names each case as it starts it, a watchdog on that pipe, and the merge of what every worker wrote.
#include "app/supervisor.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>

#include "cli/program_name.hpp"
#include "cudabench/run_memo.hpp"
#include "io/atomic_file.hpp"
#include "io/child_process.hpp"
#include "io/errors.hpp"
#include "io/interrupt.hpp"
#include "io/output_sink.hpp"
#include "results/results.hpp"

namespace cudabench::app {

using namespace cudabench::cli;  // the command line (cli/) is the commands' own
namespace {

constexpr const char* env_prefix = "CUDABENCH_WORKER_";
constexpr const char* env_cases = "CUDABENCH_WORKER_CASES";
constexpr const char* env_results = "CUDABENCH_WORKER_RESULTS";
constexpr const char* env_trace = "CUDABENCH_WORKER_TRACE";
constexpr const char* env_fd = "CUDABENCH_WORKER_FD";
constexpr const char* env_parent = "CUDABENCH_WORKER_PARENT";
constexpr const char* env_progress = "CUDABENCH_WORKER_PROGRESS";
constexpr const char* env_round = "CUDABENCH_WORKER_ROUND";
constexpr const char* env_memo = cudabench::run_memo_environment;

/// The files of one worker (one round of the run).
struct worker_files {
  std::string cases, results, trace;
  worker_files(const std::string& dir, int round)
      : cases(fmt::format("{}/cases-{}.txt", dir, round)),
        results(fmt::format("{}/results-{}.json", dir, round)),
        trace(fmt::format("{}/trace-{}.json", dir, round)) {}
};

/// What became of one worker.
struct worker_end {
  int status = 0;         ///< as waitpid gives it
  bool watchdog = false;  ///< killed by the watchdog
  std::string last_case;  ///< the case it last said it was starting ("" if none)
};

/// Runs one worker to its end: reads the cases it starts from `progress` (whose write end, `write_end`, only
/// the worker keeps) and kills it when one makes no progress for `watchdog_s`; calls `recorded` each time it
/// says it recorded a case.
worker_end run_worker(const child_spec& spec, unique_fd& write_end, int progress, double watchdog_s,
                      const std::function<void()>& recorded) {
  child_process worker(spec);
  write_end.reset();  // the worker's copy alone: the pipe ends when the worker does
  worker_end end;
  using clock = std::chrono::steady_clock;
  auto last = clock::now();
  std::string pending;
  for (bool open = true; open;) {
    pollfd p{progress, POLLIN, 0};
    const int ready = ::poll(&p, 1, 200);
    if (ready > 0) {
      char buf[4096];
      const ssize_t n = ::read(progress, buf, sizeof buf);
      if (n > 0) {
        pending.append(buf, std::size_t(n));
        for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1)) {
          const std::string line = pending.substr(0, nl);
          if (line.rfind("start\t", 0) == 0) {
            end.last_case = line.substr(6);
            last = clock::now();
          } else if (line == "done" && recorded) {
            recorded();
          }
        }
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        open = false;
      }
    }
    if (!end.watchdog && std::chrono::duration<double>(clock::now() - last).count() > watchdog_s) {
      worker.kill_group(SIGKILL);  // a kernel that never ends can only be stopped with its process
      end.watchdog = true;
    }
  }
  end.status = worker.wait();
  return end;
}

/// Starts a worker for `remaining` (the last of the cases of `at`) and runs it to its end.
worker_end start_worker(const std::vector<std::string>& args, const worker_files& files,
                        const std::vector<std::string>& remaining, const round_position& at, double watchdog_s,
                        bool want_trace, const std::function<void()>& recorded) {
  std::string list;
  for (const std::string& c : remaining) list += c + "\n";
  write_file_atomically(files.cases, list);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw input_error(fmt::format("cannot create a pipe for the worker process: {}", std::strerror(errno)));
  unique_fd read_end(fds[0]), write_end(fds[1]);
  child_spec spec;
  spec.argv.push_back(this_program());
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  std::vector<std::string> extra{
      fmt::format("{}={}", env_cases, files.cases),
      fmt::format("{}={}", env_results, files.results),
      fmt::format("{}={}", env_fd, fds[1]),
      fmt::format("{}={}", env_parent, ::getpid()),
      fmt::format("{}={}/{}", env_progress, at.before + at.cases - remaining.size(), at.total),
      fmt::format("{}={}/{}", env_round, at.round, at.rounds)};
  if (want_trace) extra.push_back(fmt::format("{}={}", env_trace, files.trace));
  if (!at.memo_dir.empty()) extra.push_back(fmt::format("{}={}", env_memo, at.memo_dir));
  spec.environment = inherited_environment(env_prefix, extra);
  spec.pass_fds = {fds[1]};
  try {
    return run_worker(spec, write_end, read_end.get(), watchdog_s, recorded);
  } catch (const input_error& e) { throw input_error(fmt::format("the worker process: {}", e.what())); }
}

/// The cases a worker recorded since the last look: its results file read on from where the last look ended.
class results_tail {
 public:
  explicit results_tail(std::string path) : path_(std::move(path)) {}
  /// Each whole line added since, read as one case's results document (one that cannot be read is left to
  /// read_worker_results, which says so).
  std::vector<case_result> new_cases();

 private:
  std::string path_;
  std::streamoff read_ = 0;
};

std::vector<case_result> results_tail::new_cases() {
  std::ifstream in(path_, std::ios::binary);
  if (!in.seekg(read_)) return {};
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::size_t whole = text.rfind('\n');  // a last line not yet ended is read next time
  if (whole == std::string::npos) return {};
  read_ += std::streamoff(whole + 1);
  std::vector<case_result> out;
  for (std::size_t from = 0, nl; from <= whole; from = nl + 1) {
    nl = text.find('\n', from);
    try {
      run_result one = parse_run_text(text.substr(from, nl - from), path_, summaries::left_to_assembly);
      std::move(one.cases.begin(), one.cases.end(), std::back_inserter(out));
    } catch (const input_error&) {}
  }
  return out;
}

/// The JSON a worker left at `path`, or null when there is none (or it cannot be read: the worker died first).
nlohmann::ordered_json read_json(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return nullptr;
  try {
    return nlohmann::ordered_json::parse(read_file(path));
  } catch (const std::exception&) { return nullptr; }
}

}  // namespace

std::optional<run_result> read_worker_results(const std::string& path) {
  std::ifstream in(path);
  std::optional<run_result> run;
  for (std::string line; std::getline(in, line);) {
    const bool cut_off = in.eof();  // no newline after it
    try {
      run_result one = parse_run_text(line, path, summaries::left_to_assembly);
      if (!run)
        run = std::move(one);
      else
        std::move(one.cases.begin(), one.cases.end(), std::back_inserter(run->cases));
    } catch (const input_error& e) {
      if (!cut_off)
        fmt::print(stderr, "{}: the results of a worker process cannot be read: {}\n", program_name(), e.what());
    }
  }
  return run;
}

namespace {

/// What a worker finished, whatever became of it afterwards, into `out` (its trace's processes renumbered
/// apart by `round`).
void collect_worker_output(supervised_run& out, const worker_files& files, int round, bool want_trace) {
  if (std::optional<run_result> done = read_worker_results(files.results)) {
    if (out.host.empty()) out.host = done->host;
    if (!out.device) out.device = done->device;
    for (case_result& c : done->cases) out.cases[c.name] = std::move(c);
  }
  if (!want_trace) return;
  nlohmann::ordered_json t = read_json(files.trace);
  if (!t.is_object() || !t.contains("traceEvents") || !t["traceEvents"].is_array()) return;
  if (out.trace.is_null()) {
    out.trace = std::move(t);
    return;
  }
  for (auto& e : t["traceEvents"]) {
    if (e.contains("pid") && e["pid"].is_number_integer()) e["pid"] = e["pid"].get<int>() + 1000 * round;
    out.trace["traceEvents"].push_back(std::move(e));
  }
}

/// Why the worker's last case failed ("" when the worker recorded that itself: a lost context), or nullopt
/// when the worker finished every case it was given. Throws when the run cannot go on.
std::optional<std::string> fault_of(const worker_end& end, const supervised_run& out, double watchdog_s) {
  const int st = end.status;
  const bool exited = WIFEXITED(st);
  const int code = exited ? WEXITSTATUS(st) : -1;
  if (end.watchdog) {
    if (end.last_case.empty())
      throw input_error(fmt::format("the worker process started no case within {:g} s (--watchdog)", watchdog_s));
    return fmt::format("hung: no progress for {:g} s, so its process was killed (--watchdog={:g})", watchdog_s,
                       watchdog_s);
  }
  if (exited && code == worker_exit_context_lost)
    return out.cases.count(end.last_case) ? std::string() : std::string("lost the CUDA context");
  if (WIFSIGNALED(st)) {
    if (end.last_case.empty())
      throw input_error(
          fmt::format("the worker process was killed by {} before its first case", signal_name(WTERMSIG(st))));
    return fmt::format("its process was killed by {} while it ran", signal_name(WTERMSIG(st)));
  }
  if (exited && (code == 0 || code == 1)) return std::nullopt;  // every case it was given is done
  throw worker_failed(code);                                    // it said why on standard error
}

/// Records the fault of the worker's last case and returns the cases still to run (said on standard error).
std::vector<std::string> after_fault(supervised_run& out, const worker_end& end, const std::string& why,
                                     const std::vector<std::string>& remaining) {
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
  fmt::print(stderr, "{}: {}: {}; {}\n", program_name(), end.last_case, said,
             next.empty() ? std::string("no case left")
                          : fmt::format("the {} remaining case(s) go on in a fresh process", next.size()));
  std::fflush(stderr);
  return next;
}

}  // namespace

std::optional<worker_link> worker_link::from_environment() {
  const char* cases = std::getenv(env_cases);
  if (!cases) return std::nullopt;
  worker_link w;
  w.cases_file_ = cases;
  w.results_ = std::getenv(env_results) ? std::getenv(env_results) : "";
  w.trace_ = std::getenv(env_trace) ? std::getenv(env_trace) : "";
  w.progress_fd_ = std::getenv(env_fd) ? std::atoi(std::getenv(env_fd)) : -1;
  if (const char* round = std::getenv(env_round)) {
    int r = 0, n = 0;
    if (std::sscanf(round, "%d/%d", &r, &n) == 2 && r >= 1 && n >= r) {
      w.round_ = r;
      w.rounds_ = n;
    }
  }
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

void worker_link::record(const std::string& one_case_line) const {
  const int fd = ::open(results_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw input_error(fmt::format("{}: cannot record a finished case: {}", results_, std::strerror(errno)));
  const bool written = write_all(fd, one_case_line);
  ::close(fd);
  if (!written) throw input_error(fmt::format("{}: cannot record a finished case: {}", results_, std::strerror(errno)));
  if (progress_fd_ >= 0) (void)write_all(progress_fd_, "done\n");
}

void worker_link::starting(const std::string& name) const {
  if (progress_fd_ < 0) return;
  const std::string line = "start\t" + name + "\n";
  (void)write_all(progress_fd_, line);
}

supervised_run supervise(const std::vector<std::string>& args, const std::vector<std::string>& cases, double watchdog_s,
                         bool want_trace, round_position at, const case_listener& on_case) {
  if (at.total == 0) at.total = cases.size();
  at.cases = cases.size();
  install_stop_signals();
  const temp_directory dir("cudabench-run");  // the workers' files
  supervised_run out;
  std::vector<std::string> remaining = cases;
  for (int round = 0; !remaining.empty() && !out.interrupted_by; ++round) {
    const worker_files files(dir.path(), round);
    results_tail tail(files.results);
    const std::function<void()> recorded = [&] {
      for (const case_result& c : tail.new_cases()) on_case(c, at.round, at.total);
    };
    const worker_end end =
        start_worker(args, files, remaining, at, watchdog_s, want_trace, on_case ? recorded : std::function<void()>());
    if (on_case) recorded();  // a case recorded just before its worker was killed
    collect_worker_output(out, files, round, want_trace);
    if (const int sig = interrupt_signal().load(); sig && !end.watchdog) {
      out.interrupted_by = sig;
      break;
    }
    const std::optional<std::string> why = fault_of(end, out, watchdog_s);
    if (!why) break;
    if (on_case && !why->empty()) {  // the case that hung or killed its process, failed
      case_result failed;
      failed.name = end.last_case;
      failed.status = case_status::failed;
      failed.message = *why;
      on_case(failed, at.round, at.total);
    }
    remaining = after_fault(out, end, *why, remaining);
  }
  return out;
}

}  // namespace cudabench::app

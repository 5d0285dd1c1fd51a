// One child process per device (posix_spawn of this binary), then the merge.
#include "app/fanout.hpp"
#include "app/results_output.hpp"
#include "app/supervisor.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <signal.h>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <fstream>
#include <map>

#include "harness/atomic_file.hpp"
#include "harness/interrupt.hpp"
#include "harness/results.hpp"
#include "harness/results_json.hpp"

extern char** environ;

namespace cudabench::app {
namespace {
std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}
}  // namespace

int run_on_devices(const run_options& opt, const std::vector<std::string>& args) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  // Test hook: the CLI test exercises the fan-out and merge on a machine without GPUs.
  if (const char* fake = std::getenv("CUDABENCH_TEST_DEVICE_COUNT")) count = std::atoi(fake);
  const std::vector<int> devices = parse_device_list(*opt.devices, count);
  if (opt.json_path && !is_stdout(opt.json_path)) check_writable(*opt.json_path);
  std::optional<results_on_stdout> results_out;  // --json -: the merged document alone on standard output
  if (is_stdout(opt.json_path)) results_out.emplace();
  const std::string dir = make_temp_directory("cudabench-devices");
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();

  install_stop_signals();  // ^C: each device's run stops after its current sample and writes what it finished
  std::map<pid_t, int> children;
  for (int d : devices) {
    if (interrupt_signal().load()) break;
    std::vector<std::string> child = child_arguments(args, d, fmt::format("{}/dev{}.json", dir, d));
    child.insert(child.begin(), self);
    std::vector<char*> argv;
    for (auto& a : child) argv.push_back(a.data());
    argv.push_back(nullptr);
    const std::string log = fmt::format("{}/dev{}.log", dir, d);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);  // its own group: a terminal's ^C reaches it once, through us
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, self.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) throw input_error(fmt::format("--devices: cannot start the process for device {}: {}", d, std::strerror(rc)));
    children[pid] = d;
    watch_child(pid);
    fmt::print("device {}: started (log {})\n", d, log);
  }
  std::fflush(stdout);

  std::vector<device_run> runs;
  int worst = 0;
  while (!children.empty()) {
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) break;
    unwatch_child(pid);
    auto it = children.find(pid);
    if (it == children.end()) continue;
    const int d = it->second;
    children.erase(it);
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    worst = std::max(worst, code);
    device_run run;
    run.ordinal = d;
    const std::string json = fmt::format("{}/dev{}.json", dir, d);
    std::error_code ec;
    if (std::filesystem::exists(json, ec)) {
      try {
        run.result = load_run(json);
      } catch (const input_error& e) {
        run.problem = fmt::format("its results cannot be read: {}", e.what());
      }
    } else {
      run.problem = WIFEXITED(status) ? fmt::format("exit status {} and no result", code) : "the process was killed";
    }
    fmt::print("device {}: exit {}: {}\n", d, code, last_line(fmt::format("{}/dev{}.log", dir, d)));
    std::fflush(stdout);
    runs.push_back(std::move(run));
  }
  std::sort(runs.begin(), runs.end(), [](auto& a, auto& b) { return a.ordinal < b.ordinal; });
  if (const int sig = interrupt_signal().load()) {
    // Each device wrote the cases it finished (marked incomplete); the merge keeps them, or the old file.
    const char* name = sig == SIGINT ? "SIGINT" : "SIGTERM";
    std::size_t finished = 0;
    for (const device_run& r : runs)
      if (r.result) finished += r.result->cases.size();
    std::string where = "nothing written";
    if (opt.json_path && finished > 0) {
      run_result merged = merge_device_runs(std::move(runs));
      merged.mark_incomplete(name);
      const std::string text = to_json(merged, opt.time_unit).dump(2) + "\n";
      if (results_out) results_out->write(text);
      else write_file_atomically(*opt.json_path, text);
      where = fmt::format("the finished cases of each device are in {} (marked incomplete)", *opt.json_path);
    } else if (opt.json_path) {
      where = fmt::format("{} left as it was", *opt.json_path);
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    fmt::print(stderr, "\nrun_bench: interrupted by {}; {}\n", name, where);
    return 128 + sig;
  }
  if (results_out) {
    results_out->write(to_json(merge_device_runs(std::move(runs)), opt.time_unit).dump(2) + "\n");
  } else if (opt.json_path) {
    write_file_atomically(*opt.json_path, to_json(merge_device_runs(std::move(runs)), opt.time_unit).dump(2) + "\n");
    fmt::print("merged results: {} (per-device logs and results in {})\n", *opt.json_path, dir);
  }
  return worst;
}

}  // namespace cudabench::app

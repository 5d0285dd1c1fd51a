// The start-up phases of a process, on the steady clock, from the process's start as /proc gives it.
#include "measure/startup_times.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

namespace cudabench {
namespace {
double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

/// Seconds since this process started (exec), from /proc/self/stat's start time and /proc/uptime (10 ms steps);
/// 0 where they cannot be read.
double process_age_s() {
  std::ifstream stat("/proc/self/stat"), uptime("/proc/uptime");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  double up = 0;
  const auto paren = text.rfind(')');
  if (!(uptime >> up) || paren == std::string::npos) return 0;
  std::istringstream fields(text.substr(paren + 2));  // field 3 (state) onwards; the start time is field 22
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i)
    if (i == 22) {
      const long hz = ::sysconf(_SC_CLK_TCK);
      const double age = up - std::strtod(field.c_str(), nullptr) / double(hz > 0 ? hz : 100);
      return age > 0 ? age : 0;
    }
  return 0;
}

struct startup_log {
  std::mutex mutex;
  double started = now_s() - process_age_s();  ///< the process's start, on the steady clock
  double last = started;                       ///< the end of the last phase
  std::vector<std::pair<const char*, double>> phases;
  void add(const char* phase, double seconds) {
    for (auto& [name, s] : phases)
      if (std::strcmp(name, phase) == 0) {
        s += seconds;
        return;
      }
    phases.emplace_back(phase, seconds);
  }
};
startup_log& log() {
  static startup_log l;
  return l;
}
}  // namespace

void startup_phase_done(const char* phase) {
  startup_log& l = log();
  const std::lock_guard lock(l.mutex);
  const double t = now_s();
  l.add(phase, t - l.last);
  l.last = t;
}

void startup_time_add(const char* phase, double seconds) {
  startup_log& l = log();
  const std::lock_guard lock(l.mutex);
  l.add(phase, seconds);
}

std::string startup_line(const std::string& event) {
  startup_log& l = log();
  const std::lock_guard lock(l.mutex);
  std::string parts;
  for (const auto& [name, s] : l.phases) parts += fmt::format("{}{} {:.3f} s", parts.empty() ? "" : ", ", name, s);
  return fmt::format("startup: {:.3f} s to {} ({})", now_s() - l.started, event, parts);
}

void say_startup(const std::string& event) {
  const char* on = std::getenv(startup_times_environment);
  if (!on || std::strcmp(on, "1") != 0) return;
  const std::string line = startup_line(event) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

}  // namespace cudabench

// Where a process's time goes before its first case: each start-up phase timed as it ends, said in one line on
// standard error when CUDABENCH_STARTUP_TIMES=1 (a few clock reads a process otherwise).
#pragma once

#include <string>

namespace cudabench {

/// The environment variable that asks for the start-up line.
inline constexpr const char* startup_times_environment = "CUDABENCH_STARTUP_TIMES";

/// The time since the previous phase ended (the first: since the process started) goes to `phase`, a name that
/// lives as long as the process (a literal). Thread-safe; a phase named twice adds up.
void startup_phase_done(const char* phase);

/// Adds `seconds` to `phase` without ending the current one (work done inside another phase, such as SASS hashing
/// in CUPTI's module-load callback).
void startup_time_add(const char* phase, double seconds);

/// "startup: T s to EVENT (process A s, cuda B s, ...)": T from the process's start, the phases in their order.
std::string startup_line(const std::string& event);

/// Says startup_line(event) on standard error where CUDABENCH_STARTUP_TIMES=1.
void say_startup(const std::string& event);

}  // namespace cudabench

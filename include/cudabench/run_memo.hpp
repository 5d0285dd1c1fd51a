// Set-up results the rounds of a run share: a value a fixture computed once (an algorithm search, an
// autotuned choice) that the later rounds, each a fresh process, read back instead of computing it again.
#pragma once

#include <functional>
#include <string>

namespace cudabench {

/// The environment variable that names the run's memo folder (its supervisor sets it for each round).
inline constexpr const char* run_memo_environment = "CUDABENCH_WORKER_MEMO";

/// The value of `key` in this run: `compute()` the first time, read back after that, for as long as the run
/// lasts (its rounds share a memo folder their supervisor made and removes). Outside a supervised run it is
/// simply `compute()`. Keys and values are any text (a value of at most 64 KiB is kept; a longer one is
/// computed each time). Put in the key everything the value depends on (sizes, device ordinal).
std::string run_memo(const std::string& key, const std::function<std::string()>& compute);

}  // namespace cudabench

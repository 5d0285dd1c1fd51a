// What a comparison says of a baseline that is old, or that lacks what the current run records.
#pragma once

#include <optional>
#include <string>

#include "results/results.hpp"

namespace cudabench {

/// Seconds since the epoch of an ISO 8601 date ("2026-11-22T00:00:00+00:00", "...Z", no zone: UTC); none where
/// it is not one.
std::optional<long long> iso_seconds(const std::string& date);

/// A note on a baseline recorded a day or more before the current run, or one that lacks what the current run
/// records (code identity, the machine's fingerprint, energy): its age, both revisions and what it lacks; "" when
/// there is nothing to say.
std::string old_baseline_note(const run_result& base, const run_result& cur);

}  // namespace cudabench

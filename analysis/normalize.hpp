// Normalization by the machine: two boards of one GPU model differ by a few percent in memory bandwidth, host
// copies and clocks, and a case bound by one of them moves with it. A run measures those limits itself (the
// `limits` family), so a case's time can be compared on the scale of its control limit: its time multiplied
// by that limit's rate in the same run. What the board explains then drops out of the change; what the code
// did stays. compare judges such changes, and gates learn their drift on that scale. A host adds a fixed time
// to every sample besides (the GPU fetching the launch, the events): the empty sample measures it, and compare
// takes its change between two machines out of a case's time before scaling it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/results_model.hpp"

namespace cudabench {

/// The limits that stand for the machine in a comparison of `c`: its control, else its limit; a limit too
/// noisy to be a control itself (the copy both ways, not gated) stands as its two one-way copies. Empty for a
/// case with neither, and for the limits themselves (they are the machine).
std::vector<std::string> control_limits(const case_meta& c);

/// The limits a run measured itself that can stand for its machine: its gated `limits` cases that passed, by
/// name, with their rates (once per run: a comparison looks them up for every case).
std::map<std::string, double> control_rates(const run_result& run);

/// The rate of `c`'s control in a run of these `rates`: the geometric mean of its control limits' rates;
/// none where any is missing.
std::optional<double> control_rate(const case_meta& c, const std::map<std::string, double>& rates);

/// The limits case that measures what a sample of a case timed `cache` ("cold" or "hot") holds besides its
/// own device work: the empty kernel timed as such samples are (limits/empty_cold, limits/empty_hot).
const char* sample_overhead_case(const std::string& cache);

/// That case's median in `run`; none where the run did not measure it or its case failed.
std::optional<double> sample_overhead_s(const run_result& run, const std::string& cache);

/// The control limits of a case joined for people: "limits/read", "limits/h2d_pinned+limits/d2h_pinned".
std::string control_name(const case_meta& c);

}  // namespace cudabench

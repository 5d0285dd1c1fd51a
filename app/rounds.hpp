// Rounds: a run's repetitions spread over fresh worker processes, each running every selected case once in
// an order shuffled per round (as Google Benchmark's random interleaving and asv's process repetitions), and
// their results merged, each repetition marked with its round.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "app/supervisor.hpp"
#include "cudabench/fixture.hpp"

namespace cudabench::app {

/// How a run's rounds go: how many, the seed of their case orders, and the cases that take all their
/// repetitions in the first round instead (see spread_over_rounds).
struct round_plan {
  int rounds = 1;
  std::uint64_t seed = 0;
  std::set<std::string> first_round_only;
  std::size_t cases_after = 0;  ///< cases run after the rounds (BENCHMARK()s), counted in the progress
};

/// Whether the rounds spread `c`'s repetitions: a gated device case, or any case with `--rounds-for=all` or
/// `--trace` (the trace is the last round's). The others (host-bound and not-gated cases) take all their
/// repetitions in the first round: no default verdict judges them by the spread between processes, and
/// building their host data again in every round is most of what rounds cost.
bool spread_over_rounds(const case_def& c, bool every_case);

/// A fresh seed for the rounds' orders (from the operating system's entropy), small enough to type back.
std::uint64_t fresh_shuffle_seed();

/// The order round `round` (1-based) runs `names` in: a Fisher-Yates shuffle driven by a 64-bit Mersenne
/// Twister seeded with `seed` and the round, spelled out here so a seed gives the same orders everywhere.
std::vector<std::string> round_order(std::vector<std::string> names, std::uint64_t seed, int round);

/// Adds round `round` (of `rounds`) to the run's results: each case's repetitions marked with the round when there
/// are several rounds, then pooled into what the earlier rounds measured by the one rule (pool_case).
void merge_round(supervised_run& all, supervised_run&& one, int round, int rounds);

/// Runs `names` in `plan.rounds` supervised passes (see supervise), each in its own shuffled order (the suite
/// order with one round), and merges them: a case's repetitions in round order, each marked with its round
/// when there are several; the trace of the last round. The cases of `plan.first_round_only` run in the first
/// round only, with every round's repetitions (the worker gives them those). A case that failed, was skipped or faulted
/// in a round is not run again; it ends as that round says (pool_case). An interrupt ends the run after the current
/// pass. `on_case` hears of each case as it finishes in each round.
supervised_run run_rounds(const std::vector<std::string>& args, const std::vector<std::string>& names,
                          double watchdog_s, bool want_trace, const round_plan& plan,
                          const case_listener& on_case = {});

}  // namespace cudabench::app

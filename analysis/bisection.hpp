// Bisecting a regression: the cases bisected, how a tested revision is classified, and the search over the
// revisions between a good and a bad one (unbuildable ones skipped).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "results/results_model.hpp"

namespace cudabench {

/// A case that the comparison of the good end against the bad end flagged as a regression.
struct bisected_case {
  std::string name;
  double good_s = 0, bad_s = 0;  ///< its median at each end
  double change() const { return bad_s / good_s - 1; }
};

/// The regressions of a comparison of the good end (baseline) against the bad end (current).
std::vector<bisected_case> regressed_cases(const comparison& ends);

/// How one tested revision compares with the good end, case by case, and what that makes it.
struct revision_verdict {
  std::vector<std::optional<double>> changes;  ///< median / good median - 1 per bisected case; nullopt: no result
  std::size_t bad_votes = 0;                   ///< cases whose change is at least half their good-to-bad change
  bool bad = false;                            ///< bad_votes is more than half of the cases
};

/// The classification rule: a case votes bad when its median in `run` has changed from its median in `good`
/// (the good end measured beside it, in alternating processes, so that drift between steps cancels; the first
/// measurement of the good end where `good` lacks the case) by at least half of its change from good to bad;
/// a case the revision did not measure, or failed, votes good. The revision is bad when more than half of the
/// cases vote bad.
revision_verdict classify_revision(const std::vector<bisected_case>& cases, const run_result& run,
                                   const run_result& good);

/// Several runs of one binary pooled into one: each case's repetitions from every run, in run order, its
/// statistics derived again, with each process's rounds numbered apart (the statistics then compare rounds). The first
/// run's description (device, settings, families) is kept.
run_result pool_runs(std::vector<run_result> runs);

/// The search over candidates 0..n-1, ordered oldest first: the last is the bad end, the good end comes before
/// the first. Each step tests the candidate nearest the middle of the open range that was not skipped.
class bisection {
 public:
  /// `candidates` >= 1: the revisions after the good end up to and including the bad end.
  explicit bisection(std::size_t candidates);
  /// The candidate to test next; nullopt once one candidate is left, or only skipped ones lie between.
  std::optional<std::size_t> next() const;
  /// Records a tested candidate's classification.
  void mark(std::size_t candidate, bool bad);
  /// Records a candidate that could not be tested (it does not build, or its run left no results).
  void skip(std::size_t candidate);
  /// The narrowest range known to hold the first bad candidate, [first, last] (last is the newest known bad).
  std::pair<std::size_t, std::size_t> range() const { return {std::size_t(good_ + 1), bad_}; }
  /// True once the range is one candidate.
  bool found() const { return range().first == range().second; }
  /// At most this many more tests (each halves the candidates not yet tested nor skipped).
  std::size_t steps_left() const;

 private:
  std::ptrdiff_t good_ = -1;  ///< newest candidate known good (-1: the good end)
  std::size_t bad_;           ///< oldest candidate known bad
  std::vector<bool> skipped_;
};

}  // namespace cudabench

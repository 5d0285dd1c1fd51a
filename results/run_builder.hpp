// The one assembly of a run from what several origins measured: rounds of a supervised run, processes of a
// revision pooled by bisect, devices of a --devices fan-out.
#pragma once

#include <map>
#include <string>

#include "results/results_model.hpp"

namespace cudabench {

/// What measured a case that a run pools: a round (a fresh worker process of one run), a process (one of
/// several runs of one binary, pooled by bisect) or a device (one process of a --devices fan-out).
enum class origin { round, process, device };

/// The plural a message names an origin by ("rounds", "processes", "devices").
const char* origin_plural(origin from);

/// The one rule that pools a case measured again by another origin into what the earlier ones measured:
/// - the repetitions are appended, in the order added;
/// - a case that ended (failed or skipped) in any origin ends the pooled case, with its message: a failure
///   outranks a skip, and the first failure is kept;
/// - a traced sample (timeline) of a later origin replaces an earlier one;
/// - code identity: the first one recorded is kept; where a later one differs, the case has no identity (neither
///   "same code" nor "code changed" can be said of it) and its `problem` says the origins differed.
void pool_case(case_result& kept, case_result&& more, origin from);

/// Assembles a run: starts from a run's description and cases (`head`, the first origin's), takes each case
/// any other origin measured (add), the limits its cases are shown against (set_limits), and summarizes each
/// case once (finish).
class run_builder {
 public:
  explicit run_builder(run_result head = {});
  /// A case measured by `from`: a new name is appended; a name already present is pooled (pool_case).
  void add(case_result c, origin from);
  /// The run being built, to describe it (selection, devices, settings); its cases change through add only.
  run_result& description() { return run_; }
  /// The case of that name added so far, or null.
  const case_result* find(const std::string& name) const;
  /// Records the limits the cases are shown against (apply_limits), once the cases are in.
  void set_limits(const std::map<std::string, limit_rate>& limits, const std::string& source);
  /// The run, each case summarized from its repetitions and the cases indexed.
  run_result finish();

 private:
  run_result run_;
  std::map<std::string, std::size_t> at_;  ///< case name -> index in run_.cases
};

}  // namespace cudabench

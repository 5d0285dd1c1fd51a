// Gates learned from history: each case's between-run drift over several runs, the gate it sets, and the
// gates file that carries them from `run_bench gates` to `compare`.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "results/results_model.hpp"

namespace cudabench {

/// How gates are learned. The defaults are the one place k, the floor and the least history are set;
/// docs/validation.md says how they were chosen.
struct gate_settings {
  /// No learned gate is below this (1.5%): below it a real change and a board's drift are not told apart.
  double floor = 0.015;
  /// Gate = k x the drift of the change between two runs. 6: held out in turn from six H100 nightly runs, each
  /// run against the other five with gates learned from them alone flagged nothing at 6 (at 4, a case in 4 of
  /// 30 comparisons); a drift estimated from a short history is often low, which 6 leaves room for.
  double k = 6;
  /// Fewer runs than this (with a result for the case) learn nothing: the case keeps the default gate.
  std::size_t min_runs = 5;
};

/// What each setting and learned value may be, for the gates command's options and the gates file's reader
/// alike: a floor from 0 to 1 (100%), k from 0.1 to 100, min_runs from 3 (two pairs of neighbours) to 100,000.
inline constexpr double max_gate_floor = 1, min_gate_k = 0.1, max_gate_k = 100;
inline constexpr std::size_t min_gate_min_runs = 3, max_gate_min_runs = 100000;
/// A drift is at most 10 (a spread of e^10, some 22,000 times, between two runs' medians: no benchmark's
/// history), so a gate, k times a drift or the floor, is above 0 and at most max_gate_k times that.
inline constexpr double max_gate_drift = 10, max_gate = max_gate_k * max_gate_drift;

/// One case's learned gate. Its history is on the scale of the case's control where every run measured it
/// (normalize.hpp), so the offset between boards that the control explains is not in the drift.
struct learned_gate {
  double gate = 0;         ///< max(floor, k x max(drift, across_board_drift)): for runs of two boards, or unknown ones
  double drift = 0;        ///< estimated spread (standard deviation) of log(median_b / median_a) between two runs
  std::size_t runs = 0;    ///< the runs it was learned from
  std::size_t boards = 0;  ///< the boards (GPU uuids) among them; 0 where no run recorded its board
  /// The spread of the change between runs of one board (pairs of runs of the same board), and the gate it sets
  /// for two runs of one board; 0 where too few such pairs were seen (the gate above applies).
  double same_board_drift = 0, same_board_gate = 0;
  /// The spread of the change between runs of different boards (after normalization); 0 where too few pairs.
  double across_board_drift = 0;
  /// A host-bound case (a CPU case, a plain BENCHMARK()): its pairs are of runs of one machine (one host name and
  /// one board, or none), and only its same-board gate is used, for two runs of one machine; elsewhere it stays
  /// not gated (or gated by --host-threshold).
  bool host = false;
  /// The gate and drift that apply to a comparison of two runs of one board (`same_board`) or not.
  learned_gate for_pair(bool same_board) const;
};

/// A run the gates were learned from.
struct gate_source_run {
  std::string file, revision, date;
  std::string board;  ///< the GPU's uuid ("" where the run did not record it)
  std::string host;   ///< the host's name ("" where the run did not record it)
};

/// What a gates file holds.
struct gate_table {
  std::string source;  ///< the file read, "" when learned here
  std::string device;  ///< the GPU model (device_info::name, "no GPU" for a run without one)
  std::string preset;
  gate_settings settings;
  std::vector<gate_source_run> runs;
  std::map<std::string, learned_gate> cases;  ///< only cases with enough history
  /// The histories were taken on each case's control scale where they could be (false: gates files written
  /// before that, whose drifts are of the times as measured).
  bool normalized = false;

  /// The learned gate of a case, or null (it keeps the default).
  const learned_gate* find(const std::string& name) const;
  /// The distinct boards its runs came from (uuids; runs without one are not counted).
  std::set<std::string> boards() const;
};

/// The robust spread of the change between two runs, from one case's medians in date order: 1.4826 x the lower
/// median of |log(m[i] / m[j])| over the pairs of runs at most 3 apart, unbiased for small histories; for normal
/// log medians it estimates the standard deviation of the change. A real step in the history barely moves it;
/// one bad night moves it by about 10-20% from 15 runs on (more with fewer: it can double with 5). NaN with
/// fewer than two medians.
double between_run_drift(const std::vector<double>& medians_s);

/// The spread of the change between two runs from the |log ratio| of pairs of runs: 1.4826 x their lower median
/// (for normal changes about their standard deviation, a little under it for few pairs); NaN with fewer than
/// `min_pairs` pairs.
double pair_drift(std::vector<double> abs_log_ratios, std::size_t min_pairs);

/// Learns the gates of the gated cases (status ok) of `runs`, taken oldest first
/// (context.cudabench.started_utc, else context.date, then the file name), each case's medians on its control's
/// scale where every run measured the control. A host-bound case's gate (`host`) is learned from pairs of runs of
/// one machine only (its host name and board), as measured; a case host-bound in some runs and not in others
/// learns none. Throws input_error
/// (one line) for no runs, a run without a device description, or runs of different GPU models or presets.
gate_table learn_gates(const std::vector<run_result>& runs, const gate_settings& s);

/// The gates file (JSON) of a table.
std::string gates_json(const gate_table& t);
/// Reads a gates file's text; anything unusable is an input_error naming `source` and the problem.
gate_table parse_gates(const std::string& text, const std::string& source);
/// Reads a gates file (a regular file within the input size limit, or - for standard input).
gate_table load_gates(const std::string& path);

}  // namespace cudabench

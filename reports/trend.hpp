// Trends over many nightly results: a series per case and the sustained shifts in it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "results/results.hpp"

namespace cudabench::reports {

/// A step in a case's series: where it starts, its size against the level before it, and whether it held.
struct trend_step {
  std::size_t at = 0;  ///< the run where the step starts
  double size = 0;     ///< the median of the `hold` runs from it over the level before it, minus 1
  double before = 0;   ///< that level: the median of the (up to 5) runs before it, within its level
  /// The latest runs are back: within half the threshold of the level before it (or before an earlier step), or
  /// on the other side of it. A returned step is shown, never counted as sustained.
  bool returned = false;
};

struct trend_series {
  std::string name, family;
  std::vector<double> medians_s;  ///< one per run (NaN where the case did not run)
  /// Why the case is shown apart, with no step looked for ("host-bound" or "not gated", as compare never gates
  /// it); "" for a gated device case, whose steps are found.
  std::string apart;
  std::vector<trend_step> steps;  ///< its steps, oldest first (returned ones included)
  /// Whether a step holds up to the latest runs.
  bool sustained() const;
};

/// A family's gated device cases together: per run, the geometric mean of each case's median over its first.
struct family_trend {
  std::string family;
  std::size_t cases = 0;        ///< its gated device cases
  std::vector<double> geomean;  ///< one per run (NaN where none of them ran)
};

struct trend {
  std::vector<std::string> runs;       ///< file names, oldest first
  std::vector<std::string> dates;      ///< each run's date as recorded ("" where it has none)
  std::vector<std::string> revisions;  ///< each run's git revision as recorded ("" where it has none)
  std::vector<trend_series> series;
  std::vector<family_trend> families;   ///< in the order their first case appears
  double threshold = 0.05;              ///< the smallest step that counts
  std::vector<std::string> unreadable;  ///< "file: why" for each .json that could not be read (left out)
  std::vector<std::string> gpus;        ///< the GPU models of the runs read ("unknown" without a description)
  /// Where the runs came from more than one board or host: "runs from 2 boards: GPU-edd4076f (2 runs),
  /// GPU-b2c4773f (5 runs)" and the like (a step between runs of two boards may be the board's); else empty.
  std::vector<std::string> machines;
  /// The cases with a sustained step (gated device cases only).
  std::size_t sustained() const;
};

/// "runs from 2 boards: GPU-edd4076f (2 runs), ..." for runs of more than one board (by uuid), and the same of hosts
/// (by host name); nothing where every run came from one board and one host, or none recorded it.
std::vector<std::string> machines_of(const std::vector<cudabench::run_result>& runs);

/// The steps of a series: a step at i when the `hold` runs from i on all sit on the same side of the median of
/// the (up to 5) runs before i, each by at least `threshold`/2, and their median moved by at least `threshold`.
/// A single noisy run never qualifies. Each step says whether the latest `hold` runs have returned.
std::vector<trend_step> trend_steps(const std::vector<double>& v, double threshold, std::size_t hold);

/// Where the steps of trend_steps start that have not returned (and, in `sizes`, their sizes).
std::vector<std::size_t> sustained_shifts(const std::vector<double>& v, double threshold, std::size_t hold,
                                          std::vector<double>* sizes = nullptr);

/// The files a trend over `dir` reads: its *.json but gates files (run_store::is_gates_file), sorted by name (none when
/// it cannot be listed).
std::vector<std::string> trend_inputs(const std::string& dir);

/// Loads every *.json of `dir` (oldest first, by the run's date, then the file name). A file that cannot be
/// read is named in `unreadable` and left out; no readable file is an input_error, and so are runs of
/// different GPU models unless `allow_mixed_gpus`. Steps and family geomeans are of the gated device cases;
/// a host-bound or not-gated case (in any run) is kept apart, as compare never gates it.
trend build_trend(const std::string& dir, double threshold, std::size_t hold, bool allow_mixed_gpus = false);

/// What a dashboard adds to a trend's page, each part optional: per run the URL of its commit and each case's
/// verdict against the baseline, per case its learned gate.
struct trend_annotations {
  std::vector<std::string> commit_links;                     ///< per run: its commit's URL ("" none)
  std::vector<std::map<std::string, std::string>> verdicts;  ///< per run: case -> its verdict (none: no verdict file)
  std::map<std::string, double> gates;                       ///< case -> its learned gate (a fraction)
};

/// The gated device cases with their steps, the family geomeans, then the cases kept apart, labelled.
std::string trend_terminal(const trend& t);
/// A page with a folded section per family: its geomean and each case in percent of its first run, by date.
std::string trend_html(const trend& t);
/// That page's body, with what `a` adds: each case's points linked to their commits (a tooltip saying the run),
/// its flagged runs marked, its gate's band shaded around the median of its runs.
std::string trend_html_body(const trend& t, const trend_annotations& a);

}  // namespace cudabench::reports

// Trends over many nightly results: a series per case and the sustained shifts in it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/results.hpp"

namespace cudabench::reports {

struct trend_series {
  std::string name;
  std::vector<double> medians_s;         ///< one per run (NaN where the case did not run)
  std::vector<std::size_t> shifts;       ///< indices where a sustained step starts
  std::vector<double> shift_sizes;       ///< relative size of each step
};

struct trend {
  std::vector<std::string> runs;         ///< file names, oldest first
  std::vector<trend_series> series;
  std::vector<std::string> unreadable;   ///< "file: why" for each .json that could not be read (left out)
  std::vector<std::string> gpus;         ///< the GPU models of the runs read ("unknown" without a description)
  /// Where the runs came from more than one board or host: "runs from 2 boards: GPU-edd4076f (2 runs),
  /// GPU-b2c4773f (5 runs)" and the like (a step between runs of two boards may be the board's); else empty.
  std::vector<std::string> machines;
};

/// "runs from 2 boards: GPU-edd4076f (2 runs), ..." for runs of more than one board (by uuid), and the same of hosts (by host name);
/// nothing where every run came from one board and one host, or none recorded it.
std::vector<std::string> machines_of(const std::vector<cudabench::run_result>& runs);

/// A step at i: the `hold` runs from i on all sit on the same side of the median of the (up to 5) runs
/// before i, each by at least `threshold`/2, and their median moved by at least `threshold`.
/// A single noisy run never qualifies.
std::vector<std::size_t> sustained_shifts(const std::vector<double>& v, double threshold, std::size_t hold,
                                          std::vector<double>* sizes = nullptr);

/// The files a trend over `dir` reads: its *.json but gates files (*.gates.json), sorted by name (none when it
/// cannot be listed).
std::vector<std::string> trend_inputs(const std::string& dir);

/// Loads every *.json of `dir` (oldest first, by the run's date, then the file name). A file that cannot be
/// read is named in `unreadable` and left out; no readable file is an input_error, and so are runs of
/// different GPU models unless `allow_mixed_gpus`.
trend build_trend(const std::string& dir, double threshold, std::size_t hold, bool allow_mixed_gpus = false);

std::string trend_terminal(const trend& t);
std::string trend_html(const trend& t);

}  // namespace cudabench::reports

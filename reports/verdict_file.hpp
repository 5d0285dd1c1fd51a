// The verdict file (compare --verdict) read back: what a fleet report takes from a comparison.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace cudabench::reports {

/// What a verdict file says: whether the comparison failed, each case's verdict, how many cases had each
/// verdict, and the facts in which the compared runs' machines differed.
struct verdict_file {
  int schema_version = 0;
  bool failing = false;
  std::vector<std::pair<std::string, std::string>> verdicts;  ///< (case name, verdict), in the file's order
  std::vector<std::pair<std::string, std::size_t>> counts;    ///< (verdict, cases), those with some only
  std::vector<std::string> machine_differences;               ///< each differing fact ("GPU clock", ...)
  /// "1 regression, 40 unchanged": the counts in the file's order ("" where no case has a verdict).
  std::string counts_text() const;
};

/// Reads a file verdict_json wrote, of schema version oldest_verdict_schema_version to verdict_schema_version;
/// throws input_error (one line naming `path`) for anything else: among it a verdict (of a case or in the
/// counts) that is none, or that its schema version cannot hold (`machine differs` before version 3), and a
/// case listed twice.
verdict_file read_verdict_file(const std::string& path);

}  // namespace cudabench::reports

// Speedup tables of one run: per family and size, each variant against the family's reference variants.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "harness/results.hpp"

namespace cudabench::reports {

struct speedup_row {
  std::string variant;   ///< variant/params without the family, e.g. "pinned_streams/4"
  std::string name;      ///< the whole case name
  double time_s = 0;
  double bw_fraction = -1;                  ///< of the theoretical DRAM bandwidth; -1 when unknown
  double limit_fraction = -1;               ///< of the measured limit the case names (% of limit); -1 when unknown
  std::map<std::string, double> speedup;    ///< role -> reference time / this time
};

struct speedup_table {
  std::string family;
  int device = -1;   ///< for results merged by --devices
  double size = 0;
  std::string size_label;
  std::map<std::string, std::string> references;  ///< role -> reference case name found in this group
  std::vector<speedup_row> rows;
};

/// Groups the run's measured cases by family and size; roles come from the run's own metadata.
std::vector<speedup_table> speedup_tables(const cudabench::run_result& run);

/// A per-size table a family declared (family_builder::table), rendered as a Markdown table and for a terminal.
struct declared_table {
  std::string title;
  std::string markdown;  ///< names escaped for Markdown
  std::string terminal;  ///< the same pipe table with control characters escaped, nothing else
};

/// Every table the run's families declared, over the sizes at which all its columns were measured.
std::vector<declared_table> declared_tables(const cudabench::run_result& run);

}  // namespace cudabench::reports

// Speedup tables of one run: per family and size, each variant against the family's reference variants.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "results/results.hpp"

namespace cudabench::reports {

struct speedup_row {
  std::string variant;  ///< variant/params without the family, e.g. "pinned_streams/4"
  std::string name;     ///< the whole case name
  double time_s = 0;
  double bw_fraction = -1;                ///< of the theoretical DRAM bandwidth; -1 when unknown
  double limit_fraction = -1;             ///< of the measured limit the case names (% of limit); -1 when unknown
  std::map<std::string, double> speedup;  ///< role -> reference time / this time
};

/// Reference roles a table shows speedups over: the first this many a family declares, by name (families
/// declare two to five). More would make the report grow as roles x variants, far beyond its input.
constexpr std::size_t max_speedup_roles = 16;
/// Declared per-size tables shown per family, for the same reason.
constexpr std::size_t max_declared_tables = 16;

struct speedup_table {
  std::string family;
  int device = -1;  ///< for results merged by --devices
  double size = 0;
  std::string size_label;
  std::map<std::string, std::string> references;  ///< role -> reference case name found in this group
  std::size_t roles_left_out = 0;                 ///< roles the family declares beyond max_speedup_roles
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

/// Every table the run's families declared (the first max_declared_tables of each), over the sizes at which
/// all its columns were measured.
std::vector<declared_table> declared_tables(const cudabench::run_result& run);

}  // namespace cudabench::reports

// The result model: Google Benchmark JSON (ours or any binary's, 1.7 or 1.8+) read into cases and samples.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cudabench/fixture.hpp"
#include "harness/device_info.hpp"

namespace cudabench {

/// Google Benchmark appends "/iterations:1", "/repeats:10", "/manual_time", ... to names; this drops them.
std::string canonical_case_name(const std::string& gbench_name);

enum class case_status { ok, failed, skipped };
const char* to_string(case_status s);

/// One case of a run: its per-repetition times (seconds) and what else the row said.
struct case_result {
  std::string name;
  std::string family, variant, params;  ///< split from the name (family/variant/params)
  int device = -1;                      ///< N of a "devN/" prefix (results merged by --devices), else -1
  case_status status = case_status::ok;
  std::string message;                  ///< why failed or skipped
  std::vector<double> samples_s;        ///< one per repetition (iteration rows)
  double median_s = 0;                  ///< median of samples, or the median aggregate when only aggregates exist
  bool aggregates_only = false;         ///< no per-repetition rows: no rank test possible
  std::map<std::string, double> counters;  ///< from the first repetition (rates use its own time)
  std::string label;
  double size = 0;        ///< from our metadata (0 if unknown)
  double bytes = 0;       ///< bytes per run from our metadata (0 if unknown)
  bool correct = true;    ///< false for teaching cases that are wrong by design
  std::string cache;      ///< "cold" / "hot" / "" (unknown)
  bool host_bound = false;  ///< from our metadata: host work dominates its time
  bool gated = true;        ///< from our metadata: false when its change is never a regression
  /// From a traced sample (--trace): the timeline's metrics, and the timeline as stored (ops, phases, note).
  std::map<std::string, double> timeline_metrics;
  nlohmann::json timeline;
};

struct family_refs {
  std::string description;
  std::map<std::string, std::vector<std::string>> references;  ///< role -> candidate variants, first present wins
  std::vector<size_table> tables;                                ///< per-size tables the family declares
};

/// A limit the run's cases were shown against (context.cudabench.limits): a `limits/...` case's rate.
struct run_limit {
  double rate = 0;
  std::string unit;  ///< B/s, FLOP/s or 1/s
  std::string from;  ///< "this run", or the stored baseline it was taken from
};

struct run_result {
  std::string source;                   ///< the file it came from
  nlohmann::json context;
  std::optional<device_info> device;    ///< absent for foreign Google Benchmark output
  std::string preset;
  std::string git_revision;
  bool git_dirty = false;
  std::string date;
  std::optional<std::string> injected;  ///< --inject-slowdown used for this run
  std::map<std::string, family_refs> families;
  std::map<std::string, run_limit> limits;  ///< limits case name -> its rate
  std::vector<case_result> cases;       ///< in file order
  bool lists_selection = false;         ///< context.cudabench.cases says which cases the run selected
  std::set<std::string> selected;       ///< those cases
  std::unordered_map<std::string, std::size_t> by_name;  ///< case name -> index in cases (built by parse_run)

  /// The case of that name, or null: by the index (constant time), or a scan when cases changed since.
  const case_result* find(const std::string& name) const;
};

/// Google Benchmark writes NaN and infinity as bare words, which JSON does not allow; this turns such
/// values (outside strings) into null so the document parses and the row gets a clear message instead.
/// One linear pass, whatever the input.
std::string sanitize_gbench_json(const std::string& text);

/// The deepest nesting of arrays and objects in a JSON text (strings skipped); one linear pass.
std::size_t json_nesting_depth(std::string_view text);
/// Result files nested deeper than this are refused before parsing (a deep tree would exhaust the stack).
constexpr std::size_t max_json_depth = 256;

/// Parses benchmark JSON; throws input_error("<source>: <problem>") for anything that is not usable.
run_result parse_run(const nlohmann::json& j, const std::string& source);
/// Parses the text of a result file named `path`: anything unusable (invalid JSON, numbers out of range,
/// nesting over max_json_depth, fields of the wrong type) is an input_error naming it, never another
/// exception.
run_result parse_run_text(const std::string& text, const std::string& path);
/// Reads and parses a file (missing, unreadable, invalid JSON: input_error naming the file).
run_result load_run(const std::string& path);

}  // namespace cudabench

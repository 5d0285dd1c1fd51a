// Renderings of a comparison and of one run's tables as terminal text, Markdown, HTML and the JSON verdict.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "reports/speedup.hpp"

namespace cudabench::reports {

/// The comparison table for a terminal (verdicts coloured when `color`).
std::string comparison_terminal(const cudabench::comparison& c, bool color);
/// For a CI job summary or a pull-request comment: regressions, improvements, then everything folded.
std::string comparison_markdown(const cudabench::comparison& c);
/// The most cases a comparison's page lists (and charts): a page of a million rows is too large to open; past
/// it, those with a verdict to look at come first and the page says how many the CSV and verdict file hold.
constexpr std::size_t html_case_rows = 5000;
/// A self-contained page with SVG charts (no script, no network).
std::string comparison_html(const cudabench::comparison& c);
/// A self-contained HTML page (the reports' one style) with `title` as its heading and `body` below.
std::string html_page(const std::string& title, const std::string& body);
/// The schema version of verdict_json's document, which fleet's reader of it checks: 3 added the verdict
/// `machine differs`, the control and normalized changes and `machine`; 4 `unconfirmed` and `same code`; 5 a
/// case's `held` flag, `throttled` and `exit_status`; 6 the energy verdicts `energy not judged`, `energy unconfirmed`,
/// `energy machine differs (same code)` and `energy machine differs`, and an energy flag's `held`; fleet reads
/// versions 2 to 6.
constexpr int verdict_schema_version = 6;
constexpr int oldest_verdict_schema_version = 2;
/// The machine-readable verdict a CI step reads.
std::string verdict_json(const cudabench::comparison& c);

/// One run's own report: its speedup tables, the tables its families declared and the limits it was shown
/// against.
std::string run_terminal(const cudabench::run_result& run);
std::string run_markdown(const cudabench::run_result& run);
/// The same as a page, with the time-against-size charts and the traced timelines.
std::string run_html(const cudabench::run_result& run);

/// The measured limits a run's cases were shown against (% of limit), as a Markdown table: each limit's rate
/// in the unit people quote (GB/s, TFLOP/s, us per launch) and where it came from; "" without limits.
std::string limits_markdown(const cudabench::run_result& run);
/// A limit's rate as people quote it: "2890.1 GB/s", "51.20 TFLOP/s", "2.10 us per launch".
std::string limit_value(const cudabench::run_limit& l);

/// Speedup tables of one run.
std::string speedups_markdown(const std::vector<speedup_table>& tables, const std::string& title);
std::string speedups_terminal(const std::vector<speedup_table>& tables);
std::string speedups_html(const cudabench::run_result& run, const std::vector<speedup_table>& tables);

/// The families of `rows` (anything with a `family`), each once, in the order its first row appears.
template <typename Rows>
std::vector<std::string> families_in_order(const Rows& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows)
    if (std::find(out.begin(), out.end(), r.family) == out.end()) out.push_back(r.family);
  return out;
}

/// "1 regression(s), 0 improvement(s), 40 unchanged, 2 inconclusive, 3 not gated, ...": each verdict's count.
std::string verdict_counts(const cudabench::comparison& c);
/// The comparison's outcome in one word: "fail" (a regression or a lost case), "unconfirmed" (flags that only a
/// measurement on one machine can confirm), else "pass".
const char* verdict_word(const cudabench::comparison& c);
/// "fail: 1 regression, 3 unchanged": the word, then each verdict's count that is not zero, by its name.
std::string verdict_headline(const cudabench::comparison& c);
/// What "not gated" means and what would gate such a case under the comparison's settings.
std::string not_gated_explained(const cudabench::comparison& c);
/// Which gates a comparison used: the file, how many cases it learned from how many runs, or none.
std::string gates_summary(const cudabench::comparison& c);

/// "+5.2%" style.
std::string format_change(double change);

/// A timeline metric's value in its unit: fractions as %, bandwidths in GB/s, durations in us, counts.
std::string format_timeline_metric(const std::string& metric, double value);

/// The notable timeline changes of a comparison, as (case, change) pairs in case order.
std::vector<std::pair<std::string, cudabench::timeline_change>> notable_timeline_changes(
    const cudabench::comparison& c);
/// How many cases were traced on both sides.
std::size_t traced_cases(const cudabench::comparison& c);

}  // namespace cudabench::reports

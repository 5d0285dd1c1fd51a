// Report writers: one interface, one class per format (terminal, Markdown, HTML, JSON verdict).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/compare.hpp"
#include "reports/speedup.hpp"

namespace cudabench::reports {

/// Renders a comparison in one format; the caller decides where the text goes.
class comparison_writer {
 public:
  virtual ~comparison_writer() = default;
  virtual std::string render(const cudabench::comparison& c) const = 0;
};

class terminal_writer final : public comparison_writer {
 public:
  explicit terminal_writer(bool color) : color_(color) {}
  std::string render(const cudabench::comparison& c) const override;
 private:
  bool color_;
};

/// For a CI job summary or a pull-request comment: regressions, improvements, then everything folded.
class markdown_writer final : public comparison_writer {
 public:
  std::string render(const cudabench::comparison& c) const override;
};

/// A self-contained page with SVG charts (no script, no network).
class html_writer final : public comparison_writer {
 public:
  std::string render(const cudabench::comparison& c) const override;
};

/// The machine-readable verdict a CI step reads.
class verdict_json_writer final : public comparison_writer {
 public:
  std::string render(const cudabench::comparison& c) const override;
};

/// The measured limits a run's cases were shown against (% of limit), as a Markdown table: each limit's rate
/// in the unit people quote (GB/s, TFLOP/s, us per launch) and where it came from; "" without limits.
std::string limits_markdown(const cudabench::run_result& run);
/// A limit's rate as people quote it: "2890.1 GB/s", "51.20 TFLOP/s", "2.10 us per launch".
std::string limit_value(const cudabench::run_limit& l);

/// Speedup tables of one run.
std::string speedups_markdown(const std::vector<speedup_table>& tables, const std::string& title);
std::string speedups_terminal(const std::vector<speedup_table>& tables);
std::string speedups_html(const cudabench::run_result& run, const std::vector<speedup_table>& tables);

/// "+5.2%" style.
std::string format_change(double change);

/// A timeline metric's value in its unit: fractions as %, bandwidths in GB/s, durations in us, counts.
std::string format_timeline_metric(const std::string& metric, double value);

/// The notable timeline changes of a comparison, as (case, change) pairs in case order.
std::vector<std::pair<std::string, cudabench::timeline_change>> notable_timeline_changes(const cudabench::comparison& c);
/// How many cases were traced on both sides.
std::size_t traced_cases(const cudabench::comparison& c);

}  // namespace cudabench::reports

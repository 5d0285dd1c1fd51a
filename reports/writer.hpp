// The writers: one interface, one class per output format, and a multiplexer that sends one report (a run's
// own, a comparison, a trend) to every requested output through its sink.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "io/output_sink.hpp"
#include "reports/fleet.hpp"
#include "reports/trend.hpp"
#include "results/results.hpp"

namespace cudabench::reports {

/// One output format (as nvbench's printer_base). Each renders what it can of the four reports; nullopt
/// where the format has nothing to say about that report (a verdict without a comparison).
class writer {
 public:
  virtual ~writer() = default;
  /// The format's name, for messages.
  virtual const char* format() const = 0;
  virtual std::optional<std::string> run_report(const cudabench::run_result& run) const = 0;
  /// A comparison of `current` against a baseline (the CSV lists `current`'s cases with their verdicts).
  virtual std::optional<std::string> comparison_report(const cudabench::comparison& c,
                                                       const cudabench::run_result& current) const = 0;
  virtual std::optional<std::string> trend_report(const trend& t) const = 0;
  /// Runs of several GPU models side by side.
  virtual std::optional<std::string> fleet_report(const fleet& f) const = 0;
};

/// What a format renders of each report; one left empty has nothing to say about that report.
struct renderings {
  std::function<std::string(const cudabench::run_result&)> run;
  std::function<std::string(const cudabench::comparison&, const cudabench::run_result&)> comparison;
  std::function<std::string(const trend&)> trend;
  std::function<std::string(const fleet&)> fleet;
};

/// A writer made of a format's name and its renderings: a new format is a function returning one.
std::unique_ptr<writer> make_writer(const char* format, renderings r);

/// The tables for a person at a terminal; verdicts coloured when `color`.
std::unique_ptr<writer> terminal_writer(bool color);
/// For a CI job summary or a pull-request comment.
std::unique_ptr<writer> markdown_writer();
/// A self-contained page with SVG charts (no script, no network).
std::unique_ptr<writer> html_writer();
/// One row per case of the run (with its verdict in a comparison), for spreadsheets and scripts.
std::unique_ptr<writer> csv_writer();
/// The machine-readable verdict of a comparison, which a CI step reads.
std::unique_ptr<writer> verdict_json_writer();
/// The fleet report as JSON (fleet --json).
std::unique_ptr<writer> fleet_json_writer();
/// github-action-benchmark's customSmallerIsBetter JSON of a run (see gab_export).
std::unique_ptr<writer> gab_writer();
/// Bencher Metric Format JSON of a run (see bmf_export).
std::unique_ptr<writer> bmf_writer();
/// A report file format: the option that names its file (its row in the option table says which commands
/// take it and fills the path), and its writer.
struct report_format {
  std::string_view option;
  std::unique_ptr<writer> (*make)();
};
/// The report files a run, a comparison, a trend or a fleet writes where asked for (--md, --html, --csv), in
/// the order they are written. A new report format is a row here.
std::span<const report_format> report_formats();

/// A run's rows as Google Benchmark writes them, `time_unit` and `aggregates_only` as to_json: its JSON (the
/// results document with cudabench's additions: --json, a stored baseline, an interrupted run's partial, the
/// --devices merge) and its CSV (--benchmark_out_format=csv).
std::unique_ptr<writer> results_json_writer(std::optional<std::string> time_unit, bool aggregates_only);
std::unique_ptr<writer> benchmark_csv_writer(std::optional<std::string> time_unit, bool aggregates_only);

/// Sends one report to every output (as nvbench's printer_multiplex): each writer's text to its sink, in
/// the order they were added. A writer without a rendering of the report is a programming error
/// (std::logic_error): the command only adds formats it can serve.
class writer_multiplex {
 public:
  void add(std::unique_ptr<writer> w, cudabench::output_sink sink);
  bool empty() const { return outputs_.empty(); }
  std::size_t size() const { return outputs_.size(); }
  /// Throws input_error unless every sink can be written (before any work starts).
  void check() const;
  void write_run(const cudabench::run_result& run) const;
  void write_comparison(const cudabench::comparison& c, const cudabench::run_result& current) const;
  void write_trend(const trend& t) const;
  void write_fleet(const fleet& f) const;

 private:
  /// Renders each output (`at_once` at a time, each on a thread of its own) and writes them in order.
  template <typename Render>
  void send(const char* report, Render render, std::size_t at_once = 1) const;
  std::vector<std::pair<std::unique_ptr<writer>, cudabench::output_sink>> outputs_;
};

}  // namespace cudabench::reports

// The writers: one interface, one class per output format, and a multiplexer that sends one report (a run's
// own, a comparison, a trend) to every requested output through its sink.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/compare.hpp"
#include "io/output_sink.hpp"
#include "results/results.hpp"
#include "reports/fleet.hpp"
#include "reports/trend.hpp"

namespace cudabench::reports {

/// One output format (as nvbench's printer_base). Each renders what it can of the three reports; nullopt
/// where the format has nothing to say about that report (a verdict without a comparison).
class writer {
 public:
  virtual ~writer() = default;
  /// The format's name, for messages.
  virtual const char* format() const = 0;
  virtual std::optional<std::string> run_report(const cudabench::run_result& run) const;
  /// A comparison of `current` against a baseline (the CSV lists `current`'s cases with their verdicts).
  virtual std::optional<std::string> comparison_report(const cudabench::comparison& c, const cudabench::run_result& current) const;
  virtual std::optional<std::string> trend_report(const trend& t) const;
  /// Runs of several GPU models side by side.
  virtual std::optional<std::string> fleet_report(const fleet& f) const;
};

/// The tables for a person at a terminal; verdicts coloured when `color`.
class terminal_writer final : public writer {
 public:
  explicit terminal_writer(bool color) : color_(color) {}
  const char* format() const override { return "terminal"; }
  std::optional<std::string> run_report(const cudabench::run_result& run) const override;
  std::optional<std::string> comparison_report(const cudabench::comparison& c, const cudabench::run_result& current) const override;
  std::optional<std::string> trend_report(const trend& t) const override;
  std::optional<std::string> fleet_report(const fleet& f) const override;
 private:
  bool color_;
};

/// For a CI job summary or a pull-request comment.
class markdown_writer final : public writer {
 public:
  const char* format() const override { return "Markdown"; }
  std::optional<std::string> run_report(const cudabench::run_result& run) const override;
  std::optional<std::string> comparison_report(const cudabench::comparison& c, const cudabench::run_result& current) const override;
  std::optional<std::string> fleet_report(const fleet& f) const override;
};

/// A self-contained page with SVG charts (no script, no network).
class html_writer final : public writer {
 public:
  const char* format() const override { return "HTML"; }
  std::optional<std::string> run_report(const cudabench::run_result& run) const override;
  std::optional<std::string> comparison_report(const cudabench::comparison& c, const cudabench::run_result& current) const override;
  std::optional<std::string> trend_report(const trend& t) const override;
  std::optional<std::string> fleet_report(const fleet& f) const override;
};

/// One row per case of the run (with its verdict in a comparison), for spreadsheets and scripts.
class csv_writer final : public writer {
 public:
  const char* format() const override { return "CSV"; }
  std::optional<std::string> run_report(const cudabench::run_result& run) const override;
  std::optional<std::string> comparison_report(const cudabench::comparison& c, const cudabench::run_result& current) const override;
  std::optional<std::string> fleet_report(const fleet& f) const override;
};

/// The machine-readable verdict of a comparison, which a CI step reads.
class verdict_json_writer final : public writer {
 public:
  const char* format() const override { return "JSON verdict"; }
  std::optional<std::string> comparison_report(const cudabench::comparison& c, const cudabench::run_result& current) const override;
};

/// The fleet report as JSON (fleet --json).
class fleet_json_writer final : public writer {
 public:
  const char* format() const override { return "fleet JSON"; }
  std::optional<std::string> fleet_report(const fleet& f) const override;
};

/// github-action-benchmark's customSmallerIsBetter JSON of a run (see gab_export).
class gab_writer final : public writer {
 public:
  const char* format() const override { return "github-action-benchmark JSON"; }
  std::optional<std::string> run_report(const cudabench::run_result& run) const override;
};

/// Bencher Metric Format JSON of a run (see bmf_export).
class bmf_writer final : public writer {
 public:
  const char* format() const override { return "Bencher Metric Format JSON"; }
  std::optional<std::string> run_report(const cudabench::run_result& run) const override;
};

/// A run's rows as Google Benchmark writes them: its JSON (the results document with cudabench's additions:
/// --json, a stored baseline, an interrupted run's partial, the --devices merge) or its CSV
/// (--benchmark_out_format=csv). `time_unit` and `aggregates_only` as to_json.
class results_writer final : public writer {
 public:
  enum class form { json, benchmark_csv };
  results_writer(form f, std::optional<std::string> time_unit, bool aggregates_only)
      : form_(f), time_unit_(std::move(time_unit)), aggregates_only_(aggregates_only) {}
  const char* format() const override { return form_ == form::json ? "results JSON" : "Google Benchmark CSV"; }
  std::optional<std::string> run_report(const cudabench::run_result& run) const override;
 private:
  form form_;
  std::optional<std::string> time_unit_;
  bool aggregates_only_;
};

/// Sends one report to every output (as nvbench's printer_multiplex): each writer's text to its sink, in
/// the order they were added. A writer without a rendering of the report is a programming error
/// (std::logic_error): the command only adds formats it can serve.
class writer_multiplex {
 public:
  void add(std::unique_ptr<writer> w, cudabench::output_sink sink);
  bool empty() const { return outputs_.empty(); }
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

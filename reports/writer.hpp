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

/// What a run's writers are told before its first case.
struct run_header {
  std::string preset;
  std::size_t cases = 0;  ///< the cases selected (the suite's and the binary's Google Benchmark registrations)
  int rounds = 1;         ///< worker processes each spread case runs in, one after another
};

/// One case as it finishes: what the process that ran it measured (its round's repetitions, or why it failed or
/// was skipped), its round, and how far the run is: `done` case runs of `total` (each case once in every round
/// it runs in), this one included.
struct finished_case {
  const cudabench::case_result& result;
  int round = 1;
  std::size_t done = 0, total = 0;
};

/// What a command ends with: a run's own report, a comparison of `run` against a baseline, a trend or a fleet;
/// none of them for a text a command made itself (a trace, a bisection's outcome).
struct report {
  const cudabench::run_result* run = nullptr;
  const cudabench::comparison* compared = nullptr;  ///< of `run` against a baseline
  const trend* trend_of = nullptr;
  const fleet* fleet_of = nullptr;
};

/// One output format (as nvbench's printer_base), with a lifecycle: begin before a run's first case,
/// case_finished as each case finishes, end with the command's report. Each returns the text it adds to its
/// output; begin and case_finished add nothing unless a format says otherwise (a live format does), so a format
/// is its end alone. A stream (standard output, a descriptor) gets each text as it comes, a file everything at
/// the end, written whole.
class writer {
 public:
  virtual ~writer() = default;
  /// The format's name, for messages.
  virtual const char* format() const = 0;
  virtual std::string begin(const run_header&) { return {}; }
  virtual std::string case_finished(const finished_case&) { return {}; }
  /// The text that ends the output, rendered from the report (on a thread of its own, beside other writers'
  /// renderings); nullopt where the format has nothing to say about that report (a verdict without a comparison).
  virtual std::optional<std::string> end(const report& r) const = 0;
};

/// What a format renders of each report; one left empty has nothing to say about that report.
struct renderings {
  std::function<std::string(const cudabench::run_result&)> run;
  std::function<std::string(const cudabench::comparison&, const cudabench::run_result&)> comparison;
  std::function<std::string(const trend&)> trend;
  std::function<std::string(const fleet&)> fleet;
  /// A text the command made itself (a trace, a bisection's outcome), whatever the report; the others then unused.
  std::function<std::string()> text;
};

/// A writer made of a format's name and its renderings: a new format is a function returning one. Its end renders
/// the most particular report it can: a fleet, a trend, a comparison, else the run (the run's own documents in a
/// comparison).
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

/// A live output of a run: a writer that hears each case as it finishes, named by its own option (FILE).
struct live_format {
  std::string_view option;  ///< "--json-lines"
  std::string_view help;    ///< the option's help, as --help and the docs show it
  std::unique_ptr<writer> (*make)();
};
/// The live outputs a run can write, in the order --help lists their options. A new live output is a row here.
std::span<const live_format> live_formats();

/// A run's rows as Google Benchmark writes them, `time_unit` and `aggregates_only` as to_json: its JSON (the
/// results document with cudabench's additions: --json, a stored baseline, an interrupted run's partial, the
/// --devices merge) and its CSV (--benchmark_out_format=csv).
std::unique_ptr<writer> results_json_writer(std::optional<std::string> time_unit, bool aggregates_only);
std::unique_ptr<writer> benchmark_csv_writer(std::optional<std::string> time_unit, bool aggregates_only);

/// Where an output stands among a command's outputs.
struct placement {
  /// Outputs of a lower order are written first (a run's trace before its documents, those before its
  /// reports); of one order, as they were added.
  int order = 0;
  bool at_interrupt = false;  ///< written for a run stopped by a signal too (its finished cases)
  /// Called once every output of its order is written (a line saying where it went).
  std::function<void()> after = {};
};

/// The one list of a command's outputs (as nvbench's printer_multiplex): each event of a run and the report
/// it ends with go to every writer, each writer's text to its sink. A writer without a rendering of the report
/// is a programming error (std::logic_error): the command only adds formats it can serve.
class writer_multiplex {
 public:
  void add(std::unique_ptr<writer> w, cudabench::output_sink sink, placement where = {});
  bool empty() const { return outputs_.empty(); }
  std::size_t size() const { return outputs_.size(); }
  /// Throws input_error unless every sink can be written (before any work starts).
  void check() const;
  void begin(const run_header& h);
  void case_finished(const finished_case& c);
  /// Renders the report in each output (two at a time for a comparison, each on a thread of its own) and
  /// writes the outputs in order, each with the texts its writer added before; `interrupted`: those written
  /// for a run stopped by a signal only, without their `after`.
  void end(const report& r, bool interrupted = false) const;

 private:
  struct output {
    std::unique_ptr<writer> w;
    cudabench::output_sink sink;
    placement where;
    std::string held;  ///< what begin and case_finished added, for a file written whole at the end
  };
  /// Each output's text for `text` (a stream's at once, a file's held for the end).
  template <typename Text>
  void add_text(Text text);
  std::vector<output> outputs_;
};

}  // namespace cudabench::reports

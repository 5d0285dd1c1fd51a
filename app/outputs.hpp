// The outputs a command was asked for: which option named each, where it goes, which writer renders it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/requests.hpp"
#include "reports/writer.hpp"

namespace cudabench::app {

/// The requested outputs of one command, every one a row of one writer_multiplex: the terminal, the report
/// files, the run's own documents (its results JSON, --save-baseline, Google Benchmark's CSV, --json-lines) and
/// the texts a command makes itself (the trace, the console table, bisect's outcome, the gates file, the trend
/// site's pages), so that every output is checked together before any work starts and written together at the end.
class output_list {
 public:
  /// The order the outputs are written in (reports::placement::order).
  enum order : int { trace_order, table_order, document_order, terminal_order, report_order };

  /// The terminal: written to the standard output as it is (standard error while it is set aside).
  void add_terminal(std::unique_ptr<reports::writer> w);
  /// A report file: `w` renders into `path` when the option was given (`path` set); "-" is standard output.
  void add(const std::string& option, const std::optional<std::string>& path, std::unique_ptr<reports::writer> w);
  /// A document of the run itself (its results JSON, the stored baseline, Google Benchmark's CSV): `w`
  /// renders the run into `path` when the option was given, whatever else the command writes; `said`
  /// ("results") names it on the terminal once written to a file; `at_interrupt`: written for a run stopped by
  /// a signal too.
  void add_document(const std::string& option, const std::optional<std::string>& path,
                    std::unique_ptr<reports::writer> w, std::string said = "", bool at_interrupt = false);
  /// A text the command makes itself, into `path` when the option was given: `text` renders it when the list
  /// ends (`format` names it in messages), in the `order` given; `after` says where it went.
  void add_text(const std::string& option, const std::optional<std::string>& path, const char* format,
                std::function<std::string()> text, order o, std::function<void()> after = {});

  /// Refuses (usage_error) an output that is the same file as one of `inputs` or another output.
  void check_distinct(const std::vector<std::string>& inputs) const;
  /// Refuses (input_error) an output that cannot be written.
  void check_writable() const;
  /// Both, before any work starts.
  void check(const std::vector<std::string>& inputs) const {
    check_distinct(inputs);
    check_writable();
  }
  /// True when an output goes to standard output ("-"): the command then sets standard output aside, so
  /// the terminal text goes to standard error and the document stands alone.
  bool uses_standard_output() const;
  /// True when a report file was asked for (beyond the terminal and the documents).
  bool has_report_files() const { return report_files_ > 0; }
  std::size_t size() const { return writers_.size(); }

  /// A run's events, to every output (a live one writes them as they come).
  void begin(const reports::run_header& h) { writers_.begin(h); }
  void case_finished(const reports::finished_case& c) { writers_.case_finished(c); }
  /// Every output ends with `r`: each written in its order, each order's documents said once written.
  void end(const reports::report& r) const { writers_.end(r, interrupted_); }
  /// end in one output_batch: every file renamed into place together, or none.
  void end_together(const reports::report& r) const;
  /// From now on, end writes only what a run stopped by a signal writes (the results JSON, the report files,
  /// the verdict, --json-lines) and says nothing of it.
  void interrupted() { interrupted_ = true; }

 private:
  std::vector<std::pair<std::string, std::string>> named_;  // (option, path) of every output but the terminal
  reports::writer_multiplex writers_;
  std::size_t report_files_ = 0;
  bool interrupted_ = false;
};

/// The report outputs a comparison, a run's own report or a trend can have: the terminal (`terminal`, else
/// the tables), --md, --html, --csv, and the verdict JSON under `verdict_option` (--verdict), each where
/// asked for.
output_list report_outputs(const cli::report_files& o, const std::string& verdict_option,
                           std::unique_ptr<reports::writer> terminal = nullptr);

/// The report files alone (reports::report_formats: --md, --html, --csv), each where asked for.
void add_report_files(output_list& out, const cli::report_files& o);

/// The run's results document: --json, and standard output as well with --benchmark_format=json; `said`
/// names the file on the terminal once written ("" says nothing).
void add_results_json(output_list& out, const cli::run_outputs& o, const std::string& said);
/// Every document of a finished run: the results JSON, the baseline to store at `baseline_path` (with every
/// repetition: compare's rank test needs them), Google Benchmark's CSV, the cases as they finish (--json-lines).
void add_run_documents(output_list& out, const cli::run_outputs& o, const std::optional<std::string>& baseline_path);

/// The texts a run makes itself, rendered once its cases are done: the trace (--trace), said with what it
/// holds, and the table of --benchmark_out_format=console.
void add_run_texts(output_list& out, const cli::run_outputs& o, std::shared_ptr<const nlohmann::ordered_json> trace,
                   std::shared_ptr<const std::string> table);

/// What bisect writes, filled as the bisection goes: its outcome (--json), or the two ends' pooled runs and what
/// --skip-same-code measured (--ends).
struct bisect_documents {
  nlohmann::ordered_json outcome, good, bad, same_code;
};
/// bisect's outputs: the outcome as JSON, or under --ends the ends' results files (and same_code.json with
/// --skip-same-code), each text taken from `docs` when the outputs are written.
output_list bisect_outputs(const cli::bisect_request& o, const bisect_documents& docs);

/// A run stopped by signal `sig` before its end: the finished cases of `partial` (marked incomplete) go to
/// the outputs of `outputs` a stopped run writes (--json, the report files, --json-lines) as the run's own report,
/// or, given `compare` (the runner's --compare-to), as `compare` writes their comparison with the baseline to
/// them (with --verdict): every output new, together. With none finished, every file is left as it was. Says so
/// in one line on standard error (`progress` after the signal's name, `finished` naming what `json_path`, --json,
/// holds) and returns 128 + `sig`.
int finish_interrupted(int sig, const cudabench::run_result& partial, output_list& outputs,
                       const std::optional<std::string>& json_path, const std::string& progress,
                       const std::string& finished, const std::function<void(const output_list&)>& compare = {});

/// Every file a command reads, which no output may be: `runs` (its result files, the baseline among them),
/// the gates file given with --gates, else (unless --gates=none) the one kept beside `baseline`, read when
/// it is there and refused as an output even when not yet (the next comparison would read it as gates).
std::vector<std::string> files_read(const cli::compare_options& o, std::vector<std::string> runs,
                                    const std::string& baseline = "");

}  // namespace cudabench::app

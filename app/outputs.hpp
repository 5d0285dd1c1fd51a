// The outputs a command was asked for: which option named each, where it goes, which writer renders it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/options.hpp"
#include "reports/writer.hpp"

namespace cudabench::app {

using namespace cudabench::cli;  // the command line (cli/) is the commands' own

/// The requested outputs of one command. The terminal and the report files go through one writer_multiplex,
/// the run's own documents (its results JSON, --save-baseline, Google Benchmark's CSV) through another;
/// outputs written elsewhere through output_sink (the trace, the console table) are only named here, so that
/// every output is checked together before any work starts.
class output_list {
 public:
  /// The terminal: written to the standard output as it is (standard error while it is set aside).
  void add_terminal(std::unique_ptr<reports::writer> w);
  /// `w` renders into `path` when the option was given (`path` set); "-" is standard output.
  void add(const std::string& option, const std::optional<std::string>& path, std::unique_ptr<reports::writer> w);
  /// A document of the run itself (its results JSON, the stored baseline, Google Benchmark's CSV): `w`
  /// renders the run into `path` when the option was given, written by write_documents whatever else the
  /// command writes; `said` ("results") names it on the terminal once written to a file.
  void add_document(const std::string& option, const std::optional<std::string>& path,
                    std::unique_ptr<reports::writer> w, std::string said = "");
  /// An output another part writes through output_sink: checked with the rest.
  void add_elsewhere(const std::string& option, const std::optional<std::string>& path);

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
  /// True when a report file was asked for (beyond the terminal and the outputs written elsewhere).
  bool has_report_files() const { return report_files_ > 0; }
  const reports::writer_multiplex& writers() const { return writers_; }
  /// Writes the run's documents (add_document), then says each one written to a file.
  void write_documents(const cudabench::run_result& run) const;

 private:
  std::vector<std::pair<std::string, std::string>> named_;  // (option, path) of every output but the terminal
  reports::writer_multiplex writers_;
  std::size_t report_files_ = 0;
  reports::writer_multiplex documents_;
  std::vector<std::pair<std::string, std::string>> said_;  // (what, path) of each document written to a file
};

/// The report outputs a comparison, a run's own report or a trend can have: the terminal (`terminal`, else
/// the tables), --md, --html, --csv, and the verdict JSON under `verdict_option` (--verdict), each where
/// asked for.
output_list report_outputs(const command_options& o, const std::string& verdict_option,
                           std::unique_ptr<reports::writer> terminal = nullptr);

/// The report files alone (reports::report_formats: --md, --html, --csv), each where asked for.
void add_report_files(output_list& out, const command_options& o);
/// The path the output option `option` ("--md") was given, filled by its row in the option table.
const std::optional<std::string>& report_path(const command_options& o, std::string_view option);

/// The run's results document: --json, and standard output as well with --benchmark_format=json; `said`
/// names the file on the terminal once written ("" says nothing).
void add_results_json(output_list& out, const run_options& o, const std::string& said);
/// Every document of a finished run: the results JSON, the baseline to store at `baseline_path` (with every
/// repetition: compare's rank test needs them), Google Benchmark's CSV.
void add_run_documents(output_list& out, const run_options& o, const std::optional<std::string>& baseline_path);

/// A run stopped by signal `sig` before its end: the finished cases of `partial` (marked incomplete) go to
/// --json and, with `report_files`, to the report files as the run's own report (no baseline), or, given
/// `compare` (the runner's --compare-to), to the report files and --verdict as `compare` writes their comparison
/// with the baseline: every output new, together. With none finished, every file is left as it was. Says so in
/// one line on standard error (`progress` after the signal's name, `finished` naming what --json holds) and
/// returns 128 + `sig`.
int finish_interrupted(int sig, const cudabench::run_result& partial, const command_options& o, bool report_files,
                       const std::string& progress, const std::string& finished,
                       const std::function<void(const output_list&)>& compare = {});

/// Every file a command reads, which no output may be: `runs` (its result files, the baseline among them),
/// the gates file given with --gates, else (unless --gates=none) the one kept beside `baseline`, read when
/// it is there and refused as an output even when not yet (the next comparison would read it as gates).
std::vector<std::string> files_read(const run_options& o, std::vector<std::string> runs,
                                    const std::string& baseline = "");

}  // namespace cudabench::app

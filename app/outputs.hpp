// The outputs a command was asked for: which option named each, where it goes, which writer renders it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/options.hpp"
#include "reports/writer.hpp"

namespace cudabench::app {

/// The requested outputs of one command. The terminal and the report files go through one writer_multiplex;
/// outputs written elsewhere through output_sink (the results document, --save-baseline, the trace) are
/// only named here, so that every output is checked together before any work starts.
class output_list {
 public:
  /// The terminal: written to the standard output as it is (standard error while it is set aside).
  void add_terminal(std::unique_ptr<reports::writer> w);
  /// `w` renders into `path` when the option was given (`path` set); "-" is standard output.
  void add(const std::string& option, const std::optional<std::string>& path, std::unique_ptr<reports::writer> w);
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

 private:
  std::vector<std::pair<std::string, std::string>> named_;  // (option, path) of every output but the terminal
  reports::writer_multiplex writers_;
  std::size_t report_files_ = 0;
};

/// The report outputs a comparison, a run's own report or a trend can have: the terminal (`terminal`, else
/// the tables), --md, --html, --csv, and the verdict JSON under `verdict_option` (--verdict), each where
/// asked for.
output_list report_outputs(const run_options& o, const std::string& verdict_option,
                           std::unique_ptr<reports::writer> terminal = nullptr);

/// Every file a command reads, which no output may be: `runs` (its result files, the baseline among them),
/// the gates file given with --gates, else (unless --gates=none) the one kept beside `baseline`, read when
/// it is there and refused as an output even when not yet (the next comparison would read it as gates).
std::vector<std::string> files_read(const run_options& o, std::vector<std::string> runs, const std::string& baseline = "");

}  // namespace cudabench::app

// The terminal table of a run: one line per measured or failed case as Google Benchmark reports it (its run
// data: the median aggregate of the repetitions, or the one repetition), the skipped cases one line per reason
// at the end, colour only on a terminal. The host a run's results describe is measure/host_info's, not this table's.
#pragma once

#include <benchmark/benchmark.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/device_info.hpp"
#include "results/results_model.hpp"
#include "results/run_settings.hpp"

namespace cudabench::app {

/// What the command line asks of the table.
struct table_style {
  bool progress = true;                  ///< "[i/N]" after each row (none under --quiet)
  std::optional<std::string> time_unit;  ///< --benchmark_time_unit: the median column in this unit
  bool counters_tabular = false;         ///< --benchmark_counters_tabular: the case's other counters as columns
  bool verbose = false;                  ///< --verbose: the skipped cases' names under their reason
  std::optional<bool> color;  ///< --benchmark_color: colour or none (unset: where standard output is a terminal)
  std::vector<std::pair<std::string, std::string>> context;  ///< --benchmark_context: a line under the header
};

/// Whether the table is coloured: as the style says, else where standard output is a terminal.
bool colored(const table_style& style);

class table_reporter : public benchmark::BenchmarkReporter {
 public:
  /// `before`: cases of the run that an earlier process finished (the table continues theirs: no header,
  /// rows numbered on). `rows` false: nothing printed (a round of several, whose run prints the table at the
  /// end with print_run_table).
  table_reporter(const device_info& device, const run_settings& settings, std::size_t case_count,
                 std::size_t before = 0, bool rows = true, table_style style = {});
  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  void print_header(int num_cpus) const;
  void show(const Run& shown, const std::string& label);
  const device_info& device_;
  const run_settings& settings_;
  std::size_t total_;
  std::size_t done_ = 0;
  std::string label_;  ///< the label of the case whose aggregates are awaited
  bool continues_ = false;
  bool rows_ = true;
  table_style style_;
  std::optional<std::string> counter_header_;  ///< the counter columns last printed (--benchmark_counters_tabular)
  bool color_;
};

/// The whole table of a finished run (its header, then a line per case from the median over its repetitions,
/// in the run's order; skipped cases left to print_skipped): what a run of several rounds prints once they
/// are all in.
void print_run_table(const run_result& run, const device_info& device, const run_settings& settings, int num_cpus,
                     const table_style& style = {});
/// The text print_run_table prints.
std::string run_table_text(const run_result& run, const device_info& device, const run_settings& settings, int num_cpus,
                           const table_style& style = {});

/// The skipped cases of a run, one line per reason with their count (the names below it when verbose): a
/// machine without a GPU skips dozens of cases for one reason, which one line says.
void print_skipped(const run_result& run, const table_style& style);
/// The text print_skipped prints.
std::string skipped_text(const run_result& run, const table_style& style);

}  // namespace cudabench::app

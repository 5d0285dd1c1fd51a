// The requested outputs of a command, checked together before any work.
#include "app/outputs.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <stdexcept>
#include <string_view>

#include "analysis/run_store.hpp"
#include "cli/option_table.hpp"
#include "cli/program_name.hpp"
#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "io/output_sink.hpp"

namespace cudabench::app {

void output_list::add_terminal(std::unique_ptr<reports::writer> w) {
  writers_.add(std::move(w), output_sink::console());
}

void output_list::add(const std::string& option, const std::optional<std::string>& path,
                      std::unique_ptr<reports::writer> w) {
  if (!path) return;
  named_.emplace_back(option, *path);
  writers_.add(std::move(w), output_sink(*path));
  ++report_files_;
}

void output_list::add_document(const std::string& option, const std::optional<std::string>& path,
                               std::unique_ptr<reports::writer> w, std::string said) {
  if (!path) return;
  named_.emplace_back(option, *path);
  documents_.add(std::move(w), output_sink(*path));
  if (!said.empty() && descriptor_named(*path) != 1) said_.emplace_back(std::move(said), *path);
}

void output_list::write_documents(const cudabench::run_result& run) const {
  documents_.write_run(run);
  for (const auto& [what, path] : said_) fmt::print("{}: {}\n", what, printable(path));
}

void output_list::add_elsewhere(const std::string& option, const std::optional<std::string>& path) {
  if (path) named_.emplace_back(option, *path);
}

void output_list::check_distinct(const std::vector<std::string>& inputs) const {
  check_distinct_outputs(named_, inputs);
}

void output_list::check_writable() const {
  for (const auto& [option, path] : named_) {
    if (path.empty()) throw usage_error(option + " needs a file name");
    output_sink(path).check();
  }
}

bool output_list::uses_standard_output() const {
  for (const auto& [option, path] : named_)
    if (descriptor_named(path) == 1) return true;
  return false;
}

void add_report_files(output_list& out, const command_options& o) {
  for (const reports::report_format& f : reports::report_formats())
    if (const std::optional<std::string>& path = report_path(o, f.option))
      out.add(std::string(f.option), path, f.make());
}

const std::optional<std::string>& report_path(const command_options& o, std::string_view option) {
  const option_spec* spec = find_option(option);
  if (!spec || !spec->output) throw std::logic_error(std::string(option) + " is no output option of the table");
  return o.*spec->output;
}

output_list report_outputs(const command_options& o, const std::string& verdict_option,
                           std::unique_ptr<reports::writer> terminal) {
  output_list out;
  out.add_terminal(terminal ? std::move(terminal) : reports::terminal_writer(::isatty(STDOUT_FILENO) != 0));
  add_report_files(out, o);
  out.add(verdict_option, o.verdict_path, reports::verdict_json_writer());
  return out;
}

void add_results_json(output_list& out, const run_options& o, const std::string& said) {
  out.add_document("--json", o.json_path, reports::results_json_writer(o.time_unit, o.report_aggregates_only), said);
  out.add_document("--benchmark_out", o.json_copy_path,
                   reports::results_json_writer(o.time_unit, o.report_aggregates_only), said);
}

void add_run_documents(output_list& out, const run_options& o, const std::optional<std::string>& baseline_path) {
  out.add_document("--benchmark_out", o.benchmark_csv_path,
                   reports::benchmark_csv_writer(o.time_unit, o.report_aggregates_only), "results");
  add_results_json(out, o, "results");
  out.add_document("--save-baseline", baseline_path, reports::results_json_writer(o.time_unit, false),
                   "baseline saved");
}

int finish_interrupted(int sig, const cudabench::run_result& partial, const command_options& o, bool report_files,
                       const std::string& progress, const std::string& finished,
                       const std::function<void(const output_list&)>& compare) {
  std::string where = "nothing written";
  if (o.json_path && !partial.cases.empty())
    where = fmt::format("{} in {} (marked incomplete)", finished, printable(*o.json_path));
  else if (o.json_path)
    where = fmt::format("{} left as it was", printable(*o.json_path));
  if (!partial.cases.empty()) {
    output_list files;  // the terminal had the cases as they ran
    if (o.json_path)
      add_results_json(files, o, "");  // with its copy (--benchmark_out beside --json or --benchmark_format=json)
    if (report_files) add_report_files(files, o);
    if (compare) files.add("--verdict", o.verdict_path, reports::verdict_json_writer());
    output_batch batch;
    files.write_documents(partial);
    if (compare)
      compare(files);
    else
      files.writers().write_run(partial);
    batch.commit();
    if (files.has_report_files())
      where += compare ? "; the report files and the verdict compare them with the baseline"
                       : "; the report files hold them too";
  }
  fmt::print(stderr, "\n{}: interrupted by {}{}; {}\n", program_name(), signal_name(sig), progress, where);
  return 128 + sig;
}

std::vector<std::string> files_read(const run_options& o, std::vector<std::string> runs, const std::string& baseline) {
  if (const auto file = o.gates_file())
    runs.push_back(*file);
  else if (!o.gates_path && !baseline.empty())
    if (std::string beside = run_store::gates_file_beside(baseline); !beside.empty()) runs.push_back(std::move(beside));
  return runs;
}

}  // namespace cudabench::app

// The requested outputs of a command, checked together before any work.
#include "app/outputs.hpp"

#include <unistd.h>

#include "analysis/gates.hpp"
#include "io/output_sink.hpp"

namespace cudabench::app {

void output_list::add_terminal(std::unique_ptr<reports::writer> w) { writers_.add(std::move(w), output_sink::console()); }

void output_list::add(const std::string& option, const std::optional<std::string>& path, std::unique_ptr<reports::writer> w) {
  if (!path) return;
  named_.emplace_back(option, *path);
  writers_.add(std::move(w), output_sink(*path));
  ++report_files_;
}

void output_list::add_elsewhere(const std::string& option, const std::optional<std::string>& path) {
  if (path) named_.emplace_back(option, *path);
}

void output_list::check_distinct(const std::vector<std::string>& inputs) const { check_distinct_outputs(named_, inputs); }

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

output_list report_outputs(const run_options& o, const std::string& verdict_option, std::unique_ptr<reports::writer> terminal) {
  output_list out;
  out.add_terminal(terminal ? std::move(terminal) : std::make_unique<reports::terminal_writer>(::isatty(STDOUT_FILENO) != 0));
  out.add("--md", o.md_path, std::make_unique<reports::markdown_writer>());
  out.add("--html", o.html_path, std::make_unique<reports::html_writer>());
  out.add("--csv", o.csv_path, std::make_unique<reports::csv_writer>());
  out.add(verdict_option, o.verdict_path, std::make_unique<reports::verdict_json_writer>());
  return out;
}

std::vector<std::string> files_read(const run_options& o, std::vector<std::string> runs, const std::string& baseline) {
  if (o.gates_path && *o.gates_path != "none") runs.push_back(*o.gates_path);
  else if (!o.gates_path && !baseline.empty())
    if (std::string beside = gates_file_beside(baseline); !beside.empty()) runs.push_back(std::move(beside));
  return runs;
}

}  // namespace cudabench::app

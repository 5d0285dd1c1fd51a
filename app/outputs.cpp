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
#include "measure/trace_recorder.hpp"

namespace cudabench::app {

using namespace cudabench::cli;  // the command line (cli/) is the commands' own

void output_list::add_terminal(std::unique_ptr<reports::writer> w) {
  writers_.add(std::move(w), output_sink::console(), {.order = terminal_order});
}

void output_list::add(const std::string& option, const std::optional<std::string>& path,
                      std::unique_ptr<reports::writer> w) {
  if (!path) return;
  named_.emplace_back(option, *path);
  writers_.add(std::move(w), output_sink(*path), {.order = report_order, .at_interrupt = true});
  ++report_files_;
}

void output_list::add_document(const std::string& option, const std::optional<std::string>& path,
                               std::unique_ptr<reports::writer> w, std::string said, bool at_interrupt) {
  if (!path) return;
  named_.emplace_back(option, *path);
  std::function<void()> after;
  if (!said.empty() && descriptor_named(*path) != 1)
    after = [said = std::move(said), path = *path] { fmt::print("{}: {}\n", said, printable(path)); };
  writers_.add(std::move(w), output_sink(*path),
               {.order = document_order, .at_interrupt = at_interrupt, .after = std::move(after)});
}

void output_list::add_text(const std::string& option, const std::optional<std::string>& path, const char* format,
                           std::function<std::string()> text, order o, std::function<void()> after) {
  if (!path) return;
  named_.emplace_back(option, *path);
  writers_.add(reports::make_writer(format, {.text = std::move(text)}), output_sink(*path),
               {.order = o, .after = std::move(after)});
}

void output_list::end_together(const reports::report& r) const {
  output_batch batch;
  end(r);
  batch.commit();
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

void add_report_files(output_list& out, const report_files& o) {
  for (const reports::report_format& f : reports::report_formats())
    if (const std::optional<std::string>& path = report_path(o, f.option))
      out.add(std::string(f.option), path, f.make());
}

output_list report_outputs(const report_files& o, const std::string& verdict_option,
                           std::unique_ptr<reports::writer> terminal) {
  output_list out;
  out.add_terminal(terminal ? std::move(terminal) : reports::terminal_writer(::isatty(STDOUT_FILENO) != 0));
  add_report_files(out, o);
  out.add(verdict_option, o.verdict_path, reports::verdict_json_writer());
  return out;
}

void add_results_json(output_list& out, const run_outputs& o, const std::string& said) {
  out.add_document("--json", o.json_path, reports::results_json_writer(o.time_unit, o.report_aggregates_only), said,
                   true);
  // A stopped run writes the copy (--benchmark_out beside --json or --benchmark_format=json) with --json only.
  out.add_document("--benchmark_out", o.json_copy_path,
                   reports::results_json_writer(o.time_unit, o.report_aggregates_only), said, o.json_path.has_value());
}

namespace {
/// Says what a Chrome trace (chrome_trace's shape) written to `path` holds: the traced cases, the GPU operations
/// (every event outside the host's process, 0 in each worker's numbering), or why there is no device activity.
void say_trace(const nlohmann::ordered_json& trace, const std::string& path) {
  std::size_t cases = 0, ops = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e.value("ph", std::string()) != "X") continue;
    cases += e.value("cat", std::string()) == "stage" && e.value("name", std::string()) == phase_name(phase::trace);
    ops += e.value("pid", 0) % 1000 != 0;
  }
  const std::string shown = printable(path);
  const std::string activity =
      trace.contains("otherData") ? trace["otherData"].value("device_activity", std::string()) : "";
  if (activity.rfind("none: ", 0) == 0)
    fmt::print("trace: {} ({} traced case(s); no device activity recorded: {})\n", shown, cases, activity.substr(6));
  else
    fmt::print(
        "trace: {} ({} traced case(s), {} GPU operations; open in https://ui.perfetto.dev or chrome://tracing)\n",
        shown, cases, ops);
}
}  // namespace

void add_run_texts(output_list& out, const run_outputs& o, std::shared_ptr<const nlohmann::ordered_json> trace,
                   std::shared_ptr<const std::string> table) {
  out.add_text(
      "--trace", o.trace_path, "Chrome trace", [trace] { return trace->dump(1) + "\n"; }, output_list::trace_order,
      [trace, path = o.trace_path.value_or("")] { say_trace(*trace, path); });
  out.add_text(
      "--benchmark_out", o.console_out_path, "console table", [table] { return *table; }, output_list::table_order,
      [path = o.console_out_path.value_or("")] { fmt::print("table: {}\n", printable(path)); });
}

output_list bisect_outputs(const bisect_request& o, const bisect_documents& docs) {
  output_list out;
  out.add_text(
      "--json", o.json_path, "bisection JSON", [&docs] { return docs.outcome.dump(2) + "\n"; },
      output_list::document_order);
  if (!o.ends_dir) return out;
  const auto in_ends = [&](const char* name) { return fmt::format("{}/{}.json", *o.ends_dir, name); };
  out.add_text(
      "--ends", in_ends("good"), "results JSON", [&docs] { return docs.good.dump(2) + "\n"; },
      output_list::document_order);
  out.add_text(
      "--ends", in_ends("bad"), "results JSON", [&docs] { return docs.bad.dump(2) + "\n"; },
      output_list::document_order);
  if (o.skip_same_code)
    out.add_text(
        "--ends", in_ends("same_code"), "same-code JSON", [&docs] { return docs.same_code.dump(1) + "\n"; },
        output_list::document_order);
  return out;
}

void add_run_documents(output_list& out, const run_outputs& o, const std::optional<std::string>& baseline_path) {
  out.add_document("--benchmark_out", o.benchmark_csv_path,
                   reports::benchmark_csv_writer(o.time_unit, o.report_aggregates_only), "results");
  add_results_json(out, o, "results");
  out.add_document("--save-baseline", baseline_path, reports::results_json_writer(o.time_unit, false),
                   "baseline saved");
  for (const reports::live_format& f : reports::live_formats())
    if (const std::optional<std::string> path = o.live_path(f.option))
      out.add_document(std::string(f.option), path, f.make(), "", true);
}

int finish_interrupted(int sig, const cudabench::run_result& partial, output_list& outputs,
                       const std::optional<std::string>& json_path, const std::string& progress,
                       const std::string& finished, const std::function<void(const output_list&)>& compare) {
  std::string where = "nothing written";
  if (json_path && !partial.cases.empty())
    where = fmt::format("{} in {} (marked incomplete)", finished, printable(*json_path));
  else if (json_path)
    where = fmt::format("{} left as it was", printable(*json_path));
  if (!partial.cases.empty()) {
    outputs.interrupted();  // the terminal had the cases as they ran
    output_batch batch;
    if (compare)
      compare(outputs);
    else
      outputs.end({.run = &partial});
    batch.commit();
    if (outputs.has_report_files())
      where += compare ? "; the report files and the verdict compare them with the baseline"
                       : "; the report files hold them too";
  }
  fmt::print(stderr, "\n{}: interrupted by {}{}; {}\n", program_name(), signal_name(sig), progress, where);
  return 128 + sig;
}

std::vector<std::string> files_read(const compare_options& o, std::vector<std::string> runs,
                                    const std::string& baseline) {
  if (const auto file = o.gates.named_file())
    runs.push_back(*file);
  else if (!o.gates.given() && !baseline.empty())
    if (std::string beside = run_store::gates_file_beside(baseline); !beside.empty()) runs.push_back(std::move(beside));
  return runs;
}

}  // namespace cudabench::app

// The compare, report and trend commands, and the comparison step of a run.
#include "app/commands.hpp"
#include "app/results_output.hpp"

#include <fmt/format.h>

#include <map>
#include <unistd.h>

#include <filesystem>

#include "app/option_table.hpp"
#include "harness/atomic_file.hpp"
#include "harness/format.hpp"
#include "reports/csv.hpp"
#include "reports/exports.hpp"
#include "reports/speedup.hpp"
#include "reports/trend.hpp"
#include "reports/writers.hpp"

namespace cudabench::app {

namespace {
/// Renders (only when asked for) and writes one output.
template <typename Render>
void write_if(const std::optional<std::string>& path, Render render) {
  if (path) write_file_atomically(*path, render());
}
}  // namespace

compare_settings compare_settings_from(const run_options& o) {
  compare_settings s;
  if (o.threshold_pct) s.threshold = *o.threshold_pct / 100;
  if (o.alpha) s.alpha = *o.alpha;
  if (o.host_threshold_pct) s.host_threshold = *o.host_threshold_pct / 100;
  if (o.noise_floor) s.noise_floor = *o.noise_floor;
  s.allow_device_mismatch = o.allow_device_mismatch;
  s.md_path = o.md_path;
  s.html_path = o.html_path;
  s.csv_path = o.csv_path;
  s.json_path = o.verdict_path;
  return s;
}

void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs,
                            const std::vector<std::string>& inputs) {
  std::map<std::string, std::string> seen;  // file -> what names it
  for (const std::string& in : inputs) seen.emplace(same_file_key(in), "the input " + in);
  for (const auto& [option, path] : outputs) {
    if (path == "-") continue;
    const auto [it, added] = seen.emplace(same_file_key(path), option + " " + path);
    if (!added) throw usage_error(fmt::format("{} {} is the same file as {}: refused, it would be overwritten", option, path, it->second));
  }
}

namespace {
std::vector<std::pair<std::string, std::string>> outputs_of(const compare_settings& s) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [option, path] : {std::pair{"--md", &s.md_path}, std::pair{"--html", &s.html_path},
                                     std::pair{"--verdict", &s.json_path}, std::pair{"--csv", &s.csv_path}})
    if (*path) out.emplace_back(option, **path);
  return out;
}
}  // namespace

void check_report_outputs(const compare_settings& s) {
  for (auto* p : {&s.md_path, &s.html_path, &s.json_path, &s.csv_path})
    if (*p) check_writable(**p);
}

void report_run(const run_result& run, const compare_settings& s) {
  auto tables = reports::speedup_tables(run);
  fmt::print("{}", reports::speedups_terminal(tables));
  const auto declared = reports::declared_tables(run);
  for (const auto& t : declared) fmt::print("\n{}:\n{}", t.title, t.markdown);
  const std::string limits = reports::limits_markdown(run);
  const std::string limits_title = "Limits (what % of limit is measured against)";
  if (!limits.empty()) fmt::print("\n{}:\n{}", limits_title, limits);
  std::string md = reports::speedups_markdown(tables, "Speedups: " + run.source);
  for (const auto& t : declared) md += "\n### " + t.title + "\n\n" + t.markdown;
  if (!limits.empty()) md += "\n### " + limits_title + "\n\n" + limits;
  write_if(s.md_path, [&] { return md; });
  write_if(s.html_path, [&] { return reports::speedups_html(run, tables); });
  write_if(s.csv_path, [&] { return reports::results_csv(run); });
}

int compare_and_report(const run_result& base, const run_result& cur, const compare_settings& s, comparison* out) {
  const comparison c = compare_runs(base, cur, s);
  fmt::print("{}", reports::terminal_writer(::isatty(STDOUT_FILENO) != 0).render(c));
  write_if(s.md_path, [&] { return reports::markdown_writer().render(c); });
  write_if(s.html_path, [&] { return reports::html_writer().render(c); });
  write_if(s.csv_path, [&] { return reports::results_csv(cur, &c); });
  write_if(s.json_path, [&] { return reports::verdict_json_writer().render(c); });
  if (out) *out = c;
  return c.failing() ? 1 : 0;
}

std::string baseline_file_for(const device_info& d, const std::string& preset, const std::string& dir) {
  return fmt::format("{}/{}/{}.json", dir, d.model_slug(), preset);
}

std::string resolve_baseline(const std::string& spec, const device_info& d, const std::string& preset, const std::string& dir) {
  if (spec != "auto") return spec;
  std::string path = baseline_file_for(d, preset, dir);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw input_error(fmt::format("{}: no stored baseline for {} / {} (store one with --save-baseline)", path,
                                  d.available ? d.name : "no GPU", preset));
  return path;
}

namespace {
/// compare, report or trend over a parsed command line.
int run_report_command(command cmd, const command_line& cl) {
  const std::string name(command_info(cmd).name);
  const run_options& o = cl.options;
  const std::vector<std::string>& positional = cl.inputs;
  try {
    compare_settings s = compare_settings_from(o);
    check_distinct_outputs(outputs_of(s), positional);
    if (cmd == command::compare) {
      check_report_outputs(s);
      run_result base = load_run(positional[0]);
      run_result cur = load_run(positional[1]);
      return compare_and_report(base, cur, s);
    }
    if (cmd == command::report) {
      check_report_outputs(s);
      const run_result run = load_run(positional[0]);
      if (o.format == "text") report_run(run, s);
      else fmt::print("{}\n", (o.format == "gab" ? reports::gab_export(run) : reports::bmf_export(run)).dump(2));
      return 0;
    }
    if (s.html_path) check_writable(*s.html_path);
    reports::trend t = reports::build_trend(positional[0], o.threshold_pct ? *o.threshold_pct / 100 : 0.05, o.hold, o.allow_device_mismatch);
    fmt::print("{}", reports::trend_terminal(t));
    write_if(s.html_path, [&] { return reports::trend_html(t); });
    return 0;
  } catch (const usage_error& e) {
    fmt::print(stderr, "run_bench {}: {}\n", name, e.what());
    return 2;
  } catch (const input_error& e) {
    fmt::print(stderr, "run_bench {}: {}\n", name, e.what());
    return 2;
  }
}

int report_command(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string name = args.empty() ? "" : args[0];
  if (name == "-h" || name == "--help") {
    fmt::print("{}", commands_overview());
    return 0;
  }
  const std::optional<command> cmd = command_by_name(name);
  if (!cmd) {
    fmt::print(stderr, "run_bench: {} (see ./run_bench --help)\n",
               name.empty() ? "expected compare, report or trend"
                            : fmt::format("unknown command '{}': expected compare, report or trend", printable(name)));
    return 2;
  }
  command_line cl;
  try {
    cl = parse_command_line(*cmd, std::vector<std::string>(args.begin() + 1, args.end()));
  } catch (const usage_error& e) {
    fmt::print(stderr, "run_bench {}: {} (see ./run_bench {} --help)\n", name, e.what(), name);
    return 2;
  }
  if (cl.options.help) {
    fmt::print("{}", command_help(*cmd));
    return 0;
  }
  return run_report_command(*cmd, cl);
}

}  // namespace

int report_main(int argc, char** argv) { return with_checked_stdout("run_bench", report_command, argc, argv); }

}  // namespace cudabench::app

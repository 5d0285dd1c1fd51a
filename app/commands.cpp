// The compare, report and trend commands, and the comparison step of a run.
#include "app/commands.hpp"
#include "app/results_output.hpp"

#include <fmt/format.h>

#include <map>
#include <unistd.h>

#include <filesystem>

#include "harness/atomic_file.hpp"
#include "reports/csv.hpp"
#include "reports/exports.hpp"
#include "reports/speedup.hpp"
#include "reports/trend.hpp"
#include "reports/writers.hpp"

namespace cudabench::app {

namespace {
const char* compare_usage = R"(usage: ./run_bench compare BASELINE.json CURRENT.json [options]
  --md FILE                Markdown report (CI job summary, pull-request comment)
  --html FILE              self-contained HTML report with SVG charts
  --json FILE              machine-readable verdicts
  --csv FILE               one row per case of CURRENT, with the baseline median, change and verdict
  --threshold PCT          smallest median change that counts for device-bound cases (default 5)
  --host-threshold PCT     gate host-bound cases too (CPU baselines, pageable/managed copies, host merges)
                           at this threshold; by default they are reported but never gate
  --noise-floor K          a change must also exceed K x the repetitions' coefficient of variation (default 3)
  --alpha P                significance level of the Mann-Whitney U test (default 0.01)
  --allow-device-mismatch  compare runs from different GPU models or clocks
exit status: 0 no regression, 1 at least one regression, 2 usage or input error
)";
const char* report_usage = R"(usage: ./run_bench report RESULT.json [--md FILE] [--html FILE] [--csv FILE] [--format=text|gab|bmf]
  speedup tables of one run: each variant against its family's reference variants; --csv: one row per case;
  --format=gab / bmf: instead, the run for a dashboard on standard output: github-action-benchmark's
  customSmallerIsBetter JSON, or Bencher Metric Format JSON (measured cases only)
)";
const char* trend_usage = R"(usage: ./run_bench trend RESULT_DIR [--html FILE] [--threshold PCT] [--hold N] [--allow-device-mismatch]
  one line per case over the runs in RESULT_DIR (oldest first); flags steps that hold for N runs (default 3);
  files that cannot be read are named and left out; runs of different GPU models only with --allow-device-mismatch
)";

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
                                     std::pair{"--json", &s.json_path}, std::pair{"--csv", &s.csv_path}})
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
int report_command(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::string cmd = args.empty() ? "" : args[0];
  const char* usage = cmd == "compare" ? compare_usage : cmd == "report" ? report_usage : cmd == "trend" ? trend_usage : nullptr;
  if (!usage) {
    fmt::print(stderr, "run_bench: expected compare, report or trend\n{}{}{}", compare_usage, report_usage, trend_usage);
    return 2;
  }
  try {
    std::vector<std::string> positional;
    run_options o;
    std::optional<std::string> json_out;
    std::size_t hold = 3;
    std::string format = "text";
    std::string v;
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "-h" || a == "--help") { fmt::print("{}", usage); return 0; }
      if (a == "--allow-device-mismatch" && cmd != "report") o.allow_device_mismatch = true;
      else if (take_value(args, i, "--md", v) && cmd != "trend") o.md_path = v;
      else if (take_value(args, i, "--html", v)) o.html_path = v;
      else if (take_value(args, i, "--csv", v) && cmd != "trend") o.csv_path = v;
      else if (take_value(args, i, "--json", v) && cmd == "compare") o.verdict_path = v;
      else if (take_value(args, i, "--threshold", v) && cmd != "report") o.threshold_pct = parse_double(v, "--threshold", 0, 1000);
      else if (take_value(args, i, "--alpha", v) && cmd == "compare") o.alpha = parse_double(v, "--alpha", 1e-9, 0.5);
      else if (take_value(args, i, "--host-threshold", v) && cmd == "compare") o.host_threshold_pct = parse_double(v, "--host-threshold", 0, 1000);
      else if (take_value(args, i, "--noise-floor", v) && cmd == "compare") o.noise_floor = parse_double(v, "--noise-floor", 0, 100);
      else if (take_value(args, i, "--hold", v) && cmd == "trend") hold = std::size_t(parse_int(v, "--hold", 2, 1000));
      else if (take_value(args, i, "--format", v) && cmd == "report") {
        if (v != "text" && v != "gab" && v != "bmf") throw usage_error("--format expects text, gab or bmf, got '" + v + "'");
        format = v;
      }
      else if (!a.empty() && a[0] == '-') throw usage_error("unknown option '" + a + "' for " + cmd);
      else positional.push_back(a);
    }
    const std::size_t want = cmd == "compare" ? 2 : 1;
    if (positional.size() != want)
      throw usage_error(fmt::format("{} expects {} file argument(s), got {}", cmd, want, positional.size()));
    compare_settings s = compare_settings_from(o);
    for (const auto* p : {&s.md_path, &s.html_path, &s.csv_path, &s.json_path})
      if (*p && **p == "-") throw usage_error(cmd + ": give output files a name ('-' is the runner's standard output only)");
    check_distinct_outputs(outputs_of(s), positional);
    if (cmd == "compare") {
      check_report_outputs(s);
      run_result base = load_run(positional[0]);
      run_result cur = load_run(positional[1]);
      return compare_and_report(base, cur, s);
    }
    if (cmd == "report") {
      check_report_outputs(s);
      const run_result run = load_run(positional[0]);
      if (format == "text") report_run(run, s);
      else fmt::print("{}\n", (format == "gab" ? reports::gab_export(run) : reports::bmf_export(run)).dump(2));
      return 0;
    }
    if (s.html_path) check_writable(*s.html_path);
    reports::trend t = reports::build_trend(positional[0], o.threshold_pct ? *o.threshold_pct / 100 : 0.05, hold, o.allow_device_mismatch);
    fmt::print("{}", reports::trend_terminal(t));
    write_if(s.html_path, [&] { return reports::trend_html(t); });
    return 0;
  } catch (const usage_error& e) {
    fmt::print(stderr, "run_bench {}: {}\n{}", cmd, e.what(), usage);
    return 2;
  } catch (const input_error& e) {
    fmt::print(stderr, "run_bench {}: {}\n", cmd, e.what());
    return 2;
  }
}

}  // namespace

int report_main(int argc, char** argv) { return with_checked_stdout("run_bench", report_command, argc, argv); }

}  // namespace cudabench::app

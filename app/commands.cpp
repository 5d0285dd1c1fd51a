// The compare, report and trend commands, and the comparison step of a run.
#include "app/commands.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include "app/results_output.hpp"
#include "harness/output_sink.hpp"
#include "reports/trend.hpp"
#include "reports/writer.hpp"

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
}  // namespace

compare_settings compare_settings_from(const run_options& o) {
  compare_settings s;
  if (o.threshold_pct) s.threshold = *o.threshold_pct / 100;
  if (o.alpha) s.alpha = *o.alpha;
  if (o.host_threshold_pct) s.host_threshold = *o.host_threshold_pct / 100;
  if (o.noise_floor) s.noise_floor = *o.noise_floor;
  s.allow_device_mismatch = o.allow_device_mismatch;
  return s;
}

int compare_and_report(const run_result& base, const run_result& cur, const compare_settings& s, const output_list& outputs,
                       comparison* out) {
  const comparison c = compare_runs(base, cur, s);
  outputs.writers().write_comparison(c, cur);
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
/// Every output of the command is checked before any input is read; with one on standard output ("-"), the
/// terminal text goes to standard error.
int run_report_command(const std::string& cmd, const std::vector<std::string>& inputs, const run_options& o, std::size_t hold,
                       const std::string& format) {
  std::unique_ptr<reports::writer> terminal;  // a dashboard export goes to standard output in place of the tables
  if (cmd == "report" && format == "gab") terminal = std::make_unique<reports::gab_writer>();
  if (cmd == "report" && format == "bmf") terminal = std::make_unique<reports::bmf_writer>();
  const output_list outputs = report_outputs(o, "--json", std::move(terminal));
  outputs.check(cmd == "trend" ? reports::trend_inputs(inputs[0]) : inputs);
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  if (cmd == "compare") {
    const run_result base = load_run(inputs[0]);
    const run_result cur = load_run(inputs[1]);
    return compare_and_report(base, cur, compare_settings_from(o), outputs);
  }
  if (cmd == "report") {
    outputs.writers().write_run(load_run(inputs[0]));
    return 0;
  }
  const double threshold = o.threshold_pct ? *o.threshold_pct / 100 : 0.05;
  outputs.writers().write_trend(reports::build_trend(inputs[0], threshold, hold, o.allow_device_mismatch));
  return 0;
}

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
    return run_report_command(cmd, positional, o, hold, format);
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

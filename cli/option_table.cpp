// The option table's entries and the commands that take them.
#include "cli/option_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <vector>

#include "analysis/compare.hpp"
#include "analysis/gates.hpp"
#include "cli/program_name.hpp"
#include "cudabench/presets.hpp"
#include "io/format.hpp"
#include "measure/energy.hpp"
#include "reports/writer.hpp"
#include "results/results_model.hpp"

namespace cudabench::cli {
namespace {

using o_ = command_options;

std::string name_of(const option_spec& spec) { return std::string(spec.name); }

/// "quick 1, nightly 10, full 10": what each preset sets, for a default that is the preset's.
std::string per_preset(int (*value)(const preset&)) {
  std::string out;
  for (const char* name : {"quick", "nightly", "full"})
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", name, value(preset_by_name(name)));
  return out;
}

void set_flag_noop(parse_state&, const option_spec&, const std::string&) {}

/// The apply of a flag that sets one member of the options.
template <auto member>
void set_flag(parse_state& s, const option_spec&, const std::string&) {
  s.options.*member = true;
}

void store_output(parse_state& s, const option_spec& spec, const std::string& v) {
  if (v.empty()) throw usage_error(name_of(spec) + " needs a file name");
  if (spec.live)
    s.options.live_paths.insert_or_assign(name_of(spec), v);
  else
    s.options.*spec.output = v;
}

void store_filter(parse_state& s, const option_spec& spec, const std::string& v) {
  s.options.filter = name_filter(v, name_of(spec));
  s.options.filter_given = true;
}

/// A duration: seconds, or a number with s, m or h (90s, 20m, 1.5h).
double duration_s(const option_spec& spec, const std::string& v) {
  const char unit = v.empty() ? 's' : v.back();
  const double scale = unit == 'h' ? 3600 : unit == 'm' ? 60 : 1;
  const std::string number =
      std::string("smh").find(unit) != std::string::npos && !v.empty() ? v.substr(0, v.size() - 1) : v;
  return scale *
         parse_double(number, fmt::format("{} (seconds, or a number with s, m or h)", spec.name), 0, 1e6 / scale);
}

void store_text(const option_spec& spec, const std::string& v, std::optional<std::string>& into) {
  if (v.empty()) throw usage_error(fmt::format("{} needs a value ({}={})", spec.name, spec.name, spec.placeholder));
  into = v;
}

/// A path inside a worktree (--binary): relative, and never above its start (no ".." component).
std::string worktree_path(const option_spec& spec, const std::string& v) {
  if (v.empty()) throw usage_error(fmt::format("{} needs a value ({}={})", spec.name, spec.name, spec.placeholder));
  const std::filesystem::path p(v);
  if (p.is_absolute() ||
      std::any_of(p.begin(), p.end(), [](const std::filesystem::path& part) { return part == ".."; }))
    throw usage_error(
        fmt::format("{}={}: give the binary's path relative to the worktree, inside it (each revision's own "
                    "build; no absolute path, no '..')",
                    spec.name, printable(v, 80)));
  return v;
}

/// An http(s) address of letters, digits and - . _ ~ / : % + @ only (no quote, space or markup), its trailing /
/// dropped: what a page may put in a link as it is.
std::string web_address(const option_spec& spec, const std::string& v) {
  const bool scheme = v.rfind("https://", 0) == 0 || v.rfind("http://", 0) == 0;
  const bool plain = std::all_of(v.begin(), v.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("-._~/:%+@").find(c) != std::string_view::npos;
  });
  const std::string address = v.substr(0, v.find_last_not_of('/') + 1);
  if (!scheme || !plain || v.find("://") != v.rfind("://") || address.size() <= v.find("://") + 3)
    throw usage_error(fmt::format(
        "{} expects an http(s) address of letters, digits and -._~/:%+@ (e.g. https://github.com/OWNER/REPO), got '{}'",
        spec.name, printable(v)));
  return address;
}

void store_inject(parse_state& s, const option_spec&, const std::string& v) {
  const auto colon = v.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw usage_error(fmt::format("--inject-slowdown expects CASE_REGEX:PCT, got '{}'", printable(v)));
  s.options.inject_regex = v.substr(0, colon);
  user_regex(*s.options.inject_regex, "--inject-slowdown");
  s.options.inject_pct = parse_double(v.substr(colon + 1), "--inject-slowdown percentage", 0, 1000);
}

/// `v` where it is one of `allowed`; else throws usage_error naming the option and the choices.
const std::string& one_of(const std::string& v, const std::string& option, std::initializer_list<const char*> allowed) {
  for (const char* a : allowed)
    if (v == a) return v;
  std::string list;
  std::size_t i = 0;
  for (const char* a : allowed) {
    if (i > 0)
      list += ++i == allowed.size() ? " or " : ", ";
    else
      ++i;
    list += a;
  }
  throw usage_error(fmt::format("{} expects {}, got '{}'", option, list, printable(v)));
}

void store_profiler(parse_state& s, const option_spec& spec, const std::string&) {
  const std::string which = spec.name == "--nsys" ? "nsys" : "ncu";
  if (s.options.profiler && *s.options.profiler != which) throw usage_error("--nsys and --ncu: one profiler at a time");
  s.options.profiler = which;
}

bool truth(const option_spec& spec, const std::string& v) {
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no") return false;
  throw usage_error(fmt::format("{} expects true or false, got '{}'", spec.name, printable(v)));
}

double seconds(const option_spec& spec, const std::string& v) {
  std::string t = v;
  if (!t.empty() && t.back() == 'x')
    throw usage_error(fmt::format(
        "{}={}: cudabench samples until the noise is low, not for a number of iterations; give seconds (e.g. {}=0.5s)",
        spec.name, printable(v), spec.name));
  if (!t.empty() && t.back() == 's') t.pop_back();
  return parse_double(t, name_of(spec), 0, 3600);
}

void benchmark_format(parse_state& s, const option_spec&, const std::string& v) {
  const std::string& f = one_of(v, "--benchmark_format", {"console", "json", "csv"});
  if (f == "json") s.options.json_path = "-";
  if (f == "csv") s.options.benchmark_csv_path = "-";
}

/// --benchmark_context=KEY=VALUE: a key of its own (not one the results write themselves), given once.
void store_context(parse_state& s, const option_spec&, const std::string& v) {
  const auto eq = v.find('=');
  if (eq == std::string::npos || eq == 0)
    throw usage_error(fmt::format("--benchmark_context expects KEY=VALUE, got '{}'", printable(v)));
  const std::string key = v.substr(0, eq);
  if (standard_context_key(key))
    throw usage_error(
        fmt::format("--benchmark_context={}: '{}' is a context key the results write themselves; choose another",
                    printable(v), printable(key)));
  for (const auto& [k, value] : s.options.context)
    if (k == key) throw usage_error(fmt::format("--benchmark_context: '{}' is given twice", printable(key)));
  s.options.context.emplace_back(key, v.substr(eq + 1));
}

#define ACT [](parse_state & s, [[maybe_unused]] const option_spec& spec, [[maybe_unused]] const std::string& v)

// clang-format off
const std::array before_live{
  option_spec{.name = "--filter", .placeholder = "REGEX", .commands = "run bisect", .apply = store_filter, .whole_run = true,
              .help = "run the cases whose name matches this RE2 pattern anywhere (e.g. {filter}); a leading - negates"},
  option_spec{.name = "--list", .kind = arity::flag, .commands = "run", .apply = set_flag<&o_::list>,
              .help = "list the cases the filter selects (gpu or cpu, cold-L2, host-bound, not-gated), then exit"},
  option_spec{.name = "--identify", .placeholder = "FILE", .commands = "run",
              .apply = ACT { store_text(spec, v, s.options.identify_path); }, .child = in_child::suffix, .whole_run = true,
              .help = "time nothing: run each selected case once, unchecked, then once more traced with CUPTI, and write "
                      "its code identity (the digest of the SASS of its kernels, their launches and copies; \"\" with "
                      "why where unknown: a CPU case, no GPU or CUPTI, a case that skipped or failed) to FILE as JSON, "
                      "then exit (bisect --skip-same-code compares two revisions' files)"},
  option_spec{.name = "--limits", .kind = arity::flag, .commands = "run", .apply = set_flag<&o_::limits>,
              .whole_run = true,
              .help = "measure the limits family (copies, a read-only stream, host copies, FMA throughput, launches) "
                      "alongside the selected cases, whatever the filter, so cases that name a limit show % of limit "
                      "against this run's; without it the family runs where the filter selects it in the nightly and full "
                      "presets (the suite: in every preset), and % of limit uses the limits of the stored baseline of this "
                      "GPU model"},
  option_spec{.name = "--quiet", .kind = arity::flag, .commands = "run", .apply = set_flag<&o_::quiet>,
              .help = "no \"[i/N] case (round R/N, about T left)\" progress line on standard error before each case, "
                      "and no [i/N] in the table's rows"},
  option_spec{.name = "--verbose", .kind = arity::flag, .commands = "run", .apply = set_flag<&o_::verbose>,
              .help = "the table names the skipped cases under each reason (by default one line per reason with the "
                      "count; the JSON has a row per case either way)"},
  option_spec{.name = "--preset", .placeholder = "NAME", .commands = "run",
              .apply = ACT { preset_by_name(v); s.options.preset = v; },
              .help = fmt::format("quick (<= 60 s on a GPU), nightly or full (default {})", run_options{}.preset)},
  option_spec{.name = "--repetitions", .placeholder = "N", .commands = "run",
              .apply = ACT { s.options.repetitions = parse_int(v, name_of(spec), 1, 1000); },
              .help = fmt::format("repetitions per case (default: the preset's: {})", per_preset([](const preset& p) { return p.repetitions * p.rounds; }))},
  option_spec{.name = "--rounds", .placeholder = "N", .commands = "run",
              .apply = ACT { s.options.rounds = parse_int(v, name_of(spec), 1, 1000); },
              .help = fmt::format("spread each case's repetitions over N rounds, each a fresh worker process that runs every selected "
                                  "case once, in an order shuffled per round; the statistics compare the rounds (each its "
                                  "repetitions' lower median), so they see process-to-process spread (default: the preset's: {}; "
                                  "at most the repetitions; --watchdog=off runs one round, in this process)",
                                  per_preset([](const preset& p) { return p.rounds; }))},
  option_spec{.name = "--rounds-for", .placeholder = "gated|all", .commands = "run",
              .apply = ACT { s.options.rounds_for = one_of(v, name_of(spec), {"gated", "all"}); },
              .help = fmt::format("the cases the rounds spread: gated, the gated device cases (host-bound and not-gated cases take all "
                                  "their repetitions in the first round, as no default verdict judges them by the spread between "
                                  "processes), or all (as --trace does); default {}", run_options{}.rounds_for)},
  option_spec{.name = "--shuffle-seed", .placeholder = "N", .commands = "run",
              .apply = ACT { s.options.shuffle_seed = std::uint64_t(parse_int(v, name_of(spec), 0, 2147483647)); },
              .help = "the seed of the rounds' case orders (default: a fresh one; the results record it as "
                      "context.cudabench.shuffle_seed)"},
  option_spec{.name = "--device", .placeholder = "N", .commands = "run",
              .apply = ACT { s.options.device = parse_int(v, name_of(spec), 0, 1023); },
              .child = in_child::replace, .help = fmt::format("CUDA device ordinal (default {})", run_options{}.device)},
  option_spec{.name = "--devices", .placeholder = "all|0,2", .commands = "run",
              .apply = ACT {
                if (v.empty()) throw usage_error("--devices expects 'all' or a list of ordinals such as 0,2");
                parse_device_list(v, 1 << 20);  // the form now; the ordinals once the device count is known
                s.options.devices = v;
              },
              .child = in_child::replace, .help = "one process per device, in parallel; results merged into --json, names dev<N>/..."},
  option_spec{.name = "--sizes", .placeholder = "FAMILY=N,N,...", .commands = "run",
              .apply = ACT { parse_sizes(v, s.options.sizes); },
              .help = "run these problem sizes of FAMILY instead of the preset's (repeat for more families; "
                      "e.g. {sizes}; the families that take sizes: docs/extending.md; each refuses a size over "
                      "its largest, and skips one that does not fit in memory)"},
  option_spec{.name = "--axis", .placeholder = "FAMILY.AXIS=V,V,...", .commands = "run",
              .apply = ACT { parse_axis(v, s.options.axes); },
              .help = "run these values of one of FAMILY's axes instead of the preset's (e.g. {axis}; "
                      "repeat for more axes; --sizes is the form for a family's size axis; the axes: docs/extending.md)"},
  option_spec{.name = "--json", .placeholder = "FILE", .commands = "run bisect fleet", .apply = store_output, .output = &o_::json_path,
              .child = in_child::replace, .whole_run = true,
              .elsewhere = "it names the results file of a run; the verdict file of a comparison is --verdict FILE",
              .help = "write the results as Google Benchmark JSON, with the device description (- is standard output, "
                      "which then carries nothing else; the table goes to standard error); bisect: its outcome as JSON; fleet: the "
                      "side-by-side report as JSON"},
  option_spec{.name = "--trace", .placeholder = "FILE", .commands = "run", .apply = store_output, .output = &o_::trace_path,
              .child = in_child::suffix, .whole_run = true,
              .help = "after each case's timed repetitions, trace one more sample with CUPTI (kernels, copies, memsets "
                      "per stream) and write the run's timeline to FILE as Chrome trace JSON (Perfetto, chrome://tracing); "
                      "each case's timeline and its metrics go into --json"},
};
// --help lists the live outputs' options here, after --trace: their rows are made from reports::live_formats().
const std::array after_live{
  option_spec{.name = "--md", .placeholder = "FILE", .commands = "run compare report fleet confirm", .apply = store_output,
              .output = &o_::md_path, .child = in_child::suffix, .whole_run = true,
              .help = "Markdown report (a CI job summary, a pull-request comment): of the comparison (compare; a run "
                      "with --compare-to), else of the run's speedups (report; a run without --compare-to); fleet: the runs side by side"},
  option_spec{.name = "--html", .placeholder = "FILE", .commands = "run compare report trend fleet confirm", .apply = store_output, .output = &o_::html_path,
              .child = in_child::suffix, .whole_run = true,
              .help = "self-contained HTML report with SVG charts: of the comparison, the run, the trend (each case in % of its "
                      "first run, by date), or the fleet (a chart per family, a bar per model); a section per family that folds"},
  option_spec{.name = "--csv", .placeholder = "FILE", .commands = "run compare report fleet confirm", .apply = store_output,
              .output = &o_::csv_path, .child = in_child::suffix, .whole_run = true,
              .help = "one row per case: name, status, median_us, repetitions (over all rounds), cv_pct, noise_pct, samples, throughputs, "
                      "bw_peak_pct, limit_pct, message (+ baseline_median_us, change_pct, verdict, p_value, detectable_pct, gate_pct, gate_source, control, control_change_pct, normalized_change_pct, code (same or changed, where both runs recorded the device code) in a comparison; blank where no test ran, no gate applies or the case was not judged on its control), energy_per_op, energy_unit, power_w, sm_clock_mhz, mem_clock_mhz, throttled_samples (+ baseline_energy_per_op, energy_change_pct, energy_verdict, throttled in a comparison; blank where not recorded); fleet: one row per case and model "
                      "(name, family, model, label, reference, status, median_us, noise_pct, limit_pct, ratio, verdict, per_joule, per_joule_unit)"},
  option_spec{.name = "--verdict", .placeholder = "FILE", .commands = "run compare confirm", .apply = store_output,
              .output = &o_::verdict_path, .child = in_child::suffix, .whole_run = true,
              .help = "the comparison's verdicts as JSON (a run: with --compare-to only)"},
  option_spec{.name = "--format", .placeholder = "text|gab|bmf", .commands = "report",
              .apply = ACT { s.options.format = one_of(v, name_of(spec), {"text", "gab", "bmf"}); },
              .help = fmt::format("text: speedup tables; gab / bmf: instead, the run for a dashboard on standard output, as "
                                  "github-action-benchmark's customSmallerIsBetter JSON or Bencher Metric Format JSON "
                                  "(measured cases only); default {}", report_options{}.format)},
  option_spec{.name = "--compare-to", .placeholder = "FILE|auto", .commands = "run",
              .apply = ACT {
                if (v.empty()) throw usage_error("--compare-to needs a file or 'auto'");
                s.options.compare_to = v;
              },
              .whole_run = true, .help = "after the run, compare against a baseline (auto: the stored one for this GPU and preset)"},
  option_spec{.name = "--save-baseline", .kind = arity::flag, .commands = "run",
              .apply = set_flag<&o_::save_baseline>,
              .whole_run = true, .help = "store the run as <baseline-dir>/<gpu-model>/<preset>.json"},
  option_spec{.name = "--baseline-dir", .placeholder = "DIR", .commands = "run store",
              .apply = ACT {
                if (v.empty()) throw usage_error("--baseline-dir needs a directory");
                s.options.baseline_dir = v;
              },
              .help = fmt::format("where stored baselines live (default {}, under the current directory)", run_options{}.baseline_dir)},
  option_spec{.name = "--threshold", .placeholder = "PCT", .commands = "run compare trend bisect confirm",
              .apply = ACT { s.options.threshold_pct = parse_double(v, name_of(spec), 0, 1000); },
              .help = fmt::format("smallest median change that counts (default {:g}): for device-bound cases in a comparison, for a "
                                  "step in a trend", 100 * compare_settings{}.threshold)},
  option_spec{.name = "--host-threshold", .placeholder = "PCT", .commands = "run compare bisect confirm",
              .apply = ACT { s.options.host_threshold_pct = parse_double(v, name_of(spec), 0, 1000); },
              .help = fmt::format("gate host-bound cases too (CPU baselines, pageable/managed copies, host merges) at this "
                                  "threshold; by default they are reported apart across machines, and in two runs of one host "
                                  "gated by a host gate learned for them, else judged as device cases are (measured in one "
                                  "process a side by runs without rounds: at {:.0f}%)",
                                  100 * compare_settings{}.one_machine_host_threshold)},
  option_spec{.name = "--noise-floor", .placeholder = "K", .commands = "run compare bisect confirm",
              .apply = ACT { s.options.noise_floor = parse_double(v, name_of(spec), 0, 100); },
              .help = fmt::format("a change must also exceed K x the robust coefficient of variation (1.4826 x MAD / median) "
                                  "of the repetitions (of the rounds with rounds), where no learned gate applies and the runs "
                                  "do not calibrate themselves (default {:g})", compare_settings{}.noise_floor)},
  option_spec{.name = "--alpha", .placeholder = "P", .commands = "run compare bisect confirm",
              .apply = ACT { s.options.alpha = parse_double(v, name_of(spec), 1e-9, 0.5); },
              .help = fmt::format("significance level of the test: the Mann-Whitney U test, or with a learned gate the medians "
                                  "against its drift (default {:g})", compare_settings{}.alpha)},
  option_spec{.name = "--gates", .placeholder = "FILE|none", .commands = "run compare bisect confirm",
              .apply = ACT {
                s.options.gates = gates_choice::parse(v);
              },
              .whole_run = true,
              .help = fmt::format("learned gates (from the gates command): a case's learned gate replaces --threshold, the noise "
                                  "floor and the rank test for it (its medians are tested against its drift); default: the file "
                                  "beside the baseline (X.json -> {}) when there is one; none: the threshold for every case",
                                  run_store::gates_file_beside("X.json"))},
  option_spec{.name = "--out", .placeholder = "FILE", .commands = "gates", .apply = store_output, .output = &o_::gates_out,
              .help = "where the gates file is written (required; - is standard output)"},
  option_spec{.name = "--floor", .placeholder = "PCT", .commands = "gates",
              .apply = ACT { s.options.gate_floor_pct = parse_double(v, name_of(spec), 0, 100 * max_gate_floor); },
              .help = fmt::format("no learned gate is below PCT (default {:g})", 100 * gate_settings{}.floor)},
  option_spec{.name = "--k", .placeholder = "X", .commands = "gates",
              .apply = ACT { s.options.gate_k = parse_double(v, name_of(spec), min_gate_k, max_gate_k); },
              .help = fmt::format("a case's gate is X times the spread of its change between two runs (default {:g}; docs/validation.md)",
                                  gate_settings{}.k)},
  option_spec{.name = "--min-runs", .placeholder = "N", .commands = "gates",
              .apply = ACT { s.options.gate_min_runs = parse_int(v, name_of(spec), int(min_gate_min_runs), int(max_gate_min_runs)); },
              .help = fmt::format("a case with a result in fewer than N of the runs learns no gate and keeps the default (default {})",
                                  gate_settings{}.min_runs)},
  option_spec{.name = "--energy-threshold", .placeholder = "PCT", .commands = "run compare confirm",
              .apply = ACT { s.options.energy_threshold_pct = parse_double(v, name_of(spec), 0, 1000); },
              .help = fmt::format("smallest change of a case's energy per operation that counts (default {:g}); it must also exceed "
                                  "the noise floor x its windows' robust CV, in a test of {} windows a side or more",
                                  100 * energy_gate_settings{}.threshold, min_energy_windows)},
  option_spec{.name = "--gate-energy", .kind = arity::flag, .commands = "run compare confirm",
              .apply = set_flag<&o_::gate_energy>,
              .help = "an energy regression (energy per operation up beyond its gate) fails the comparison too, and an "
                      "unconfirmed energy flag (another machine's, or a change beyond the gate with too few windows to test) "
                      "leaves it undecided (exit 3; confirm measures those cases); without it energy verdicts are reported, "
                      "never changing the exit status"},
  option_spec{.name = "--allow-device-mismatch", .kind = arity::flag, .commands = "run compare trend bisect confirm",
              .apply = set_flag<&o_::allow_device_mismatch>, .help = "compare runs from different GPU models or clocks"},
  option_spec{.name = "--allow-build-mismatch", .kind = arity::flag, .commands = "run compare bisect confirm",
              .apply = set_flag<&o_::allow_build_mismatch>, .help = "compare runs whose cases were built differently "
                                                                    "(build type, optimization or assertions: context.cudabench.build)"},
  option_spec{.name = "--allow-preset-mismatch", .kind = arity::flag, .commands = "run compare confirm",
              .apply = set_flag<&o_::allow_preset_mismatch>,
              .help = "compare runs of different presets (their sizes and repetitions differ)"},
  option_spec{.name = "--reference", .placeholder = "MODEL", .commands = "fleet",
              .apply = ACT { store_text(spec, v, s.options.reference); },
              .help = "the model the ratios divide by: its GPU name or its slug as baselines are stored (default: the first run's)"},
  option_spec{.name = "--hold", .placeholder = "N", .commands = "trend",
              .apply = ACT { s.options.hold = std::size_t(parse_int(v, name_of(spec), 2, 1000)); },
              .help = fmt::format("a step must hold for N runs to be flagged (default {})", trend_options{}.hold)},
  option_spec{.name = "--site", .placeholder = "DIR", .commands = "trend", .apply = ACT { store_text(spec, v, s.options.site_dir); },
              .help = "read the directory as a history store (ci/history.sh) and write its dashboard into DIR: index.html, "
                      "each GPU model and preset's trend with its commits, verdicts and gates, and the models side by side "
                      "(static HTML and SVG, no script)"},
  option_spec{.name = "--repository", .placeholder = "URL", .commands = "trend",
              .apply = ACT { s.options.repository = web_address(spec, v); },
              .help = "with --site: the repository's web address (e.g. https://github.com/OWNER/REPO); each run's point "
                      "links to URL/commit/REVISION"},
  option_spec{.name = "--history-dir", .placeholder = "DIR", .commands = "store",
              .apply = ACT { store_text(spec, v, s.options.history_dir); },
              .help = "the history store (ci/history.sh) whose folders history and runs name"},
  option_spec{.name = "--of-preset", .placeholder = "NAME", .commands = "store",
              .apply = ACT { store_text(spec, v, s.options.of_preset); },
              .help = "the preset the result must be of: a result of another preset is refused"},
  option_spec{.name = "--good", .placeholder = "REV", .commands = "bisect", .apply = ACT { store_text(spec, v, s.options.good); },
              .help = "a revision without the regression (e.g. the baseline's git_revision)"},
  option_spec{.name = "--bad", .placeholder = "REV", .commands = "bisect", .apply = ACT { store_text(spec, v, s.options.bad); },
              .help = "a revision with it, descending from --good (e.g. HEAD)"},
  option_spec{.name = "--build", .placeholder = "CMD", .commands = "bisect confirm",
              .apply = ACT { store_text(spec, v, s.options.build_command); },
              .help = "shell command that builds the checked-out revision in its worktree (required for a project's own "
                      "binary; the suite's default: the Release build of the cudabench target into build/, configured "
                      "once, then incremental)"},
  option_spec{.name = "--binary", .placeholder = "PATH", .commands = "bisect confirm", .apply = ACT { s.options.binary = worktree_path(spec, v); },
              .help = fmt::format("the benchmark binary --build makes, relative to the worktree (required for a project's own "
                                  "binary; the suite's default: {})", bisect_options::suite_binary)},
  option_spec{.name = "--processes", .placeholder = "N", .commands = "bisect confirm",
              .apply = ACT { s.options.processes = parse_int(v, name_of(spec), 1, 100); },
              .help = fmt::format("benchmark processes per measured revision, their repetitions pooled (default {}); they alternate "
                                  "with as many of the good end's", bisect_options{}.processes)},
  option_spec{.name = "--time-limit", .placeholder = "DURATION", .commands = "bisect",
              .apply = ACT { s.options.time_limit_s = duration_s(spec, v); },
              .help = "stop testing revisions once this much time is spent (90s, 20m, 1h) and report the narrowest "
                      "range found"},
  option_spec{.name = "--extra-time", .placeholder = "DURATION", .commands = "bisect confirm",
              .apply = ACT { s.options.extra_time_s = duration_s(spec, v); },
              .help = fmt::format("with --ends, and in confirm: while a case measured on this machine is inconclusive "
                                  "(its own processes too spread to decide against the 1% floor), measure more "
                                  "alternating pairs of processes of the undecided cases, at most {}, for up to this "
                                  "long (90s, 20m; default {:.0f}s; 0: none)",
                                  bisect_options::max_extra_pairs, bisect_options{}.extra_time_s)},
  option_spec{.name = "--ends", .placeholder = "DIR", .commands = "bisect", .apply = ACT { store_text(spec, v, s.options.ends_dir); },
              .help = "measure the two ends only, in alternating processes as for a search, and write their pooled results "
                      "to DIR/good.json and DIR/bad.json for compare (e.g. a pull request's merge base and head); no search"},
  option_spec{.name = "--skip-same-code", .kind = arity::flag, .commands = "bisect", .apply = set_flag<&o_::skip_same_code>,
              .help = "with --ends: identify each end's cases first (one untimed run each, run --identify), then measure "
                      "only those whose code identity differs or is unknown on either side (CPU cases, no CUPTI), and the "
                      "limits family as controls; the cases of the same code on both sides are skipped and listed in "
                      "DIR/same_code.json. The identity sees device code, launches and copies, not host code: measure "
                      "a host-only change without it"},
  option_spec{.name = "--cache", .placeholder = "declared|hot|cold", .commands = "run",
              .apply = ACT { s.options.cache = one_of(v, name_of(spec), {"declared", "hot", "cold"}); },
              .help = fmt::format("L2 state of GPU cases: declared, as each case declares, or all hot / all cold (default {})",
                                  run_options{}.cache)},
  option_spec{.name = "--inject-slowdown", .placeholder = "CASE_REGEX:PCT", .commands = "run", .apply = store_inject,
              .help = "validation only: adds PCT% of a case's warm-up median as real GPU work (a calibrated spin) inside "
                      "the timed region of the cases CASE_REGEX (RE2 syntax) matches; recorded in the JSON"},
  option_spec{.name = "--no-blocking-kernel", .kind = arity::flag, .commands = "run",
              .apply = set_flag<&o_::no_blocking_kernel>,
              .help = "do not hold the stream with a spinning kernel while a GPU sample's work is queued (held by "
                      "default, so launch latency stays out of the timed region)"},
  option_spec{.name = "--no-energy", .kind = arity::flag, .commands = "run", .apply = ACT { s.options.energy = false; },
              .help = "do not read GPU cases' energy per operation, power, memory clock and throttle reasons from NVML "
                      "around their timed samples (read by default, but under --profile; docs/reference.md says how)"},
  option_spec{.name = "--energy-window", .placeholder = "SECONDS", .commands = "run",
              .apply = ACT { s.options.energy_window_s = parse_double(v, name_of(spec), 0, 3600); },
              .help = fmt::format(
                  "the least time (within its ends' uncertainty) between the two updates of the energy counter a case's "
                  "energy is measured between: a case whose timed samples take less repeats its sample, untimed for its "
                  "time, until the window is reached, and a case shorter than --energy-min-run is measured over its runs "
                  "back to back after its timed samples; 0: the timed samples alone (default {:g} in the nightly and "
                  "full presets, in the first round of a run with rounds; 0 in quick; {:g} in confirm's processes where "
                  "an energy flag is held)",
                  default_energy_window_s(preset_by_name("nightly")), confirm_energy_window_s)},
  option_spec{.name = "--energy-min-run", .placeholder = "SECONDS", .commands = "run",
              .apply = ACT { s.options.energy_min_run_s = parse_double(v, name_of(spec), 0, 3600); },
              .help = fmt::format("GPU cases whose run takes at least this long get an energy window around their timed "
                                  "samples, one a run (on their first repetition in its first round); shorter ones "
                                  "over their runs back to back after them (default {:g})",
                                  run_options{}.energy_min_run_s)},
  option_spec{.name = "--watchdog", .placeholder = "SECONDS|off", .commands = "run",
              .apply = ACT { s.options.watchdog_s = v == "off" ? 0 : parse_double(v, "--watchdog (seconds, or off)", 1, 86400); },
              .help = fmt::format("the cases run in a worker process (default {:g}): a case that makes no progress for SECONDS is "
                      "killed and failed as hung, one whose kernel faults (a lost CUDA context) or whose process dies is "
                      "failed with its error, and the remaining cases go on in a fresh process; off: everything runs in "
                      "this process, unprotected", run_options{}.watchdog_s)},
  option_spec{.name = "--profile", .kind = arity::flag, .commands = "run", .apply = set_flag<&o_::profile>,
              .help = "a few clean samples per case, one repetition (what --nsys/--ncu use); implies --watchdog=off"},
  option_spec{.name = "--nsys", .kind = arity::flag, .commands = "run", .apply = store_profiler,
              .help = "run under Nsight Systems (through the cudabench-run wrapper; "
                      "docs/profiling.md): one report, <json stem>.nsys-rep or cudabench-<preset>-<time>.nsys-rep; "
                      "NSYS=/path names nsys where it is not on PATH"},
  option_spec{.name = "--ncu", .kind = arity::flag, .commands = "run", .apply = store_profiler,
              .help = "run each selected GPU case under Nsight Compute (through the cudabench-run wrapper; "
                      "docs/profiling.md): kernel duration and DRAM throughput to <json stem>.ncu.csv; NCU=/path names "
                      "ncu where it is not on PATH"},
  option_spec{.name = "--profile-plan", .kind = arity::flag, .commands = "run",
              .apply = set_flag<&o_::profile_plan>, .hidden = true,
              .help = "for the cudabench-run wrapper: print, NUL-separated, the profiler, the preset, the --json file and "
                      "the arguments of the run and of each per-case profiled run, then exit"},
  option_spec{.name = "--benchmark_filter", .kind = arity::benchmark, .placeholder = "REGEX", .commands = "run",
              .apply = store_filter, .whole_run = true, .help = "Google Benchmark's: as --filter (RE2 syntax)"},
  option_spec{.name = "--benchmark_list_tests", .kind = arity::benchmark, .placeholder = "true|false", .commands = "run",
              .apply = ACT { s.options.list = s.options.list_names_only = truth(spec, v); },
              .help = "Google Benchmark's: list the selected cases' names only, then exit"},
  option_spec{.name = "--benchmark_repetitions", .kind = arity::benchmark, .placeholder = "N", .commands = "run",
              .apply = ACT { s.options.repetitions = parse_int(v, name_of(spec), 1, 1000); },
              .help = "Google Benchmark's: as --repetitions"},
  option_spec{.name = "--benchmark_enable_random_interleaving", .kind = arity::benchmark, .placeholder = "true|false",
              .commands = "run", .apply = ACT { s.options.random_interleaving = truth(spec, v); },
              .help = "Google Benchmark's: run each repetition as a pass of its own over the cases, in a random order "
                      "(true: as --rounds equal to the repetitions; false: one round); plain BENCHMARK()s get it as "
                      "Google Benchmark's own flag, interleaved among themselves"},
  option_spec{.name = "--benchmark_min_time", .kind = arity::benchmark, .placeholder = "SECONDSs", .commands = "run",
              .apply = ACT { s.options.min_time_s = seconds(spec, v); },
              .help = "Google Benchmark's: least measured time per repetition, in seconds (0.5s or 0.5); a plain "
                      "BENCHMARK() gets it as Google Benchmark's own flag (its iterations grow with it, its own MinTime() "
                      "wins); a count of iterations, Nx, is refused: cudabench samples until the noise is low"},
  option_spec{.name = "--benchmark_min_warmup_time", .kind = arity::benchmark, .placeholder = "SECONDS", .commands = "run",
              .apply = ACT { s.options.warmup_s = seconds(spec, v); },
              .help = "Google Benchmark's: warm-up time per case, in seconds (a plain BENCHMARK() gets it as Google "
                      "Benchmark's own flag)"},
  option_spec{.name = "--benchmark_out", .kind = arity::benchmark, .placeholder = "FILE", .commands = "run",
              .apply = ACT {
                if (v.empty() || v == "true") throw usage_error("--benchmark_out needs a file name");
                s.benchmark_out = v;
              },
              .child = in_child::replace, .whole_run = true,
              .help = "Google Benchmark's: the results file, as --json (or Google Benchmark's CSV with "
                      "--benchmark_out_format=csv); beside --json FILE2 or --benchmark_format=json both get the JSON, "
                      "written together (all or none); not beside --benchmark_format=csv (one place)"},
  option_spec{.name = "--benchmark_out_format", .kind = arity::benchmark, .placeholder = "json|console|csv", .commands = "run",
              .apply = ACT { s.benchmark_out_format = one_of(v, name_of(spec), {"json", "console", "csv"}); },
              .child = in_child::replace, .whole_run = true,
              .help = fmt::format("Google Benchmark's: the format of --benchmark_out (default {}); console is the table as the "
                      "terminal shows it, without colour; csv is Google Benchmark's CSV "
                      "(name, iterations, real_time, cpu_time, time_unit, bytes_per_second, items_per_second, label, "
                      "error_occurred, error_message, then the counters; a row per repetition and aggregate), not --csv's",
                                  default_benchmark_out_format)},
  option_spec{.name = "--benchmark_format", .kind = arity::benchmark, .placeholder = "console|json|csv", .commands = "run",
              .apply = benchmark_format, .whole_run = true,
              .help = "Google Benchmark's: json / csv put the results on standard output (as --json - / "
                      "--benchmark_out=- --benchmark_out_format=csv; the table goes to standard error); json with a JSON "
                      "--benchmark_out=FILE writes both, as Google Benchmark does"},
  option_spec{.name = "--benchmark_color", .kind = arity::benchmark, .placeholder = "auto|true|false", .commands = "run",
              .apply = ACT {
                const std::string& color = one_of(v, name_of(spec), {"auto", "true", "false"});
                s.options.color = color == "auto" ? std::nullopt : std::optional<bool>(color == "true");
              },
              .help = "Google Benchmark's: colour in the table (auto, the default: where standard output is a terminal)"},
  option_spec{.name = "--benchmark_context", .kind = arity::benchmark, .placeholder = "KEY=VALUE", .commands = "run",
              .apply = store_context,
              .help = "Google Benchmark's: adds KEY: VALUE to the results' context (repeatable; e.g. a CI run id, the "
                      "runner, the clocks); kept when the results are read back, and shown in the table's header and in "
                      "reports and comparisons of the run"},
  option_spec{.name = "--benchmark_time_unit", .kind = arity::benchmark, .placeholder = "ns|us|ms|s", .commands = "run",
              .apply = ACT { s.options.time_unit = one_of(v, name_of(spec), {"ns", "us", "ms", "s"}); },
              .help = "Google Benchmark's: the time unit of every row and of the table's median column (default: rows in "
                      "ns, the table in the unit that reads best)"},
  option_spec{.name = "--benchmark_report_aggregates_only", .kind = arity::benchmark, .placeholder = "true|false",
              .commands = "run", .apply = ACT { s.options.report_aggregates_only = truth(spec, v); },
              .child = in_child::replace,  // each device hands on every row; the merged file keeps the aggregates
              .help = "Google Benchmark's: a case with several repetitions gets only its mean, median, stddev and cv rows "
                      "in the results (JSON and CSV), not a row per repetition; compare then has only the medians, so "
                      "no rank test"},
  option_spec{.name = "--benchmark_display_aggregates_only", .kind = arity::benchmark, .placeholder = "true|false",
              .commands = "run", .apply = ACT { s.options.display_aggregates_only = truth(spec, v); },
              .help = "Google Benchmark's: only aggregates on the console: the table shows one line per case, the "
                      "median of its repetitions, with or without it; the results keep every row"},
  option_spec{.name = "--benchmark_counters_tabular", .kind = arity::benchmark, .placeholder = "true|false",
              .commands = "run", .apply = ACT { s.options.counters_tabular = truth(spec, v); },
              .help = "Google Benchmark's: the table shows each case's other counters (cv_pct, batch, a fixture's own, "
                      "...) as columns, with a header wherever the set of counters changes"},
  option_spec{.name = "--help", .alias = "-h", .kind = arity::flag, .commands = "*", .apply = set_flag_noop,
              .help = "the options of the command, then exit"},
};
// clang-format on
#undef ACT

/// The option that names a live output's file: the run's, each device's own under --devices.
option_spec live_output_row(const reports::live_format& f) {
  return {.name = f.option,
          .placeholder = "FILE",
          .commands = "run",
          .apply = store_output,
          .live = true,
          .child = in_child::suffix,
          .whole_run = true,
          .help = std::string(f.help)};
}

/// Every option, in the order --help lists them.
std::vector<option_spec> all_rows() {
  std::vector<option_spec> rows(before_live.begin(), before_live.end());
  for (const reports::live_format& f : reports::live_formats()) rows.push_back(live_output_row(f));
  rows.insert(rows.end(), after_live.begin(), after_live.end());
  return rows;
}

}  // namespace

std::span<const option_spec> option_table() {
  static const std::vector<option_spec> table = all_rows();
  return table;
}

const option_spec* find_option(std::string_view name) {
  for (const option_spec& o : option_table())
    if (o.name == name || (!o.alias.empty() && o.alias == name)) return &o;
  return nullptr;
}

const std::string* output_path(const command_options& o, const option_spec& spec) {
  if (spec.live) {
    const auto path = o.live_paths.find(spec.name);
    return path == o.live_paths.end() ? nullptr : &path->second;
  }
  return spec.output && o.*spec.output ? &*(o.*spec.output) : nullptr;
}

bool takes(const option_spec& o, std::string_view command_name) {
  if (o.commands == "*") return true;  // --help: every command, a new one included
  for (std::string_view list = o.commands; !list.empty();) {
    const std::size_t space = list.find(' ');
    if (list.substr(0, space) == command_name) return true;
    list = space == std::string_view::npos ? std::string_view() : list.substr(space + 1);
  }
  return false;
}

std::string command_names(command_list all, std::string_view last) {
  std::vector<std::string_view> names;
  for (const command_spec* s : all)
    if (s->named) names.push_back(s->name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == names.size() ? fmt::format(" {} ", last) : ", ", names[i]);
  return out;
}

std::string command_title(const command_spec& c) {
  return c.named ? fmt::format("{} {}", program_title(), c.name) : program_title();
}

}  // namespace cudabench::cli

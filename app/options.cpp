// Runner option parsing.
#include "app/options.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <regex>

#include "cudabench/presets.hpp"
#include "harness/format.hpp"

namespace cudabench::app {

std::string run_usage() {
  return R"(usage: ./run_bench [options]
       ./run_bench compare BASELINE.json CURRENT.json [--md F] [--html F] [--json F] [--threshold PCT] [--alpha P] [--allow-device-mismatch]
       ./run_bench report RESULT.json [--md F] [--html F]
       ./run_bench trend RESULT_DIR [--html F]

Runs the CUDA benchmark suite (Google Benchmark cases named family/variant/parameters).

options:
  --filter=REGEX          run the cases whose name matches (e.g. conv2d, image/pinned)
  --json=FILE             write results as Google Benchmark JSON, with the device description (- : standard
                          output, which then carries nothing else)
  --trace=FILE            after each case's timed repetitions, run one more sample traced with CUPTI (kernels,
                          copies, memsets per stream) and write the run's timeline to FILE as Chrome trace JSON
                          (Perfetto, chrome://tracing); timeline metrics and the sample go into --json
  --list                  list the cases the filter selects (gpu or cpu, cold-L2, host-bound, not-gated), then exit
  --quiet                 no progress line on standard error before each case ("[i/N] case, about T left")
  --preset=NAME           quick (default, <= 60 s on a GPU), nightly or full
  --repetitions=N         repetitions per case (default: the preset's)
  --device=N              CUDA device ordinal (default 0)
  --devices=all|0,2       one process per device, in parallel; results merged into --json, names dev<N>/...
  --sizes=FAMILY=N,N,...  run these problem sizes of FAMILY instead of the preset's (repeat for more families;
                          families that take sizes: see docs/extending.md)
  --axis=FAMILY.AXIS=V,V,...
                          run these values of one of FAMILY's axes instead of the preset's (e.g. dot.streams=2,4;
                          repeat for more axes; the axes of each family: docs/extending.md)
  --compare-to=FILE|auto  after the run, compare against a baseline (auto: the stored one for this GPU and preset)
  --save-baseline         store the run as <baseline-dir>/<gpu-model>/<preset>.json
  --baseline-dir=DIR      where stored baselines live (default reports/baselines, under the current directory)
  --threshold=PCT, --host-threshold=PCT, --noise-floor=K, --alpha=P, --allow-device-mismatch,
  --md=FILE, --html=FILE, --verdict=FILE
                          passed to the comparison (see `./run_bench compare --help`); without --compare-to,
                          --md and --html write the run's own report (as `./run_bench report`)
  --csv=FILE              (- : standard output) one row per case: median, noise, throughput, % of peak, samples (and the
                          baseline, change and verdict with --compare-to)
  --cache=declared|hot|cold  L2 state of GPU cases: as each case declares (default), or all hot / all cold
  --inject-slowdown=CASE_REGEX:PCT
                          validation only: adds PCT% of a case's warm-up median as real GPU work (a calibrated
                          spin) inside the timed region of matching cases; recorded in the JSON
  --no-blocking-kernel    do not hold the stream with a spinning kernel while a GPU sample's work is queued
                          (held by default, so launch latency stays out of the timed region)
  --nsys, --ncu           run under Nsight Systems / Nsight Compute (through the cudabench-run wrapper, as
                          ./run_bench does; see docs/profiling.md); NSYS=/path and NCU=/path name the
                          profilers where they are not on PATH
  --profile               a few clean samples per case (what --nsys/--ncu use); implies --watchdog=off
  --watchdog=SECONDS|off  the cases run in a worker process (default 300): a case that makes no progress for
                          SECONDS is killed and failed as hung, one whose kernel faults (a lost CUDA context)
                          or whose process dies is failed with its error, and the remaining cases go on in a
                          fresh process; off: everything runs in this process, unprotected
  --benchmark_filter, _list_tests, _repetitions, _min_time=SECONDSs, _min_warmup_time, _out, _out_format=json|csv,
  _format=console|json|csv, _time_unit=ns|us|ms|s
                          Google Benchmark's flags, with its meaning (_format=json: the results on standard
                          output); any other --benchmark_* flag is refused
  -h, --help              this text
exit status: 0 all cases ran or were skipped; 1 a case failed its check, or --compare-to found a regression;
             2 usage or input error
)";
}

namespace {
/// The items of a comma-separated list ("" items included, so "1,,2" is refused by whoever reads them).
std::vector<std::string> split_commas(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = list.find(',', start);
    out.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}
}  // namespace

int parse_int(const std::string& text, const std::string& what, int lo, int hi) {
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < lo || v > hi)
    throw usage_error(fmt::format("{} expects a whole number from {} to {}, got '{}'", what, lo, hi, printable(text)));
  return int(v);
}

double parse_double(const std::string& text, const std::string& what, double lo, double hi) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v) || v < lo || v > hi)
    throw usage_error(fmt::format("{} expects a number from {:g} to {:g}, got '{}'", what, lo, hi, printable(text)));
  return v;
}

bool take_value(const std::vector<std::string>& args, std::size_t& i, const std::string& name, std::string& value) {
  const std::string& a = args[i];
  if (a == name) {
    if (i + 1 >= args.size()) throw usage_error(name + " needs a value");
    value = args[++i];
    return true;
  }
  if (a.size() > name.size() && a.compare(0, name.size(), name) == 0 && a[name.size()] == '=') {
    value = a.substr(name.size() + 1);
    return true;
  }
  return false;
}

std::vector<int> parse_device_list(const std::string& spec, int count) {
  std::vector<int> out;
  if (spec == "all") {
    for (int d = 0; d < count; ++d) out.push_back(d);
  } else {
    for (const std::string& item : split_commas(spec)) {
      const bool digits = !item.empty() && item.size() < 8 && item.find_first_not_of("0123456789") == std::string::npos;
      if (!digits)
        throw usage_error(fmt::format("--devices expects 'all' or a comma-separated list of device ordinals such as 0,2; got '{}'", printable(spec)));
      const int d = std::stoi(item);
      if (d >= count) throw usage_error("--devices: device " + std::to_string(d) + " does not exist (" + std::to_string(count) + " visible)");
      if (std::find(out.begin(), out.end(), d) != out.end()) throw usage_error("--devices: device " + std::to_string(d) + " is listed twice");
      out.push_back(d);
    }
  }
  if (out.empty()) throw usage_error("--devices: no CUDA device to run on");
  return out;
}

std::vector<std::string> child_arguments(const std::vector<std::string>& args, int device, const std::string& json) {
  std::vector<std::string> out;
  const std::string suffix = ".dev" + std::to_string(device);
  auto with_suffix = [&](const std::string& path) {
    const auto slash = path.rfind('/'), dot = path.rfind('.');
    return dot == std::string::npos || (slash != std::string::npos && dot < slash) ? path + suffix
                                                                                   : path.substr(0, dot) + suffix + path.substr(dot);
  };
  std::string v;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (take_value(args, i, "--devices", v) || take_value(args, i, "--device", v) || take_value(args, i, "--json", v)) continue;
    bool renamed = false;
    for (const char* name : {"--md", "--html", "--verdict", "--trace", "--csv"})
      if (!renamed && take_value(args, i, name, v)) { out.push_back(std::string(name) + "=" + with_suffix(v)); renamed = true; }
    if (!renamed) out.push_back(args[i]);
  }
  out.push_back("--device=" + std::to_string(device));
  out.push_back("--json=" + json);
  return out;
}

namespace {
/// "N,N,..." as positive whole numbers; `option` and `spec` name the value in the message.
std::vector<std::int64_t> positive_list(const std::string& text, const std::string& option, const std::string& spec) {
  std::vector<std::int64_t> list;
  for (const std::string& item : split_commas(text)) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || errno != 0 || v <= 0)
      throw usage_error(option + ": '" + item + "' in '" + spec + "' is not a positive whole number");
    list.push_back(v);
  }
  return list;
}
}  // namespace

void parse_sizes(const std::string& spec, std::map<std::string, std::vector<std::int64_t>>& into) {
  const auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw usage_error("--sizes expects FAMILY=N,N,... (for example conv2d=1024,4096), got '" + spec + "'");
  const std::string family = spec.substr(0, eq);
  if (into.count(family)) throw usage_error("--sizes: family '" + family + "' is given twice");
  into[family] = positive_list(spec.substr(eq + 1), "--sizes", spec);
}

void parse_axis(const std::string& spec, std::map<std::string, std::vector<std::int64_t>>& into) {
  const auto eq = spec.find('='), dot = spec.find('.');
  if (eq == std::string::npos || dot == 0 || dot == std::string::npos || dot + 1 >= eq || eq + 1 == spec.size())
    throw usage_error("--axis expects FAMILY.AXIS=V,V,... (for example dot.streams=2,4), got '" + spec + "'");
  const std::string key = spec.substr(0, eq);
  if (into.count(key)) throw usage_error("--axis: '" + key + "' is given twice");
  into[key] = positive_list(spec.substr(eq + 1), "--axis", spec);
}

bool parse_benchmark_flag(const std::vector<std::string>& args, std::size_t i, run_options& o,
                          std::optional<std::string>& out, std::optional<std::string>& out_format) {
  const std::string& a = args[i];
  if (a.rfind("--benchmark_", 0) != 0) return false;
  const auto eq = a.find('=');
  const std::string flag = a.substr(0, eq), value = eq == std::string::npos ? "true" : a.substr(eq + 1);
  auto truth = [&] {
    if (value == "true" || value == "1" || value == "yes") return true;
    if (value == "false" || value == "0" || value == "no") return false;
    throw usage_error(flag + " expects true or false, got '" + value + "'");
  };
  auto seconds = [&](double lo) {
    std::string t = value;
    if (!t.empty() && t.back() == 'x')
      throw usage_error(flag + "=" + value + ": cudabench samples until the noise is low, not for a number of iterations; give seconds (e.g. " + flag + "=0.5s)");
    if (!t.empty() && t.back() == 's') t.pop_back();
    return parse_double(t, flag, lo, 3600);
  };
  if (flag == "--benchmark_filter") {
    if (value.empty()) throw usage_error("--benchmark_filter needs a regular expression");
    user_regex(value[0] == '-' ? value.substr(1) : value, "--benchmark_filter");
    o.filter = value;
  } else if (flag == "--benchmark_list_tests") {
    o.list = o.list_names_only = truth();
  } else if (flag == "--benchmark_repetitions") {
    o.repetitions = parse_int(value, flag, 1, 1000);
  } else if (flag == "--benchmark_min_time") {
    o.min_time_s = seconds(0);
  } else if (flag == "--benchmark_min_warmup_time") {
    o.warmup_s = seconds(0);
  } else if (flag == "--benchmark_out") {
    if (value.empty() || value == "true") throw usage_error("--benchmark_out needs a file name");
    out = value;
  } else if (flag == "--benchmark_out_format") {
    if (value != "json" && value != "csv")
      throw usage_error("--benchmark_out_format=" + value + " is not supported: cudabench writes json or csv files");
    out_format = value;
  } else if (flag == "--benchmark_format") {
    if (value == "json") o.json_path = "-";
    else if (value == "csv") o.csv_path = "-";
    else if (value != "console") throw usage_error("--benchmark_format expects console, json or csv, got '" + value + "'");
  } else if (flag == "--benchmark_time_unit") {
    if (value != "ns" && value != "us" && value != "ms" && value != "s")
      throw usage_error("--benchmark_time_unit expects ns, us, ms or s, got '" + value + "'");
    o.time_unit = value;
  } else {
    throw usage_error(flag + " is not supported by cudabench (supported: --benchmark_filter, _list_tests, _repetitions, "
                      "_min_time, _min_warmup_time, _out, _out_format, _format, _time_unit)");
  }
  return true;
}

std::regex user_regex(const std::string& pattern, const std::string& option) {
  if (pattern.size() > 1000) throw usage_error(option + ": a regular expression of over 1,000 characters is refused");
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {  // an escape; digits after it are a back-reference number
      std::size_t j = i + 1;
      while (j < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[j]))) ++j;
      if (j - i - 1 > 3) throw usage_error(fmt::format("{}: a back-reference number of 1,000 or more in '{}' is refused", option, printable(pattern)));
      i = std::max(i + 1, j - 1);
      continue;
    }
    if (pattern[i] != '{') continue;
    std::size_t digits = 0;
    for (std::size_t j = i + 1; j < pattern.size() && (std::isdigit(static_cast<unsigned char>(pattern[j])) || pattern[j] == ','); ++j) {
      digits = pattern[j] == ',' ? 0 : digits + 1;
      if (digits > 3) throw usage_error(fmt::format("{}: a repetition count of 1,000 or more in '{}' is refused", option, printable(pattern)));
    }
  }
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw usage_error(fmt::format("{}: invalid regular expression '{}': {}", option, printable(pattern), e.what()));
  }
}

run_options parse_run_options(const std::vector<std::string>& args) {
  run_options o;
  std::optional<std::string> bench_out, bench_out_format;
  std::string v;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") o.help = true;
    else if (a == "--list") o.list = true;
    else if (a == "--save-baseline") o.save_baseline = true;
    else if (a == "--allow-device-mismatch") o.allow_device_mismatch = true;
    else if (a == "--profile") o.profile = true;
    else if (a == "--quiet") o.quiet = true;
    else if (a == "--no-blocking-kernel") o.no_blocking_kernel = true;
    else if (take_value(args, i, "--filter", v)) {
      if (v.empty()) throw usage_error("--filter needs a regular expression");
      user_regex(v[0] == '-' ? v.substr(1) : v, "--filter");
      o.filter = v;
    }
    else if (take_value(args, i, "--json", v)) { if (v.empty()) throw usage_error("--json needs a file name"); o.json_path = v; }
    else if (take_value(args, i, "--trace", v)) { if (v.empty()) throw usage_error("--trace needs a file name"); o.trace_path = v; }
    else if (take_value(args, i, "--preset", v)) { preset_by_name(v); o.preset = v; }
    else if (take_value(args, i, "--repetitions", v)) o.repetitions = parse_int(v, "--repetitions", 1, 1000);
    else if (take_value(args, i, "--device", v)) o.device = parse_int(v, "--device", 0, 1023);
    else if (take_value(args, i, "--compare-to", v)) { if (v.empty()) throw usage_error("--compare-to needs a file or 'auto'"); o.compare_to = v; }
    else if (take_value(args, i, "--threshold", v)) o.threshold_pct = parse_double(v, "--threshold", 0, 1000);
    else if (take_value(args, i, "--alpha", v)) o.alpha = parse_double(v, "--alpha", 1e-9, 0.5);
    else if (take_value(args, i, "--host-threshold", v)) o.host_threshold_pct = parse_double(v, "--host-threshold", 0, 1000);
    else if (take_value(args, i, "--noise-floor", v)) o.noise_floor = parse_double(v, "--noise-floor", 0, 100);
    else if (take_value(args, i, "--md", v)) o.md_path = v;
    else if (take_value(args, i, "--html", v)) o.html_path = v;
    else if (take_value(args, i, "--csv", v)) { if (v.empty()) throw usage_error("--csv needs a file name"); o.csv_path = v; }
    else if (take_value(args, i, "--verdict", v)) o.verdict_path = v;
    else if (take_value(args, i, "--inject-slowdown", v)) {
      const auto colon = v.rfind(':');
      if (colon == std::string::npos || colon == 0) throw usage_error("--inject-slowdown expects CASE_REGEX:PCT, got '" + v + "'");
      o.inject_regex = v.substr(0, colon);
      user_regex(*o.inject_regex, "--inject-slowdown");
      o.inject_pct = parse_double(v.substr(colon + 1), "--inject-slowdown percentage", 0, 1000);
    }
    else if (take_value(args, i, "--cache", v)) {
      if (v != "declared" && v != "hot" && v != "cold") throw usage_error("--cache expects declared, hot or cold, got '" + v + "'");
      o.cache = v;
    }
    else if (take_value(args, i, "--sizes", v)) parse_sizes(v, o.sizes);
    else if (take_value(args, i, "--axis", v)) parse_axis(v, o.axes);
    else if (take_value(args, i, "--watchdog", v)) o.watchdog_s = v == "off" ? 0 : parse_double(v, "--watchdog (seconds, or off)", 1, 86400);
    else if (take_value(args, i, "--baseline-dir", v)) { if (v.empty()) throw usage_error("--baseline-dir needs a directory"); o.baseline_dir = v; }
    else if (take_value(args, i, "--devices", v)) {
      if (v.empty()) throw usage_error("--devices expects 'all' or a list of ordinals such as 0,2");
      parse_device_list(v, 1 << 20);  // the form now; the ordinals once the device count is known
      o.devices = v;
    }
    else if (parse_benchmark_flag(args, i, o, bench_out, bench_out_format)) {}
    else if (!a.empty() && a[0] != '-')
      throw usage_error(fmt::format("unknown command '{}' (the commands are compare, report and trend; options start with --)", printable(a)));
    else throw usage_error(fmt::format("unknown option '{}'", printable(a)));
  }
  if (bench_out_format && !bench_out) throw usage_error("--benchmark_out_format needs --benchmark_out=FILE");
  if (bench_out) {
    if (bench_out_format.value_or("json") == "csv") o.csv_path = bench_out;
    else o.json_path = bench_out;
  }
  if (o.profile) o.watchdog_s = 0;  // a profiler sees the cases in the process it started
  if (o.json_path && o.csv_path && *o.json_path == "-" && *o.csv_path == "-")
    throw usage_error("--json - and --csv - cannot both use standard output");
  return o;
}

}  // namespace cudabench::app

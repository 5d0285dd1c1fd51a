// The runner: parse, select cases, register them with Google Benchmark, run, write JSON, compare.
#include "harness/runner.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <regex>

#include "harness/atomic_file.hpp"
#include "harness/device_query.hpp"
#include "harness/fanout.hpp"
#include "harness/measure.hpp"
#include "harness/options.hpp"
#include "harness/registry.hpp"
#include "harness/reporter.hpp"
#include "harness/results.hpp"
#include "harness/run_info.hpp"
#include "reports/compare_command.hpp"

namespace harness {
namespace {

std::vector<const case_def*> select_cases(const suite& s, const std::string& filter) {
  // Google Benchmark's convention: a leading '-' negates the filter.
  const bool negate = !filter.empty() && filter[0] == '-';
  std::regex re;
  try {
    re = std::regex(negate ? filter.substr(1) : filter, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw usage_error(fmt::format("--filter: invalid regular expression '{}': {}", filter, e.what()));
  }
  std::vector<const case_def*> out;
  for (const auto& c : s.cases)
    if (std::regex_search(c.name(), re) != negate) out.push_back(&c);
  return out;
}

nlohmann::ordered_json context_json(const run_info& info, const run_options& opt, const suite& s,
                                    const std::vector<const case_def*>& selected) {
  nlohmann::ordered_json meta;
  meta["schema_version"] = 1;
  meta["preset"] = info.preset;
  meta["repetitions"] = info.repetitions;
  meta["git_revision"] = info.git_revision;
  meta["git_dirty"] = info.git_dirty;
  meta["host_name"] = info.host_name;
  meta["started_utc"] = info.started_utc;
  meta["cache"] = opt.cache;
  if (opt.inject_regex) meta["inject_slowdown"] = fmt::format("{}:{:g}", *opt.inject_regex, opt.inject_pct);
  nlohmann::ordered_json families = nlohmann::ordered_json::object();
  for (const auto& f : s.families) {
    families[f.name] = {{"description", f.description}, {"tolerance", f.tolerance}, {"references", f.references}};
  }
  meta["families"] = families;
  nlohmann::ordered_json cases = nlohmann::ordered_json::object();
  for (const case_def* c : selected) {
    cases[c->name()] = {{"family", c->family}, {"variant", c->variant}, {"params", c->params},
                        {"on", c->on == where::gpu ? "gpu" : "cpu"},
                        {"cache", c->cache == cache_state::cold ? "cold" : "hot"},
                        {"bound", c->on == where::cpu || c->host_bound ? "host" : "device"},
                        {"size", c->size}, {"bytes", c->work.bytes()}, {"items", c->work.items}, {"flops", c->work.flops}};
  }
  meta["cases"] = cases;
  return meta;
}

/// Turns Google Benchmark's raw JSON into ours: clean names, the device and run description in the
/// context, 1.8-style skip fields on 1.7, and what each repetition recorded.
nlohmann::ordered_json finish_json(const std::string& raw_path, const device_info& dev, nlohmann::ordered_json meta,
                                   const case_driver& driver) {
  nlohmann::ordered_json j;
  try {
    j = nlohmann::ordered_json::parse(sanitize_gbench_json(read_file(raw_path)));
  } catch (const nlohmann::json::parse_error& e) {
    throw input_error(raw_path + ": Google Benchmark wrote invalid JSON: " + e.what());
  }
  j["context"]["device"] = to_json(dev);
  j["context"]["cudabench"] = std::move(meta);
  std::map<std::string, std::size_t> seen;
  for (auto& row : j["benchmarks"]) {
    const std::string name = canonical_case_name(row.value("run_name", row.value("name", "")));
    row["name"] = canonical_case_name(row.value("name", ""));
    row["run_name"] = name;
    if (row.value("error_occurred", false)) {
      std::string msg = row.value("error_message", "");
      if (msg.rfind(skip_prefix, 0) == 0) {
        row.erase("error_occurred");
        row.erase("error_message");
        row["skipped"] = true;
        row["skip_message"] = msg.substr(std::string(skip_prefix).size());
      }
    }
    if (row.value("run_type", "") != "iteration" || row.contains("error_occurred") || row.contains("skipped")) continue;
    auto it = driver.records().find(name);
    std::size_t k = seen[name]++;
    if (it == driver.records().end() || k >= it->second.size()) continue;
    const run_record& r = it->second[k];
    row["cudabench"] = {{"cache", r.cache}, {"stop", r.stop}, {"samples", r.samples}, {"noise", r.noise},
                        {"batch", r.batch}, {"sm_clock_mhz", r.sm_clock_mhz}, {"clock_discards", r.clock_discards},
                        {"injected", r.injected}, {"held", r.held}, {"correct", r.correct}, {"note", r.note}};
  }
  return j;
}

}  // namespace

int run_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  run_options opt;
  try {
    opt = parse_run_options(args);
  } catch (const usage_error& e) {
    fmt::print(stderr, "run_bench: {}\n\n{}", e.what(), run_usage());
    return 2;
  }
  if (opt.help) {
    fmt::print("{}", run_usage());
    return 0;
  }
  try {
    if (opt.devices && !opt.list) return run_on_devices(opt, args);
    preset p = preset_by_name(opt.preset);
    if (opt.repetitions) p.repetitions = *opt.repetitions;
    if (opt.profile) {  // a profile wants a few clean runs, not thousands
      p.repetitions = 1;
      p.sampling = {.min_samples = 3, .min_time_s = 0, .max_time_s = 2.0, .target_noise = 1, .warmup_s = 0};
    }
    const suite s = build_suite(p);
    const std::vector<const case_def*> selected = select_cases(s, opt.filter);
    if (selected.empty()) {
      fmt::print(stderr, "run_bench: no case matches --filter={} (see --list)\n", opt.filter);
      return 2;
    }
    if (opt.list) {
      for (const case_def* c : selected)
        fmt::print("{:<44} {}{}{}\n", c->name(), c->on == where::gpu ? "gpu" : "cpu",
                   c->on == where::gpu && c->cache == cache_state::cold ? " cold-L2" : "",
                   c->on == where::cpu || c->host_bound ? " host-bound" : "");
      return 0;
    }
    const device_info dev = query_device(opt.device);
    const run_info info = collect_run_info(p.name, p.repetitions);

    // Everything that can be refused is refused before the first case runs.
    std::optional<std::string> json_path = opt.json_path;
    const std::optional<std::string> baseline_path = opt.save_baseline ? std::optional(baseline_file_for(dev, p.name)) : std::nullopt;
    if (json_path) check_writable(*json_path);
    std::optional<std::string> compare_path;
    if (opt.compare_to) compare_path = resolve_baseline(*opt.compare_to, dev, p.name);
    compare_settings cmp = compare_settings_from(opt);
    if (compare_path) { load_run(*compare_path); check_report_outputs(cmp); }
    if (baseline_path) {
      std::filesystem::create_directories(std::filesystem::path(*baseline_path).parent_path());
      check_writable(*baseline_path);
    }
    const std::string raw_path = (json_path ? *json_path : std::string("cudabench-run")) + ".gbench." + std::to_string(::getpid());
    const bool need_json = json_path || compare_path || baseline_path;

    measure_settings ms;
    if (opt.cache != "declared") ms.cache_override = opt.cache == "hot" ? cache_state::hot : cache_state::cold;
    ms.inject_regex = opt.inject_regex;
    ms.inject_pct = opt.inject_pct;
    ms.hold_stream = !opt.profile && !opt.no_blocking_kernel;
    case_driver driver(dev, p, ms);
    for (const case_def* c : selected) {
      auto* b = benchmark::RegisterBenchmark(c->name().c_str(), [&driver, c](benchmark::State& st) { driver.run(st, *c); });
      b->Iterations(1)->Repetitions(p.repetitions)->UseManualTime()->Unit(benchmark::kMicrosecond);
    }
    std::vector<std::string> gb_args{argv[0]};
    if (need_json) {
      gb_args.push_back("--benchmark_out=" + raw_path);
      gb_args.push_back("--benchmark_out_format=json");
    }
    for (const auto& f : opt.benchmark_flags) gb_args.push_back(f);
    std::vector<char*> gb_argv;
    for (auto& a : gb_args) gb_argv.push_back(a.data());
    int gb_argc = int(gb_argv.size());
    benchmark::Initialize(&gb_argc, gb_argv.data());
    if (benchmark::ReportUnrecognizedArguments(gb_argc, gb_argv.data())) return 2;
    benchmark::AddCustomContext("cudabench_preset", p.name);
    benchmark::AddCustomContext("cudabench_device", dev.available ? dev.name : "none");

    table_reporter display(dev, info, selected.size());
    benchmark::RunSpecifiedBenchmarks(&display);
    benchmark::Shutdown();

    int failed = 0, skipped = 0, passed = 0;
    for (auto& [name, o] : driver.outcomes()) (o == case_outcome::failed ? failed : o == case_outcome::skipped ? skipped : passed)++;
    fmt::print("\n{} case(s): {} measured, {} skipped, {} failed\n", selected.size(), passed, skipped, failed);

    int status = failed ? 1 : 0;
    if (need_json) {
      nlohmann::ordered_json j = finish_json(raw_path, dev, context_json(info, opt, s, selected), driver);
      std::remove(raw_path.c_str());
      const std::string text = j.dump(2) + "\n";
      if (json_path) { write_file_atomically(*json_path, text); fmt::print("results: {}\n", *json_path); }
      if (baseline_path) { write_file_atomically(*baseline_path, text); fmt::print("baseline saved: {}\n", *baseline_path); }
      if (compare_path) {
        run_result current = parse_run(nlohmann::json::parse(text), json_path ? *json_path : "this run");
        int verdict = compare_and_report(load_run(*compare_path), current, cmp);
        if (verdict == 2) return 2;
        status = std::max(status, verdict);
      }
    }
    return status;
  } catch (const usage_error& e) {
    fmt::print(stderr, "run_bench: {}\n", e.what());
    return 2;
  } catch (const input_error& e) {
    fmt::print(stderr, "run_bench: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "run_bench: {}\n", e.what());
    return 1;
  }
}

}  // namespace harness

// The runner: parse, select cases, run them (here or in supervised workers), write the results, compare.
#include "cudabench/main.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_set>

#include "analysis/run_store.hpp"
#include "app/case_execution.hpp"
#include "app/commands.hpp"
#include "app/comparison.hpp"
#include "app/declared_cases.hpp"
#include "app/fanout.hpp"
#include "app/foreign_benchmarks.hpp"
#include "app/outputs.hpp"
#include "app/results_output.hpp"
#include "app/rounds.hpp"
#include "app/run_plan.hpp"
#include "app/supervisor.hpp"
#include "app/table_reporter.hpp"
#include "cli/option_table.hpp"
#include "cli/options.hpp"
#include "cli/program_name.hpp"
#include "cudabench/limit_names.hpp"
#include "cudabench/registry.hpp"
#include "io/atomic_file.hpp"
#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "io/output_sink.hpp"
#include "measure/device_query.hpp"
#include "measure/measure.hpp"
#include "measure/startup_times.hpp"
#include "measure/trace_recorder.hpp"
#include "reports/csv.hpp"
#include "results/build_info.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"
#include "results/run_settings.hpp"

namespace cudabench::app {

using namespace cudabench::cli;  // the command line (cli/) is the commands' own
namespace {

/// The cases a run selects: those the filter matches; of the limits family, every case with --limits, else those
/// the filter matches where limits run by default (the nightly and full presets, every preset in a binary that
/// declares CB_LIMITS_IN_EVERY_PRESET).
std::vector<const case_def*> select_cases(const suite& s, const case_choice& choice, const preset& p) {
  const bool limits_by_default = p.level >= 1 || limits_in_every_preset_declared();
  std::vector<const case_def*> out;
  for (const auto& c : s.cases) {
    const bool limit = c.family == limits_family;
    if (limit && choice.limits)
      out.push_back(&c);
    else if ((!limit || limits_by_default) && choice.filter.selects(c.name()))
      out.push_back(&c);
  }
  return out;
}

/// The limits the run's cases are shown against ("% of limit"): those the run measured itself, else those of
/// the stored baseline of this GPU model (this preset's, else nightly's, else quick's), said either way. A
/// stored baseline the run compares against (`compared`) is not read again.
void attach_limits(run_result& run, const device_info& dev, const std::string& preset_name, const std::string& dir,
                   const std::optional<run_result>& compared) {
  std::map<std::string, limit_rate> limits = measured_limits(run);
  std::string source = "this run";
  if (limits.empty() && dev.available) {
    for (const std::string& p : {preset_name, std::string("nightly"), std::string("quick")}) {
      const std::string path = run_store::baseline_file(dir, dev, p);
      std::error_code ec;
      if (!std::filesystem::is_regular_file(path, ec)) continue;
      try {
        const auto stored = compared && compared->source == path ? compared->limits : load_run(path).limits;
        for (const auto& [name, l] : stored) limits[name] = {l.rate, l.unit, l.joules_per_unit};
      } catch (const input_error& e) {
        fmt::print(stderr, "{}: limits not taken from {}: {}\n", program_name(), path, printable(e.what()));
      }
      if (!limits.empty()) {
        source = path;
        break;
      }
    }
  }
  if (limits.empty()) {
    if (dev.available)
      fmt::print(
          "limits: none measured (no limits case ran; --limits runs them) and none stored for {}: no % of limit\n",
          dev.name);
    return;
  }
  apply_limits(run, limits, source);
  if (source != "this run")
    fmt::print("limits: this run measured none; % of limit uses those of the stored baseline {}\n", source);
}

/// How many cases a run holds as measured, skipped and failed.
struct outcome_counts {
  std::size_t measured = 0, skipped = 0, failed = 0;
  std::size_t total() const { return measured + skipped + failed; }
};
outcome_counts count_outcomes(const run_result& run) {
  outcome_counts n;
  for (const case_result& c : run.cases) {
    if (c.status == case_status::failed)
      ++n.failed;
    else if (c.status == case_status::skipped)
      ++n.skipped;
    else
      ++n.measured;
  }
  return n;
}

/// Refuses, before anything runs, a baseline (`base`, read from `compare_path`) of another GPU model than this
/// one, built otherwise than this binary's cases or of another preset than this run (unless the settings allow
/// a mismatch).
void check_baseline(const run_result& base, const std::string& compare_path, const device_info& dev,
                    const std::string& preset_name, const compare_settings& cmp) {
  const std::string here = dev.available ? dev.name : "no GPU";
  if (!cmp.allow_device_mismatch && !base.device)
    throw input_error(
        fmt::format("{}: has no device description (context.device), so its GPU cannot be checked against {}; "
                    "pass --allow-device-mismatch to compare anyway",
                    compare_path, here));
  const std::string there = base.device ? (base.device->available ? base.device->name : "no GPU") : "unknown";
  if (!cmp.allow_device_mismatch && there != here)
    throw input_error(
        fmt::format("{}: a baseline of {}, and this run is on {}: refused before running; "
                    "pass --allow-device-mismatch to compare anyway",
                    compare_path, there, here));
  run_result this_binary;
  this_binary.settings.build = registered_build();
  if (const std::string problem = build_mismatch(base, this_binary); !problem.empty() && !cmp.allow_build_mismatch)
    throw input_error(
        fmt::format("{}: the baseline and this binary are {}: refused before running; "
                    "pass --allow-build-mismatch to compare anyway",
                    compare_path, problem));
  if (!cmp.allow_preset_mismatch && !preset_mismatch(base.settings.preset, preset_name).empty())
    throw input_error(fmt::format(
        "{}: a baseline of preset '{}', and this run is of preset '{}' (their sizes and repetitions differ): "
        "refused before running; pass --allow-preset-mismatch to compare anyway",
        compare_path, base.settings.preset, preset_name));
}

/// What a run writes and what it compares against.
struct planned_outputs {
  output_list list;  ///< every output: the terminal, the report files, the run's documents, the trace, the table
  std::optional<std::string> json_path, baseline_path, compare_path;
  std::optional<run_result> base;  ///< the baseline read from compare_path, once
  compare_settings cmp;
  /// The texts the run makes itself, filled once its cases are done: --trace's, and the console table's
  /// (--benchmark_out_format=console).
  std::shared_ptr<nlohmann::ordered_json> trace = std::make_shared<nlohmann::ordered_json>();
  std::shared_ptr<std::string> console_table = std::make_shared<std::string>();
};

/// The run's outputs, each refused before the first case runs when it would overwrite an input or another
/// output or cannot be written; the baseline to compare against, read once here (of its cases, those `keep`
/// names only), refused when it cannot be read or is of another GPU model.
planned_outputs plan_outputs(const run_plan& plan, const device_info& dev, const case_filter& keep) {
  const cli::run_outputs& files = plan.files;
  const baseline_choice& baseline = plan.baseline;
  const std::string& preset_name = plan.p.name;
  planned_outputs out{output_list(), files.json_path, std::nullopt,
                      std::nullopt,  std::nullopt,    compare_settings_from(plan.comparison)};
  add_report_files(out.list, files);
  out.list.add("--verdict", files.verdict_path, reports::verdict_json_writer());
  // The terminal had the cases as they ran: it ends with the run's report beside report files, or the comparison.
  if (baseline.compare_to || out.list.has_report_files())
    out.list.add_terminal(reports::terminal_writer(::isatty(STDOUT_FILENO) != 0));
  if (baseline.save) out.baseline_path = run_store::baseline_file(baseline.dir, dev, preset_name);
  if (files.verdict_path && !baseline.compare_to)
    throw usage_error("--verdict is the verdict of a comparison: it needs --compare-to");
  if (baseline.compare_to)
    out.compare_path = run_store::resolve_baseline(*baseline.compare_to, dev, preset_name, baseline.dir);
  add_run_documents(out.list, files, out.baseline_path);
  add_run_texts(out.list, files, out.trace, out.console_table);
  out.list.check_distinct(out.compare_path ? files_read(plan.comparison, {*out.compare_path}, *out.compare_path)
                                           : files_read(plan.comparison, {}));
  if (out.compare_path) {
    out.base = load_run(*out.compare_path, keep);
    check_baseline(*out.base, *out.compare_path, dev, preset_name, out.cmp);
  }
  if (out.baseline_path) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(*out.baseline_path).parent_path(), ec);
    if (ec)
      throw input_error(fmt::format("{}: cannot create the baseline directory: {}", *out.baseline_path, ec.message()));
  }
  out.list.check_writable();
  return out;
}

/// The baseline's cases a run of `selected` and `google` can compare, and the limits (attach_limits takes
/// the baseline's where this run measured none): a baseline of a million rows is read for the few cases run.
case_filter cases_of_this_run(const std::vector<const case_def*>& selected, const std::vector<std::string>& google) {
  auto names = std::make_shared<std::unordered_set<std::string>>(google.begin(), google.end());
  for (const case_def* c : selected) names->insert(c->name());
  return [names, limits = std::string(limits_family) + "/"](const std::string& name) {
    return names->count(name) > 0 || name.starts_with(limits);
  };
}

/// Of the baseline, keeps the cases `current` selected or measured only: the others would be told "not selected".
void keep_cases_of(run_result& base, const run_result& current) {
  std::unordered_set<std::string> ours(current.selected.begin(), current.selected.end());
  for (const case_result& c : current.cases) ours.insert(c.name);
  const auto theirs = [&](const case_meta& c) { return ours.count(c.name) == 0; };
  std::erase_if(base.selection, theirs);
  std::erase_if(base.cases, theirs);
  base.index_cases();
}

/// Every output of the run: the trace, the console table, the run's documents (add_run_documents), each said;
/// then the comparison, or without one the run's own report, to the terminal and the report files. Returns
/// `status`, or 1 when the comparison found a regression.
int write_outputs(planned_outputs& out, run_result& current, int status) {
  if (out.json_path && !is_stdout(out.json_path)) current.source = *out.json_path;
  if (!out.compare_path) {
    out.list.end({.run = &current});
    return status;
  }
  keep_cases_of(*out.base, current);
  // A failed case (1) is not hidden by flags that only another machine's baseline raised (3).
  const int compared = compare_and_report(*out.base, current, out.cmp, out.list);
  return status == 1 || compared == 1 ? 1 : std::max(status, compared);
}

/// The cases the options select; in a worker, exactly those its supervisor listed.
std::vector<const case_def*> selection_for(const suite& s, const case_choice& choice, const preset& p,
                                           const std::optional<worker_link>& worker) {
  if (!worker) return select_cases(s, choice, p);
  std::map<std::string, const case_def*> by_name;
  for (const case_def& c : s.cases) by_name.emplace(c.name(), &c);
  std::vector<const case_def*> listed;  // in the order the supervisor gave (its round's shuffle)
  for (const std::string& name : worker->cases())
    if (auto it = by_name.find(name); it != by_name.end()) listed.push_back(it->second);
  return listed;
}

/// --list: names only (as Google Benchmark's --benchmark_list_tests), or each with where it runs and how; the
/// binary's Google Benchmark registrations after its families' cases.
int list_cases(const case_choice& choice, const std::vector<const case_def*>& selected,
               const std::vector<std::string>& google) {
  for (const case_def* c : selected) {
    if (choice.list_names_only)
      fmt::print("{}\n", c->name());
    else
      fmt::print("{:<44} {}{}{}{}\n", c->name(), c->on == where::gpu ? "gpu" : "cpu",
                 c->on == where::gpu && c->cache == cache_state::cold ? " cold-L2" : "",
                 c->on == where::cpu || c->host_bound ? " host-bound" : "", c->gated ? "" : " not-gated");
  }
  for (const std::string& name : google) {
    if (choice.list_names_only)
      fmt::print("{}\n", name);
    else
      fmt::print("{:<44} cpu host-bound google-benchmark\n", name);
  }
  return 0;
}

/// The binary's selected Google Benchmark registrations, run after its own cases (in this process: they are
/// host code, as in a Google Benchmark binary) and added to the run as host-bound cases.
/// The --benchmark_* flags that shape a run reach them as Google Benchmark applies them. Each is told to `on_case`
/// once they have all run.
void run_google_cases(run_result& current, const std::vector<std::string>& google, const run_plan& plan,
                      const device_info& dev, const run_settings& settings, std::size_t before,
                      const case_listener& on_case) {
  table_reporter display(dev, settings, before + google.size(), before, plan.p.rounds <= 1, plan.execution.table);
  google_benchmark_run ran = run_google_benchmarks(google, plan.google, display);
  if (current.host.empty() && ran.host) current.host = to_json(*ran.host);
  add_google_benchmark_cases(current, google, ran.results);
  for (const std::string& name : google)
    if (const case_result* c = current.find(name)) on_case(*c, 1, 0);
}

/// The --benchmark_context keys, added to the results' context as Google Benchmark adds them.
void add_user_context(run_result& run, const std::vector<std::pair<std::string, std::string>>& context) {
  if (!run.host.is_object()) run.host = nlohmann::ordered_json::object();
  for (const auto& [key, value] : context) run.host[key] = value;
}

/// The run's table and its skipped cases as the console shows them, without colour or progress.
std::string plain_table(const run_result& current, const device_info& dev, const run_settings& run, table_style style) {
  style.color = false;
  style.progress = false;
  return run_table_text(current, current.device.value_or(dev), run, current.host.value("num_cpus", 0), style) +
         skipped_text(current, style);
}

/// The device as this process describes it before the cases run. A supervisor's workers create the contexts and
/// describe the device: it asks CUDA and NVML itself only where the device is needed before they run (a baseline to
/// find or to check) or where there are no cases; otherwise nothing (the run takes its first worker's description).
std::optional<device_info> device_before_cases(const run_plan& plan, bool supervised, bool no_cases) {
  if (!supervised || no_cases || plan.baseline.compare_to || plan.baseline.save)
    return query_device(plan.execution.device, !supervised);
  return std::nullopt;
}

/// A run stopped by a signal: the finished cases' outputs, with --compare-to their verdict too, all new together.
int finish_stopped_run(int sig, run_result& partial, const run_plan& plan, planned_outputs& out, std::size_t selected) {
  add_user_context(partial, plan.execution.table.context);
  std::function<void(const output_list&)> compare;  // with --compare-to, the verdict is new with the rest
  if (out.compare_path)
    compare = [&](const output_list& files) {
      keep_cases_of(*out.base, partial);
      compare_and_report(*out.base, partial, out.cmp, files);
    };
  return finish_interrupted(sig, partial, out.list, plan.files.json_path,
                            fmt::format(" after {} of {} case(s)", partial.cases.size(), selected),
                            "the finished ones are", compare);
}

/// The rounds of a supervised run: its cases' names (into `names`), the seed of their order, and the cases kept to
/// the first round.
round_plan plan_rounds(const execution_settings& ex, const preset& p, const run_settings& run,
                       const std::vector<const case_def*>& selected, std::size_t cases_after,
                       std::vector<std::string>& names) {
  round_plan plan{.rounds = p.rounds, .seed = run.shuffle_seed.value_or(0), .cases_after = cases_after};
  for (const case_def* c : selected) {
    names.push_back(c->name());
    if (!spread_over_rounds(*c, ex.spread_every_case)) plan.first_round_only.insert(c->name());
  }
  return plan;
}

/// The table of a run of more than one round (the preset's `rounds`), its skipped cases and its totals line (of
/// `cases` cases), printed; the totals line returned.
std::string print_run_summary(const run_result& current, const device_info& dev, const run_settings& run,
                              const table_style& style, int rounds, const outcome_counts& n, std::size_t cases) {
  if (rounds > 1) print_run_table(current, current.device.value_or(dev), run, current.host.value("num_cpus", 0), style);
  print_skipped(current, style);
  const std::string totals =
      fmt::format("\n{} case(s): {} measured, {} skipped, {} failed\n", cases, n.measured, n.skipped, n.failed);
  fmt::print("{}", totals);
  return totals;
}

/// --trace: the timeline of the run's samples, the workers' (`sr`) or this process's.
nlohmann::ordered_json run_trace(const supervised_run* sr, case_execution& here, const device_info& dev) {
  trace_log none;
  none.note = "no worker process wrote a timeline";
  return !sr ? chrome_trace(finished_trace(*here.tracer, dev)) : sr->trace.is_null() ? chrome_trace(none) : sr->trace;
}

/// What running a run's cases takes: its plan, suite and selected cases, the binary's Google Benchmark
/// registrations run after them (`google` of them), and who hears of each finished case.
struct case_run {
  const run_plan& plan;
  const suite& s;
  const std::vector<const case_def*>& selected;
  std::size_t google;
  const run_settings& run;
  const case_listener& on_case;
};

/// Runs the selected cases: in worker processes under a watchdog (their results into `sr`), or here (into
/// `here`); `described` the device, once known. Returns what makes the run of them.
std::function<run_result(const run_settings&)> run_cases(const case_run& r, std::optional<device_info>& described,
                                                         case_execution& here, supervised_run& sr) {
  if (r.selected.empty()) {  // Google Benchmark's registrations only
    install_stop_signals();
    return [&, s = &r.s, selected = &r.selected](const run_settings& d) {
      return make_run_result(nlohmann::ordered_json(), *described, d, *s, *selected, {});
    };
  }
  const run_plan& plan = r.plan;
  if (plan.watchdog_s > 0) {
    std::vector<std::string> names;
    const round_plan rounds = plan_rounds(plan.execution, plan.p, r.run, r.selected, r.google, names);
    say_startup("its first worker");
    sr = run_rounds(plan.args, names, plan.watchdog_s, plan.execution.trace, rounds, r.on_case);
    if (!described) described = sr.device ? *sr.device : query_device(plan.execution.device, false);
    return [&, s = &r.s, selected = &r.selected](const run_settings& d) {
      return assemble_run(sr, *described, d, *s, *selected);
    };
  }
  install_stop_signals();
  execute_cases(here, plan.execution, plan.p, r.s, r.selected, *described, r.run, nullptr, plan.argv, r.google,
                r.on_case);
  return [&, s = &r.s, selected = &r.selected](const run_settings& d) {
    return make_run_result(here.host ? to_json(*here.host) : nlohmann::ordered_json::object(), *described, d, *s,
                           *selected, here.results);
  };
}

/// The selected cases of a run (not a worker): in worker processes under a watchdog, or here; then the
/// limits, the trace and every output.
int run_selected(const run_plan& plan, const suite& s, const std::vector<const case_def*>& selected,
                 const std::vector<std::string>& google, run_settings run) {
  const preset& p = plan.p;
  const bool supervised = plan.watchdog_s > 0;
  std::optional<device_info> described = device_before_cases(plan, supervised, selected.empty());
  planned_outputs out = [&] {  // refused before the first case runs; reading the baseline ends at a signal
    const stop_at_once reading(program_name());
    return plan_outputs(plan, described.value_or(device_info{}), cases_of_this_run(selected, google));
  }();
  startup_phase_done("outputs");
  if (const std::string warning = unoptimized_warning(registered_build(), library_build_type()); !warning.empty())
    fmt::print(stderr, "{}: {}\n", program_name(), warning);
  std::optional<standard_output_aside> aside;  // an output on standard output ("-") stands there alone
  if (out.list.uses_standard_output()) aside.emplace();

  std::size_t done = 0, total = selected.size() + google.size();  // case runs: the cases' in every round they run in
  const case_listener on_case = [&](const case_result& c, int round, std::size_t in_all) {
    total = in_all ? in_all : total;
    out.list.case_finished({c, round, ++done, std::max(total, done)});
  };
  out.list.begin({.preset = p.name, .cases = selected.size() + google.size(), .rounds = p.rounds});
  case_execution here;
  supervised_run sr;
  const std::function<run_result(const run_settings&)> results =
      run_cases({plan, s, selected, google.size(), run, on_case}, described, here, sr);
  const device_info& dev = *described;
  if (const int sig = interrupt_signal().load()) {
    run.interrupted_by = signal_name(sig);
    run_result partial = results(run);
    return finish_stopped_run(sig, partial, plan, out, selected.size());
  }
  const stop_at_once writing(program_name());  // the cases are done: a signal now ends the process at once
  run_result current = results(run);
  const table_style& style = plan.execution.table;
  if (!google.empty()) run_google_cases(current, google, plan, dev, run, selected.size(), on_case);
  add_user_context(current, plan.execution.table.context);
  attach_limits(current, dev, p.name, plan.baseline.dir, out.base);
  const outcome_counts n = count_outcomes(current);
  const std::string totals = print_run_summary(current, dev, run, style, p.rounds, n, selected.size() + google.size());
  // --benchmark_out_format=console: the whole table, without colour
  if (plan.files.console_out_path) *out.console_table = plain_table(current, dev, run, style) + totals;
  if (plan.execution.trace) *out.trace = run_trace(supervised ? &sr : nullptr, here, dev);
  output_batch batch;  // the trace, the documents, the report files and the verdict: all or nothing
  const int status = write_outputs(out, current, n.failed ? 1 : 0);
  batch.commit();
  return status;
}

/// Hands the revision this process asked git for to the workers it starts (collect_run_settings reads these
/// variables before it would ask git), so that a run asks git once, not once more in every worker.
void share_revision_with_workers(const run_settings& run) {
  if (!is_commit_hash(run.git_revision) && run.git_revision != unknown_revision) return;  // they ask git themselves
  ::setenv("CUDABENCH_GIT_REVISION", run.git_revision.c_str(), 1);
  ::setenv("CUDABENCH_GIT_DIRTY", run.git_dirty ? "1" : "0", 1);
}

/// The settings a run records: the collected ones, and how the plan asked for it.
run_settings settings_of(const run_plan& plan, bool worker) {
  const preset& p = plan.p;
  run_settings run = collect_run_settings(p.name, p.repetitions * p.rounds);
  startup_phase_done("run info");
  if (!worker && plan.watchdog_s > 0) share_revision_with_workers(run);
  run.rounds = p.rounds;
  // The supervisor draws the seed; a worker is handed its round's order and needs none.
  if (p.rounds > 1 && !worker) run.shuffle_seed = plan.shuffle_seed ? *plan.shuffle_seed : fresh_shuffle_seed();
  run.cache = plan.marks.cache;
  run.energy_absent = plan.marks.energy_absent;
  run.injected = plan.marks.injected;
  return run;
}

/// The runner: a --devices fan-out, a listing, a worker's share of the cases, or a whole run.
int run_command(const run_plan& plan) {
  const case_choice& choice = plan.cases;
  // A stop asked for while the run is being set up is kept and honoured before the first case starts.
  if (!choice.list) install_stop_signals();
  const std::optional<worker_link> worker = worker_link::from_environment();
  if (choice.identify_path && plan.devices)
    throw usage_error("--identify identifies the cases on one device (--device=N), not with --devices");
  if (plan.devices && !choice.list && !worker) return run_on_devices(plan);
  const preset& p = plan.p;
  const suite s = build_suite(p);
  const std::vector<const case_def*> selected = selection_for(s, choice, p, worker);
  startup_phase_done("suite");
  // The binary's own BENCHMARK() registrations (a worker runs the families' cases only).
  const std::vector<std::string> google =
      worker ? std::vector<std::string>{} : select_google_benchmarks(google_benchmark_names(), choice.filter);
  if (selected.empty() && google.empty()) {
    fmt::print(stderr, "{}: no case matches --filter={} (see --list)\n", program_name(),
               printable(choice.filter.text()));
    return 2;
  }
  if (choice.list) return list_cases(choice, selected, google);
  if (choice.identify_path && !worker)
    return identify_cases(*choice.identify_path, plan.execution, p, selected, google);
  if (!worker) fmt::print(stderr, "{}", plan.rounds_note);
  const run_settings run = settings_of(plan, worker.has_value());
  if (!worker) return run_selected(plan, s, selected, google, run);
  install_stop_signals();
  return run_as_worker(*worker, plan.execution, p, s, selected, run, plan.argv);
}

}  // namespace

/// The runner's handler: the cudabench-run wrapper's --profile-plan (before anything else), or the run of its plan.
int run_handler(const run_request& r) {
  if (r.profile_plan) {  // the wrapper execs the binary after it
    const std::string plan = profile_plan(r, r.args);
    std::fwrite(plan.data(), 1, plan.size(), stdout);
    return 0;
  }
  try {
    const run_plan plan(r);
    return run_command(plan);
  } catch (const worker_failed& e) { return e.status(); }
}

namespace {
int run_binary(int argc, char** argv) {
  return run_command_line(command_named("run"), std::vector<std::string>(argv + 1, argv + argc), argv);
}
}  // namespace

int run_main(int argc, char** argv) {
  startup_phase_done("process");  // from exec: the libraries loaded, the static registrations made
  name_program_from(argc > 0 ? argv[0] : nullptr);
  // Every command of the table is a command of every binary, as of cudabench-report.
  if (argc > 1 && command_by_name(argv[1])) return report_main(argc, argv);
  const std::string who = program_name();
  return with_checked_stdout(who.c_str(), run_binary, argc, argv);
}

}  // namespace cudabench::app

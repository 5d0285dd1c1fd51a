// A run's request read once into the settings each part of the run takes.
#include "app/run_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cli/program_name.hpp"
#include "measure/energy.hpp"

namespace cudabench::app {
namespace {

/// The preset named on the command line, with the repetitions, sampling, sizes and axes the options change.
preset preset_for(const cli::run_request& r) {
  preset p = preset_by_name(r.preset);
  // Repetitions count over all rounds; each round (a worker process) takes its share, rounded up.
  const int total = r.repetitions.value_or(p.repetitions * p.rounds);
  int rounds = r.rounds.value_or(p.rounds);
  if (r.random_interleaving) rounds = *r.random_interleaving ? total : 1;
  if (r.watchdog_s <= 0) rounds = 1;  // no worker processes: every repetition in this one
  p.rounds = std::min(rounds, total);
  p.repetitions = (total + p.rounds - 1) / p.rounds;
  if (r.profile) {  // a profile wants a few clean runs, not thousands
    p.repetitions = 1;
    p.rounds = 1;
    p.sampling = {.min_samples = 3, .min_time_s = 0, .max_time_s = 2.0, .target_noise = 1, .warmup_s = 0};
  }
  if (r.min_time_s) {
    p.sampling.min_time_s = *r.min_time_s;
    p.sampling.max_time_s = std::max(p.sampling.max_time_s, *r.min_time_s);
  }
  if (r.warmup_s) p.sampling.warmup_s = *r.warmup_s;
  p.sizes = r.sizes;
  p.axes = r.axes;
  return p;
}

/// How the cases are measured: the cache state, the slowdown, the stream hold and energy.
measure_settings measurement_of(const cli::run_request& r, const preset& p) {
  measure_settings ms;
  if (r.cache != "declared") ms.cache_override = r.cache == "hot" ? cache_state::hot : cache_state::cold;
  ms.inject_regex = r.inject_regex;
  ms.inject_pct = r.inject_pct;
  ms.hold_stream = !r.profile && !r.no_blocking_kernel;
  ms.energy.on = r.energy && !r.profile;
  ms.energy.window_s = r.energy_window_s.value_or(default_energy_window_s(p));
  ms.energy.min_run_s = r.energy_min_run_s;
  return ms;
}

/// Why the run reads no energy, "" where it does.
std::string energy_absent(const cli::run_request& r) {
  if (!r.energy) return "--no-energy";
  if (r.profile) return "--profile: energy is not read while profiling";
  return "";
}

/// The note for --rounds asking for more rounds than there are repetitions (each round takes one at least).
std::string rounds_note_of(const cli::run_request& r, const preset& p) {
  if (!r.rounds || r.random_interleaving || r.profile || r.watchdog_s <= 0 || p.rounds >= *r.rounds) return "";
  return fmt::format(
      "{}: note: --rounds={} with {} repetition(s): {} round(s) run, each round takes one repetition at least\n",
      cli::program_name(), *r.rounds, p.rounds * p.repetitions, p.rounds);
}

}  // namespace

run_plan::run_plan(const cli::run_request& r)
    : p(preset_for(r)),
      cases{.filter = r.filter,
            .limits = r.limits,
            .list = r.list,
            .list_names_only = r.list_names_only,
            .identify_path = r.identify_path},
      execution{.device = r.device,
                .measure = measurement_of(r, p),
                .trace = r.trace_path.has_value(),
                .identify = !r.profile,
                .quiet = r.quiet,
                .spread_every_case = r.rounds_for == "all" || r.trace_path,
                .table = {.progress = !r.quiet,
                          .time_unit = r.time_unit,
                          .counters_tabular = r.counters_tabular,
                          .verbose = r.verbose,
                          .color = r.color,
                          .context = r.context}},
      files(r),
      comparison(r),
      baseline{.compare_to = r.compare_to, .save = r.save_baseline, .dir = r.baseline_dir},
      devices(r.devices),
      watchdog_s(r.watchdog_s),
      shuffle_seed(r.shuffle_seed),
      google{.repetitions = p.repetitions * p.rounds,
             .min_time_s = r.min_time_s,
             .min_warmup_time_s = r.warmup_s,
             .random_interleaving = r.random_interleaving.value_or(false)},
      marks{.cache = r.cache,
            .energy_absent = energy_absent(r),
            .injected = r.inject_regex ? fmt::format("{}:{:g}", *r.inject_regex, r.inject_pct) : ""},
      rounds_note(rounds_note_of(r, p)),
      args(r.args),
      argv(r.argv) {}

}  // namespace cudabench::app

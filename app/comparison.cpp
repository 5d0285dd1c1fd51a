// The comparison step compare, confirm and a run with --compare-to share.
#include "app/comparison.hpp"

#include <fmt/format.h>

#include <memory>

#include "analysis/gates.hpp"
#include "analysis/run_store.hpp"
#include "cli/program_name.hpp"

namespace cudabench::app {

compare_settings compare_settings_from(const cli::compare_options& o) {
  compare_settings s;
  if (o.gates.from == cli::gates_choice::source::none)
    s.gates_beside_baseline = false;
  else if (const auto file = o.gates.named_file())
    s.gates = std::make_shared<const gate_table>(load_gates(*file));
  if (o.threshold_pct) s.threshold = *o.threshold_pct / 100;
  if (o.alpha) s.alpha = *o.alpha;
  if (o.host_threshold_pct) s.host_threshold = *o.host_threshold_pct / 100;
  if (o.noise_floor) s.noise_floor = *o.noise_floor;
  s.allow_device_mismatch = o.allow_device_mismatch;
  s.allow_build_mismatch = o.allow_build_mismatch;
  s.allow_preset_mismatch = o.allow_preset_mismatch;
  if (o.energy_threshold_pct) s.energy.threshold = *o.energy_threshold_pct / 100;
  s.energy.gating = o.gate_energy;
  return s;
}

comparison compare_with_gates(const run_result& base, const run_result& cur, const compare_settings& s) {
  compare_settings with = s;
  with.gates = run_store::gates_for(s, base, cur);
  return compare_runs(base, cur, with);
}

void say_not_judged(const comparison& c) {
  if (const std::size_t n = c.throttled(); n && !c.failing())
    fmt::print(stderr, "{}: {} case(s) could not be judged: most samples of a side were taken throttled (exit {})\n",
               cli::program_name(), n, exit_unconfirmed);
}

int compare_and_report(const run_result& base, const run_result& cur, const compare_settings& s,
                       const output_list& outputs, comparison* out, const std::function<void(comparison&)>& amend) {
  comparison c = compare_with_gates(base, cur, s);
  if (amend) amend(c);
  outputs.end({.run = &cur, .compared = &c});
  say_not_judged(c);
  if (out) *out = c;
  return c.exit_status();
}

}  // namespace cudabench::app

// compare: two runs case by case, a verdict each; and the comparison step a run with --compare-to shares with it.
#include <fmt/format.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <future>
#include <optional>

#include "analysis/gates.hpp"
#include "app/commands.hpp"
#include "app/results_output.hpp"

namespace cudabench::app {

std::string stored_baselines_dir() {
  const char* dir = std::getenv("CUDABENCH_BASELINE_DIR");
  return dir && *dir ? dir : run_options{}.baseline_dir;
}

std::shared_ptr<const gate_table> gates_for(const compare_settings& s, const run_result& base, const run_result& cur) {
  if (s.gates || !s.gates_beside_baseline) return s.gates;
  std::error_code ec;
  if (const std::string path = gates_file_beside(base.source); !path.empty() && std::filesystem::exists(path, ec))
    return std::make_shared<const gate_table>(load_gates(path));
  if (!one_machine(base, cur) || !cur.device->available) return nullptr;
  // A case's gate is that of its name: a preset without gates of its own takes the nightly's, learned over the
  // most runs (compare notes the other preset).
  for (const std::string& preset : {cur.settings.preset, std::string(bisect_options::suite_preset)}) {
    if (preset.empty()) continue;
    const std::string stored = fmt::format("{}/{}/{}.gates.json", stored_baselines_dir(), cur.device->model_slug(), preset);
    if (std::filesystem::exists(stored, ec)) return std::make_shared<const gate_table>(load_gates(stored));
  }
  return nullptr;
}

compare_settings compare_settings_from(const compare_options& o) {
  compare_settings s;
  if (o.no_gates()) s.gates_beside_baseline = false;
  else if (const auto file = o.gates_file()) s.gates = std::make_shared<const gate_table>(load_gates(*file));
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

int compare_and_report(const run_result& base, const run_result& cur, const compare_settings& s, const output_list& outputs,
                       comparison* out, const std::function<void(comparison&)>& amend) {
  compare_settings with = s;
  with.gates = gates_for(s, base, cur);
  comparison c = compare_runs(base, cur, with);
  if (amend) amend(c);
  outputs.writers().write_comparison(c, cur);
  if (out) *out = c;
  return c.exit_status();
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

/// `compare BASELINE CURRENT`: every output checked before either file is read; 1 on a regression, 3 where the
/// only flags are unconfirmed (runs of different machines).
int compare_handler(const command_line& cl) {
  const file_command_guard guard(cl, "compare");
  const std::vector<std::string>& inputs = cl.inputs;
  const output_list outputs = report_outputs(cl.options, "--verdict");
  outputs.check(files_read(cl.options, inputs, inputs[0]));
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  // The two files are read at once (the readers share nothing), so large files take the time of one;
  // the baseline's problem is still the one named when both have one.
  auto reading_base = std::async(std::launch::async, [&] { return load_run(inputs[0]); });
  std::optional<run_result> cur;
  std::exception_ptr cur_problem;
  try {
    cur = load_run(inputs[1]);
  } catch (...) {
    cur_problem = std::current_exception();
  }
  const run_result base = reading_base.get();
  if (cur_problem) std::rethrow_exception(cur_problem);
  return all_or_nothing([&] { return compare_and_report(base, *cur, compare_settings_from(cl.options), outputs); });
}

}  // namespace cudabench::app

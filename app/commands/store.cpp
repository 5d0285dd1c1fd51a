// store: where the run store keeps a result's baseline, its gates and its history, for the CI scripts.
#include <fmt/format.h>

#include "analysis/run_store.hpp"
#include "app/commands.hpp"
#include "io/format.hpp"
#include "results/results.hpp"

namespace cudabench::app {
namespace {

/// The GPU model and preset of the result in `file` (its description only), as its place in the store.
struct result_place {
  device_info device;
  std::string preset;
};

result_place place_of(const std::string& file, const std::optional<std::string>& of_preset) {
  run_result r;
  try {
    r = load_run(file, case_filter());
  } catch (const input_error& e) { throw input_error(fmt::format("not a results file: {}", e.what())); }
  result_place p{r.device.value_or(device_info{}),
                 r.settings.preset.empty() ? std::string(run_store::nightly_preset) : r.settings.preset};
  if (of_preset && *of_preset != p.preset)
    throw input_error(
        fmt::format("{} is a run of preset '{}', not '{}': a baseline is stored under the preset its run was made "
                    "with (run the '{}' preset, or give --of-preset={})",
                    file, printable(p.preset), printable(*of_preset), printable(*of_preset), printable(p.preset)));
  try {
    (void)run_store::slot(p.device, p.preset);
  } catch (const input_error& e) { throw input_error(fmt::format("{}: {}", file, e.what())); }
  return p;
}

/// The path `what` names for `file`.
std::string store_path(const std::string& what, const std::string& file, const command_options& o) {
  if (what == "gates") {
    const std::string gates = run_store::gates_file_beside(file);
    if (gates.empty()) throw input_error(fmt::format("{}: a baseline's name ends in .json", file));
    return gates;
  }
  if (what != "baseline" && what != "slot" && what != "history" && what != "runs")
    throw usage_error(fmt::format("store names baseline, gates, slot, history or runs, not '{}'", printable(what)));
  if ((what == "history" || what == "runs") && !o.history_dir)
    throw usage_error(fmt::format("store {} needs --history-dir=DIR", what));
  const result_place p = place_of(file, o.of_preset);
  if (what == "baseline") return run_store::baseline_file(o.baseline_dir, p.device, p.preset);
  if (what == "slot") return run_store::slot(p.device, p.preset);
  const std::string folder = run_store::history_folder(*o.history_dir, p.device, p.preset);
  return what == "runs" ? fmt::format("{}/{}", folder, run_store::runs_folder) : folder;
}

}  // namespace

/// `store WHAT FILE`: the path, on a line of its own.
int store_handler(const command_line& cl) {
  const file_command_guard guard(cl, "store");
  fmt::print("{}\n", store_path(cl.inputs[0], cl.inputs[1], cl.options));
  return 0;
}

}  // namespace cudabench::app

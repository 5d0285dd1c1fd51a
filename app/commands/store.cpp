// store: where the run store keeps a result's baseline, its gates and its history, for the CI scripts.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>

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

/// Each NUL-separated path under a history store's top read from standard input, as a line "KIND FOLDER STAMP"
/// of run_store::history_entry_of ("-" for an empty field; an outside one's line names the layout).
void print_places() {
  constexpr std::size_t longest = 4096;  // a path's bytes (PATH_MAX): a longer one is refused, not read on
  std::string path;
  for (int c; (c = std::cin.get()) != EOF || !path.empty();) {
    if (c != EOF && c != '\0') {
      if (path.size() == longest)
        throw input_error(fmt::format("store place: a path of more than {} bytes on standard input", longest));
      path += char(c);
      continue;
    }
    const run_store::history_entry e = run_store::history_entry_of(path);
    path.clear();
    if (e.kind == "outside")
      fmt::print("outside {}\n", run_store::history_layout());
    else
      fmt::print("{} {} {}\n", e.kind, e.folder.empty() ? "-" : e.folder, e.stamp.empty() ? "-" : e.stamp);
  }
}

/// The path `what` names in the results folder `dir` (a nightly's, or a history store's folder).
std::string folder_path(const std::string& what, const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw input_error(fmt::format("{}: not a directory (store {} names a file of a results folder)", dir, what));
  const std::string_view name = what == "runs"     ? run_store::runs_folder
                                : what == "latest" ? run_store::latest_run
                                                   : run_store::learned_gates;
  return fmt::format("{}/{}", dir, name);
}

/// The path `what` names for `file`.
std::string store_path(const std::string& what, const std::string& file, const cli::store_request& o) {
  if (what == "latest" || what == "learned" || (what == "runs" && !o.history_dir)) {
    std::error_code ec;
    if (what == "runs" && !std::filesystem::is_directory(file, ec))
      throw usage_error("store runs RESULT.json needs --history-dir=DIR (store runs DIR names a results folder's)");
    return folder_path(what, file);
  }
  if (what == "gates") {
    const std::string gates = run_store::gates_file_beside(file);
    if (gates.empty()) throw input_error(fmt::format("{}: a baseline's name ends in .json", file));
    return gates;
  }
  if (what != "baseline" && what != "slot" && what != "history" && what != "runs")
    throw usage_error(fmt::format(
        "store names baseline, gates, slot, history, runs, latest, learned or place, not '{}'", printable(what)));
  if (what == "history" && !o.history_dir) throw usage_error(fmt::format("store {} needs --history-dir=DIR", what));
  const result_place p = place_of(file, o.of_preset);
  if (what == "baseline") return run_store::baseline_file(o.baseline_dir, p.device, p.preset);
  if (what == "slot") return run_store::slot(p.device, p.preset);
  const std::string folder = run_store::history_folder(*o.history_dir, p.device, p.preset);
  return what == "runs" ? fmt::format("{}/{}", folder, run_store::runs_folder) : folder;
}

}  // namespace

/// `store WHAT FILE`: the path, on a line of its own.
int store_handler(const cli::store_request& r) {
  const file_command_guard guard(r.inputs, "store");
  if (r.inputs[0] == "place") {
    if (r.inputs[1] != "-") throw usage_error("store place reads its paths from standard input: give -");
    print_places();
    return 0;
  }
  fmt::print("{}\n", store_path(r.inputs[0], r.inputs[1], r));
  return 0;
}

}  // namespace cudabench::app

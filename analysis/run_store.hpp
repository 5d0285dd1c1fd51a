// The run store: where stored baselines and their gates, a nightly results folder's runs and verdicts, and a
// history store's folders sit, and how each file is named. Every command asks here, and the CI scripts ask
// through the `store` command.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "analysis/compare.hpp"
#include "results/device_info.hpp"
#include "results/results_model.hpp"

namespace cudabench::run_store {

/// Where stored baselines live unless told (--baseline-dir, $CUDABENCH_BASELINE_DIR), under the current directory.
inline constexpr std::string_view default_baselines_dir = "reports/baselines";
/// The preset stored runs are of unless they say (the nightly's), whose gates a preset without its own takes.
inline constexpr std::string_view nightly_preset = "nightly";
/// $CUDABENCH_BASELINE_DIR, else default_baselines_dir.
std::string baselines_dir();

/// "<model>/<preset>": the place of a GPU model (device_info::model_slug) and preset, a file under a baselines
/// folder and a folder of a history store.
std::string slot(const device_info& d, const std::string& preset);
/// <dir>/<model>/<preset>.json: the stored baseline of this device's model and preset.
std::string baseline_file(const std::string& dir, const device_info& d, const std::string& preset);
/// The gates file kept beside a baseline: X.json -> X.gates.json ("" for a name not ending in .json).
std::string gates_file_beside(const std::string& baseline);
/// True for a gates file's name (*.gates.json): kept beside the runs of a folder, never one of them.
bool is_gates_file(const std::filesystem::path& path);
/// A baseline path from --compare-to: "auto" is the stored one for this device and preset under `dir`
/// (input_error where there is none).
std::string resolve_baseline(const std::string& spec, const device_info& d, const std::string& preset,
                             const std::string& dir);

/// The gates `s` names; else, unless s.gates_beside_baseline is false (--gates none), those beside the baseline,
/// and for two runs of one machine the stored gates of their GPU model and preset under baselines_dir() (a
/// preset without gates of its own takes the nightly's), whose drift within one machine then applies; else none.
std::shared_ptr<const gate_table> gates_for(const compare_settings& s, const run_result& base, const run_result& cur);

// A nightly results folder (ci/nightly.sh), and each <model>/<preset> folder of a history store (ci/history.sh):
//   runs/nightly-<stamp>.json  each run        verdict-<stamp>.json  its verdict against the baseline
//   latest.json                the newest run  gates.json            the gates learned from the runs (history store)
// <stamp> is the run's UTC time, YYYYMMDDTHHMMSSZ.

/// The folder of a results folder's runs: "runs".
inline constexpr std::string_view runs_folder = "runs";
/// The link (or copy) of a results folder's newest run: "latest.json".
inline constexpr std::string_view latest_run = "latest.json";
/// The gates a history store's folder learned from its runs: "gates.json".
inline constexpr std::string_view learned_gates = "gates.json";
/// "nightly-<stamp>.json": a run's file name.
std::string run_name(const std::string& stamp);
/// "verdict-<stamp>.json": the name of the verdict of the run of that stamp.
std::string verdict_name(const std::string& stamp);
/// The <stamp> of a run's file name (nightly-<stamp>.json), "" for any other name.
std::string run_stamp(const std::filesystem::path& file);
/// <store>/<model>/<preset>: a history store's folder of this device's model and preset.
std::string history_folder(const std::string& store, const device_info& d, const std::string& preset);

/// The files a history store may hold, as a refusal of any other names them.
std::string history_layout();
/// What a path under a history store's top names in its layout.
struct history_entry {
  /// "model", "folder" (its <model>/<preset>), "runs" (directories); "run", "verdict", "learned" (files); "outside"
  std::string kind;
  std::string folder;  ///< the <model>/<preset> it is in or is ("" for a model's directory and outside)
  std::string stamp;   ///< a run's or a verdict's <stamp> ("" otherwise)
};
history_entry history_entry_of(const std::string& path);

}  // namespace cudabench::run_store

// The fleet report: runs of different GPU models side by side, each case's time and % of limit per model, its
// ratio to a reference model, and each model's verdict against its own baseline.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/results.hpp"

namespace cudabench::reports {

/// One column of the fleet: one device's run (a run of several devices gives one member per device).
struct fleet_member {
  std::string label;   ///< the column's name: the model, with the host or file where two runs share it
  std::string model;   ///< the GPU's name, or "no GPU"
  std::string slug;    ///< the model as baselines are stored (device_info::model_slug)
  std::string source;  ///< the results file
  std::string given;   ///< the path as given: the results file, or the directory it was found in
  int device = -1;     ///< the ordinal of a device taken out of a --devices run, else -1
  std::string preset, host, revision;
  std::string verdict_source;                   ///< the verdict file of the run, "" when there is none
  std::map<std::string, std::string> verdicts;  ///< case -> its verdict against the model's own baseline
  std::string verdict_summary;                  ///< the verdict file's counts, "" without one
  bool failing = false;                         ///< the verdict file says the comparison failed
  std::vector<std::string> notes;               ///< what the report says of the run (its devices that left no result)
  cudabench::run_result run;
};

/// One model's result for one case.
struct fleet_cell {
  std::optional<cudabench::case_status> status;  ///< none: the model did not run the case (missing)
  double median_s = 0;
  double noise = -1;           ///< CV of the repetitions (of the rounds' medians), else the in-run noise; -1 unknown
  double limit_fraction = -1;  ///< of the model's own limit the case names; -1 none
  double ratio = -1;           ///< median over the reference model's median; -1 where either has none
  std::string verdict;         ///< from the model's verdict file; "" without one
  /// Performance per watt: the case's work per joule (bytes, FLOPs, items or runs per J: the inverse of its energy
  /// per operation); -1 where its energy was not measured.
  double per_joule = -1;
  std::string per_joule_unit;  ///< "byte/J", "FLOP/J", "item/J" or "run/J"
  bool judged = true;  ///< a gated device case (cudabench::judged_case): its ratio counts in its family's geomean
  bool measured() const { return status == cudabench::case_status::ok; }
  /// "ok", "failed", "skipped", or "missing".
  std::string status_name() const { return status ? cudabench::to_string(*status) : "missing"; }
};

struct fleet_row {
  std::string name, family;
  std::vector<fleet_cell> cells;  ///< one per member
};

struct fleet {
  std::vector<fleet_member> members;
  std::size_t reference = 0;       ///< the member the ratios divide by
  std::vector<fleet_row> rows;     ///< every case any member ran, in the order the members list them
  std::vector<std::string> notes;  ///< runs of different presets, members left without cases, devices without a result
  /// A member's verdict file says its comparison failed (a regression or a lost case).
  bool failing() const;
  /// Per family, per member: the geometric mean of the ratios over the gated device cases both it and the
  /// reference measured (compare's geomeans' cases); -1 where there is none.
  std::map<std::string, std::vector<double>> family_ratios() const;
};

/// The runs behind each path: a results file, or a directory holding nightly results (its latest.json, else
/// its newest runs/nightly-*.json, else its newest *.json that is a run), each with the verdict file the
/// nightly wrote beside it (verdict-<stamp>.json). A run of several devices gives one member per device.
/// Throws input_error for an unreadable file, a file that is not a run, or a directory without one.
std::vector<fleet_member> fleet_members(const std::vector<std::string>& paths);

/// Puts the members side by side. `reference` names the model the ratios divide by (its name or slug, or a
/// member's label); default the first member. Throws usage_error for a reference that matches no member.
fleet build_fleet(std::vector<fleet_member> members, const std::optional<std::string>& reference = std::nullopt);

/// The renderings, one per format.
std::string fleet_terminal(const fleet& f);
std::string fleet_markdown(const fleet& f);
std::string fleet_html(const fleet& f);
/// One row per case and member: case, family, model, label, status, median_us, noise_pct, limit_pct, ratio,
/// verdict, per_joule, per_joule_unit.
std::string fleet_csv(const fleet& f);
/// The whole fleet as JSON (kind "cudabench fleet").
std::string fleet_json(const fleet& f);

}  // namespace cudabench::reports

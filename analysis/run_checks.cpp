// The checks that two runs can be compared, and the notes of how they were made.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "analysis/baseline_age.hpp"
#include "analysis/compare_steps.hpp"
#include "analysis/normalize.hpp"
#include "io/errors.hpp"
#include "results/build_info.hpp"

namespace cudabench::comparing {

std::string device_label(const run_result& r) {
  if (!r.device) return "unknown device";
  if (!r.device->available) return "no GPU";
  return r.device->name.empty() ? "a GPU of no name" : r.device->name;
}

void check_devices(const run_result& base, const run_result& cur, comparison& out, bool allow) {
  if (!base.device || !cur.device) {  // not cudabench output (or stripped): the GPUs cannot be checked
    const std::string& which = !base.device ? base.source : cur.source;
    if (!allow)
      throw input_error(
          fmt::format("{}: has no device description (context.device), so the GPUs of the two runs cannot be "
                      "checked; pass --allow-device-mismatch to compare anyway",
                      which));
    out.header_notes.push_back(
        which + " has no device description: compared without checking the GPUs (--allow-device-mismatch)");
    return;
  }
  const device_info& b = *base.device;
  const device_info& c = *cur.device;
  std::string problem;
  if (b.available != c.available || b.name != c.name)
    problem = fmt::format("different GPU models ({} vs {})", device_label(base), device_label(cur));
  else if (b.available && (b.sm_clock_khz != c.sm_clock_khz || b.memory_clock_khz != c.memory_clock_khz))
    problem = fmt::format("different clocks (SM {} vs {} MHz, memory {} vs {} MHz)", b.sm_clock_khz / 1000,
                          c.sm_clock_khz / 1000, b.memory_clock_khz / 1000, c.memory_clock_khz / 1000);
  if (!problem.empty()) {
    if (!allow)
      throw input_error(
          fmt::format("{} and {}: refusing to compare runs from {}; pass --allow-device-mismatch to compare anyway",
                      base.source, cur.source, problem));
    out.header_notes.push_back("compared despite " + problem + " (--allow-device-mismatch)");
  }
  if (b.driver_version != c.driver_version)
    out.header_notes.push_back(fmt::format("driver changed: {} -> {}", cuda_version_string(b.driver_version),
                                           cuda_version_string(c.driver_version)));
  if (b.runtime_version != c.runtime_version)
    out.header_notes.push_back(fmt::format("CUDA runtime changed: {} -> {}", cuda_version_string(b.runtime_version),
                                           cuda_version_string(c.runtime_version)));
}

void check_mismatch(const std::string& problem, const run_result& base, const run_result& cur, comparison& out,
                    bool allow, const char* allow_option) {
  if (problem.empty()) return;
  if (!allow)
    throw input_error(fmt::format("{} and {}: refusing to compare runs of {}; pass {} to compare anyway", base.source,
                                  cur.source, problem, allow_option));
  out.header_notes.push_back(fmt::format("compared despite {} ({})", problem, allow_option));
}

void check_gates(const gate_table& g, const run_result& cur, comparison& out, bool allow) {
  const std::string here = device_label(cur);
  if (g.device != here) {
    if (!allow)
      throw input_error(fmt::format(
          "{}: gates learned on {}, and {} ran on {}: refused; pass --gates none to compare with the default "
          "threshold",
          g.source, g.device, cur.source, here));
    out.header_notes.push_back(
        fmt::format("gates of {} used for a run on {} (--allow-device-mismatch)", g.device, here));
  }
  if (!cur.settings.preset.empty() && g.preset != cur.settings.preset)
    out.header_notes.push_back(fmt::format("gates learned from preset '{}' runs, and the current run is of preset '{}'",
                                           g.preset, cur.settings.preset));
  const std::set<std::string> boards = g.boards();
  const std::string here_board = cur.device ? cur.device->uuid : "";
  if (!boards.empty() && !here_board.empty() && !boards.count(here_board))
    out.header_notes.push_back(
        fmt::format("the current run's board {} is not among the {} board(s) of the gates' {} runs",
                    board_label(here_board), boards.size(), g.runs.size()));
}

void check_machines(const run_result& base, const run_result& cur, comparison& out) {
  if (!base.device || !cur.device) return;
  const std::string& bu = base.device->uuid;
  const std::string& cu = cur.device->uuid;
  out.same_board = !bu.empty() && bu == cu;
  if (base.device->machine && cur.device->machine)
    out.machine_differences = machine_differences(*base.device->machine, *cur.device->machine);
  const bool board_listed = std::any_of(out.machine_differences.begin(), out.machine_differences.end(),
                                        [](const machine_difference& d) { return d.fact == board_fact; });
  if (!board_listed && !bu.empty() && !cu.empty() && bu != cu)
    out.machine_differences.insert(out.machine_differences.begin(), {board_fact, board_label(bu), board_label(cu)});
  if (!base.settings.host_name.empty() && !cur.settings.host_name.empty() &&
      base.settings.host_name != cur.settings.host_name)
    out.machine_differences.push_back({"host", base.settings.host_name, cur.settings.host_name});
  if (!out.machine_differences.empty())
    out.header_notes.push_back("the runs come from different machines (" + describe(out.machine_differences) +
                               "); a case with a control limit is judged on its scale (normalized)");
}

void note_unnormalized(const run_result& cur, comparison& out) {
  std::size_t n = 0;
  for (const case_comparison& r : out.cases) {
    if (r.normalized_change || !(r.base_median_s > 0 && r.cur_median_s > 0)) continue;
    if (const case_result* c = cur.find(r.name); c && !control_limits(*c).empty()) ++n;
  }
  if (n)
    out.header_notes.push_back(
        fmt::format("{} case(s) with a control limit judged as measured: a run did not measure its control "
                    "(--limits measures the limits beside any filter)",
                    n));
}

void note_run_settings(const run_result& base, const run_result& cur, comparison& out) {
  auto mean_clock = [](const run_result& r) {
    double sum = 0;
    int n = 0;
    for (auto& c : r.cases)
      if (auto it = c.counters.find("sm_clock_mhz"); it != c.counters.end() && it->second > 0) {
        sum += it->second;
        ++n;
      }
    return n ? sum / n : 0.0;
  };
  const double base_clock = mean_clock(base), cur_clock = mean_clock(cur);
  if (base_clock > 0 && cur_clock > 0 && std::fabs(cur_clock / base_clock - 1) > 0.05)
    out.header_notes.push_back(fmt::format(
        "warning: the SM clocks measured during the runs differ ({:.0f} vs {:.0f} MHz mean)", base_clock, cur_clock));
  if (base.settings.injected)
    out.header_notes.push_back("baseline ran with --inject-slowdown=" + *base.settings.injected);
  if (cur.settings.injected)
    out.header_notes.push_back("current run used --inject-slowdown=" + *cur.settings.injected + " (a validation run)");
  // First: what the rest of the notes (and the verdicts) are read against.
  if (const std::string old = old_baseline_note(base, cur); !old.empty())
    out.header_notes.insert(out.header_notes.begin(), old);
  for (const auto& [side, run] : {std::pair{"baseline", &base}, std::pair{"current", &cur}}) {
    if (const std::string context = custom_context_text(*run); !context.empty())
      out.header_notes.push_back(fmt::format("{} context: {}", side, context));
    if (run->settings.incomplete)
      out.header_notes.push_back(
          fmt::format("the {} run is incomplete (stopped by {}): it holds the cases finished "
                      "before the stop only",
                      side, run->settings.interrupted_by.value_or("a signal")));
  }
}

}  // namespace cudabench::comparing

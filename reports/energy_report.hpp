// Energy per operation, power, clocks and throttling in the reports: beside a run's times, beside a comparison's
// verdicts (its energy verdicts), and the device's energy limits.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "analysis/compare.hpp"
#include "reports/fleet.hpp"
#include "results/results.hpp"

namespace cudabench::reports {

/// A run's cases with energy or clocks recorded (case, time, J/op, W, uncertainty, window, clocks, throttled
/// samples, why no energy), then the throttled-samples count and the energy limits; "" when none is recorded.
/// A pipe table with every cell through `escape` (markdown_text, printable).
std::string run_energy_table(const cudabench::run_result& run, std::string (*escape)(std::string_view));
std::string run_energy_html(const cudabench::run_result& run);

/// A comparison's energy verdicts (case, unit, baseline, current, change, gate, p, verdict, method / note); ""
/// when no case has energy in either run.
std::string comparison_energy_table(const cudabench::comparison& c, std::string (*escape)(std::string_view));
std::string comparison_energy_html(const cudabench::comparison& c);

/// Performance per watt across the fleet's models: each case's work per joule per member (the cases with
/// energy in any member); "" when none has.
std::string fleet_energy_table(const fleet& f, std::string (*escape)(std::string_view));
std::string fleet_energy_html(const fleet& f);

/// A case's energy in the verdict file.
nlohmann::ordered_json energy_json(const cudabench::energy_comparison& e);
/// The energy part of the verdict file's settings and counts.
nlohmann::ordered_json energy_summary_json(const cudabench::comparison& c);

}  // namespace cudabench::reports

// Energy, power, clocks and throttling as tables: a run's, a comparison's, the device's energy limits.
#include "reports/energy_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <vector>

#include "io/format.hpp"
#include "reports/escape.hpp"

namespace cudabench::reports {
namespace {
using json = nlohmann::ordered_json;
using rows_t = std::vector<std::vector<std::string>>;

std::string number_or_dash(const counter_map& m, const char* name, const char* format) {
  auto it = m.find(name);
  return it == m.end() ? "-" : fmt::format(fmt::runtime(format), it->second);
}

/// The first reason a case gives for having no energy figure, "" where it has one.
std::string absent_reason(const case_result& c) {
  for (const repetition& r : c.repetitions)
    if (r.record && r.record->energy && !r.record->energy->absent.empty()) return r.record->energy->absent;
  return "";
}

/// One row of a run's energy table, or nothing for a case without energy records.
std::optional<std::vector<std::string>> run_row(const case_result& c) {
  double uncertainty = 0, window = 0;
  bool any = false;
  for (const repetition& r : c.repetitions)
    if (r.record && r.record->energy) {
      any = true;
      uncertainty = std::max(uncertainty, r.record->energy->uncertainty);
      window = window > 0 ? std::min(window, r.record->energy->window_s) : r.record->energy->window_s;
    }
  if (!any) return std::nullopt;
  const counter_map m = median_repetition(c).counters;
  const energy_unit unit = energy_unit_of(c.bytes, c.items, c.flops);
  const auto per_op = m.find(unit.counter);
  std::size_t flagged = 0, kept = 0;
  throttled_share(c, &flagged, &kept);
  const std::string absent = absent_reason(c);
  return std::vector<std::string>{c.name,
                                  format_time(c.median_s),
                                  per_op == m.end() ? "-" : format_energy(per_op->second, unit.unit),
                                  number_or_dash(m, energy_counters::watts, "{:.0f} W"),
                                  absent.empty() && uncertainty > 0 ? fmt::format("{:.2f}%", 100 * uncertainty) : "-",
                                  window > 0 ? fmt::format("{:.2f} s", window) : "-",
                                  number_or_dash(m, "sm_clock_mhz", "{:.0f}"),
                                  number_or_dash(m, energy_counters::memory_clock, "{:.0f}"),
                                  fmt::format("{} of {}", flagged, kept),
                                  absent.empty() ? "" : absent};
}

rows_t run_rows(const run_result& run) {
  rows_t rows;
  for (const case_result& c : run.cases)
    if (c.status == case_status::ok)
      if (auto row = run_row(c)) rows.push_back(std::move(*row));
  return rows;
}

/// "N of M timed samples were taken while the GPU was throttled (K case(s) mostly)".
std::string throttled_line(const run_result& run) {
  std::size_t flagged = 0, kept = 0, mostly = 0;
  for (const case_result& c : run.cases) {
    std::size_t f = 0, k = 0;
    mostly += throttled_share(c, &f, &k) > energy_gate_settings{}.throttled_share;
    flagged += f;
    kept += k;
  }
  return fmt::format("{} of {} timed samples were taken while the GPU was throttled ({} case(s) mostly)", flagged, kept,
                     mostly);
}

/// "Energy unavailable: no GPU (...)": why a run measured no energy.
std::string unavailable_line(const run_result& run) { return "Energy unavailable: " + run.settings.energy_absent; }

/// The device's energy limits: each limit's energy per unit of its rate, and per FMA for a FLOP limit.
rows_t limit_rows(const run_result& run) {
  rows_t rows;
  for (const auto& [name, l] : run.limits) {
    if (!(l.joules_per_unit > 0)) continue;
    const std::string unit = l.unit == "FLOP/s" ? "J/FLOP" : l.unit == "B/s" ? "J/byte" : "J/item";
    rows.push_back({name, format_energy(l.joules_per_unit, unit),
                    l.unit == "FLOP/s" ? format_energy(2 * l.joules_per_unit, "J/FMA") : "-",
                    l.from.empty() ? "-" : l.from});
  }
  return rows;
}

const std::vector<std::string> run_header = {"case",
                                             "median",
                                             "energy / op",
                                             "power",
                                             "uncertainty",
                                             "window",
                                             "SM MHz",
                                             "memory MHz",
                                             "throttled samples",
                                             "no energy because"};
const std::vector<std::string> limit_header = {"limit", "energy", "per FMA", "from"};
const std::vector<std::string> comparison_header = {"case", "unit", "baseline",       "current",      "change",
                                                    "gate", "p",    "energy verdict", "method / note"};

/// Listed in a comparison's energy table: a figure on a side, or a verdict that says more than "no figure".
bool listed(const energy_comparison& e) {
  return e.base > 0 || e.cur > 0 || (e.v != energy_verdict::unmeasured && e.v != energy_verdict::not_judged);
}

/// A reason without its case's own numbers ("a run of 252 us takes under 1 ms" -> "a run of N us takes under N
/// ms"), so that the cases of one reason count together.
std::string reason_kind(const std::string& reason) {
  std::string out;
  for (std::size_t i = 0; i < reason.size() && out.size() < 200; ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(reason[i])) != 0;
    if (!digit) {
      out += reason[i];
      continue;
    }
    out += 'N';
    while (i + 1 < reason.size() && (std::isdigit(static_cast<unsigned char>(reason[i + 1])) || reason[i + 1] == '.'))
      ++i;
  }
  return out;
}

/// "118 case(s) without energy, not listed: 110 'baseline: a run of N us takes under N ms: ...', 8 '...'" (the
/// five commonest reasons), or "" where every case with an energy comparison is listed.
std::string unlisted_line(const comparison& c) {
  std::map<std::string, std::size_t> by_reason;
  std::size_t n = 0;
  for (const case_comparison& r : c.cases)
    if (r.energy && !listed(*r.energy)) {
      ++n;
      ++by_reason[reason_kind(r.energy->note.empty() ? to_string(r.energy->v) : r.energy->note)];
    }
  if (n == 0) return "";
  std::vector<std::pair<std::size_t, std::string>> reasons;
  for (const auto& [reason, k] : by_reason) reasons.emplace_back(k, reason);
  std::stable_sort(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out = fmt::format("{} case(s) without energy, not listed: ", n);
  for (std::size_t i = 0; i < reasons.size() && i < 5; ++i)
    out += fmt::format("{}{} '{}'", i ? ", " : "", reasons[i].first, reasons[i].second);
  if (reasons.size() > 5) out += fmt::format(", and {} other reason(s)", reasons.size() - 5);
  return out;
}

rows_t comparison_rows(const comparison& c) {
  rows_t rows;
  for (const case_comparison& r : c.cases) {
    if (!r.energy || !listed(*r.energy)) continue;
    const energy_comparison& e = *r.energy;
    const bool both = e.base > 0 && e.cur > 0;
    const std::string note = e.note.empty() ? e.method : e.method.empty() ? e.note : e.method + "; " + e.note;
    rows.push_back({r.name, e.unit, format_energy(e.base, e.unit), format_energy(e.cur, e.unit),
                    both ? fmt::format("{:+.1f}%", 100 * e.change) : "-",
                    both ? fmt::format("{:.1f}%", 100 * e.gate) : "-",
                    e.p_value ? fmt::format("{:.3g}", *e.p_value) : "", to_string(e.v), note});
  }
  return rows;
}

std::string html_table(const std::vector<std::string>& header, const rows_t& rows) {
  std::string out = "<table><tr>";
  for (const std::string& h : header) out += "<th>" + html_text(h) + "</th>";
  out += "</tr>\n";
  for (const auto& row : rows) {
    out += "<tr>";
    for (const std::string& cell : row) out += "<td>" + html_text(cell) + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}
/// "3.2 Gbyte/J": work per joule with an SI prefix.
std::string per_joule_text(const fleet_cell& c) {
  if (!(c.per_joule > 0)) return "-";
  static const std::pair<double, const char*> prefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& [scale, prefix] : prefixes)
    if (c.per_joule >= scale) return fmt::format("{:.3g} {}{}", c.per_joule / scale, prefix, c.per_joule_unit);
  return fmt::format("{:.3g} {}", c.per_joule, c.per_joule_unit);
}

std::vector<std::string> fleet_header(const fleet& f) {
  std::vector<std::string> header = {"case"};
  for (const fleet_member& m : f.members) header.push_back(m.label + " per watt");
  return header;
}

rows_t fleet_rows(const fleet& f) {
  rows_t rows;
  for (const fleet_row& r : f.rows) {
    if (std::none_of(r.cells.begin(), r.cells.end(), [](const fleet_cell& c) { return c.per_joule > 0; })) continue;
    std::vector<std::string> row = {r.name};
    for (const fleet_cell& c : r.cells) row.push_back(per_joule_text(c));
    rows.push_back(std::move(row));
  }
  return rows;
}
}  // namespace

std::string fleet_energy_table(const fleet& f, std::string (*escape)(std::string_view)) {
  const rows_t rows = fleet_rows(f);
  if (rows.empty()) return "";
  std::string rule = "|---|";
  for (std::size_t i = 0; i < f.members.size(); ++i) rule += "---:|";
  return escape("Performance per watt (work per joule: bytes, FLOPs or items per J; higher is better):") + "\n\n" +
         pipe_table(fleet_header(f), rule, rows, escape);
}

std::string fleet_energy_html(const fleet& f) {
  const rows_t rows = fleet_rows(f);
  return rows.empty() ? "" : "<h2>Performance per watt</h2>\n" + html_table(fleet_header(f), rows);
}

std::string run_energy_table(const run_result& run, std::string (*escape)(std::string_view)) {
  const rows_t rows = run_rows(run), limits = limit_rows(run);
  if (rows.empty() && limits.empty())
    return run.settings.energy_absent.empty() ? "" : escape(unavailable_line(run)) + "\n";
  std::string out;
  if (!rows.empty())
    out += pipe_table(run_header, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|", rows, escape) + "\n" +
           escape(throttled_line(run)) + "\n";
  if (!limits.empty())
    out += "\n" + escape("Energy limits (the device's energy per byte read and per FMA):") + "\n\n" +
           pipe_table(limit_header, "|---|---:|---:|---|", limits, escape);
  return out;
}

std::string run_energy_html(const run_result& run) {
  const rows_t rows = run_rows(run), limits = limit_rows(run);
  if (rows.empty() && limits.empty() && !run.settings.energy_absent.empty())
    return "<h2>Energy, clocks and throttling</h2>\n<p>" + html_text(unavailable_line(run)) + "</p>\n";
  std::string out;
  if (!rows.empty())
    out += "<h2>Energy, clocks and throttling</h2>\n" + html_table(run_header, rows) + "<p>" +
           html_text(throttled_line(run)) + "</p>\n";
  if (!limits.empty()) out += "<h2>Energy limits</h2>\n" + html_table(limit_header, limits);
  return out;
}

std::string comparison_energy_table(const comparison& c, std::string (*escape)(std::string_view)) {
  const rows_t rows = comparison_rows(c);
  const std::string unlisted = unlisted_line(c);
  if (rows.empty() && unlisted.empty()) return "";
  std::string out = escape(fmt::format(
      "Energy per operation ({} a change must exceed, or K x the windows' robust CV, tested over {} windows a side "
      "or more; {}):",
      fmt::format("{:.1f}%", 100 * c.settings.energy.threshold), min_energy_windows,
      c.settings.energy.gating ? "an energy regression fails the comparison (--gate-energy)"
                               : "reported, never failing without --gate-energy"));
  out += "\n\n";
  if (!rows.empty()) out += pipe_table(comparison_header, "|---|---|---:|---:|---:|---:|---:|---|---|", rows, escape);
  if (!unlisted.empty()) out += (rows.empty() ? "" : "\n") + escape(unlisted) + "\n";
  return out;
}

std::string comparison_energy_html(const comparison& c) {
  const rows_t rows = comparison_rows(c);
  const std::string unlisted = unlisted_line(c);
  if (rows.empty() && unlisted.empty()) return "";
  return "<h2>Energy per operation</h2>\n" + (rows.empty() ? "" : html_table(comparison_header, rows)) +
         (unlisted.empty() ? "" : "<p>" + html_text(unlisted) + "</p>\n");
}

json energy_json(const energy_comparison& e) {
  json j = {{"verdict", to_string(e.v)}, {"unit", e.unit}, {"method", e.method}};
  if (e.base > 0) j["baseline"] = e.base;
  if (e.cur > 0) j["current"] = e.cur;
  if (e.base_watts > 0) j["baseline_power_w"] = e.base_watts;
  if (e.cur_watts > 0) j["current_power_w"] = e.cur_watts;
  if (e.base > 0 && e.cur > 0) {
    j["change"] = e.change;
    j["gate"] = e.gate;
  }
  j["p_value"] = e.p_value ? json(*e.p_value) : json();
  if (e.held) j["held"] = *e.held == energy_verdict::regression ? "regression" : "improvement";
  if (!e.note.empty()) j["note"] = e.note;
  return j;
}

json energy_summary_json(const comparison& c) {
  json counts;
  for (energy_verdict v : all_energy_verdicts) counts[to_string(v)] = c.count(v);
  return {{"threshold", c.settings.energy.threshold}, {"gating", c.settings.energy.gating}, {"counts", counts}};
}

}  // namespace cudabench::reports

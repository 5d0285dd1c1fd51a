// Energy verdicts: the same rule as a time verdict without a learned gate (the Mann-Whitney U test at alpha and a
// median change of at least the gate), over the energy per operation of each repetition's window, from three
// windows a side; held across machines as time's flags are.
#include "analysis/energy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "results/stats.hpp"

namespace cudabench {

const char* to_string(energy_verdict v) {
  switch (v) {
    case energy_verdict::unchanged: return "energy unchanged";
    case energy_verdict::regression: return "energy regression";
    case energy_verdict::improvement: return "energy improvement";
    case energy_verdict::inconclusive: return "energy inconclusive";
    case energy_verdict::unmeasured: return "energy unmeasured";
    case energy_verdict::not_judged: return "energy not judged";
    case energy_verdict::unconfirmed: return "energy unconfirmed";
    case energy_verdict::same_code: return "energy machine differs (same code)";
    case energy_verdict::machine_differs: return "energy machine differs";
  }
  return "?";
}

namespace {
/// Each repetition's value of `counter` (those that have it).
std::vector<double> per_repetition(const case_result& c, const char* counter) {
  std::vector<double> out;
  for (const repetition& r : c.repetitions)
    if (auto it = r.counters.find(counter); it != r.counters.end() && it->second > 0) out.push_back(it->second);
  return out;
}

/// Why a side has no energy figure: its repetitions' reason, or "" where it has one.
std::string absent_reason(const case_result& c) {
  for (const repetition& r : c.repetitions)
    if (r.record && r.record->energy && !r.record->energy->absent.empty()) return r.record->energy->absent;
  return "no energy recorded";
}

bool recorded(const case_result& c) {
  return std::any_of(c.repetitions.begin(), c.repetitions.end(),
                     [](const repetition& r) { return r.record && r.record->energy; });
}

double median_or_zero(const std::vector<double>& v) { return v.empty() ? 0 : median(v); }

/// Fewer than min_energy_windows windows a side: no test, so no flag. With --gate-energy a change beyond the gate
/// is held as unconfirmed instead, so that a comparison gated on energy never passes it untested (`confirm`
/// measures it in enough processes).
void too_few_windows(energy_comparison& e, const energy_gate_settings& s) {
  e.method = fmt::format("{} vs {} windows: a test needs {} a side", e.base_n, e.cur_n, min_energy_windows);
  e.gate = s.threshold;
  if (!s.gating || std::fabs(e.change) < e.gate) {
    e.v = energy_verdict::not_judged;
    return;
  }
  e.held = e.change > 0 ? energy_verdict::regression : energy_verdict::improvement;
  e.v = energy_verdict::unconfirmed;
  e.note = fmt::format("{} {:+.1f}% beyond the gate, untested (--gate-energy): `confirm` measures it in more processes",
                       to_string(*e.held), 100 * e.change);
}

void judge(energy_comparison& e, const std::vector<double>& b, const std::vector<double>& c,
           const energy_gate_settings& s, double noise_floor, double alpha) {
  e.change = e.cur / e.base - 1;
  if (b.size() < min_energy_windows || c.size() < min_energy_windows) {
    too_few_windows(e, s);
    return;
  }
  e.gate = std::max(s.threshold, noise_floor * std::max(robust_cv(b), robust_cv(c)));
  e.method = fmt::format("rank test ({} vs {} windows)", b.size(), c.size());
  e.p_value = mann_whitney(b, c).p_value;
  const bool significant = *e.p_value < alpha;
  if (significant && e.change >= e.gate)
    e.v = energy_verdict::regression;
  else if (significant && e.change <= -e.gate)
    e.v = energy_verdict::improvement;
  else if (std::fabs(e.change) >= e.gate) {
    e.v = energy_verdict::inconclusive;
    e.note = "shift above the gate but not significant";
  } else
    e.v = energy_verdict::unchanged;
}
}  // namespace

std::optional<energy_comparison> compare_energy(const case_result& b, const case_result& c,
                                                const energy_gate_settings& s, double noise_floor, double alpha) {
  if (b.status != case_status::ok || c.status != case_status::ok || (!recorded(b) && !recorded(c))) return std::nullopt;
  const energy_unit unit = energy_unit_of(c.bytes, c.items, c.flops);
  energy_comparison e;
  e.unit = unit.unit;
  const std::vector<double> bs = per_repetition(b, unit.counter), cs = per_repetition(c, unit.counter);
  e.base_n = bs.size();
  e.cur_n = cs.size();
  e.base = median_or_zero(bs);
  e.cur = median_or_zero(cs);
  e.base_watts = median_or_zero(per_repetition(b, energy_counters::watts));
  e.cur_watts = median_or_zero(per_repetition(c, energy_counters::watts));
  if (bs.empty() || cs.empty()) {
    e.note = bs.empty() ? "baseline: " + absent_reason(b) : "current: " + absent_reason(c);
    return e;
  }
  judge(e, bs, cs, s, noise_floor, alpha);
  return e;
}

void not_gated_energy(energy_comparison& e) {
  const std::optional<energy_verdict> direction = is_flag(e.v) ? std::optional(e.v) : e.held;
  if (!direction || (!is_flag(e.v) && e.v != energy_verdict::unconfirmed)) return;
  e.v = energy_verdict::not_judged;
  e.held.reset();
  e.note =
      fmt::format("{} {:+.1f}%, not gated as its time is not: reported only", to_string(*direction), 100 * e.change);
}

std::size_t energy_windows_to_flag(double alpha) {
  std::size_t n = min_energy_windows;
  for (; n < 50; ++n) {
    std::vector<double> low, high;
    for (std::size_t i = 0; i < n; ++i) {
      low.push_back(double(i));
      high.push_back(double(n + i));
    }
    if (mann_whitney(low, high).p_value < alpha) break;
  }
  return n;
}

bool hold_energy_of_other_machine(energy_comparison& e, bool same_code, const std::string& why) {
  const std::optional<energy_verdict> direction = is_flag(e.v) ? std::optional(e.v) : e.held;
  if (!direction || (!is_flag(e.v) && e.v != energy_verdict::unconfirmed)) return false;
  const std::string was = fmt::format("{} {:+.1f}%", to_string(*direction), 100 * e.change);
  const std::string sep = e.note.empty() ? "" : "; ";
  if (same_code) {
    e.v = energy_verdict::same_code;
    e.held.reset();
    e.note += fmt::format("{}{} with the baseline's device code and launches: the machine differs ({})", sep, was, why);
  } else {
    e.v = energy_verdict::unconfirmed;
    e.held = direction;
    e.note +=
        fmt::format("{}{} on another machine ({}): `confirm` measures both revisions on one machine", sep, was, why);
  }
  return true;
}

double throttled_share(const case_result& c, std::size_t* throttled, std::size_t* samples) {
  double flagged = 0, kept = 0;
  for (const repetition& r : c.repetitions)
    if (r.record && r.record->energy) {
      flagged += double(r.record->energy->throttled_samples);
      kept += double(r.record->samples);
    }
  if (throttled) *throttled = std::size_t(flagged);
  if (samples) *samples = std::size_t(kept);
  return kept > 0 ? flagged / kept : 0;
}

std::string format_energy(double value, const std::string& unit) {
  if (!(value > 0) || !std::isfinite(value)) return "-";
  static const std::pair<double, const char*> prefixes[] = {{1, ""},     {1e-3, "m"},  {1e-6, "u"},
                                                            {1e-9, "n"}, {1e-12, "p"}, {1e-15, "f"}};
  for (const auto& [scale, prefix] : prefixes)
    if (value >= scale) return fmt::format("{:.3g} {}{}", value / scale, prefix, unit);
  return fmt::format("{:.3g} {}", value, unit);
}

}  // namespace cudabench

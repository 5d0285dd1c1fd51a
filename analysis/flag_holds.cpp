// Flags held until one machine confirms them: those of runs of two machines, and those that a comparison of many
// cases judged by their own processes would make by chance.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "analysis/compare_steps.hpp"
#include "analysis/energy.hpp"
#include "cudabench/limit_names.hpp"

namespace cudabench::comparing {
namespace {
/// Across machines, a gated case whose device code or launches changed and whose change is significant is held
/// for confirmation even within its gate: the boards' offsets can hide a real change of the code as easily as
/// make one up, and only one machine measuring both revisions tells them apart. Says whether it held `r`.
bool hold_code_change(case_comparison& r, double alpha, const std::string& why) {
  const bool undecided = r.v == verdict::unchanged || (r.v == verdict::inconclusive && !r.throttled);
  if (!undecided || r.family == limits_family || !r.code_changed() || !r.p_value || !(*r.p_value < alpha)) return false;
  r.held = r.judged_change() > 0 ? verdict::regression : verdict::improvement;
  r.v = verdict::unconfirmed;
  r.note += fmt::format(
      "{}{} {:+.1f}% (p = {:.2g}) with changed device code, on another machine ({}): `confirm` "
      "measures both revisions on one machine",
      r.note.empty() ? "" : "; ", to_string(*r.held), 100 * r.judged_change(), *r.p_value, why);
  return true;
}

/// Energy flags between runs that are not of one machine (`why`), held as time's are (hold_energy_of_other_machine).
void hold_energy_flags(comparison& out, const std::string& why) {
  std::size_t held = 0;
  for (case_comparison& r : out.cases)
    if (r.energy && hold_energy_of_other_machine(*r.energy, r.same_code(), why)) ++held;
  if (held)
    out.header_notes.push_back(fmt::format(
        "{} energy flag(s) held: the runs are not of one machine; an energy flag stands once one machine confirms it",
        held));
}
}  // namespace

void hold_chance_flags(comparison& out) {
  std::vector<double> ps;
  for (const case_comparison& r : out.cases)
    if (r.self_calibrated && r.p_value && !r.throttled) ps.push_back(*r.p_value);
  const std::size_t m = ps.size();
  if (m < 2) return;
  std::sort(ps.begin(), ps.end());
  double cutoff = -1;  // the largest p-value that is a discovery; none where negative
  for (std::size_t i = m; i-- > 0;)
    if (ps[i] <= double(i + 1) / double(m) * out.settings.alpha) {
      cutoff = ps[i];
      break;
    }
  std::size_t held = 0;
  for (case_comparison& r : out.cases) {
    if (!r.self_calibrated || !is_flag(r.v) || *r.p_value <= cutoff) continue;
    r.held = r.v;
    r.v = verdict::unconfirmed;
    r.note += fmt::format(
        "{}{} {:+.1f}% (p = {:.2g}) on its own, but not among the {} cases judged by their processes "
        "at a false discovery rate of {}: more processes settle it",
        r.note.empty() ? "" : "; ", to_string(*r.held), 100 * r.change, *r.p_value, m, pct(out.settings.alpha));
    ++held;
  }
  if (held)
    out.header_notes.push_back(fmt::format(
        "{} flag(s) held: significant on their own, not among the {} cases judged by their processes at a false "
        "discovery rate of {} (`confirm`, or bisect's --extra-time, measures them again)",
        held, m, pct(out.settings.alpha)));
}

void hold_flags_of_other_machines(comparison& out) {
  std::vector<std::string> moved;
  for (const case_comparison& r : out.cases)
    if (r.family == limits_family && r.v == verdict::machine_differs)
      moved.push_back(fmt::format("{} {:+.1f}%", r.name, 100 * r.change));
  out.same_machine = out.machine_differences.empty() && moved.empty();
  if (out.same_machine) return;
  std::string why = describe(out.machine_differences);
  for (const std::string& m : moved) why += (why.empty() ? "" : "; ") + m;
  out.machine_change = why;
  hold_energy_flags(out, why);
  std::size_t held = 0;
  for (case_comparison& r : out.cases) {
    if (hold_code_change(r, out.settings.alpha, why)) ++held;
    if (!is_flag(r.v)) continue;
    const char* was = to_string(r.v);
    ++held;
    if (r.same_code()) {
      r.v = verdict::same_code;
      r.note +=
          fmt::format("{}{} beyond the gate, with the baseline's device code and launches: the machine differs ({})",
                      r.note.empty() ? "" : "; ", was, why);
    } else {
      r.held = r.v;
      r.v = verdict::unconfirmed;
      r.note += fmt::format("{}{} on another machine ({}){}: `confirm` measures both revisions on one machine",
                            r.note.empty() ? "" : "; ", was, why, r.code_changed() ? "; its device code changed" : "");
    }
  }
  if (held)
    out.header_notes.push_back(
        fmt::format("{} flag(s) held: the runs are not of one machine ({}); a flag stands once one machine "
                    "confirms it",
                    held, why));
}

}  // namespace cudabench::comparing

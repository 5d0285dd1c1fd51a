// Terminal, Markdown and JSON renderings of a comparison, and of one run's tables.
#include "reports/render.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "analysis/gates.hpp"
#include "io/format.hpp"
#include "reports/energy_report.hpp"
#include "reports/escape.hpp"

namespace cudabench::reports {
using cudabench::comparison;
using cudabench::verdict;

std::string format_change(double change) { return fmt::format(FMT_COMPILE("{:+.1f}%"), 100 * change); }

std::string verdict_counts(const comparison& c) {
  std::string out;
  for (verdict v : cudabench::all_verdicts) {
    const char* suffix = v == verdict::regression || v == verdict::improvement ? "(s)" : "";
    out += fmt::format("{}{} {}{}", out.empty() ? "" : ", ", c.count(v), to_string(v), suffix);
  }
  if (const std::size_t n = c.throttled()) out += fmt::format("; {} not judged (throttled)", n);
  return out;
}

const char* verdict_word(const comparison& c) {
  if (c.failing()) return "fail";
  if (c.count(verdict::unconfirmed) > 0 || (c.settings.energy.gating && c.count(energy_verdict::unconfirmed) > 0))
    return "unconfirmed";
  return c.throttled() > 0 ? "not judged" : "pass";
}

std::string verdict_headline(const comparison& c) {
  std::string counts;
  for (verdict v : cudabench::all_verdicts)
    if (const std::size_t n = c.count(v)) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, to_string(v));
  if (const std::size_t lost = c.lost()) counts += fmt::format(" ({} lost case(s) among them)", lost);
  if (const std::size_t n = c.throttled()) counts += fmt::format("; {} not judged (throttled)", n);
  return fmt::format("{}: {}", verdict_word(c), counts.empty() ? std::string("no case") : counts);
}

std::string not_gated_explained(const comparison& c) {
  std::string host = c.settings.host_threshold
                         ? fmt::format("here gated by --host-threshold={:g}%", 100 * *c.settings.host_threshold)
                         : "gated only by --host-threshold or by a learned host gate where both runs are of one host";
  return fmt::format(
      "Not gated: reported with its change, never failing the comparison; a host-bound case (host work dominates "
      "its time) is {}, and a case registered as not gated never is",
      host);
}

std::string gates_summary(const comparison& c) {
  const auto& g = c.settings.gates;
  if (!g) return "gates: none (the default threshold for every case)";
  const std::size_t boards = g->boards().size();
  return fmt::format("gates: {} ({} case(s) learned from {} run(s){} of {}, preset {}{}; floor {:.1f}%, k {:g})",
                     g->source.empty() ? "learned here" : g->source, g->cases.size(), g->runs.size(),
                     boards ? fmt::format(" on {} board(s)", boards) : "", g->device, g->preset,
                     g->normalized ? ", on each case's control scale" : "", 100 * g->settings.floor, g->settings.k);
}

std::string format_timeline_metric(const std::string& metric, double value) {
  auto ends_with = [&](const char* suffix) {
    const std::string s(suffix);
    return metric.size() >= s.size() && metric.compare(metric.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with("_fraction") || metric == "copy_compute_overlap") return fmt::format("{:.1f}%", 100 * value);
  if (ends_with("_bytes_per_second")) return fmt::format("{:.1f} GB/s", value * 1e-9);
  if (ends_with("_us")) return cudabench::format_time(value * 1e-6);
  return fmt::format("{:g}", value);
}

std::vector<std::pair<std::string, cudabench::timeline_change>> notable_timeline_changes(const comparison& c) {
  std::vector<std::pair<std::string, cudabench::timeline_change>> out;
  for (auto& r : c.cases)
    for (auto& t : r.timeline)
      if (t.notable()) out.emplace_back(r.name, t);
  return out;
}

std::size_t traced_cases(const comparison& c) {
  return std::size_t(std::count_if(c.cases.begin(), c.cases.end(), [](auto& r) { return !r.timeline.empty(); }));
}

namespace {
const char* limits_title = "Limits (what % of limit is measured against)";

std::string time_or_dash(double s) { return s > 0 ? cudabench::format_time(s) : "-"; }
std::string pct_or_dash(double v) {
  return std::isfinite(v) && v >= 0 ? fmt::format(FMT_COMPILE("{:.1f}%"), 100 * v) : "-";
}
std::string detectable_text(const cudabench::case_comparison& c) {
  if (std::isnan(c.detectable)) return "-";
  if (std::isinf(c.detectable)) return "none";
  return fmt::format(FMT_COMPILE("{:.1f}%"), 100 * c.detectable);
}
std::string p_text(const cudabench::case_comparison& c) {
  return c.p_value ? fmt::format(FMT_COMPILE("{:.3g}"), *c.p_value) : "";
}
std::string gate_text(const cudabench::case_comparison& c) {
  const std::string origin = c.gate_origin();
  return origin.empty() ? "-" : fmt::format(FMT_COMPILE("{:.1f}% {}"), 100 * c.gate, origin);
}
std::string method_and_note(const cudabench::case_comparison& r) {
  return r.note.empty() ? r.method : r.method.empty() ? r.note : r.method + "; " + r.note;
}
const char* verdict_color(verdict v) {
  switch (v) {
    case verdict::regression:
    case verdict::failed: return "31";
    case verdict::improvement: return "32";
    case verdict::inconclusive:
    case verdict::skipped: return "33";
    case verdict::not_gated: return "36";
    default: return "0";
  }
}
std::string summary_line(const comparison& c) { return verdict_counts(c); }
std::string settings_line(const comparison& c, std::string (*escape)(std::string_view)) {
  return fmt::format("threshold {:.1f}% (host-bound cases: {}), noise floor {:g} x CV, alpha {:g} ({}); {}",
                     100 * c.settings.threshold,
                     c.settings.host_threshold ? fmt::format("{:.0f}%", 100 * *c.settings.host_threshold)
                     : c.settings.gates && std::any_of(c.settings.gates->cases.begin(), c.settings.gates->cases.end(),
                                                       [](const auto& g) { return g.second.host; })
                         ? std::string("their host gates where both runs are of one host, else not gated")
                         : std::string("not gated"),
                     c.settings.noise_floor, c.settings.alpha,
                     c.settings.gates ? "Mann-Whitney U, two-sided; with a learned gate, the medians against its drift"
                                      : "Mann-Whitney U, two-sided",
                     escape(gates_summary(c)));
}

void terminal_row(std::string& out, const cudabench::case_comparison& r, bool color) {
  const std::string v = r.verdict_text();
  const std::string vs = color ? fmt::format(FMT_COMPILE("\033[{}m{:>13}\033[0m"), verdict_color(r.v), v)
                               : fmt::format(FMT_COMPILE("{:>13}"), v);
  const bool measured = r.base_median_s > 0 && r.cur_median_s > 0;
  fmt::format_to(std::back_inserter(out),
                 FMT_COMPILE("{:<44} {:>11} {:>11} {:>8} {:>7} {:>7} {:>8} {:>10} {:>23} {}  {}\n"), printable(r.name),
                 time_or_dash(r.base_median_s), time_or_dash(r.cur_median_s), measured ? format_change(r.change) : "-",
                 measured ? pct_or_dash(r.base_noise) : "-", measured ? pct_or_dash(r.cur_noise) : "-", p_text(r),
                 measured ? detectable_text(r) : "-", gate_text(r), vs, printable(method_and_note(r)));
}

template <typename Pred>
std::string markdown_verdict_table(const comparison& c, Pred pred) {
  std::string t =
      "| case | baseline | current | change | noise (b / c) | p | detectable | gate | verdict | method |\n"
      "|---|---:|---:|---:|---:|---:|---:|---|---|---|\n";
  for (auto& r : c.cases) {
    if (!pred(r)) continue;
    const bool measured = r.base_median_s > 0 && r.cur_median_s > 0;
    fmt::format_to(std::back_inserter(t), FMT_COMPILE("| {} | {} | {} | {} | {} / {} | {} | {} | {} | {} | {} |\n"),
                   markdown_code_cell(r.name), time_or_dash(r.base_median_s), time_or_dash(r.cur_median_s),
                   measured ? format_change(r.change) : "-", measured ? pct_or_dash(r.base_noise) : "-",
                   measured ? pct_or_dash(r.cur_noise) : "-", p_text(r), measured ? detectable_text(r) : "-",
                   gate_text(r), r.verdict_text(), markdown_text(method_and_note(r)));
  }
  return t;
}

/// Whether a not-gated case moved by the threshold or more (shown in a section of its own, with what gates it).
bool not_gated_move(const comparison& c, const cudabench::case_comparison& r) {
  return r.v == verdict::not_gated && r.base_median_s > 0 && r.cur_median_s > 0 &&
         std::fabs(r.change) >= c.settings.threshold;
}

/// A section per verdict that needs a look, each with what it means: regressions, improvements, unconfirmed and
/// machine-differs flags, and the not-gated cases that moved by the threshold or more.
std::string markdown_verdict_sections(const comparison& c) {
  struct section {
    const char* title;
    const char* meaning;
    verdict v, also;
  };
  static const section sections[] = {
      {"Regressions", "", verdict::regression, verdict::regression},
      {"Improvements", "", verdict::improvement, verdict::improvement},
      {"Unconfirmed",
       "A change beyond the gate between runs of different machines, never failing: only a measurement of both "
       "revisions on one machine (`confirm`) tells the code's change from the machine's.",
       verdict::unconfirmed, verdict::unconfirmed},
      {"Machine differs",
       "The machine changed, not the code (a `limits` case beyond its gate, a flag that `confirm` did not confirm, "
       "or a change of a case whose device code and launches match the baseline's: same code); never failing.",
       verdict::machine_differs, verdict::same_code}};
  std::string out;
  for (const section& s : sections) {
    if (!c.count(s.v) && !c.count(s.also)) continue;
    out += fmt::format("\n### {}\n\n{}{}", s.title, *s.meaning ? std::string(s.meaning) + "\n\n" : "",
                       markdown_verdict_table(c, [&](auto& r) { return r.v == s.v || r.v == s.also; }));
  }
  const auto moved = std::count_if(c.cases.begin(), c.cases.end(), [&](auto& r) { return not_gated_move(c, r); });
  if (moved)
    out += fmt::format("\n### Not gated, moved by {:.1f}% or more\n\n{}.\n\n{}", 100 * c.settings.threshold,
                       markdown_text(not_gated_explained(c)),
                       markdown_verdict_table(c, [&](auto& r) { return not_gated_move(c, r); }));
  else if (c.count(verdict::not_gated))
    out += fmt::format("\n{} ({} case(s), none moved by {:.1f}% or more).\n", markdown_text(not_gated_explained(c)),
                       c.count(verdict::not_gated), 100 * c.settings.threshold);
  return out;
}
}  // namespace

std::string comparison_terminal(const comparison& c, bool color) {
  std::string out =
      fmt::format("baseline: {} ({})\ncurrent:  {} ({})\n{}\n", printable(c.base_source), printable(c.base_device),
                  printable(c.cur_source), printable(c.cur_device), settings_line(c, printable));
  for (auto& n : c.header_notes) out += "note: " + printable(n) + "\n";
  out += fmt::format("{:<44} {:>11} {:>11} {:>8} {:>7} {:>7} {:>8} {:>10} {:>23} {:>13}  {}\n", "case", "baseline",
                     "current", "change", "noise-b", "noise-c", "p", "detectable", "gate", "verdict", "method / note");
  for (auto& r : c.cases) terminal_row(out, r, color);
  for (auto& [family, g] : c.family_geomean)
    out += fmt::format("geomean {:<20} current/baseline = {:.3f}\n", printable(family), g);
  for (auto& [family, g] : c.family_geomean_not_gated)
    out += fmt::format("geomean {:<20} current/baseline = {:.3f} of its cases not gated (apart: never a verdict)\n",
                       printable(family), g);
  if (const std::size_t traced = traced_cases(c)) {
    const auto changes = notable_timeline_changes(c);
    out += fmt::format("timeline ({} case(s) traced on both sides; informational, not a verdict): {}\n", traced,
                       changes.empty() ? "no notable change" : fmt::format("{} notable change(s)", changes.size()));
    for (auto& [name, t] : changes)
      out += fmt::format("  {:<44} {:<22} {:>12} -> {}\n", printable(name), printable(t.metric),
                         format_timeline_metric(t.metric, t.base), format_timeline_metric(t.metric, t.cur));
  }
  if (const std::string energy = comparison_energy_table(c, printable); !energy.empty()) out += energy;
  out += summary_line(c) + "\n";
  return out;
}

std::string comparison_markdown(const comparison& c) {
  std::string out = "## Benchmark comparison\n\n";
  out += fmt::format("**{}**\n\n", verdict_headline(c));
  out += fmt::format("- baseline: {} ({})\n- current: {} ({})\n- {}\n", markdown_code(c.base_source),
                     markdown_text(c.base_device), markdown_code(c.cur_source), markdown_text(c.cur_device),
                     settings_line(c, markdown_text));
  for (auto& n : c.header_notes) out += "- note: " + markdown_text(n) + "\n";
  out += markdown_verdict_sections(c);
  if (!c.family_geomean.empty()) {
    out += "\n### Geometric mean per family (current / baseline, gated cases)\n\n| family | ratio |\n|---|---:|\n";
    for (auto& [family, g] : c.family_geomean) out += fmt::format("| {} | {:.3f} |\n", markdown_text(family), g);
  }
  if (!c.family_geomean_not_gated.empty()) {
    out +=
        "\nOf the cases not gated (host-bound or declared; apart, never a verdict):\n\n| family | ratio "
        "|\n|---|---:|\n";
    for (auto& [family, g] : c.family_geomean_not_gated)
      out += fmt::format("| {} | {:.3f} |\n", markdown_text(family), g);
  }
  if (const auto changes = notable_timeline_changes(c); !changes.empty()) {
    out +=
        "\n### Timeline changes (from --trace; informational, not a verdict)\n\n| case | metric | baseline | current "
        "|\n|---|---|---:|---:|\n";
    for (auto& [name, t] : changes)
      out += fmt::format("| {} | {} | {} | {} |\n", markdown_code_cell(name), markdown_text(t.metric),
                         format_timeline_metric(t.metric, t.base), format_timeline_metric(t.metric, t.cur));
  }
  if (const std::string energy = comparison_energy_table(c, markdown_text); !energy.empty())
    out += "\n### Energy\n\n" + energy;
  out += fmt::format("\n<details><summary>All {} cases</summary>\n\n{}\n</details>\n", c.cases.size(),
                     markdown_verdict_table(c, [](auto&) { return true; }));
  return out;
}

namespace {
using ordered_json = nlohmann::ordered_json;

/// A case's object in the verdict file, written member by member as the whole document dumped with an indent
/// of 2 writes it there (two levels in), without a tree of the case.
class verdict_case_text {
 public:
  verdict_case_text(std::string& out, nlohmann::detail::serializer<ordered_json>& dump) : out_(out), dump_(dump) {
    out_ += '{';
  }
  ~verdict_case_text() { out_ += "\n    }"; }
  verdict_case_text(const verdict_case_text&) = delete;
  verdict_case_text& operator=(const verdict_case_text&) = delete;
  /// A member (`key` needs no escaping).
  void add(const char* key, const ordered_json& value) {
    out_ += first_ ? "\n      \"" : ",\n      \"";
    first_ = false;
    out_ += key;
    out_ += "\": ";
    dump_.dump(value, true, false, 2, 6);
  }

 private:
  std::string& out_;
  nlohmann::detail::serializer<ordered_json>& dump_;
  bool first_ = true;
};

void verdict_case(std::string& out, nlohmann::detail::serializer<ordered_json>& dump,
                  const cudabench::case_comparison& r) {
  using json = ordered_json;
  auto number_or_null = [](double v) { return std::isfinite(v) ? json(v) : json(); };
  verdict_case_text x(out, dump);
  x.add("name", r.name);
  x.add("verdict", to_string(r.v));
  x.add("method", r.method);
  if (r.base_median_s > 0) x.add("baseline_median_s", r.base_median_s);
  if (r.cur_median_s > 0) x.add("current_median_s", r.cur_median_s);
  if (r.base_median_s > 0 && r.cur_median_s > 0) x.add("change", r.change);
  if (r.normalized_change) {
    x.add("control", r.control);
    x.add("control_change", *r.control_change);
    x.add("normalized_change", *r.normalized_change);
  }
  x.add("p_value", r.p_value ? json(*r.p_value) : json());
  x.add("detectable_change", r.p_value ? number_or_null(r.detectable) : json());
  const bool gated = !r.gate_origin().empty();
  x.add("gate", gated ? json(r.gate) : json());
  x.add("gate_source", gated ? json(r.gate_runs > 0 ? "learned" : "default") : json());
  if (r.gate_runs > 0) x.add("gate_runs", r.gate_runs);
  if (r.same_code() || r.code_changed()) x.add("code", r.same_code() ? "same" : "changed");
  if (!r.note.empty()) x.add("note", r.note);
  if (r.held) x.add("held", to_string(*r.held));
  if (r.lost) x.add("lost", true);
  if (r.throttled) x.add("throttled", true);
  if (r.energy) x.add("energy", energy_json(*r.energy));
  if (!r.timeline.empty()) {
    json timeline;
    for (auto& t : r.timeline)
      timeline[t.metric] = {{"baseline", t.base}, {"current", t.cur}, {"notable", t.notable()}};
    x.add("timeline", timeline);
  }
}
}  // namespace

std::string verdict_json(const comparison& c) {
  nlohmann::ordered_json j;
  j["schema_version"] = verdict_schema_version;
  j["regression"] = c.has_regression();
  j["lost"] = c.lost();
  j["failing"] = c.failing();
  j["throttled"] = c.throttled();
  j["exit_status"] = c.exit_status();
  j["baseline"] = c.base_source;
  j["current"] = c.cur_source;
  using json = nlohmann::ordered_json;
  j["settings"] = {{"threshold", c.settings.threshold},
                   {"host_threshold", c.settings.host_threshold ? json(*c.settings.host_threshold) : json()},
                   {"noise_floor", c.settings.noise_floor},
                   {"alpha", c.settings.alpha},
                   {"practical_floor", c.settings.practical_floor}};
  j["gates"] = json();
  if (const auto& g = c.settings.gates)
    j["gates"] = {{"file", g->source},
                  {"device", g->device},
                  {"preset", g->preset},
                  {"runs", g->runs.size()},
                  {"floor", g->settings.floor},
                  {"k", g->settings.k},
                  {"min_runs", g->settings.min_runs}};
  j["notes"] = c.header_notes;
  json machine = json::array();
  for (const auto& d : c.machine_differences)
    machine.push_back({{"fact", d.fact}, {"baseline", d.a}, {"current", d.b}});
  j["machine"] = {{"same_board", c.same_board},
                  {"same_machine", c.same_machine},
                  {"change", c.machine_change},
                  {"differences", machine}};
  json counts;
  for (verdict v : cudabench::all_verdicts) counts[to_string(v)] = c.count(v);
  j["counts"] = counts;
  j["cases"] = json::array();
  j["family_geomean"] = c.family_geomean;
  j["family_geomean_not_gated"] = c.family_geomean_not_gated;
  j["energy"] = energy_summary_json(c);
  // Each case is made and written on its own, then set in the document's place for them: the text is that of
  // the whole tree dumped at once, without a tree of a million cases in memory.
  const std::string whole = j.dump(2) + "\n";
  const std::string no_cases = "\n  \"cases\": []";
  const std::size_t at = whole.find(no_cases) + no_cases.size() - 1;  // before its ']'
  std::string out = whole.substr(0, at);
  nlohmann::detail::serializer<json> dump(nlohmann::detail::output_adapter<char, std::string>(out), ' ');
  for (auto& r : c.cases) {
    out += &r == &c.cases.front() ? "\n    " : ",\n    ";
    verdict_case(out, dump, r);
  }
  if (!c.cases.empty()) out += "\n  ";
  out.append(whole, at);
  return out;
}

std::string limit_value(const cudabench::run_limit& l) {
  if (l.unit == "B/s") return fmt::format("{:.1f} GB/s", l.rate / 1e9);
  if (l.unit == "FLOP/s") return fmt::format("{:.2f} TFLOP/s", l.rate / 1e12);
  if (l.unit == "1/s") return fmt::format("{:.2f} us per launch", 1e6 / l.rate);
  return fmt::format("{:.4g} {}", l.rate, l.unit);
}

namespace {
std::string limits_table(const cudabench::run_result& run, std::string (*escape)(std::string_view)) {
  if (run.limits.empty()) return {};
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, l] : run.limits) rows.push_back({name, limit_value(l), l.from.empty() ? "-" : l.from});
  return pipe_table({"limit", "measured", "from"}, "|---|---:|---|", rows, escape);
}
}  // namespace

std::string limits_markdown(const cudabench::run_result& run) {
  if (run.limits.empty()) return {};
  std::string out = "| limit | measured | from |\n|---|---:|---|\n";
  for (const auto& [name, l] : run.limits)
    out += fmt::format("| {} | {} | {} |\n", markdown_code_cell(name), markdown_text(limit_value(l)),
                       l.from.empty() ? "-" : markdown_text(l.from));
  return out;
}

std::string speedups_terminal(const std::vector<speedup_table>& tables) {
  std::string out;
  for (auto& t : tables) {
    out += fmt::format("\n{} (size {}){}\n", printable(t.family), printable(t.size_label),
                       t.device >= 0 ? fmt::format(", device {}", t.device) : "");
    std::string head = fmt::format("  {:<32} {:>12} {:>7} {:>7}", "variant", "median", "%peak", "%limit");
    for (auto& [role, name] : t.references) head += fmt::format(" {:>14}", "vs " + printable(role));
    out += head + "\n";
    if (t.roles_left_out)
      out += fmt::format("  (speedups over the first {} reference roles; {} more not shown)\n", max_speedup_roles,
                         t.roles_left_out);
    for (auto& r : t.rows) {
      std::string line =
          fmt::format("  {:<32} {:>12} {:>7} {:>7}", printable(r.variant), cudabench::format_time(r.time_s),
                      pct_or_dash(r.bw_fraction), pct_or_dash(r.limit_fraction));
      for (auto& [role, name] : t.references) line += fmt::format(" {:>13.2f}x", r.speedup.at(role));
      out += line + "\n";
    }
  }
  return out;
}

std::string speedups_markdown(const std::vector<speedup_table>& tables, const std::string& title) {
  std::string out = "## " + markdown_text(title) + "\n";
  for (auto& t : tables) {
    out +=
        fmt::format("\n### {} — size {}{}\n\n| variant | median | % of peak BW | % of limit |", markdown_text(t.family),
                    markdown_text(t.size_label), t.device >= 0 ? fmt::format(", device {}", t.device) : "");
    std::string rule = "|---|---:|---:|---:|";
    for (auto& [role, name] : t.references) {
      out += fmt::format(" speedup vs {} ({}) |", markdown_text(role), markdown_code_cell(name));
      rule += "---:|";
    }
    out += "\n" + rule + "\n";
    for (auto& r : t.rows) {
      out += fmt::format("| {} | {} | {} | {} |", markdown_code_cell(r.variant), cudabench::format_time(r.time_s),
                         pct_or_dash(r.bw_fraction), pct_or_dash(r.limit_fraction));
      for (auto& [role, name] : t.references) out += fmt::format(" {:.2f}x |", r.speedup.at(role));
      out += "\n";
    }
    if (t.roles_left_out)
      out += fmt::format("\nSpeedups over the first {} reference roles; {} more not shown.\n", max_speedup_roles,
                         t.roles_left_out);
  }
  return out;
}

std::string run_terminal(const cudabench::run_result& run) {
  const std::string context = cudabench::custom_context_text(run);
  std::string out = context.empty() ? "" : "context: " + printable(context) + "\n";
  out += speedups_terminal(speedup_tables(run));
  for (const auto& t : declared_tables(run)) out += fmt::format("\n{}:\n{}", printable(t.title), t.terminal);
  if (const std::string limits = limits_table(run, printable); !limits.empty())
    out += fmt::format("\n{}:\n{}", limits_title, limits);
  if (const std::string energy = run_energy_table(run, printable); !energy.empty())
    out += "\nEnergy, clocks and throttling:\n" + energy;
  return out;
}

std::string run_markdown(const cudabench::run_result& run) {
  std::string out = speedups_markdown(speedup_tables(run), "Speedups: " + run.source);
  if (const std::string context = cudabench::custom_context_text(run); !context.empty())
    out.insert(out.find('\n') + 1, "\ncontext: " + markdown_text(context) + "\n");  // under the title
  for (const auto& t : declared_tables(run)) out += "\n### " + markdown_text(t.title) + "\n\n" + t.markdown;
  if (const std::string limits = limits_markdown(run); !limits.empty())
    out += "\n### " + std::string(limits_title) + "\n\n" + limits;
  if (const std::string energy = run_energy_table(run, markdown_text); !energy.empty())
    out += "\n### Energy, clocks and throttling\n\n" + energy;
  return out;
}

}  // namespace cudabench::reports

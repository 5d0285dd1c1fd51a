// The trend in each format: the terminal's lines and the page of folded family sections.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "cudabench/limit_names.hpp"
#include "io/format.hpp"
#include "reports/escape.hpp"
#include "reports/render.hpp"
#include "reports/svg.hpp"
#include "reports/trend.hpp"
#include "results/stats.hpp"

namespace cudabench::reports {
namespace {
const char* apart_heading =
    "kept apart: host-bound or not gated (compare gates them only with --host-threshold or a host gate; no step is "
    "looked for)";

/// "+1.2%", "0.0%" (never "-0.0%"): a fraction's change as it prints to one decimal.
std::string change_text(double fraction) {
  const double pct = 100 * fraction;
  return std::fabs(pct) < 0.05 ? std::string("0.0%") : fmt::format("{:+.1f}%", pct);
}

double last_finite(const std::vector<double>& v) {
  for (std::size_t i = v.size(); i-- > 0;)
    if (std::isfinite(v[i])) return v[i];
  return std::nan("");
}

/// " step +15.3% at nightly-4.json" for each step, "(returned)" after those whose latest runs are back.
std::string steps_text(const trend_series& s, const std::vector<std::string>& at) {
  std::string out;
  for (const trend_step& step : s.steps)
    out += fmt::format(" step {:+.1f}% at {}{}", 100 * step.size, at[step.at], step.returned ? " (returned)" : "");
  return out;
}

/// Each run's date as an axis label, no two alike: YYYY-MM-DD, MM-DD HH:MM where two runs share a day, with the
/// seconds where two share a minute, and " #k" after a label still shared; "run N" where a run has no date.
std::vector<std::string> date_labels(const trend& t) {
  bool dated = true;
  for (const auto& d : t.dates) dated = dated && d.size() >= 16;
  auto labels = [&](std::size_t from, std::size_t length) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < t.dates.size(); ++i)
      out.push_back(dated ? t.dates[i].substr(from, length) : fmt::format("run {}", i + 1));
    return out;
  };
  auto distinct = [](const std::vector<std::string>& v) {
    return std::set<std::string>(v.begin(), v.end()).size() == v.size();
  };
  std::vector<std::string> out = labels(0, 10);
  if (!distinct(out)) out = labels(5, 11);  // MM-DD HH:MM
  if (!distinct(out)) out = labels(5, 14);  // MM-DD HH:MM:SS
  for (auto& l : out) std::replace(l.begin(), l.end(), 'T', ' ');
  std::map<std::string, std::size_t> seen;
  for (auto& l : out)
    if (const std::size_t k = ++seen[l]; k > 1) l += fmt::format(" #{}", k);
  return out;
}

/// The series in percent of its first measured value.
std::vector<double> percent_of_first(const std::vector<double>& v) {
  const auto first = std::find_if(v.begin(), v.end(), [](double x) { return std::isfinite(x) && x > 0; });
  std::vector<double> out(v.size(), std::nan(""));
  if (first == v.end()) return out;
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = 100 * (v[i] / *first - 1);
  return out;
}

/// A run's point as its tooltip says it: "2026-11-12 0123abcd: +1.2% (1.23 ms), regression".
std::string point_tip(const trend& t, const trend_series& s, std::size_t i, double pct, const std::string& verdict) {
  std::string tip = t.dates[i].substr(0, 16) + (i < t.revisions.size() ? " " + t.revisions[i].substr(0, 12) : "");
  if (std::isfinite(pct)) tip += fmt::format(": {:+.1f}% ({})", pct, cudabench::format_time(s.medians_s[i]));
  return tip + (verdict.empty() ? "" : ", " + verdict);
}

/// The band of a series' usual spread in %, around its latest level: the median of its last five points +- 3
/// robust standard deviations of its points about their running median (of five: a step keeps its edge), from
/// their median absolute deviation, so that neither one noisy run nor a step widens it; none under 3 points.
std::pair<double, double> spread_band(const std::vector<double>& pct) {
  std::vector<double> v;
  for (double x : pct)
    if (std::isfinite(x)) v.push_back(x);
  if (v.size() < 3) return {0, 0};
  auto window = [&](std::size_t from, std::size_t to) {  // the median of v[from, to)
    return cudabench::median(std::vector<double>(v.begin() + std::ptrdiff_t(from), v.begin() + std::ptrdiff_t(to)));
  };
  std::vector<double> residuals;
  for (std::size_t i = 0; i < v.size(); ++i)
    residuals.push_back(std::fabs(v[i] - window(i < 2 ? 0 : i - 2, std::min(v.size(), i + 3))));
  const double half = 3 * cudabench::mad_to_stddev * cudabench::median(residuals);
  const double level = window(v.size() - std::min<std::size_t>(v.size(), 5), v.size());
  return {level - half, level + half};
}

/// The chart's links, tooltips (each run's value), flagged runs, spread band and the time at its 0%.
svg::trend_marks case_marks(const trend& t, const trend_series& s, const std::vector<double>& pct,
                            const trend_annotations& a) {
  svg::trend_marks m;
  m.links = a.commit_links;
  for (std::size_t i = 0; i < t.runs.size(); ++i) {
    std::string verdict;
    if (i < a.verdicts.size())
      if (const auto v = a.verdicts[i].find(s.name); v != a.verdicts[i].end()) verdict = v->second;
    if (verdict == "regression" || verdict == "improvement") m.flags.emplace_back(i, verdict == "regression");
    // A dashboard's points each say their run and time (a plain trend page stays light: its axis says the times).
    if (!a.commit_links.empty() || !a.verdicts.empty()) m.tips.push_back(point_tip(t, s, i, pct[i], verdict));
  }
  std::tie(m.band_lo, m.band_hi) = spread_band(pct);
  const auto first = std::find_if(s.medians_s.begin(), s.medians_s.end(), [](double x) { return x > 0; });
  m.base_s = first != s.medians_s.end() ? *first : 0;
  return m;
}

std::string case_chart(const trend& t, const trend_series& s, const std::vector<std::string>& dates,
                       const trend_annotations& a) {
  std::vector<std::size_t> marked;
  std::string title = s.name;
  for (const trend_step& step : s.steps) {
    if (!step.returned) marked.push_back(step.at);
    title += fmt::format("; {} step {:+.1f}% at {}", step.returned ? "returned" : "sustained", 100 * step.size,
                         dates[step.at]);
  }
  if (!s.apart.empty()) title += " (" + s.apart + ")";
  const double last = last_finite(s.medians_s);
  title += fmt::format("; last {}", std::isfinite(last) ? cudabench::format_time(last) : "-");
  if (const auto g = a.gates.find(s.name); g != a.gates.end()) title += fmt::format("; gate {:.1f}%", 100 * g->second);
  const std::vector<double> pct = percent_of_first(s.medians_s);
  return "<div class=\"chart\">" + svg::trend(title, pct, dates, marked, 100 * t.threshold, case_marks(t, s, pct, a)) +
         "</div>\n";
}

/// Whether a case has a time in some run (a case skipped or failed in every run gets no chart).
bool measured(const trend_series& s) {
  return std::any_of(s.medians_s.begin(), s.medians_s.end(), [](double x) { return std::isfinite(x) && x > 0; });
}

/// The families of the trend's measured cases, the project's own first: the `limits` family (cudabench's
/// measurements of the machine) last.
std::vector<std::string> shown_families(const trend& t) {
  std::vector<trend_series> shown;
  for (const trend_series& s : t.series)
    if (measured(s)) shown.push_back({s.name, s.family, {}, {}, {}});
  std::vector<std::string> out = families_in_order(shown);
  std::stable_partition(out.begin(), out.end(), [](const std::string& f) { return f != cudabench::limits_family; });
  return out;
}

std::string family_section(const trend& t, const std::string& family, const std::vector<std::string>& dates,
                           const trend_annotations& a) {
  std::vector<const trend_series*> gated, apart;
  for (const trend_series& s : t.series)
    if (s.family == family && measured(s)) (s.apart.empty() ? gated : apart).push_back(&s);
  const std::size_t sustained =
      std::size_t(std::count_if(gated.begin(), gated.end(), [](auto* s) { return s->sustained(); }));
  const auto f =
      std::find_if(t.families.begin(), t.families.end(), [&](const family_trend& x) { return x.family == family; });
  const double geomean_last = f != t.families.end() ? last_finite(f->geomean) : std::nan("");
  std::string body = fmt::format(
      "<details{}><summary>{}: {} gated device case(s){}, {} with a sustained shift{}</summary>\n",
      sustained ? " open" : "", html_text(family), gated.size(),
      std::isfinite(geomean_last) ? fmt::format(" (geomean {} at the last run)", change_text(geomean_last - 1)) : "",
      sustained, apart.empty() ? "" : fmt::format("; {} kept apart", apart.size()));
  if (f != t.families.end()) {
    std::vector<double> pct;
    for (double g : f->geomean) pct.push_back(100 * (g - 1));
    body += "<div class=\"chart\">" +
            svg::trend(fmt::format("{}: geometric mean of its {} gated device case(s), % of each one's first run",
                                   family, f->cases),
                       pct, dates, {}, 100 * t.threshold) +
            "</div>\n";
  }
  for (const trend_series* s : gated) body += case_chart(t, *s, dates, a);
  if (!apart.empty()) {
    body += fmt::format("<h3>{}</h3>\n", html_text(apart_heading));
    for (const trend_series* s : apart) body += case_chart(t, *s, dates, a);
  }
  return body + "</details>\n";
}
}  // namespace

std::string trend_terminal(const trend& t) {
  std::string out;
  for (const auto& u : t.unreadable) out += "left out (unreadable): " + printable(u) + "\n";
  out += fmt::format("{} runs: {} .. {}\n", t.runs.size(), printable(t.runs.front()), printable(t.runs.back()));
  for (const auto& m : t.machines) out += "note: " + printable(m) + " (a step between boards may be the board's)\n";
  // The cases kept apart first, so that the end of the output (what a job summary's tail shows) is the gated
  // cases, the family geomeans and the count.
  const std::size_t apart = std::size_t(
      std::count_if(t.series.begin(), t.series.end(), [](const trend_series& s) { return !s.apart.empty(); }));
  if (apart) out += fmt::format("{} case(s) {}:\n", apart, apart_heading);
  for (const trend_series& s : t.series)
    if (!s.apart.empty()) {
      const double last = last_finite(s.medians_s);
      out += fmt::format("  {:<42} last {:>12}  {}\n", printable(s.name),
                         std::isfinite(last) ? cudabench::format_time(last) : "-", s.apart);
    }
  if (apart) out += "gated device cases:\n";
  std::vector<std::string> names;
  for (const auto& r : t.runs) names.push_back(printable(r));
  for (const trend_series& s : t.series) {
    if (!s.apart.empty()) continue;
    const double last = last_finite(s.medians_s);
    out += fmt::format("{:<44} last {:>12}{}\n", printable(s.name),
                       std::isfinite(last) ? cudabench::format_time(last) : "-", steps_text(s, names));
  }
  for (const family_trend& f : t.families)
    if (const double g = last_finite(f.geomean); std::isfinite(g))
      out += fmt::format("geomean {:<36} {} at the last run ({} gated device case(s), each against its first run)\n",
                         printable(f.family), change_text(g - 1), f.cases);
  out += fmt::format("{} case(s) with a sustained shift\n", t.sustained());
  return out;
}

std::string trend_html_body(const trend& t, const trend_annotations& a) {
  auto dated = [&](std::size_t i) {
    return "<code>" + html_text(t.runs[i]) + "</code>" + (t.dates[i].empty() ? "" : " (" + html_text(t.dates[i]) + ")");
  };
  std::string body = fmt::format(
      "<p>{} runs: {} .. {}. Each chart is in % of the case's first run (its time on the right axis; each point's "
      "time in its tooltip); a step of {:.1f}% or more that holds is marked red; the green band is the case's usual "
      "spread around its latest level (the median of its last five runs &plusmn; 3 robust standard deviations "
      "about its running median), and a lone run beyond the axis is drawn at its edge as a hollow triangle; host-bound "
      "and not-gated cases are kept "
      "apart.</p>\n",
      t.runs.size(), dated(0), dated(t.runs.size() - 1), 100 * t.threshold);
  for (const auto& m : t.machines)
    body += "<p><b>note:</b> " + html_text(m) + " (a step between boards may be the board's)</p>\n";
  body += fmt::format("<p><b>{} case(s) with a sustained shift</b>", t.sustained());
  std::string list;
  for (const trend_series& s : t.series)
    if (s.sustained()) list += (list.empty() ? "" : ", ") + ("<code>" + html_text(s.name) + "</code>");
  body += (list.empty() ? "" : ": " + list) + "</p>\n";
  const std::vector<std::string> dates = date_labels(t);
  for (const std::string& family : shown_families(t)) body += family_section(t, family, dates, a);
  std::string unmeasured;
  std::size_t n = 0;
  for (const trend_series& s : t.series)
    if (!measured(s) && ++n <= 20)
      unmeasured += (unmeasured.empty() ? "" : ", ") + ("<code>" + html_text(s.name) + "</code>");
  if (n)
    body += fmt::format("<p>{} case(s) with no time in any run (skipped or failed each time; no chart): {}{}</p>\n", n,
                        unmeasured, n > 20 ? fmt::format(" and {} more", n - 20) : "");
  return body;
}

std::string trend_html(const trend& t) {
  return html_page(fmt::format("Trend over {} runs", t.runs.size()), trend_html_body(t, {}));
}

}  // namespace cudabench::reports

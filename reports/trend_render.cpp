// The trend in each format: the terminal's lines and the page of folded family sections.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "io/format.hpp"
#include "reports/escape.hpp"
#include "reports/render.hpp"
#include "reports/svg.hpp"
#include "reports/trend.hpp"

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

/// Each run's date as an axis label: YYYY-MM-DD, or MM-DD HH:MM where two runs share a day; "run N" where a
/// run has no date.
std::vector<std::string> date_labels(const trend& t) {
  std::set<std::string> days;
  bool dated = true;
  for (const auto& d : t.dates) {
    dated = dated && d.size() >= 16;
    days.insert(d.substr(0, 10));
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.dates.size(); ++i) {
    const std::string& d = t.dates[i];
    if (!dated)
      out.push_back(fmt::format("run {}", i + 1));
    else
      out.push_back(days.size() == t.dates.size() ? d.substr(0, 10) : d.substr(5, 5) + " " + d.substr(11, 5));
  }
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

/// The chart's links, tooltips, flagged runs and gate band from what a dashboard knows of the case.
svg::trend_marks case_marks(const trend& t, const trend_series& s, const std::vector<double>& pct,
                            const trend_annotations& a) {
  svg::trend_marks m;
  m.links = a.commit_links;
  for (std::size_t i = 0; i < t.runs.size(); ++i) {
    std::string verdict;
    if (i < a.verdicts.size())
      if (const auto v = a.verdicts[i].find(s.name); v != a.verdicts[i].end()) verdict = v->second;
    if (verdict == "regression" || verdict == "improvement") m.flags.emplace_back(i, verdict == "regression");
    if (!a.commit_links.empty() || !a.verdicts.empty()) m.tips.push_back(point_tip(t, s, i, pct[i], verdict));
  }
  if (const auto g = a.gates.find(s.name); g != a.gates.end()) {
    std::vector<double> finite;
    for (double v : pct)
      if (std::isfinite(v)) finite.push_back(v);
    if (!finite.empty()) {
      std::nth_element(finite.begin(), finite.begin() + std::ptrdiff_t(finite.size() / 2), finite.end());
      const double level = 1 + finite[finite.size() / 2] / 100;
      m.band_lo = 100 * (level * (1 - g->second) - 1);
      m.band_hi = 100 * (level * (1 + g->second) - 1);
    }
  }
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

std::string family_section(const trend& t, const std::string& family, const std::vector<std::string>& dates,
                           const trend_annotations& a) {
  std::vector<const trend_series*> gated, apart;
  for (const trend_series& s : t.series)
    if (s.family == family) (s.apart.empty() ? gated : apart).push_back(&s);
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
      "<p>{} runs: {} .. {}. Each chart is in % of the case's first run; a step of {:.1f}% or more that "
      "holds is marked red; host-bound and not-gated cases are kept apart.</p>\n",
      t.runs.size(), dated(0), dated(t.runs.size() - 1), 100 * t.threshold);
  for (const auto& m : t.machines)
    body += "<p><b>note:</b> " + html_text(m) + " (a step between boards may be the board's)</p>\n";
  body += fmt::format("<p><b>{} case(s) with a sustained shift</b>", t.sustained());
  std::string list;
  for (const trend_series& s : t.series)
    if (s.sustained()) list += (list.empty() ? "" : ", ") + ("<code>" + html_text(s.name) + "</code>");
  body += (list.empty() ? "" : ": " + list) + "</p>\n";
  const std::vector<std::string> dates = date_labels(t);
  for (const std::string& family : families_in_order(t.series)) body += family_section(t, family, dates, a);
  return body;
}

std::string trend_html(const trend& t) {
  return html_page(fmt::format("Trend over {} runs", t.runs.size()), trend_html_body(t, {}));
}

}  // namespace cudabench::reports

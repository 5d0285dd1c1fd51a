// Self-contained HTML pages: the comparison of two runs and the speedup report of one run.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <span>

#include "io/format.hpp"
#include "reports/energy_report.hpp"
#include "reports/escape.hpp"
#include "reports/render.hpp"
#include "reports/svg.hpp"

namespace cudabench::reports {
namespace {
std::string page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_text(title) +
         "</"
         "title><style>body{font-family:sans-serif;margin:20px;color:#222}table{border-collapse:collapse;font-size:"
         "12px}"
         "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}td:first-child,th:first-child{text-align:left}"
         ".regression{background:#fdd}.improvement{background:#dfd}.inconclusive{background:#ffd}.not-gated{color:#666}"
         ".unconfirmed{background:#eef}.same-code,.machine-differs{color:#666}.chart{margin:12px 0}details{margin:10px "
         "0}summary{cursor:pointer;font-weight:bold;padding:4px 0}</style></head><body>\n<h1>" +
         html_text(title) + "</h1>\n" + body + "</body></html>\n";
}
std::string pct(double v) { return std::isfinite(v) ? fmt::format("{:.1f}%", 100 * v) : "-"; }

/// The lanes of a case's timeline: the host phases, one lane per engine (all H2D copies, all kernels, all
/// D2H copies, with every stream's operations), then one lane per stream. Times in microseconds from the
/// sample's start.
std::vector<svg::lane> lanes_of(const cudabench::case_timeline& t) {
  auto us = [&](std::uint64_t ns) { return double(std::int64_t(ns - t.begin_ns)) * 1e-3; };
  std::vector<svg::lane> lanes;
  std::map<std::pair<std::uint32_t, int>, svg::lane> phase_lanes;  // (thread, depth) -> lane
  for (const auto& p : t.ranges) {
    svg::lane& l = phase_lanes[{p.thread, p.depth}];
    l.name = p.thread == 0 ? fmt::format("host phases ({})", p.depth) : fmt::format("thread {} phases", p.thread);
    l.slices.push_back({us(p.start_ns), double(std::int64_t(p.end_ns - p.start_ns)) * 1e-3, p.name, "phase"});
  }
  for (auto& [key, l] : phase_lanes) lanes.push_back(std::move(l));
  svg::lane h2d{"H2D copies (all streams)", {}}, kernels{"kernels (all streams)", {}},
      d2h{"D2H copies (all streams)", {}};
  std::map<std::uint32_t, svg::lane> streams;
  for (const auto& o : t.ops) {
    using kind = cudabench::device_op::kind;
    const std::string k = o.what == kind::kernel   ? "kernel"
                          : o.what == kind::memset ? "memset"
                          : o.copy == "HtoD"       ? "h2d"
                          : o.copy == "DtoH"       ? "d2h"
                                                   : "copy";
    const std::string label = o.what == kind::kernel ? o.name : o.what == kind::memcpy ? "memcpy " + o.copy : "memset";
    const svg::slice s{us(o.start_ns), double(std::int64_t(o.end_ns - o.start_ns)) * 1e-3, label, k};
    if (k == "h2d") h2d.slices.push_back(s);
    if (k == "kernel") kernels.slices.push_back(s);
    if (k == "d2h") d2h.slices.push_back(s);
    streams[o.stream].name = fmt::format("stream {}", o.stream);
    streams[o.stream].slices.push_back(s);
  }
  for (svg::lane* l : {&h2d, &kernels, &d2h})
    if (!l->slices.empty()) lanes.push_back(std::move(*l));
  for (auto& [id, l] : streams) lanes.push_back(std::move(l));
  return lanes;
}

/// One chart per traced case, the cases of a family on one time scale (so a pipeline over more streams
/// shows as shorter), then a table of their timeline metrics.
std::string timelines_html(const cudabench::run_result& run) {
  std::map<std::string, std::vector<const cudabench::case_result*>> by_family;
  for (auto& c : run.cases)
    if (c.timeline) by_family[c.family].push_back(&c);
  if (by_family.empty()) return "";
  std::string body =
      "<h2>Timelines of one traced sample (--trace)</h2>\n<p>Each chart is one untimed sample recorded "
      "after the case's timed repetitions: host phases on top, then each engine, then each stream.</p>\n";
  std::set<std::string> metric_names;
  for (auto& [family, cases] : by_family) {
    double span = 0;
    std::vector<std::pair<const cudabench::case_result*, std::vector<svg::lane>>> charts;
    for (const auto* c : cases) {
      auto lanes = lanes_of(*c->timeline);
      for (auto& [k, v] : c->timeline_metrics) metric_names.insert(k);
      if (lanes.empty()) continue;
      span = std::max(span, double(std::int64_t(c->timeline->end_ns - c->timeline->begin_ns)) * 1e-3);
      charts.emplace_back(c, std::move(lanes));
    }
    for (auto& [c, lanes] : charts) {
      std::string title = c->name;
      if (auto it = c->timeline_metrics.find("copy_compute_overlap"); it != c->timeline_metrics.end())
        title += fmt::format(" (copy/compute overlap {})", pct(it->second));
      body += "<div class=\"chart timeline\">" + svg::timeline(title, lanes, span) + "</div>\n";
      if (const std::string& note = c->timeline->note; !note.empty())
        body += "<p>" + html_text(c->name + ": " + note) + "</p>\n";
    }
  }
  body += "<table><tr><th>case</th>";
  for (auto& m : metric_names) body += "<th>" + html_text(m) + "</th>";
  body += "</tr>\n";
  for (auto& [family, cases] : by_family)
    for (const auto* c : cases) {
      body += "<tr><td>" + html_text(c->name) + "</td>";
      for (auto& m : metric_names) {
        auto it = c->timeline_metrics.find(m);
        body +=
            "<td>" +
            (it == c->timeline_metrics.end() ? std::string("-") : html_text(format_timeline_metric(m, it->second))) +
            "</td>";
      }
      body += "</tr>\n";
    }
  return body + "</table>\n";
}

/// The cases a comparison's page lists: all of them up to html_case_rows, else that many, those with a verdict
/// to look at (not unchanged, not not-gated) first, each group in the comparison's order.
std::vector<const cudabench::case_comparison*> listed_cases(const cudabench::comparison& c) {
  std::vector<const cudabench::case_comparison*> out;
  const bool all = c.cases.size() <= html_case_rows;
  for (const bool notable : {true, false})
    for (const auto& r : c.cases) {
      if (out.size() == html_case_rows) return out;
      const bool is_notable = r.v != cudabench::verdict::unchanged && r.v != cudabench::verdict::not_gated;
      if (all ? notable : is_notable == notable) out.push_back(&r);
    }
  return out;
}
}  // namespace

std::string html_page(const std::string& title, const std::string& body) { return page(title, body); }

namespace {
/// A verdict as an HTML class name.
const char* verdict_class(cudabench::verdict v) {
  switch (v) {
    case cudabench::verdict::not_gated: return "not-gated";
    case cudabench::verdict::machine_differs: return "machine-differs";
    case cudabench::verdict::same_code: return "same-code";
    case cudabench::verdict::new_case: return "new";
    default: return to_string(v);
  }
}

/// One row of the comparison's table.
std::string case_row(const cudabench::case_comparison& r) {
  const bool measured = r.base_median_s > 0 && r.cur_median_s > 0;
  const std::string origin = r.gate_origin();
  return fmt::format(
      "<tr class=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} / "
      "{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
      verdict_class(r.v), html_text(r.name), r.base_median_s > 0 ? cudabench::format_time(r.base_median_s) : "-",
      r.cur_median_s > 0 ? cudabench::format_time(r.cur_median_s) : "-",
      !measured ? "-"
      : r.normalized_change
          ? format_change(r.change) + "<br><small>normalized " + format_change(*r.normalized_change) + "</small>"
          : format_change(r.change),
      measured ? pct(r.base_noise) : "-", measured ? pct(r.cur_noise) : "-",
      r.p_value ? fmt::format("{:.3g}", *r.p_value) : "", measured ? pct(r.detectable) : "-",
      origin.empty() ? "-" : html_text(fmt::format("{:.1f}% {}", 100 * r.gate, origin)), html_text(r.verdict_text()));
}

/// A family's folded section: what it holds in its summary line (open where a case has a verdict to look at),
/// the spread of its repetitions, then its rows.
std::string family_section(const cudabench::comparison& c, const std::string& family,
                           const std::vector<const cudabench::case_comparison*>& rows) {
  std::map<cudabench::verdict, std::size_t> counts;
  std::vector<svg::spread> spreads;
  for (const auto* r : rows) {
    ++counts[r->v];
    if (r->base_samples_s.empty() || r->cur_samples_s.empty()) continue;
    auto [bl, bh] = std::minmax_element(r->base_samples_s.begin(), r->base_samples_s.end());
    auto [cl, ch] = std::minmax_element(r->cur_samples_s.begin(), r->cur_samples_s.end());
    spreads.push_back({r->name, *bl, r->base_median_s, *bh, *cl, r->cur_median_s, *ch});
  }
  std::string summary, open;
  for (const cudabench::verdict v : cudabench::all_verdicts)
    if (counts[v]) {
      summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", counts[v], to_string(v));
      if (v != cudabench::verdict::unchanged && v != cudabench::verdict::not_gated) open = " open";
    }
  if (auto g = c.family_geomean.find(family); g != c.family_geomean.end())
    summary += fmt::format("; geomean of the gated cases {:.3f}x", g->second);
  if (auto g = c.family_geomean_not_gated.find(family); g != c.family_geomean_not_gated.end())
    summary += fmt::format("; of those not gated {:.3f}x (apart)", g->second);
  std::string body = fmt::format("<details{}><summary>{}: {}</summary>\n", open, html_text(family), html_text(summary));
  if (!spreads.empty())
    body += "<div class=\"chart\">" +
            svg::spreads(family + ": baseline vs current, spread of the repetitions", spreads) + "</div>\n";
  body +=
      "<table><tr><th>case</th><th>baseline</th><th>current</th><th>change</th><th>noise "
      "b/c</th><th>p</th><th>detectable</th><th>gate</th><th>verdict</th></tr>\n";
  for (const auto* r : rows) body += case_row(*r);
  return body + "</table>\n</details>\n";
}
}  // namespace

std::string comparison_html(const cudabench::comparison& c) {
  std::string body = fmt::format(
      "<p>baseline <code>{}</code> ({}) &rarr; current <code>{}</code> ({}); threshold {:.1f}%, alpha {:g}; {}</p>\n",
      html_text(c.base_source), html_text(c.base_device), html_text(c.cur_source), html_text(c.cur_device),
      100 * c.settings.threshold, c.settings.alpha, html_text(gates_summary(c)));
  for (auto& n : c.header_notes) body += "<p><b>note:</b> " + html_text(n) + "</p>\n";
  body += fmt::format("<p><b>{}</b></p>\n", html_text(verdict_headline(c)));
  const std::vector<const cudabench::case_comparison*> listed = listed_cases(c);
  if (listed.size() < c.cases.size())
    body += fmt::format(
        "<p><b>{} of {} cases listed</b> (those with a verdict to look at first); the CSV (--csv) and the verdict "
        "file (--verdict) hold every case.</p>\n",
        listed.size(), c.cases.size());
  std::vector<std::pair<std::string, double>> changes;
  for (auto& [family, g] : c.family_geomean) changes.emplace_back(family, g);
  if (!changes.empty())
    body += "<div class=\"chart\">" +
            svg::ratio_bars("Geometric mean current/baseline per family, gated cases (1 = unchanged)", changes) +
            "</div>\n";
  std::vector<std::string> families;
  std::map<std::string, std::vector<const cudabench::case_comparison*>> by_family;
  for (const auto* r : listed) {
    auto& rows = by_family[r->family];
    if (rows.empty()) families.push_back(r->family);
    rows.push_back(r);
  }
  for (const std::string& family : families) body += family_section(c, family, by_family[family]);
  if (const auto timeline = notable_timeline_changes(c); !timeline.empty()) {
    body +=
        "<h2>Timeline changes (from --trace; informational, not a "
        "verdict)</h2>\n<table><tr><th>case</th><th>metric</th><th>baseline</th><th>current</th></tr>\n";
    for (auto& [name, t] : timeline)
      body +=
          fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_text(name), html_text(t.metric),
                      format_timeline_metric(t.metric, t.base), format_timeline_metric(t.metric, t.cur));
    body += "</table>\n";
  }
  body += comparison_energy_html(c);
  return page("cudabench comparison", body);
}

namespace {
/// A run report's head: the device and how it ran, the user's context, the limits measured.
std::string run_header_html(const cudabench::run_result& run) {
  std::string body;
  if (run.device && run.device->available)
    body += fmt::format("<p>{} &middot; driver {} &middot; runtime {} &middot; preset {} &middot; revision {}{}</p>\n",
                        html_text(run.device->name), cudabench::cuda_version_string(run.device->driver_version),
                        cudabench::cuda_version_string(run.device->runtime_version), html_text(run.settings.preset),
                        html_text(run.settings.git_revision.substr(0, 12)), run.settings.git_dirty ? " (dirty)" : "");
  if (const std::string context = cudabench::custom_context_text(run); !context.empty())
    body += "<p>context: " + html_text(context) + "</p>\n";
  if (!run.limits.empty()) {
    body +=
        "<h2>Limits</h2>\n<p>Each case's \"% of limit\" is its bytes (FLOPs for <code>limits/fma</code>) at the rate "
        "of the "
        "limit it names, over its time.</p>\n<table><tr><th>limit</th><th>measured</th><th>from</th></tr>\n";
    for (const auto& [name, l] : run.limits)
      body += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_text(name), html_text(limit_value(l)),
                          html_text(l.from));
    body += "</table>\n";
  }
  return body;
}
/// Time against size per family (log-log), one line per variant, of the tables shown.
std::string family_charts_html(std::span<const speedup_table> tables) {
  std::string body;
  std::map<std::string, std::map<std::string, svg::series>> by_family;
  for (auto& t : tables)
    for (auto& r : t.rows) {
      auto& s = by_family[t.device >= 0 ? fmt::format("{} (device {})", t.family, t.device) : t.family][r.variant];
      s.name = r.variant;
      if (t.size > 0) s.points.emplace_back(t.size, r.time_s * 1e3);
    }
  for (auto& [family, variants] : by_family) {
    std::vector<svg::series> ss;
    for (auto& [v, s] : variants)
      if (s.points.size() > 1) ss.push_back(s);
    if (!ss.empty())
      body +=
          "<div class=\"chart\">" + svg::loglog(family + ": time against size", "size", "median (ms)", ss) + "</div>\n";
  }
  return body;
}

/// One table's section: its speedup, bandwidth and limit charts, then the table.
std::string speedup_table_html(const speedup_table& t) {
  std::string body;
  body += fmt::format("<h2>{} &mdash; size {}{}</h2>\n", html_text(t.family), html_text(t.size_label),
                      t.device >= 0 ? fmt::format(", device {}", t.device) : "");
  if (t.roles_left_out)
    body += fmt::format("<p>speedups over the first {} reference roles; {} more not shown</p>\n", max_speedup_roles,
                        t.roles_left_out);
  for (auto& [role, ref] : t.references) {
    std::vector<std::pair<std::string, double>> v;
    for (auto& r : t.rows) v.emplace_back(r.variant, r.speedup.at(role));
    body += "<div class=\"chart\">" + svg::bars("speedup over " + role + " (" + ref + ")", v, "x", 1.0) + "</div>\n";
  }
  std::vector<std::pair<std::string, double>> bw;
  for (auto& r : t.rows)
    if (r.bw_fraction >= 0) bw.emplace_back(r.variant, 100 * r.bw_fraction);
  if (!bw.empty())
    body += "<div class=\"chart\">" + svg::bars("% of theoretical DRAM bandwidth", bw, "%", 100) + "</div>\n";
  std::vector<std::pair<std::string, double>> lim;
  for (auto& r : t.rows)
    if (r.limit_fraction >= 0) lim.emplace_back(r.variant, 100 * r.limit_fraction);
  if (!lim.empty())
    body += "<div class=\"chart\">" + svg::bars("% of the measured limit (speed of light)", lim, "%", 100) + "</div>\n";
  body += "<table><tr><th>variant</th><th>median</th><th>% peak BW</th><th>% of limit</th>";
  for (auto& [role, ref] : t.references) body += "<th>vs " + html_text(role) + "</th>";
  body += "</tr>\n";
  for (auto& r : t.rows) {
    body += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td>", html_text(r.variant),
                        cudabench::format_time(r.time_s), r.bw_fraction >= 0 ? pct(r.bw_fraction) : "-",
                        r.limit_fraction >= 0 ? pct(r.limit_fraction) : "-");
    for (auto& [role, ref] : t.references) body += fmt::format("<td>{:.2f}x</td>", r.speedup.at(role));
    body += "</tr>\n";
  }
  body += "</table>\n";
  return body;
}
}  // namespace

std::string speedups_html(const cudabench::run_result& run, const std::vector<speedup_table>& tables) {
  std::string body = run_header_html(run);
  // The tables up to html_case_rows variants in all (a page of a million cases would not open); the CSV has every case.
  std::size_t shown = 0, rows = 0, all_rows = 0;
  for (auto& t : tables) {
    if (rows < html_case_rows) {
      rows += t.rows.size();
      ++shown;
    }
    all_rows += t.rows.size();
  }
  if (shown < tables.size())
    body += fmt::format("<p><b>{} of {} tables shown</b> ({} of {} cases); the CSV (--csv) holds every case.</p>\n",
                        shown, tables.size(), rows, all_rows);
  body += family_charts_html(std::span(tables).first(shown));
  for (auto& t : std::span(tables).first(shown)) body += speedup_table_html(t);
  body += run_energy_html(run);
  body += timelines_html(run);
  return page("cudabench report: " + run.source, body);
}

std::string run_html(const cudabench::run_result& run) { return speedups_html(run, speedup_tables(run)); }

}  // namespace cudabench::reports

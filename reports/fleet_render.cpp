// The fleet report in each format: terminal table, Markdown, HTML with a chart per family, CSV and JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "io/format.hpp"
#include "reports/energy_report.hpp"
#include "reports/escape.hpp"
#include "reports/fleet.hpp"
#include "reports/render.hpp"
#include "reports/svg.hpp"

namespace cudabench::reports {
namespace {
std::string median_text(const fleet_cell& c) {
  return c.measured() ? cudabench::format_time(c.median_s) : c.status_name();
}
std::string pct_text(double fraction) { return fraction >= 0 ? fmt::format("{:.1f}%", 100 * fraction) : "-"; }
std::string ratio_text(double ratio) { return ratio > 0 ? fmt::format("{:.3f}x", ratio) : "-"; }
std::string verdict_text(const fleet_cell& c) { return c.verdict.empty() ? "-" : c.verdict; }

/// What the ratios mean, once.
std::string ratio_note(const fleet& f) {
  return fmt::format(
      "ratio: a model's median over {}'s, case by case (below 1: faster than it), and per family its "
      "geomean over the gated device cases; % of limit: against each model's own measured limits",
      f.members[f.reference].label);
}

/// One line per member: what run it is and its verdict file.
std::string member_line(const fleet& f, std::size_t i) {
  const fleet_member& m = f.members[i];
  const std::string verdict =
      m.verdict_source.empty()
          ? "no verdict file"
          : fmt::format("verdict {} ({}){}", std::filesystem::path(m.verdict_source).filename().string(),
                        m.verdict_summary.empty() ? "no case" : m.verdict_summary, m.failing ? ": FAILED" : "");
  return fmt::format("{}{}: preset {}, host {}, revision {}, {}; {}", m.label, i == f.reference ? " (reference)" : "",
                     m.preset, m.host, m.revision, m.source, verdict);
}

/// The rows of one family, in the fleet's order.
std::vector<const fleet_row*> rows_of(const fleet& f, const std::string& family) {
  std::vector<const fleet_row*> out;
  for (const fleet_row& r : f.rows)
    if (r.family == family) out.push_back(&r);
  return out;
}
}  // namespace

std::string fleet_terminal(const fleet& f) {
  std::string out = fmt::format("fleet: {} run(s) side by side\n", f.members.size());
  for (std::size_t i = 0; i < f.members.size(); ++i)
    out += printable(fmt::format("  [{}] {}", i + 1, member_line(f, i))) + "\n";
  for (const std::string& n : f.notes) out += "note: " + printable(n) + "\n";
  out += ratio_note(f) + "\n";
  std::string head = fmt::format("{:<44}", "case"), groups = fmt::format("{:<44}", "");
  for (std::size_t i = 0; i < f.members.size(); ++i) {
    groups += fmt::format(" {:<50}", printable(fmt::format("[{}] {}", i + 1, f.members[i].label)).substr(0, 50));
    head += fmt::format(" {:>11} {:>7} {:>7} {:>8} {:>13}", "median", "noise", "%limit", "ratio", "verdict");
  }
  while (!groups.empty() && groups.back() == ' ') groups.pop_back();
  out += groups + "\n" + head + "\n";
  for (const fleet_row& r : f.rows) {
    std::string line = fmt::format("{:<44}", printable(r.name));
    for (const fleet_cell& c : r.cells)
      line += fmt::format(" {:>11} {:>7} {:>7} {:>8} {:>13}", median_text(c), c.measured() ? pct_text(c.noise) : "-",
                          pct_text(c.limit_fraction), ratio_text(c.ratio), printable(verdict_text(c)));
    out += line + "\n";
  }
  const auto geomeans = f.family_ratios();
  for (const auto& [family, ratios] : geomeans) {
    std::string line = fmt::format("geomean ratio {:<30}", printable(family));
    for (std::size_t i = 0; i < ratios.size(); ++i) line += fmt::format(" [{}] {}", i + 1, ratio_text(ratios[i]));
    out += line + "\n";
  }
  if (const std::string energy = fleet_energy_table(f, printable); !energy.empty()) out += "\n" + energy;
  return out;
}

std::string fleet_markdown(const fleet& f) {
  std::string out = fmt::format(
      "## Fleet: {} run(s) side by side\n\n| | model | preset | host | revision | run | verdict "
      "|\n|---|---|---|---|---|---|---|\n",
      f.members.size());
  for (std::size_t i = 0; i < f.members.size(); ++i) {
    const fleet_member& m = f.members[i];
    const std::string verdict = m.verdict_source.empty()
                                    ? "-"
                                    : markdown_text((m.failing ? "FAILED: " : "") +
                                                    (m.verdict_summary.empty() ? "no case" : m.verdict_summary));
    out += fmt::format("| {}{} | {} | {} | {} | {} | {} | {} |\n", i + 1, i == f.reference ? " (reference)" : "",
                       markdown_text(m.label), markdown_text(m.preset), markdown_text(m.host),
                       markdown_code_cell(m.revision), markdown_code_cell(m.source), verdict);
  }
  out += "\n";
  for (const std::string& n : f.notes) out += "> " + markdown_text(n) + "\n\n";
  out += markdown_text(ratio_note(f)) + ".\n";
  std::string head = "| case |", rule = "|---|";
  for (const fleet_member& m : f.members) {
    const std::string l = markdown_text(m.label);
    head += fmt::format(" {} median | noise | % of limit | ratio | verdict |", l);
    rule += "---:|---:|---:|---:|---|";
  }
  for (const std::string& family : families_in_order(f.rows)) {
    out += fmt::format("\n### {}\n\n{}\n{}\n", markdown_text(family), head, rule);
    for (const fleet_row* r : rows_of(f, family)) {
      out += "| " + markdown_code_cell(r->name) + " |";
      for (const fleet_cell& c : r->cells)
        out += fmt::format(" {} | {} | {} | {} | {} |", median_text(c), c.measured() ? pct_text(c.noise) : "-",
                           pct_text(c.limit_fraction), ratio_text(c.ratio), markdown_text(verdict_text(c)));
      out += "\n";
    }
  }
  if (const std::string energy = fleet_energy_table(f, markdown_text); !energy.empty())
    out += "\n### Performance per watt\n\n" + energy;
  return out;
}

std::string fleet_html(const fleet& f) {
  std::string body =
      "<table><tr><th>run</th><th>model</th><th>preset</th><th>host</th><th>revision</th><th>file</th><th>verdict</"
      "th></tr>\n";
  for (std::size_t i = 0; i < f.members.size(); ++i) {
    const fleet_member& m = f.members[i];
    const std::string verdict =
        m.verdict_source.empty()
            ? "-"
            : (m.failing ? "FAILED: " : "") + (m.verdict_summary.empty() ? "no case" : m.verdict_summary);
    body += fmt::format("<tr{}><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        m.failing ? " class=\"regression\"" : "", i + 1, i == f.reference ? " (reference)" : "",
                        html_text(m.label), html_text(m.preset), html_text(m.host), html_text(m.revision),
                        html_text(m.source), html_text(verdict));
  }
  body += "</table>\n";
  for (const std::string& n : f.notes) body += "<p>" + html_text(n) + "</p>\n";
  body += "<p>" + html_text(ratio_note(f)) + ".</p>\n";
  const auto geomeans = f.family_ratios();
  for (const std::string& family : families_in_order(f.rows)) {
    const std::vector<const fleet_row*> rows = rows_of(f, family);
    const bool notable = std::any_of(rows.begin(), rows.end(), [](const fleet_row* r) {
      return std::any_of(r->cells.begin(), r->cells.end(),
                         [](const fleet_cell& c) { return c.verdict == "regression" || c.verdict == "failed"; });
    });
    body += fmt::format("<details{}><summary>{}: {} case(s)</summary>\n", notable ? " open" : "", html_text(family),
                        rows.size());
    std::vector<std::pair<std::string, double>> bars;
    const auto& ratios = geomeans.at(family);
    for (std::size_t i = 0; i < f.members.size(); ++i)
      if (ratios[i] > 0) bars.emplace_back(f.members[i].label, ratios[i]);
    if (!bars.empty())
      body +=
          "<div class=\"chart\">" +
          svg::ratio_bars(fmt::format("{}: geometric mean of the median over {}'s, gated device cases (1 = as fast)",
                                      family, f.members[f.reference].label),
                          bars) +
          "</div>\n";
    body += "<table><tr><th>case</th>";
    for (const fleet_member& m : f.members)
      body += fmt::format("<th>{}<br>median</th><th>noise</th><th>% of limit</th><th>ratio</th><th>verdict</th>",
                          html_text(m.label));
    body += "</tr>\n";
    for (const fleet_row* r : rows) {
      body += "<tr><td>" + html_text(r->name) + "</td>";
      for (const fleet_cell& c : r->cells)
        body += fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td>",
                            html_text(median_text(c)), c.measured() ? pct_text(c.noise) : "-",
                            pct_text(c.limit_fraction), ratio_text(c.ratio),
                            c.verdict == "regression"    ? "regression"
                            : c.verdict == "improvement" ? "improvement"
                                                         : "",
                            html_text(verdict_text(c)));
      body += "</tr>\n";
    }
    body += "</table>\n</details>\n";
  }
  body += fleet_energy_html(f);
  return html_page(fmt::format("Fleet: {} run(s) side by side", f.members.size()), body);
}

std::string fleet_csv(const fleet& f) {
  auto number = [](double v, double scale) {
    return v >= 0 && std::isfinite(v) ? fmt::format("{:.6g}", v * scale) : std::string();
  };
  std::string out =
      "name,family,model,label,reference,status,median_us,noise_pct,limit_pct,ratio,verdict,per_joule,per_joule_unit\n";
  for (const fleet_row& r : f.rows)
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const fleet_cell& c = r.cells[i];
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.name), csv_field(r.family),
                         csv_field(f.members[i].model), csv_field(f.members[i].label), i == f.reference ? "yes" : "no",
                         c.status_name(), c.measured() ? number(c.median_s, 1e6) : "",
                         c.measured() ? number(c.noise, 100) : "", number(c.limit_fraction, 100), number(c.ratio, 1),
                         csv_field(c.verdict), number(c.per_joule, 1), c.per_joule_unit);
    }
  return out;
}

std::string fleet_json(const fleet& f) {
  using json = nlohmann::ordered_json;
  auto number_or_null = [](double v) { return v >= 0 && std::isfinite(v) ? json(v) : json(); };
  json j = {{"kind", "cudabench fleet"},
            {"schema_version", 1},
            {"reference", f.members[f.reference].label},
            {"failing", f.failing()}};
  json members = json::array();
  for (const fleet_member& m : f.members) {
    json x = {{"label", m.label}, {"model", m.model},       {"slug", m.slug},    {"preset", m.preset},
              {"host", m.host},   {"revision", m.revision}, {"source", m.source}};
    if (m.device >= 0) x["device_ordinal"] = m.device;
    x["verdict_file"] = m.verdict_source.empty() ? json() : json(m.verdict_source);
    x["failing"] = m.failing;
    members.push_back(x);
  }
  j["members"] = members;
  j["notes"] = f.notes;
  json cases = json::array();
  for (const fleet_row& r : f.rows) {
    json results = json::array();
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      const fleet_cell& c = r.cells[i];
      results.push_back({{"label", f.members[i].label},
                         {"status", c.status_name()},
                         {"median_s", c.measured() ? json(c.median_s) : json()},
                         {"noise", c.measured() ? number_or_null(c.noise) : json()},
                         {"limit_fraction", number_or_null(c.limit_fraction)},
                         {"ratio", number_or_null(c.ratio)},
                         {"verdict", c.verdict.empty() ? json() : json(c.verdict)}});
      if (c.per_joule > 0) results.back().update({{"per_joule", c.per_joule}, {"per_joule_unit", c.per_joule_unit}});
    }
    cases.push_back({{"name", r.name}, {"family", r.family}, {"results", results}});
  }
  j["cases"] = cases;
  json families = json::object();
  for (const auto& [family, ratios] : f.family_ratios()) {
    json per = json::object();
    for (std::size_t i = 0; i < ratios.size(); ++i) per[f.members[i].label] = number_or_null(ratios[i]);
    families[family] = per;
  }
  j["family_geomean_ratio"] = families;
  return j.dump(2) + "\n";
}

}  // namespace cudabench::reports

// The dashboard of a history store, page by page: the index, each model and preset's trend, each preset's fleet.
#include "reports/site.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iterator>
#include <map>
#include <utility>

#include "analysis/gates.hpp"
#include "analysis/run_store.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "reports/escape.hpp"
#include "reports/fleet.hpp"
#include "reports/render.hpp"
#include "reports/trend.hpp"
#include "reports/verdict_file.hpp"

namespace cudabench::reports {
namespace {
namespace fs = std::filesystem;

/// A model's or preset's directory name as the store's layout has it (none starting with a dot).
bool layout_name(const std::string& n) {
  return !n.empty() && n[0] != '.' && std::all_of(n.begin(), n.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}

bool real_directory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(fs::symlink_status(p, ec));
}

/// The entries of a directory in name order (none where it cannot be listed).
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

/// The store's <model>/<preset> directories that hold runs/, in name order; every other entry into `left_out`.
std::vector<std::pair<std::string, std::string>> store_directories(const fs::path& store,
                                                                   std::vector<std::string>& left_out) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& model : names_in(store)) {
    if (model == ".git") continue;
    if (!layout_name(model) || !real_directory(store / model)) {
      left_out.push_back(model + ": not a GPU model's directory");
      continue;
    }
    for (const std::string& preset : names_in(store / model)) {
      if (layout_name(preset) && real_directory(store / model / preset / run_store::runs_folder))
        out.emplace_back(model, preset);
      else
        left_out.push_back(model + "/" + preset + ": not a preset's directory holding runs/");
    }
  }
  return out;
}

/// Where a run's commit is on the web: REPOSITORY/commit/REVISION for a revision that is a hash, else "".
std::string commit_link(const std::string& repository, const std::string& revision) {
  const bool hash =
      revision.size() >= 7 && revision.size() <= 64 && std::all_of(revision.begin(), revision.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f');
      });
  return repository.empty() || !hash ? "" : repository + "/commit/" + revision;
}

/// One model and preset: its trend, what the dashboard adds to it, and each run's verdict counts.
struct model_trend {
  std::string model, preset;
  trend t;
  trend_annotations marks;
  std::vector<std::string> counts;  ///< per run: its verdict's counts ("" without a verdict file)
  std::vector<bool> failing;        ///< per run: its verdict failed
  std::string page() const { return model + "/" + preset + ".html"; }
};

/// A run's verdicts (verdict-<time>.json beside runs/ for runs/nightly-<time>.json) and the gates, into `m`.
void read_beside(model_trend& m, const fs::path& at, const site_settings& s, std::vector<std::string>& left_out) {
  for (std::size_t i = 0; i < m.t.runs.size(); ++i) {
    m.marks.commit_links.push_back(commit_link(s.repository, m.t.revisions[i]));
    m.marks.verdicts.emplace_back();
    m.counts.emplace_back();
    m.failing.push_back(false);
    const std::string& run = m.t.runs[i];
    const std::string stamp = run_store::run_stamp(run);
    const fs::path verdict = at / run_store::verdict_name(stamp);
    if (stamp.empty() || !fs::exists(fs::symlink_status(verdict))) continue;
    try {
      const verdict_file v = read_verdict_file(verdict.string());
      m.marks.verdicts.back().insert(v.verdicts.begin(), v.verdicts.end());
      m.counts.back() = v.counts_text().empty() ? "no case" : v.counts_text();
      m.failing.back() = v.failing;
    } catch (const input_error& e) { left_out.push_back(e.what()); }
  }
  const fs::path gates = at / run_store::learned_gates;
  if (!fs::exists(fs::symlink_status(gates))) return;
  try {
    for (const auto& [name, gate] : load_gates(gates.string()).cases) m.marks.gates[name] = gate.gate;
  } catch (const input_error& e) { left_out.push_back(e.what()); }
}

/// A commit as a table cell: its short hash linked to it, else its revision as text.
std::string commit_cell(const model_trend& m, std::size_t i) {
  const std::string& link = m.marks.commit_links[i];
  const std::string& revision = m.t.revisions[i];
  if (link.empty()) return "<code>" + html_text(printable(revision, 40)) + "</code>";
  return "<a href=\"" + html_text(link) + "\"><code>" + html_text(revision.substr(0, 12)) + "</code></a>";
}

std::string verdict_cell(const model_trend& m, std::size_t i) {
  if (m.counts[i].empty()) return "-";
  return (m.failing[i] ? "<b>FAILED</b>: " : "") + html_text(m.counts[i]);
}

std::string model_page(const model_trend& m) {
  std::string body =
      "<p><a href=\"../index.html\">All GPU models and presets</a></p>\n"
      "<p>Each point links to its run's commit and says the run in its tooltip; a red triangle under a point marks "
      "a regression in that run's verdict against the baseline, a green one over it an improvement; a case's "
      "learned gate is in its chart's title.</p>\n"
      "<details><summary>The runs, newest first</summary>\n<table><tr><th>run</th><th>recorded</th><th>commit</th>"
      "<th>verdict against the baseline</th></tr>\n";
  for (std::size_t i = m.t.runs.size(); i-- > 0;)
    body += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_text(m.t.runs[i]),
                        html_text(m.t.dates[i]), commit_cell(m, i), verdict_cell(m, i));
  body += "</table></details>\n" + trend_html_body(m.t, m.marks);
  return html_page(fmt::format("{} {}: {} runs across commits", m.model, m.preset, m.t.runs.size()), body);
}

/// Each preset's models side by side: fleet-<preset>.html.
std::vector<site_page> fleet_pages(const fs::path& store, const std::vector<model_trend>& shown,
                                   std::vector<std::string>& left_out) {
  std::map<std::string, std::vector<std::string>> by_preset;
  for (const model_trend& m : shown) by_preset[m.preset].push_back((store / m.model / m.preset).string());
  std::vector<site_page> out;
  for (const auto& [preset, dirs] : by_preset) try {
      std::string page = fleet_html(build_fleet(fleet_members(dirs)));
      const std::string nav = "<body>\n<p><a href=\"index.html\">All GPU models and presets</a></p>\n";
      if (const auto at = page.find("<body>\n"); at != std::string::npos) page.replace(at, 7, nav);
      out.push_back({"fleet-" + preset + ".html", std::move(page)});
    } catch (const input_error& e) { left_out.push_back(fmt::format("the fleet of preset {}: {}", preset, e.what())); }
  return out;
}

std::string index_page(const std::vector<model_trend>& shown, const std::vector<site_page>& fleets,
                       const std::vector<std::string>& left_out) {
  std::size_t runs = 0;
  for (const model_trend& m : shown) runs += m.t.runs.size();
  std::string body = fmt::format(
      "<p>From the history store: {} run(s) of {} GPU model(s) and preset(s). Each one's page follows its "
      "cases across commits.</p>\n<table><tr><th>GPU model</th><th>preset</th><th>runs</th><th>last run</th>"
      "<th>commit</th><th>its verdict</th><th>sustained shifts</th></tr>\n",
      runs, shown.size());
  for (const model_trend& m : shown) {
    const std::size_t last = m.t.runs.size() - 1;
    body += fmt::format(
        "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        html_text(m.page()), html_text(m.model), html_text(m.preset), m.t.runs.size(), html_text(m.t.dates[last]),
        commit_cell(m, last), verdict_cell(m, last), m.t.sustained());
  }
  body += "</table>\n<h2>The GPU models side by side</h2>\n<ul>\n";
  for (const site_page& f : fleets)
    body += fmt::format("<li><a href=\"{}\">{}</a>: each model's last run and its verdict</li>\n", html_text(f.path),
                        html_text(f.path.substr(6, f.path.size() - 11)));
  body += "</ul>\n";
  if (!left_out.empty()) {
    body += "<h2>Left out</h2>\n<ul>\n";
    for (const std::string& why : left_out) body += "<li>" + html_text(why) + "</li>\n";
    body += "</ul>\n";
  }
  return html_page("Benchmark dashboard", body);
}
}  // namespace

std::vector<site_page> history_site(const std::string& store, const site_settings& s) {
  std::error_code ec;
  if (!fs::is_directory(store, ec))
    throw input_error(store + ": not a directory (a history store: ci/history.sh fetch)");
  std::vector<std::string> left_out;
  std::vector<model_trend> shown;
  for (const auto& [model, preset] : store_directories(store, left_out)) {
    const fs::path at = fs::path(store) / model / preset;
    try {
      model_trend m{model, preset, build_trend((at / run_store::runs_folder).string(), s.threshold, s.hold),
                    {},    {},     {}};
      for (const std::string& u : m.t.unreadable) left_out.push_back(model + "/" + preset + ": " + u);
      read_beside(m, at, s, left_out);
      shown.push_back(std::move(m));
    } catch (const input_error& e) { left_out.push_back(e.what()); }
  }
  if (shown.empty())
    throw input_error(fmt::format(
        "{}: no GPU model and preset with runs to show (the layout of ci/history.sh: <model>/<preset>/runs/*.json){}",
        store, left_out.empty() ? "" : "; " + printable(left_out.front())));
  std::vector<site_page> fleets = fleet_pages(store, shown, left_out);
  std::vector<site_page> pages{{"index.html", index_page(shown, fleets, left_out)}};
  for (const model_trend& m : shown) pages.push_back({m.page(), model_page(m)});
  std::move(fleets.begin(), fleets.end(), std::back_inserter(pages));
  return pages;
}

}  // namespace cudabench::reports

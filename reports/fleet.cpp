// The fleet's model: the members side by side, each labelled, each case's cell per member, the ratios to the
// reference member.
#include "reports/fleet.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <set>

#include "analysis/compare.hpp"
#include "io/errors.hpp"
#include "results/stats.hpp"

namespace cudabench::reports {
namespace {
namespace fs = std::filesystem;

/// Each member's column name: its model, and where two members share a model, the host where that tells them
/// apart, else the path as given (the directory a nightly run was found in names it better than its stamped
/// file), with the device of a --devices run.
void label_members(std::vector<fleet_member>& members) {
  auto where = [](const fleet_member& m) {
    fs::path p = fs::path(m.given.empty() ? m.source : m.given).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    return p.filename().string() + (m.device >= 0 ? fmt::format(" dev{}", m.device) : "");
  };
  for (fleet_member& m : members) {
    std::set<std::string> hosts;
    std::size_t same = 0;
    for (const fleet_member& o : members)
      if (o.model == m.model) {
        ++same;
        hosts.insert(o.host);
      }
    m.label = same == 1              ? m.model
              : hosts.size() == same ? fmt::format("{} ({})", m.model, m.host)
                                     : fmt::format("{} ({})", m.model, where(m));
  }
  // Still two alike (the same file named twice): number them.
  std::map<std::string, std::size_t> seen;
  for (fleet_member& m : members)
    if (const std::size_t n = ++seen[m.label]; n > 1) m.label += fmt::format(" #{}", n);
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::size_t reference_of(const std::vector<fleet_member>& members, const std::optional<std::string>& reference) {
  if (!reference) return 0;
  const std::string want = lower(*reference);
  for (std::size_t i = 0; i < members.size(); ++i)
    if (lower(members[i].model) == want || lower(members[i].slug) == want || lower(members[i].label) == want) return i;
  std::string models;
  for (const fleet_member& m : members) models += (models.empty() ? "" : ", ") + m.model;
  throw cudabench::usage_error(
      fmt::format("--reference={}: no run is of that model (the runs: {})", *reference, models));
}

fleet_cell cell_of(const cudabench::case_result& c) {
  fleet_cell cell;
  cell.status = c.status;
  cell.judged = cudabench::judged_case(c, false);
  if (c.status != cudabench::case_status::ok) return cell;
  cell.median_s = c.median_s;
  if (c.samples_s.size() > 1)
    cell.noise = cudabench::summarize(c.samples_s).cv();
  else if (auto n = c.counters.find("noise_pct"); n != c.counters.end())
    cell.noise = n->second / 100;
  const auto counters = cudabench::median_repetition(c).counters;
  if (auto l = counters.find("limit_fraction"); l != counters.end() && std::isfinite(l->second))
    cell.limit_fraction = l->second;
  const cudabench::energy_unit unit = cudabench::energy_unit_of(c.bytes, c.items, c.flops);
  if (auto e = counters.find(unit.counter); e != counters.end() && std::isfinite(e->second) && e->second > 0) {
    cell.per_joule = 1 / e->second;
    cell.per_joule_unit = std::string(unit.unit + 2) + "/J";  // "J/byte" -> "byte/J"
  }
  return cell;
}

/// Says when the runs come from different revisions of the code (a dirty tree counts as its own): a ratio
/// between them may be the code's change, not the models'.
void note_revisions(fleet& f) {
  auto revision = [](const fleet_member& m) {
    const auto& s = m.run.settings;
    return s.git_revision.empty() ? std::string("not recorded")
                                  : s.git_revision.substr(0, 12) + (s.git_dirty ? " (dirty)" : "");
  };
  std::set<std::string> revisions;
  for (const fleet_member& m : f.members) revisions.insert(revision(m));
  if (revisions.size() < 2) return;
  std::string list;
  for (const fleet_member& m : f.members)
    list += fmt::format("{}{} {}", list.empty() ? "" : ", ", m.label, revision(m));
  f.notes.push_back(
      fmt::format("runs of {} different revisions ({}): a ratio between them may be the code's change, not the models'",
                  revisions.size(), list));
}
}  // namespace

bool fleet::failing() const {
  return std::any_of(members.begin(), members.end(), [](const fleet_member& m) { return m.failing; });
}

std::map<std::string, std::vector<double>> fleet::family_ratios() const {
  std::map<std::string, std::vector<double>> out;
  std::map<std::string, std::vector<std::pair<double, std::size_t>>> sums;  // family -> per member (sum of logs, count)
  for (const fleet_row& r : rows) {
    auto& s = sums[r.family];
    s.resize(members.size());
    for (std::size_t i = 0; i < r.cells.size(); ++i)
      if (r.cells[i].ratio > 0 && r.cells[i].judged && r.cells[reference].judged)
        s[i] = {s[i].first + std::log(r.cells[i].ratio), s[i].second + 1};
  }
  for (const auto& [family, s] : sums)
    for (const auto& [logs, n] : s) out[family].push_back(n > 0 ? std::exp(logs / double(n)) : -1);
  return out;
}

fleet build_fleet(std::vector<fleet_member> members, const std::optional<std::string>& reference) {
  fleet f;
  label_members(members);
  f.reference = reference_of(members, reference);
  f.members = std::move(members);
  std::map<std::string, std::size_t> row_of;
  for (std::size_t i = 0; i < f.members.size(); ++i) {
    const fleet_member& m = f.members[i];
    f.notes.insert(f.notes.end(), m.notes.begin(), m.notes.end());
    if (m.run.cases.empty()) f.notes.push_back(fmt::format("{}: the run holds no case", m.label));
    for (const cudabench::case_result& c : m.run.cases) {
      auto [it, added] = row_of.try_emplace(c.name, f.rows.size());
      if (added) f.rows.push_back({c.name, c.family, std::vector<fleet_cell>(f.members.size())});
      f.rows[it->second].cells[i] = cell_of(c);
    }
  }
  for (fleet_row& r : f.rows) {
    const fleet_cell& ref = r.cells[f.reference];
    for (std::size_t i = 0; i < r.cells.size(); ++i) {
      fleet_cell& cell = r.cells[i];
      if (auto v = f.members[i].verdicts.find(r.name); v != f.members[i].verdicts.end())
        cell.verdict = v->second;
      else if (!f.members[i].verdict_source.empty())
        cell.verdict = cell.status ? "-" : cudabench::to_string(cudabench::verdict::missing);
      if (cell.measured() && ref.measured() && ref.median_s > 0) cell.ratio = cell.median_s / ref.median_s;
    }
  }
  if (f.members.size() > 1) {
    std::string boards;
    for (const fleet_member& m : f.members)
      if (m.run.device && !m.run.device->uuid.empty())
        boards +=
            fmt::format("{}{} {}{}", boards.empty() ? "" : ", ", m.label, cudabench::board_label(m.run.device->uuid),
                        m.run.settings.host_name.empty() ? "" : " on " + m.run.settings.host_name);
    if (!boards.empty()) f.notes.push_back("boards: " + boards);
  }
  note_revisions(f);
  std::set<std::string> presets;
  for (const fleet_member& m : f.members) presets.insert(m.preset);
  if (presets.size() > 1) {
    std::string list;
    for (const fleet_member& m : f.members) list += fmt::format("{}{} {}", list.empty() ? "" : ", ", m.label, m.preset);
    f.notes.push_back("runs of different presets (" + list +
                      "): a case's sizes and repetitions may differ between models");
  }
  return f;
}

}  // namespace cudabench::reports

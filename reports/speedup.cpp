// Speedup tables from one run, using the reference roles each family declares in the JSON.
#include "reports/speedup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

#include "io/format.hpp"
#include "reports/escape.hpp"

namespace cudabench::reports {
namespace {
std::string size_text(double size) {
  // Whole sizes below 2^53 print as integers; the range check comes first, the conversion of a larger one
  // (a file may say 1e300) being undefined.
  const bool whole = std::fabs(size) < 9007199254740992.0 && size == std::trunc(size);
  return whole ? fmt::format("{}", static_cast<long long>(size)) : fmt::format("{:g}", size);
}
std::string size_label(const cudabench::case_result& c) { return c.size > 0 ? size_text(c.size) : c.params; }

/// The row label: the variant, plus what of the parameters is not the size ("pinned_streams/4", "tiled").
std::string row_label(const cudabench::case_result& c) {
  std::string params = c.params;
  const std::string size = c.size > 0 ? size_text(c.size) : c.params;
  if (params == size)
    params.clear();
  else if (params.rfind(size + "/", 0) == 0)
    params = params.substr(size.size() + 1);
  return params.empty() ? c.variant : c.variant + "/" + params;
}

/// A table's rows by variant (the first row of each), so finding a reference costs one look-up a candidate.
using row_index = std::unordered_map<std::string, const speedup_row*>;
row_index index_rows(const speedup_table& t) {
  row_index out;
  for (const auto& r : t.rows) out.emplace(r.variant, &r);
  return out;
}

/// The row of the first of `candidates` measured at this size, or null.
const speedup_row* first_present(const row_index& rows, const std::vector<std::string>& candidates) {
  for (const auto& variant : candidates)
    if (auto it = rows.find(variant); it != rows.end()) return it->second;
  return nullptr;
}

/// Each table's speedups over the first max_speedup_roles roles its family declares.
void add_speedups(speedup_table& t, const cudabench::family_refs& family) {
  const row_index rows = index_rows(t);
  std::size_t roles = 0;
  for (auto& [role, candidates] : family.references) {
    if (roles++ == max_speedup_roles) {
      t.roles_left_out = family.references.size() - max_speedup_roles;
      break;
    }
    const speedup_row* ref = first_present(rows, candidates);
    if (!ref) continue;
    t.references[role] = ref->name;
    const double ref_time = ref->time_s;
    for (auto& r : t.rows) r.speedup[role] = ref_time / r.time_s;
  }
}
}  // namespace

std::vector<speedup_table> speedup_tables(const cudabench::run_result& run) {
  std::vector<speedup_table> tables;
  std::map<std::tuple<std::string, int, std::string>, std::size_t> index;  // (family, device, size) -> table
  auto table_for = [&](const cudabench::case_result& c) -> speedup_table& {
    const std::string label = size_label(c);
    auto [it, added] = index.try_emplace({c.family, c.device, label}, tables.size());
    if (added) tables.push_back({c.family, c.device, c.size, label, {}, 0, {}});
    return tables[it->second];
  };
  for (const auto& c : run.cases) {
    if (c.status != cudabench::case_status::ok || c.median_s <= 0) continue;
    speedup_table& t = table_for(c);
    speedup_row row;
    row.name = c.name;
    row.variant = row_label(c);
    row.time_s = c.median_s;
    auto bw = c.counters.find("bw_peak_fraction");
    if (bw != c.counters.end()) row.bw_fraction = bw->second;
    if (auto lim = c.counters.find("limit_fraction"); lim != c.counters.end()) row.limit_fraction = lim->second;
    t.rows.push_back(row);
  }
  for (auto& t : tables)
    if (auto fam = run.families.find(t.family); fam != run.families.end()) add_speedups(t, fam->second);
  std::stable_sort(tables.begin(), tables.end(), [](auto& a, auto& b) {
    return a.family == b.family && a.device == b.device ? a.size < b.size : false;
  });
  return tables;
}

std::vector<declared_table> declared_tables(const cudabench::run_result& run) {
  std::vector<declared_table> out;
  const std::vector<speedup_table> by_size = speedup_tables(run);
  std::map<std::string, std::vector<std::pair<const speedup_table*, row_index>>> of_family;
  for (const speedup_table& t : by_size)
    if (auto fam = run.families.find(t.family); fam != run.families.end() && !fam->second.tables.empty())
      of_family[t.family].emplace_back(&t, index_rows(t));
  for (const auto& [family, refs] : run.families) {
    const auto sizes = of_family.find(family);
    if (sizes == of_family.end()) continue;
    for (std::size_t d = 0; d < refs.tables.size() && d < max_declared_tables; ++d) {
      const report_table& decl = refs.tables[d];
      std::vector<std::string> header{"size", (decl.base.empty() ? std::string("base") : decl.base.front()) + " (ms)"};
      std::string rule = "|---|---:|";
      for (const auto& v : decl.variants) {
        header.push_back(v + " (ms)");
        rule += "---:|";
      }
      for (const auto& v : decl.variants) {
        header.push_back(v + " speedup");
        rule += "---:|";
      }
      std::vector<std::vector<std::string>> rows;
      for (const auto& [t, index] : sizes->second) {
        const speedup_row* base = first_present(index, decl.base);
        std::vector<const speedup_row*> cols;
        for (const auto& v : decl.variants) cols.push_back(first_present(index, {v}));
        if (!base || std::count(cols.begin(), cols.end(), nullptr)) continue;
        std::vector<std::string> row{t->size_label,
                                     fmt::format("{:.2f}{}", base->time_s * 1e3,
                                                 base->variant == decl.base.front() ? "" : " (" + base->variant + ")")};
        for (const speedup_row* c : cols) row.push_back(fmt::format("{:.3f}", c->time_s * 1e3));
        for (const speedup_row* c : cols) row.push_back(fmt::format("{:.0f}x", base->time_s / c->time_s));
        rows.push_back(std::move(row));
      }
      if (!rows.empty())
        out.push_back(
            {decl.title, pipe_table(header, rule, rows, markdown_text), pipe_table(header, rule, rows, printable)});
    }
  }
  return out;
}

}  // namespace cudabench::reports

// Speedup tables from one run, using the reference roles each family declares in the JSON.
#include "reports/speedup.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cudabench::reports {
namespace {
std::string size_text(double size) {
  return size == double(static_cast<long long>(size)) ? fmt::format("{}", static_cast<long long>(size)) : fmt::format("{:g}", size);
}
std::string size_label(const cudabench::case_result& c) { return c.size > 0 ? size_text(c.size) : c.params; }

/// The row label: the variant, plus what of the parameters is not the size ("pinned_streams/4", "tiled").
std::string row_label(const cudabench::case_result& c) {
  std::string params = c.params;
  const std::string size = c.size > 0 ? size_text(c.size) : c.params;
  if (params == size) params.clear();
  else if (params.rfind(size + "/", 0) == 0) params = params.substr(size.size() + 1);
  return params.empty() ? c.variant : c.variant + "/" + params;
}
}  // namespace

std::vector<speedup_table> speedup_tables(const cudabench::run_result& run) {
  std::vector<speedup_table> tables;
  auto table_for = [&](const cudabench::case_result& c) -> speedup_table& {
    const std::string label = size_label(c);
    for (auto& t : tables)
      if (t.family == c.family && t.device == c.device && t.size_label == label) return t;
    tables.push_back({c.family, c.device, c.size, label, {}, {}});
    return tables.back();
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
    t.rows.push_back(row);
  }
  for (auto& t : tables) {
    auto fam = run.families.find(t.family);
    if (fam == run.families.end()) continue;
    for (auto& [role, candidates] : fam->second.references) {
      const speedup_row* ref = nullptr;
      for (auto& variant : candidates) {
        for (auto& r : t.rows)
          if (r.variant == variant) { ref = &r; break; }
        if (ref) break;
      }
      if (!ref) continue;
      t.references[role] = ref->name;
      const double ref_time = ref->time_s;
      for (auto& r : t.rows) r.speedup[role] = ref_time / r.time_s;
    }
  }
  std::stable_sort(tables.begin(), tables.end(), [](auto& a, auto& b) {
    return a.family == b.family && a.device == b.device ? a.size < b.size : false;
  });
  return tables;
}

std::string paper_table(const cudabench::run_result& run) {
  std::string out = "| size | CPU (ms) | naive (ms) | tiled (ms) | naive speedup | tiled speedup |\n|---|---|---|---|---|---|\n";
  bool any = false;
  for (const auto& t : speedup_tables(run)) {
    if (t.family != "conv2d") continue;
    auto find = [&](const std::string& v) -> const speedup_row* {
      for (auto& r : t.rows) if (r.variant == v) return &r;
      return nullptr;
    };
    const speedup_row* cpu = find("cpu_seq");
    if (!cpu) cpu = find("cpu_par");
    const speedup_row *naive = find("naive"), *tiled = find("tiled");
    if (!cpu || !naive || !tiled) continue;
    any = true;
    out += fmt::format("| {}x{} | {:.2f}{} | {:.3f} | {:.3f} | {:.0f}x | {:.0f}x |\n", t.size_label, t.size_label, cpu->time_s * 1e3,
                       cpu->variant == "cpu_par" ? " (parallel)" : "", naive->time_s * 1e3, tiled->time_s * 1e3,
                       cpu->time_s / naive->time_s, cpu->time_s / tiled->time_s);
  }
  return any ? out : std::string();
}

}  // namespace cudabench::reports

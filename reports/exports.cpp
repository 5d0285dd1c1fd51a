// Dashboard exports of a run.
#include "reports/exports.hpp"

#include <fmt/format.h>

#include <cmath>
#include <unordered_set>

#include "results/stats.hpp"

namespace cudabench::reports {
namespace {
using json = nlohmann::ordered_json;

bool measured(const cudabench::case_result& c) { return c.status == cudabench::case_status::ok && c.median_s > 0; }

/// Adds a member at the end of `object`: ordered_json's operator[] searches its members one by one, which
/// over a run's cases made the export quadratic. A name seen before (never, from the reader, which groups
/// rows by case) takes the searching path and replaces the earlier member.
void append_member(json& object, std::unordered_set<std::string>& names, const std::string& key, json value) {
  if (!names.insert(key).second) {
    object[key] = std::move(value);
    return;
  }
  static_cast<json::object_t::Container&>(object.get_ref<json::object_t&>()).emplace_back(key, std::move(value));
}
}  // namespace

std::size_t repetition_count(const cudabench::case_result& c) {
  return c.repetitions.empty() ? c.samples_s.size() : c.repetitions.size();
}

nlohmann::ordered_json gab_export(const cudabench::run_result& run) {
  json out = json::array();
  for (const cudabench::case_result& c : run.cases) {
    if (!measured(c)) continue;
    double spread_s = c.samples_s.size() > 1 ? cudabench::summarize(c.samples_s).stddev : NAN;
    std::string extra = fmt::format("{} repetition(s)", repetition_count(c));
    if (c.rounds > 1) extra += fmt::format(" in {} rounds", c.rounds);
    if (!std::isfinite(spread_s)) {  // one repetition: its own noise (relative standard error of the mean)
      auto it = c.counters.find("noise_pct");
      spread_s = it != c.counters.end() ? it->second / 100 * c.median_s : NAN;
    }
    if (!c.label.empty()) extra += "; " + c.label;
    json e = {{"name", c.name}, {"unit", "us"}, {"value", c.median_s * 1e6}};
    if (std::isfinite(spread_s)) e["range"] = fmt::format("± {:.4g}", spread_s * 1e6);
    e["extra"] = extra;
    out.push_back(std::move(e));
  }
  return out;
}

nlohmann::ordered_json bmf_export(const cudabench::run_result& run) {
  json out = json::object();
  std::unordered_set<std::string> names;
  for (const cudabench::case_result& c : run.cases) {
    if (!measured(c)) continue;
    json latency = {{"value", c.median_s * 1e9}};
    json entry = json::object();
    if (c.samples_s.empty()) {
      entry["latency"] = std::move(latency);
      append_member(out, names, c.name, std::move(entry));
      continue;
    }
    const cudabench::summary spread = cudabench::summarize(c.samples_s);
    latency["lower_value"] = spread.min * 1e9;
    latency["upper_value"] = spread.max * 1e9;
    entry["latency"] = std::move(latency);
    if (auto it = c.counters.find("items_per_second"); it != c.counters.end() && it->second > 0) {
      const double items = it->second * c.samples_s.front();  // items per run, from the first repetition's rate
      entry["throughput"] = {
          {"value", items / c.median_s}, {"lower_value", items / spread.max}, {"upper_value", items / spread.min}};
    }
    append_member(out, names, c.name, std::move(entry));
  }
  return out;
}

}  // namespace cudabench::reports

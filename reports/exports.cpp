// Dashboard exports of a run.
#include "reports/exports.hpp"

#include <fmt/format.h>

#include <cmath>

#include "harness/stats.hpp"

namespace cudabench::reports {
namespace {
using json = nlohmann::ordered_json;

bool measured(const cudabench::case_result& c) { return c.status == cudabench::case_status::ok && c.median_s > 0; }
}  // namespace

nlohmann::ordered_json gab_export(const cudabench::run_result& run) {
  json out = json::array();
  for (const cudabench::case_result& c : run.cases) {
    if (!measured(c)) continue;
    double spread_s = c.samples_s.size() > 1 ? cudabench::summarize(c.samples_s).stddev : NAN;
    std::string extra = fmt::format("{} repetition(s)", c.samples_s.size());
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
  for (const cudabench::case_result& c : run.cases) {
    if (!measured(c)) continue;
    json latency = {{"value", c.median_s * 1e9}};
    if (c.samples_s.empty()) {
      out[c.name]["latency"] = latency;
      continue;
    }
    const cudabench::summary spread = cudabench::summarize(c.samples_s);
    latency["lower_value"] = spread.min * 1e9;
    latency["upper_value"] = spread.max * 1e9;
    out[c.name]["latency"] = latency;
    if (auto it = c.counters.find("items_per_second"); it != c.counters.end() && it->second > 0) {
      const double items = it->second * c.samples_s.front();  // items per run, from the first repetition's rate
      out[c.name]["throughput"] = {{"value", items / c.median_s}, {"lower_value", items / spread.max}, {"upper_value", items / spread.min}};
    }
  }
  return out;
}

}  // namespace cudabench::reports

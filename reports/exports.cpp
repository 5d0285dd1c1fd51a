// Dashboard exports of a run.
#include "reports/exports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace cudabench::reports {
namespace {
using json = nlohmann::ordered_json;

bool measured(const cudabench::case_result& c) { return c.status == cudabench::case_status::ok && c.median_s > 0; }

double stddev(const std::vector<double>& v) {
  if (v.size() < 2) return NAN;
  double mean = 0, ss = 0;
  for (double x : v) mean += x;
  mean /= double(v.size());
  for (double x : v) ss += (x - mean) * (x - mean);
  return std::sqrt(ss / double(v.size() - 1));
}
}  // namespace

nlohmann::ordered_json gab_export(const cudabench::run_result& run) {
  json out = json::array();
  for (const cudabench::case_result& c : run.cases) {
    if (!measured(c)) continue;
    double spread_s = stddev(c.samples_s);
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
    if (!c.samples_s.empty()) {
      const auto [lo, hi] = std::minmax_element(c.samples_s.begin(), c.samples_s.end());
      latency["lower_value"] = *lo * 1e9;
      latency["upper_value"] = *hi * 1e9;
    }
    out[c.name]["latency"] = latency;
    if (auto it = c.counters.find("items_per_second"); it != c.counters.end() && it->second > 0 && !c.samples_s.empty()) {
      const double items = it->second * c.samples_s.front();  // items per run, from the first repetition's rate
      const auto [lo, hi] = std::minmax_element(c.samples_s.begin(), c.samples_s.end());
      out[c.name]["throughput"] = {{"value", items / c.median_s}, {"lower_value", items / *hi}, {"upper_value", items / *lo}};
    }
  }
  return out;
}

}  // namespace cudabench::reports

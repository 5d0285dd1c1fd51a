// The controls of a case and their rates in a run.
#include "analysis/normalize.hpp"

#include <cmath>

#include "cudabench/limit_names.hpp"

namespace cudabench {

namespace {
/// Limits that are no controls themselves, and what stands for them. Both pinned copies at once move by up to
/// 10% between processes with nothing changed (it is not gated); each one-way copy holds within 0.5%.
const std::map<std::string, std::vector<std::string>> stand_ins = {
    {"limits/bidir_pinned", {"limits/h2d_pinned", "limits/d2h_pinned"}}};
}  // namespace

std::vector<std::string> control_limits(const case_meta& c) {
  if (c.family == limits_family) return {};
  const std::string& name = c.control.empty() ? c.limit : c.control;
  if (name.empty()) return {};
  if (auto it = stand_ins.find(name); it != stand_ins.end()) return it->second;
  return {name};
}

std::string control_name(const case_meta& c) {
  std::string out;
  for (const std::string& l : control_limits(c)) out += (out.empty() ? "" : "+") + l;
  return out;
}

std::map<std::string, double> control_rates(const run_result& run) {
  std::map<std::string, double> out;
  const auto measured = measured_limits(run);
  for (const auto& [name, l] : measured) {
    const case_result* c = run.find(name);
    if (c && c->gated && !c->host_bound) out[name] = l.rate;
  }
  return out;
}

const char* sample_overhead_case(const std::string& cache) {
  return cache == "hot" ? sample_overhead_hot : sample_overhead_cold;
}

std::optional<double> sample_overhead_s(const run_result& run, const std::string& cache) {
  const case_result* c = run.find(sample_overhead_case(cache));
  if (!c || c->status != case_status::ok || !(c->median_s > 0)) return std::nullopt;
  return c->median_s;
}

std::optional<double> control_rate(const case_meta& c, const std::map<std::string, double>& rates) {
  const std::vector<std::string> limits = control_limits(c);
  if (limits.empty()) return std::nullopt;
  double log_sum = 0;
  for (const std::string& l : limits) {
    const auto it = rates.find(l);
    if (it == rates.end() || !(it->second > 0)) return std::nullopt;
    log_sum += std::log(it->second);
  }
  return std::exp(log_sum / double(limits.size()));
}

}  // namespace cudabench

// The CSV table of a run's cases (and of a comparison's verdicts).
#include "reports/csv.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>
#include <unordered_map>

#include "results/results_schema.hpp"
#include "results/stats.hpp"
#include "reports/escape.hpp"
#include "reports/exports.hpp"

namespace cudabench::reports {
namespace {
std::string number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : ""; }
std::string counter(const cudabench::case_result& c, const char* name, double scale = 1) {
  auto it = c.counters.find(name);
  return it == c.counters.end() ? "" : number(it->second * scale);
}
/// "same" or "changed" where both runs recorded the case's device code, else "".
const char* code_text(const cudabench::case_comparison& v) { return v.same_code() ? "same" : v.code_changed() ? "changed" : ""; }
/// A case's energy per operation (its unit's counter), power, clocks and throttled samples: blank where not recorded.
std::string energy_cells(const cudabench::case_result& r) {
  const cudabench::energy_unit unit = cudabench::energy_unit_of(r.bytes, r.items, r.flops);
  const bool has = r.counters.count(unit.counter) > 0;
  return fmt::format(",{},{},{},{},{},{}", counter(r, unit.counter), has ? unit.unit : "", counter(r, cudabench::energy_counters::watts),
                     counter(r, "sm_clock_mhz"), counter(r, cudabench::energy_counters::memory_clock),
                     counter(r, cudabench::energy_counters::throttled));
}
}  // namespace

std::string results_csv(const cudabench::run_result& run, const cudabench::comparison* c) {
  std::string out = "name,status,median_us,repetitions,cv_pct,noise_pct,samples,bytes_per_second,items_per_second,"
                    "flops_per_second,bw_peak_pct,limit_pct,message";
  if (c) out += ",baseline_median_us,change_pct,verdict,p_value,detectable_pct,gate_pct,gate_source,control,control_change_pct,normalized_change_pct,code";
  out += ",energy_per_op,energy_unit,power_w,sm_clock_mhz,mem_clock_mhz,throttled_samples";
  if (c) out += ",baseline_energy_per_op,energy_change_pct,energy_verdict,throttled";
  out += "\n";
  std::unordered_map<std::string, const cudabench::case_comparison*> verdict_of;
  if (c)
    for (const auto& x : c->cases)
      if (x.v != cudabench::verdict::missing) verdict_of[x.name] = &x;
  for (const cudabench::case_result& r : run.cases) {
    const double cv = r.samples_s.size() > 1 ? 100 * cudabench::summarize(r.samples_s).cv() : NAN;
    const bool ok = r.status == cudabench::case_status::ok;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}", csv_field(r.name), cudabench::to_string(r.status),
                       ok ? number(r.median_s * 1e6) : "", repetition_count(r), number(cv), counter(r, "noise_pct"),
                       counter(r, "samples"), counter(r, "bytes_per_second"), counter(r, "items_per_second"),
                       counter(r, "flops_per_second"), counter(r, "bw_peak_fraction", 100), counter(r, "limit_fraction", 100), csv_field(r.message));
    const auto found = verdict_of.find(r.name);
    const cudabench::case_comparison* v = found == verdict_of.end() ? nullptr : found->second;
    if (c) {
      const bool measured = v && v->base_median_s > 0 && v->cur_median_s > 0;
      const bool tested = v && v->p_value;
      const std::string origin = v ? v->gate_origin() : "";
      const bool normalized = v && v->normalized_change;
      out += fmt::format(",{},{},{},{},{},{},{},{},{},{},{}", measured ? number(v->base_median_s * 1e6) : "", measured ? number(100 * v->change) : "",
                         v ? cudabench::to_string(v->v) : "", tested ? number(*v->p_value) : "",
                         tested ? number(100 * v->detectable) : "", origin.empty() ? "" : number(100 * v->gate),
                         origin.empty() ? "" : csv_field(origin), normalized ? csv_field(v->control) : "",
                         normalized ? number(100 * *v->control_change) : "", normalized ? number(100 * *v->normalized_change) : "",
                         v ? code_text(*v) : "");
    }
    out += energy_cells(r);
    if (c) {
      const cudabench::energy_comparison* e = v && v->energy ? &*v->energy : nullptr;
      const bool both = e && e->base > 0 && e->cur > 0;
      out += fmt::format(",{},{},{},{}", both ? number(e->base) : "", both ? number(100 * e->change) : "",
                         e ? cudabench::to_string(e->v) : "", v && v->throttled ? "yes" : "");
    }
    out += "\n";
  }
  return out;
}

namespace {
/// Google Benchmark quotes every text field of its CSV (of csv_text, as every CSV here).
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char ch : csv_text(text)) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string json_number(const nlohmann::ordered_json& row, const char* key) {
  return row.contains(key) && row[key].is_number() ? fmt::format("{}", row[key].get<double>()) : "";
}

/// The numbers of a row that are counters: what Google Benchmark's CSV puts in columns after the fixed ones.
bool is_counter(const std::string& key, const nlohmann::ordered_json& v) {
  namespace k = cudabench::schema;
  static const std::set<std::string> fixed = {k::family_index, k::per_family_instance_index, k::repetitions, k::repetition_index,
                                              k::threads, k::iterations, k::real_time, k::cpu_time, k::device_ordinal,
                                              "bytes_per_second", "items_per_second"};
  return v.is_number() && !fixed.count(key);
}
}  // namespace

std::string benchmark_csv(const nlohmann::ordered_json& doc) {
  namespace k = cudabench::schema;
  const nlohmann::ordered_json& rows = doc.at(k::benchmarks);
  std::set<std::string> counters;
  for (const auto& row : rows)
    for (const auto& [key, v] : row.items())
      if (is_counter(key, v)) counters.insert(key);
  std::string out = "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,error_occurred,error_message";
  for (const std::string& c : counters) out += "," + quoted(c);
  out += "\n";
  for (const auto& row : rows) {
    const bool skipped = row.value(k::skipped, false), failed = row.value(k::error_occurred, false);
    if (skipped || failed) {  // as Google Benchmark: the name, then only whether it was an error and why
      out += quoted(row.value(skipped ? k::run_name : k::name, "")) + std::string(8, ',') + (failed ? "true," : "false,") +
             quoted(row.value(skipped ? k::skip_message : k::error_message, "")) + std::string(counters.size(), ',') + "\n";
      continue;
    }
    out += fmt::format("{},{},{},{},{},{},{},{},,", quoted(row.value(k::name, "")), json_number(row, k::iterations),
                       json_number(row, k::real_time), json_number(row, k::cpu_time), row.value(k::time_unit, ""),
                       json_number(row, "bytes_per_second"), json_number(row, "items_per_second"),
                       row.contains(k::label) ? quoted(row.value(k::label, "")) : "");
    for (const std::string& c : counters) out += "," + json_number(row, c.c_str());
    out += "\n";
  }
  return out;
}

}  // namespace cudabench::reports

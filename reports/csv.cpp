// The CSV table of a run's cases (and of a comparison's verdicts).
#include "reports/csv.hpp"

#include <fmt/format.h>

#include <cmath>
#include <unordered_map>

#include "harness/stats.hpp"
#include "reports/escape.hpp"

namespace cudabench::reports {
namespace {
std::string number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : ""; }
std::string counter(const cudabench::case_result& c, const char* name, double scale = 1) {
  auto it = c.counters.find(name);
  return it == c.counters.end() ? "" : number(it->second * scale);
}
}  // namespace

std::string results_csv(const cudabench::run_result& run, const cudabench::comparison* c) {
  std::string out = "name,status,median_us,repetitions,cv_pct,noise_pct,samples,bytes_per_second,items_per_second,"
                    "flops_per_second,bw_peak_pct,limit_pct,message";
  if (c) out += ",baseline_median_us,change_pct,verdict,p_value,detectable_pct,gate_pct,gate_source";
  out += "\n";
  std::unordered_map<std::string, const cudabench::case_comparison*> verdict_of;
  if (c)
    for (const auto& x : c->cases)
      if (x.v != cudabench::verdict::missing) verdict_of[x.name] = &x;
  for (const cudabench::case_result& r : run.cases) {
    const double cv = r.samples_s.size() > 1 ? 100 * cudabench::summarize(r.samples_s).cv() : NAN;
    const bool ok = r.status == cudabench::case_status::ok;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}", csv_field(r.name), cudabench::to_string(r.status),
                       ok ? number(r.median_s * 1e6) : "", r.samples_s.size(), number(cv), counter(r, "noise_pct"),
                       counter(r, "samples"), counter(r, "bytes_per_second"), counter(r, "items_per_second"),
                       counter(r, "flops_per_second"), counter(r, "bw_peak_fraction", 100), counter(r, "limit_fraction", 100), csv_field(r.message));
    if (c) {
      const auto found = verdict_of.find(r.name);
      const cudabench::case_comparison* v = found == verdict_of.end() ? nullptr : found->second;
      const bool measured = v && v->base_median_s > 0 && v->cur_median_s > 0;
      const bool tested = v && v->p_value;
      const std::string origin = v ? v->gate_origin() : "";
      out += fmt::format(",{},{},{},{},{},{},{}", measured ? number(v->base_median_s * 1e6) : "", measured ? number(100 * v->change) : "",
                         v ? cudabench::to_string(v->v) : "", tested ? number(*v->p_value) : "",
                         tested ? number(100 * v->detectable) : "", origin.empty() ? "" : number(100 * v->gate),
                         origin.empty() ? "" : csv_field(origin));
    }
    out += "\n";
  }
  return out;
}

}  // namespace cudabench::reports

// The CSV table of a run's cases (and of a comparison's verdicts).
#include "reports/csv.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <cmath>
#include <set>
#include <unordered_map>

#include "reports/escape.hpp"
#include "reports/exports.hpp"
#include "results/results_schema.hpp"
#include "results/stats.hpp"

namespace cudabench::reports {
namespace {

/// One line of the table, its cells appended to the text as they are given, with commas between.
class csv_line {
 public:
  explicit csv_line(std::string& out) : out_(out) {}
  ~csv_line() { out_ += '\n'; }
  csv_line(const csv_line&) = delete;
  csv_line& operator=(const csv_line&) = delete;
  /// A cell of text as it is (already a CSV field).
  csv_line& text(std::string_view s) {
    comma();
    out_ += s;
    return *this;
  }
  /// A number in 6 significant digits, or empty where it is not finite or not `shown`.
  csv_line& number(double v, bool shown = true) {
    comma();
    if (shown && std::isfinite(v)) fmt::format_to(std::back_inserter(out_), FMT_COMPILE("{:.6g}"), v);
    return *this;
  }
  /// A counter of the case (times `scale`), empty where it has none.
  csv_line& counter(const cudabench::case_result& c, const char* name, double scale = 1) {
    const auto it = c.counters.find(name);
    return number(it == c.counters.end() ? NAN : it->second * scale);
  }

 private:
  void comma() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  std::string& out_;
  bool first_ = true;
};

/// "same" or "changed" where both runs recorded the case's device code, else "".
const char* code_text(const cudabench::case_comparison& v) {
  return v.same_code() ? "same" : v.code_changed() ? "changed" : "";
}
/// A case's energy per operation (its unit's counter), power, clocks and throttled samples: blank where not recorded.
void energy_cells(csv_line& line, const cudabench::case_result& r) {
  const cudabench::energy_unit unit = cudabench::energy_unit_of(r.bytes, r.items, r.flops);
  const bool has = r.counters.count(unit.counter) > 0;
  line.counter(r, unit.counter)
      .text(has ? unit.unit : "")
      .counter(r, cudabench::energy_counters::watts)
      .counter(r, "sm_clock_mhz");
  line.counter(r, cudabench::energy_counters::memory_clock).counter(r, cudabench::energy_counters::throttled);
}

/// The verdict's cells of a case: blank where it has none.
void verdict_cells(csv_line& line, const cudabench::case_comparison* v) {
  const bool measured = v && v->base_median_s > 0 && v->cur_median_s > 0;
  const bool tested = v && v->p_value;
  const std::string origin = v ? v->gate_origin() : "";
  const bool normalized = v && v->normalized_change;
  line.number(measured ? v->base_median_s * 1e6 : 0, measured).number(measured ? 100 * v->change : 0, measured);
  line.text(v ? cudabench::to_string(v->v) : "")
      .number(tested ? *v->p_value : 0, tested)
      .number(tested ? 100 * v->detectable : 0, tested);
  line.number(origin.empty() ? 0 : 100 * v->gate, !origin.empty()).text(origin.empty() ? "" : csv_field(origin));
  line.text(normalized ? csv_field(v->control) : "").number(normalized ? 100 * *v->control_change : 0, normalized);
  line.number(normalized ? 100 * *v->normalized_change : 0, normalized).text(v ? code_text(*v) : "");
}
}  // namespace

std::string results_csv(const cudabench::run_result& run, const cudabench::comparison* c) {
  std::string out =
      "name,status,median_us,repetitions,cv_pct,noise_pct,samples,bytes_per_second,items_per_second,"
      "flops_per_second,bw_peak_pct,limit_pct,message";
  if (c)
    out +=
        ",baseline_median_us,change_pct,verdict,p_value,detectable_pct,gate_pct,gate_source,control,control_change_pct,"
        "normalized_change_pct,code";
  out += ",energy_per_op,energy_unit,power_w,sm_clock_mhz,mem_clock_mhz,throttled_samples";
  if (c) out += ",baseline_energy_per_op,energy_change_pct,energy_verdict,throttled";
  out += "\n";
  std::unordered_map<std::string_view, const cudabench::case_comparison*> verdict_of;
  if (c)
    for (const auto& x : c->cases)
      if (x.v != cudabench::verdict::missing) verdict_of[x.name] = &x;
  for (const cudabench::case_result& r : run.cases) {
    const double cv = r.samples_s.size() > 1 ? 100 * cudabench::summarize(r.samples_s).cv() : NAN;
    csv_line line(out);
    line.text(csv_field(r.name))
        .text(cudabench::to_string(r.status))
        .number(r.median_s * 1e6, r.status == cudabench::case_status::ok);
    fmt::format_to(std::back_inserter(out), FMT_COMPILE(",{}"), repetition_count(r));
    line.number(cv)
        .counter(r, "noise_pct")
        .counter(r, "samples")
        .counter(r, "bytes_per_second")
        .counter(r, "items_per_second");
    line.counter(r, "flops_per_second")
        .counter(r, "bw_peak_fraction", 100)
        .counter(r, "limit_fraction", 100)
        .text(csv_field(r.message));
    const auto found = verdict_of.find(r.name);
    const cudabench::case_comparison* v = found == verdict_of.end() ? nullptr : found->second;
    if (c) verdict_cells(line, v);
    energy_cells(line, r);
    if (c) {
      const cudabench::energy_comparison* e = v && v->energy ? &*v->energy : nullptr;
      const bool both = e && e->base > 0 && e->cur > 0;
      line.number(both ? e->base : 0, both).number(both ? 100 * e->change : 0, both);
      line.text(e ? cudabench::to_string(e->v) : "").text(v && v->throttled ? "yes" : "");
    }
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
  static const std::set<std::string> fixed = {k::family_index,   k::per_family_instance_index,
                                              k::repetitions,    k::repetition_index,
                                              k::threads,        k::iterations,
                                              k::real_time,      k::cpu_time,
                                              k::device_ordinal, "bytes_per_second",
                                              "items_per_second"};
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
  std::string out =
      "name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,error_occurred,error_"
      "message";
  for (const std::string& c : counters) out += "," + quoted(c);
  out += "\n";
  for (const auto& row : rows) {
    const bool skipped = row.value(k::skipped, false), failed = row.value(k::error_occurred, false);
    if (skipped || failed) {  // as Google Benchmark: the name, then only whether it was an error and why
      out += quoted(row.value(skipped ? k::run_name : k::name, "")) + std::string(8, ',') +
             (failed ? "true," : "false,") + quoted(row.value(skipped ? k::skip_message : k::error_message, "")) +
             std::string(counters.size(), ',') + "\n";
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

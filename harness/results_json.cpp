// Writing the results model as Google Benchmark JSON (its schema, extended with "cudabench" objects).
#include "harness/results_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "harness/stats.hpp"

namespace cudabench {
namespace {
using json = nlohmann::ordered_json;

/// A time unit as Google Benchmark names it, and its size in the second.
struct time_unit {
  const char* name;
  double per_second;
};

/// The unit a case's rows are written in: the largest in which its median is at least 100, so tools that
/// print whole units still show three significant digits (12.8 us as 12800 ns); or the one the run forces.
time_unit unit_for(double median_s, const std::optional<std::string>& forced) {
  static const time_unit units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};
  if (forced)
    for (const time_unit& u : units)
      if (*forced == u.name) return u;
  for (const time_unit& u : units)
    if (median_s * u.per_second >= 100) return u;
  return units[3];
}

json run_metadata(const run_description& run, const suite& s, const std::vector<const case_def*>& selected) {
  json meta;
  meta["schema_version"] = 1;
  meta["preset"] = run.info.preset;
  meta["repetitions"] = run.info.repetitions;
  meta["git_revision"] = run.info.git_revision;
  meta["git_dirty"] = run.info.git_dirty;
  meta["host_name"] = run.info.host_name;
  meta["started_utc"] = run.info.started_utc;
  meta["cache"] = run.cache;
  if (run.injected) meta["inject_slowdown"] = *run.injected;
  if (run.interrupted_by) {
    meta["incomplete"] = true;
    meta["interrupted_by"] = *run.interrupted_by;
  }
  json families = json::object();
  for (const auto& f : s.families) {
    families[f.name] = {{"description", f.description}, {"tolerance", f.tolerance}, {"references", f.references}};
    for (const size_table& t : f.tables)
      families[f.name]["tables"].push_back({{"title", t.title}, {"base", t.base}, {"variants", t.variants}});
  }
  meta["families"] = families;
  json cases = json::object();
  for (const case_def* c : selected) {
    cases[c->name()] = {{"family", c->family}, {"variant", c->variant}, {"params", c->params},
                        {"on", c->on == where::gpu ? "gpu" : "cpu"},
                        {"cache", c->cache == cache_state::cold ? "cold" : "hot"},
                        {"bound", c->on == where::cpu || c->host_bound ? "host" : "device"},
                        {"size", c->size}, {"bytes", c->work.bytes()}, {"items", c->work.items}, {"flops", c->work.flops}};
    if (!c->limit.empty()) cases[c->name()]["limit"] = c->limit;
    if (!c->gated) cases[c->name()]["gated"] = false;
  }
  meta["cases"] = cases;
  return meta;
}

json record_json(const run_record& r) {
  return {{"cache", r.cache}, {"stop", r.stop}, {"samples", r.samples}, {"noise", r.noise},
          {"batch", r.batch}, {"sm_clock_mhz", r.sm_clock_mhz}, {"clock_discards", r.clock_discards},
          {"injected", r.injected}, {"held", r.held}, {"correct", r.correct}, {"note", r.note}};
}

/// The fields every row of a case starts with, in Google Benchmark's order.
json row_head(const std::string& name, const std::string& run_name, std::size_t family_index, const char* run_type,
              std::size_t repetitions) {
  json row;
  row["name"] = name;
  row["family_index"] = family_index;
  row["per_family_instance_index"] = 0;
  row["run_name"] = run_name;
  row["run_type"] = run_type;
  row["repetitions"] = repetitions;
  return row;
}

/// One aggregate ("mean", "median", "stddev", "cv") of a list of values.
double aggregate(const std::string& kind, const std::vector<double>& v) {
  const summary s = summarize(v);
  if (kind == "mean") return s.mean;
  if (kind == "median") return s.median;
  if (kind == "stddev") return s.stddev;
  return s.mean != 0 ? s.stddev / s.mean : 0;  // cv
}

template <typename Get>
std::vector<double> each(const measured_case& m, Get get) {
  std::vector<double> out;
  for (const repetition& r : m.repetitions) out.push_back(get(r));
  return out;
}

/// Counter names present in every repetition, in the first repetition's order.
std::vector<std::string> common_counters(const measured_case& m) {
  std::vector<std::string> names;
  for (const auto& [k, v] : m.repetitions.front().counters) {
    bool everywhere = true;
    for (const repetition& r : m.repetitions) everywhere = everywhere && r.counters.count(k);
    if (everywhere) names.push_back(k);
  }
  return names;
}

void add_case_rows(json& rows, const std::string& name, std::size_t index, const measured_case& m,
                   const std::optional<std::string>& forced_unit) {
  const std::size_t reps = m.repetitions.size();
  const time_unit unit = unit_for(median(each(m, [](const repetition& r) { return r.real_time_s; })), forced_unit);
  if (m.outcome != case_outcome::passed) {
    json row = row_head(name, name, index, "iteration", 1);
    row["repetition_index"] = 0;
    row["threads"] = 1;
    row["iterations"] = 0;
    row["real_time"] = 0.0;
    row["cpu_time"] = 0.0;
    row["time_unit"] = unit.name;
    if (m.outcome == case_outcome::skipped) {
      row["skipped"] = true;
      row["skip_message"] = m.message;
    } else {
      row["error_occurred"] = true;
      row["error_message"] = m.message;
    }
    rows.push_back(std::move(row));
    return;
  }
  for (std::size_t i = 0; i < reps; ++i) {
    const repetition& r = m.repetitions[i];
    json row = row_head(name, name, index, "iteration", reps);
    row["repetition_index"] = i;
    row["threads"] = 1;
    row["iterations"] = 1;
    row["real_time"] = r.real_time_s * unit.per_second;
    row["cpu_time"] = r.cpu_time_s * unit.per_second;
    row["time_unit"] = unit.name;
    for (const auto& [k, v] : r.counters) row[k] = v;
    if (!r.label.empty()) row["label"] = r.label;
    row["cudabench"] = record_json(r.record);
    if (i + 1 == reps && m.timeline) row["cudabench"]["timeline"] = to_json(*m.timeline);
    rows.push_back(std::move(row));
  }
  if (reps < 2) return;
  const std::vector<std::string> counters = common_counters(m);
  for (const std::string kind : {"mean", "median", "stddev", "cv"}) {
    json row = row_head(name + "_" + kind, name, index, "aggregate", reps);
    row["threads"] = 1;
    row["aggregate_name"] = kind;
    row["aggregate_unit"] = kind == "cv" ? "percentage" : "time";
    row["iterations"] = reps;
    const double scale = kind == "cv" ? 1 : unit.per_second;
    row["real_time"] = aggregate(kind, each(m, [](const repetition& r) { return r.real_time_s; })) * scale;
    row["cpu_time"] = aggregate(kind, each(m, [](const repetition& r) { return r.cpu_time_s; })) * scale;
    row["time_unit"] = unit.name;
    for (const std::string& k : counters) row[k] = aggregate(kind, each(m, [&](const repetition& r) { return r.counters.at(k); }));
    if (!m.repetitions.front().label.empty()) row["label"] = m.repetitions.front().label;
    rows.push_back(std::move(row));
  }
}
}  // namespace

namespace {
/// The per-second counter of a row that a limit of `unit` is a rate of (bytes for an unknown unit).
const char* rate_counter(const std::string& unit) {
  return unit == "FLOP/s" ? "flops_per_second" : unit == "1/s" ? "items_per_second" : "bytes_per_second";
}
}  // namespace

std::map<std::string, limit_rate> measured_limits(const nlohmann::ordered_json& doc) {
  std::map<std::string, limit_rate> out;
  const json& cases = doc["context"]["cudabench"]["cases"];
  std::map<std::string, const json*> median_row;  // the median aggregate, else the one iteration row
  for (const json& row : doc["benchmarks"]) {
    const std::string name = row.value("run_name", std::string());
    if (!cases.contains(name) || cases[name].value("family", std::string()) != "limits") continue;
    if (row.value("error_occurred", false) || row.value("skipped", false)) continue;
    if (row.value("aggregate_name", std::string()) == "median" || !median_row.count(name)) median_row[name] = &row;
  }
  for (const auto& [name, row] : median_row) {
    const json& meta = cases[name];
    const char* unit = meta.value("flops", 0.0) > 0 ? "FLOP/s" : meta.value("bytes", 0.0) > 0 ? "B/s" : "1/s";
    const double rate = row->value(rate_counter(unit), 0.0);
    if (std::isfinite(rate) && rate > 0) out[name] = {rate, unit};
  }
  return out;
}

void apply_limits(nlohmann::ordered_json& doc, const std::map<std::string, limit_rate>& limits, const std::string& source) {
  if (limits.empty()) return;
  json& meta = doc["context"]["cudabench"];
  json record = json::object();
  for (const auto& [name, l] : limits) record[name] = {{"rate", l.rate}, {"unit", l.unit}, {"from", source}};
  meta["limits"] = record;
  const json& cases = meta["cases"];
  for (json& row : doc["benchmarks"]) {
    const std::string name = row.value("run_name", std::string());
    if (!cases.contains(name) || !cases[name].contains("limit")) continue;
    const auto it = limits.find(cases[name].value("limit", std::string()));
    if (it == limits.end() || row.value("aggregate_name", std::string()) == "cv") continue;
    const char* counter = rate_counter(it->second.unit);
    if (row.contains(counter) && row[counter].is_number()) row["limit_fraction"] = row[counter].get<double>() / it->second.rate;
  }
}

repetition median_repetition(const measured_case& m) {
  if (m.repetitions.size() < 2) return m.repetitions.empty() ? repetition{} : m.repetitions.front();
  repetition out = m.repetitions.front();
  out.real_time_s = median(each(m, [](const repetition& r) { return r.real_time_s; }));
  out.cpu_time_s = median(each(m, [](const repetition& r) { return r.cpu_time_s; }));
  out.counters.clear();
  for (const std::string& k : common_counters(m)) out.counters[k] = median(each(m, [&](const repetition& r) { return r.counters.at(k); }));
  return out;
}

nlohmann::ordered_json results_document(nlohmann::ordered_json context, const device_info& device,
                                        const run_description& run, const suite& s,
                                        const std::vector<const case_def*>& selected,
                                        const std::map<std::string, measured_case>& results) {
  json doc;
  context["cudabench_device"] = device.available ? device.name : "none";
  context["cudabench_preset"] = run.info.preset;
  context["device"] = to_json(device);
  context["cudabench"] = run_metadata(run, s, selected);
  doc["context"] = std::move(context);
  json rows = json::array();
  for (std::size_t i = 0; i < selected.size(); ++i) {
    const std::string name = selected[i]->name();
    if (auto it = results.find(name); it != results.end()) add_case_rows(rows, name, i, it->second, run.time_unit);
  }
  doc["benchmarks"] = std::move(rows);
  return doc;
}

}  // namespace cudabench

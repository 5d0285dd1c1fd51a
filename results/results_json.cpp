// Writing the results model as Google Benchmark JSON (its schema, extended with "cudabench" objects).
#include "results/results_json.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "io/format.hpp"
#include "results/build_info.hpp"
#include "results/results_schema.hpp"
#include "results/run_builder.hpp"
#include "results/stats.hpp"

namespace cudabench {
namespace {
using json = nlohmann::ordered_json;
namespace k = schema;

/// A time unit as Google Benchmark names it, and its size in the second.
struct time_unit {
  std::string name;
  double per_second;
};

/// The unit of every row: nanoseconds, Google Benchmark's default, unless the run forces another. One unit
/// for every case on every machine, so tools that pair rows by name and unit (compare.py) pair every case;
/// the values are doubles, so no digit is lost to the unit.
time_unit unit_for(const std::optional<std::string>& forced) {
  const std::string name = forced && units_per_second(*forced) > 0 ? *forced : "ns";
  return {name, units_per_second(name)};
}

json build_json(const code_build& b) {
  json j = {{k::build_type, b.build_type}, {k::optimized, b.optimized}, {k::assertions, b.assertions}};
  if (!b.flags.empty()) j[k::flags] = b.flags;
  if (!b.libraries.empty()) {
    j[k::libraries] = json::array();
    for (const library_build& l : b.libraries)
      j[k::libraries].push_back({{k::target, l.target}, {k::optimized, l.optimized}, {k::assertions, l.assertions}});
  }
  return j;
}

json families_json(const std::map<std::string, family_refs>& families) {
  json out = json::object();
  for (const auto& [name, f] : families) {
    json& j = out[name];
    j = {{k::description, f.description}, {k::tolerance, f.tolerance}, {k::references, f.references}};
    for (const report_table& t : f.tables)
      j[k::tables].push_back({{k::title, t.title}, {k::base, t.base}, {k::variants, t.variants}});
  }
  return out;
}

json meta_json(const case_meta& m) {
  json j = {{k::family, m.family},
            {k::variant, m.variant},
            {k::params, m.params},
            {k::on, m.on_gpu ? "gpu" : "cpu"},
            {k::cache, m.declared_cache},
            {k::bound, m.host_bound ? "host" : "device"},
            {k::size, m.size},
            {k::bytes, m.bytes},
            {k::items, m.items},
            {k::flops, m.flops}};
  if (!m.limit.empty()) j[k::limit] = m.limit;
  if (!m.control.empty()) j[k::control] = m.control;
  if (!m.gated) j[k::gated] = false;
  return j;
}

json settings_json(const run_result& run) {
  const run_settings& s = run.settings;
  json meta;
  meta[k::schema_version] = k::version;
  meta[k::preset] = s.preset;
  meta[k::repetitions] = s.repetitions;
  if (s.rounds > 1) meta[k::rounds] = s.rounds;
  if (s.shuffle_seed) meta[k::shuffle_seed] = *s.shuffle_seed;
  meta[k::git_revision] = s.git_revision;
  meta[k::git_dirty] = s.git_dirty;
  meta[k::host_name] = s.host_name;
  if (!s.started_utc.empty()) meta[k::started_utc] = s.started_utc;  // a run made here always has one
  if (!s.energy_absent.empty()) meta[k::energy_absent] = s.energy_absent;
  meta[k::cache] = s.cache;
  if (s.injected) meta[k::inject_slowdown] = *s.injected;
  if (s.incomplete) {
    meta[k::incomplete] = true;
    meta[k::interrupted_by] = s.interrupted_by.value_or("");
  }
  if (s.build) meta[k::build] = build_json(*s.build);
  meta[k::families] = families_json(run.families);
  json cases = json::object();
  for (const case_meta& m : run.selection) cases[m.name] = meta_json(m);
  meta[k::cases] = std::move(cases);
  if (!run.limits.empty()) {
    json limits = json::object();
    for (const auto& [name, l] : run.limits) {
      limits[name] = {{k::rate, l.rate}, {k::unit, l.unit}, {k::from, l.from}};
      if (l.joules_per_unit > 0) limits[name][k::joules_per_unit] = l.joules_per_unit;
    }
    meta[k::limits] = std::move(limits);
  }
  return meta;
}

/// A record of nothing but its round: a plain BENCHMARK()'s row (no samples, cache or check of ours) pooled by
/// bisect --ends or confirm, each process a round.
bool round_only(const run_record& r) {
  return r.round > 0 && r.samples == 0 && r.cache.empty() && r.stop.empty() && r.note.empty() && r.setup_s == 0 &&
         r.check_s == 0 && r.checked && !r.energy;
}

json record_json(const run_record& r) {
  if (round_only(r)) return {{k::round, r.round}};
  json j = {{k::cache, r.cache},
            {k::stop, r.stop},
            {k::samples, r.samples},
            {k::noise, r.noise},
            {k::batch, r.batch},
            {k::sm_clock_mhz, r.sm_clock_mhz},
            {k::clock_discards, r.clock_discards},
            {k::injected, r.injected},
            {k::held, r.held},
            {k::correct, r.correct},
            {k::note, r.note}};
  if (r.round > 0) j[k::round] = r.round;
  if (r.setup_s > 0) j[k::setup_s] = r.setup_s;
  if (r.check_s > 0) j[k::check_s] = r.check_s;
  if (!r.checked) j[k::checked] = false;
  if (r.energy) j[k::energy] = to_json(*r.energy);
  return j;
}

/// The fields every row of a case starts with, in Google Benchmark's order.
json row_head(const case_result& c, const std::string& row_name, std::size_t index, const char* run_type,
              std::size_t reps) {
  json row;
  row[k::name] = row_name;
  row[k::family_index] = index;
  row[k::per_family_instance_index] = 0;
  row[k::run_name] = c.name;
  row[k::run_type] = run_type;
  row[k::repetitions] = reps;
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
std::vector<double> each(const case_result& c, Get get) {
  std::vector<double> out;
  for (const repetition& r : c.repetitions) out.push_back(get(r));
  return out;
}

/// A skipped case's row is named <case>_skipped and carries no times, as an aggregate: compare.py pairs rows
/// by name and averages every iteration row's time into its OVERALL_GEOMEAN, so a time of 0 there would
/// pair with the other run's measurement and zero the geomean. A failed case keeps Google Benchmark's
/// error row (time 0), so compare.py shows the failure.
json ended_row(const case_result& c, std::size_t index, const time_unit& unit) {
  if (c.status == case_status::skipped) {
    json row = row_head(c, c.name + "_skipped", index, "aggregate", 0);
    row[k::threads] = 1;
    row[k::aggregate_name] = "skipped";
    row[k::iterations] = 0;
    row[k::skipped] = true;
    row[k::skip_message] = c.message;
    return row;
  }
  json row = row_head(c, c.name, index, "iteration", 1);
  row[k::repetition_index] = 0;
  row[k::threads] = 1;
  row[k::iterations] = 0;
  row[k::real_time] = 0.0;
  row[k::cpu_time] = 0.0;
  row[k::time_unit] = unit.name;
  row[k::error_occurred] = true;
  row[k::error_message] = c.message;
  return row;
}

/// How many runs of the case a repetition's row covers: its kept samples times the runs each sample timed, or
/// the iterations Google Benchmark ran (a row without samples of ours: at most a record of its round).
std::size_t runs_covered(const repetition& r) {
  if (!r.record || r.record->samples == 0) return std::max<std::size_t>(1, r.iterations);
  return std::max<std::size_t>(1, r.record->samples) * static_cast<std::size_t>(std::max(1, r.record->batch));
}

json repetition_row(const case_result& c, std::size_t index, std::size_t i, const time_unit& unit) {
  const repetition& r = c.repetitions[i];
  const std::size_t reps = c.repetitions.size();
  json row = row_head(c, c.name, index, "iteration", reps);
  row[k::repetition_index] = i;
  row[k::threads] = 1;
  row[k::iterations] = runs_covered(r);
  row[k::real_time] = r.real_time_s * unit.per_second;
  row[k::cpu_time] = r.cpu_time_s * unit.per_second;
  row[k::time_unit] = unit.name;
  for (const auto& [name, v] : r.counters) row[name.str()] = v;
  if (!r.label.empty()) row[k::label] = r.label;
  if (r.record) row[k::cudabench] = record_json(*r.record);
  if (i + 1 == reps && c.timeline) row[k::cudabench][k::timeline] = to_json(*c.timeline);
  if (i + 1 == reps && c.code) row[k::cudabench][k::code] = to_json(*c.code);
  if (c.device >= 0) row[k::device_ordinal] = c.device;
  return row;
}

json aggregate_row(const case_result& c, std::size_t index, const std::string& kind, const time_unit& unit) {
  const std::size_t reps = c.repetitions.size();
  json row = row_head(c, c.name + "_" + kind, index, "aggregate", reps);
  row[k::threads] = 1;
  row[k::aggregate_name] = kind;
  row[k::aggregate_unit] = kind == "cv" ? "percentage" : "time";
  row[k::iterations] = reps;
  const double scale = kind == "cv" ? 1 : unit.per_second;
  row[k::real_time] = aggregate(kind, each(c, [](const repetition& r) { return r.real_time_s; })) * scale;
  row[k::cpu_time] = aggregate(kind, each(c, [](const repetition& r) { return r.cpu_time_s; })) * scale;
  row[k::time_unit] = unit.name;
  for (const auto& counter : c.repetitions.front().counters) {
    const std::string name = counter.first.str();
    bool everywhere = true;
    for (const repetition& r : c.repetitions) everywhere = everywhere && r.counters.count(name);
    if (everywhere) row[name] = aggregate(kind, each(c, [&](const repetition& r) { return r.counters.at(name); }));
  }
  if (!c.repetitions.front().label.empty()) row[k::label] = c.repetitions.front().label;
  if (c.device >= 0) row[k::device_ordinal] = c.device;
  return row;
}

void add_case_rows(json& rows, const case_result& c, std::size_t index, const std::optional<std::string>& forced_unit,
                   bool aggregates_only) {
  const time_unit unit = unit_for(forced_unit);
  if (c.status != case_status::ok) {
    rows.push_back(ended_row(c, index, unit));
    return;
  }
  if (c.repetitions.empty()) {  // a foreign run that kept only its aggregates: its median
    json row = row_head(c, c.name + "_median", index, "aggregate", 0);
    row[k::aggregate_name] = "median";
    row[k::aggregate_unit] = "time";
    row[k::real_time] = c.median_s * unit.per_second;
    row[k::time_unit] = unit.name;
    rows.push_back(std::move(row));
    return;
  }
  const bool aggregates = c.repetitions.size() >= 2;
  if (!aggregates_only || !aggregates)
    for (std::size_t i = 0; i < c.repetitions.size(); ++i) rows.push_back(repetition_row(c, index, i, unit));
  if (!aggregates) return;
  for (const std::string kind : {"mean", "median", "stddev", "cv"}) rows.push_back(aggregate_row(c, index, kind, unit));
}
}  // namespace

run_result recorded_run(nlohmann::ordered_json host, const device_info& device, const run_settings& settings,
                        const declared_cases& declared, const std::map<std::string, case_result>& results) {
  run_result r;
  r.source = "this run";
  if (host.is_object()) r.host = std::move(host);  // else none: a supervisor whose workers finished nothing
  r.date = r.host.value(k::date, std::string());
  r.device = device;
  r.settings = settings;
  if (!device.available)
    r.settings.energy_absent =
        fmt::format("no GPU ({}): GPU cases are skipped, and CPU cases are never metered",
                    device.unavailable_reason.empty() ? "none found" : device.unavailable_reason);
  if (settings.interrupted_by) r.mark_incomplete(*settings.interrupted_by);
  r.settings.build = registered_build();
  r.families = declared.families;
  r.selection = declared.selection;
  for (const case_meta& declared_case : r.selection) {
    const auto it = results.find(declared_case.name);
    if (it == results.end()) continue;
    case_result m = it->second;
    static_cast<case_meta&>(m) = declared_case;
    r.cases.push_back(std::move(m));
  }
  r.index_cases();
  return r;
}

run_result make_run_result(nlohmann::ordered_json host, const device_info& device, const run_settings& settings,
                           const declared_cases& declared, const std::map<std::string, case_result>& results) {
  return run_builder(recorded_run(std::move(host), device, settings, declared, results)).finish();
}

nlohmann::ordered_json to_json(const run_result& run, const std::optional<std::string>& time_unit,
                               bool aggregates_only) {
  json context = run.host.is_object() ? run.host : json::object();
  const bool has_device = run.device.has_value();
  context[k::device_name] = has_device && run.device->available ? run.device->name : "none";
  context[k::preset_name] = run.settings.preset;
  if (has_device) context[k::device] = to_json(*run.device);
  context[k::cudabench] = settings_json(run);
  if (run.devices.is_array()) context[k::devices] = run.devices;
  json doc;
  doc[k::context] = std::move(context);
  std::map<std::string, std::size_t> index;
  for (const case_meta& m : run.selection) index.emplace(m.name, index.size());
  json rows = json::array();
  for (const case_result& c : run.cases) {
    const auto it = index.find(c.name);
    add_case_rows(rows, c, it != index.end() ? it->second : index.size(), time_unit, aggregates_only);
  }
  doc[k::benchmarks] = std::move(rows);
  return doc;
}

}  // namespace cudabench

// Reading a results file's rows into their cases: each row's time, record and counters, checked.
#include <fmt/format.h>

#include <string>

#include "io/errors.hpp"
#include "io/format.hpp"
#include "results/reading.hpp"
#include "results/stats.hpp"

namespace cudabench::reading {
namespace {
/// The record of a row's "cudabench" object (types checked by check_field_types).
template <typename Json>
run_record read_record(const Json& o) {
  run_record rec;
  rec.cache = string_field(o, k::cache);
  rec.stop = string_field(o, k::stop);
  rec.samples = std::size_t(std::clamp(number_field(o, k::samples), 0.0, 1e15));
  rec.noise = number_field(o, k::noise);
  rec.batch = int(std::clamp(number_field(o, k::batch, 1), 1.0, 1e9));
  rec.sm_clock_mhz = number_field(o, k::sm_clock_mhz);
  rec.clock_discards = std::size_t(std::clamp(number_field(o, k::clock_discards), 0.0, 1e15));
  rec.injected = bool_field(o, k::injected, false);
  rec.held = bool_field(o, k::held, false);
  rec.correct = bool_field(o, k::correct, true);
  rec.note = string_field(o, k::note);
  rec.round = int(std::clamp(number_field(o, k::round), 0.0, 1e6));
  rec.setup_s = std::clamp(number_field(o, k::setup_s), 0.0, 1e9);
  rec.check_s = std::clamp(number_field(o, k::check_s), 0.0, 1e9);
  rec.checked = bool_field(o, k::checked, true);
  return rec;
}

/// A row's time in seconds, checked; `row` names it in messages.
template <typename Json>
double row_seconds(const Json& j, const std::string& source, const row_label& row) {
  constexpr double shortest_s = 1e-12, longest_s = 86400;  // 1 ps to 1 day
  if (!j.contains(k::real_time) || !j[k::real_time].is_number())
    throw input_error(fmt::format("{}: {}: real_time is not a positive number (NaN or missing)", source, row.text()));
  const double t = j[k::real_time].template get<double>();
  if (!std::isfinite(t) || t <= 0)
    throw input_error(fmt::format("{}: {}: real_time is not a positive number ({})", source, row.text(), t));
  if (!j.contains(k::time_unit) || !j[k::time_unit].is_string())
    throw input_error(
        fmt::format("{}: {}: no time_unit (Google Benchmark writes one on every row)", source, row.text()));
  const double seconds = t * unit_to_seconds(j[k::time_unit].template get<std::string>(), source, row);
  if (!(seconds >= shortest_s && seconds <= longest_s))  // printed as compared: shortest round-trip forms
    throw input_error(fmt::format("{}: {}: a time of {} s, outside {} s to {} s", source, row.text(), seconds,
                                  shortest_s, longest_s));
  return seconds;
}

/// A tree of a value: itself, or the tree its events make.
const json& tree_of(const json& j) { return j; }
json tree_of(const event_json& j) { return j.to_json(); }

/// The energy counters of a row with an energy record, each within its range (input_error naming the field).
template <typename Json>
void check_energy_counters(const Json& row) {
  for (const energy_bound& b : energy_counter_bounds)
    if (auto it = row.find(b.key); it != row.end()) checked_energy_number(tree_of(*it), b.key, b);
}

/// One iteration row as a repetition: its time, CPU time, counters (every other number), label and record.
template <typename Json>
repetition read_repetition(const Json& row, double seconds, case_result& c, const std::string& source,
                           const row_label& where) {
  static constexpr std::string_view standard[] = {
      k::real_time,        k::cpu_time, k::iterations,   k::repetitions,
      k::repetition_index, k::threads,  k::family_index, k::per_family_instance_index,
      k::device_ordinal};
  auto is_standard = [](std::string_view key) {
    return std::find(std::begin(standard), std::end(standard), key) != std::end(standard);
  };
  repetition rep;
  rep.real_time_s = seconds;
  if (row.contains(k::cpu_time) && row[k::cpu_time].is_number() &&
      std::isfinite(row[k::cpu_time].template get<double>()))
    rep.cpu_time_s = row[k::cpu_time].template get<double>() * seconds / row[k::real_time].template get<double>();
  std::vector<counter_map::value_type> counters;
  for (const auto& [key, v] : row.items())
    if (v.is_number() && !is_standard(key) && std::isfinite(v.template get<double>()))
      counters.emplace_back(key, v.template get<double>());
  rep.counters = counter_map::from_unsorted(std::move(counters));
  rep.label = string_field(row, k::label);
  rep.iterations = std::size_t(std::clamp(number_field(row, k::iterations), 0.0, 1e15));
  if (row.contains(k::cudabench) && row[k::cudabench].is_object()) {
    const auto& o = row[k::cudabench];
    rep.record = read_record(o);
    if (o.contains(k::energy)) {
      try {
        rep.record->energy = energy_record_from_json(tree_of(o[k::energy]), "cudabench.energy");
        check_energy_counters(row);
      } catch (const input_error& e) { throw input_error(fmt::format("{}: {}: {}", source, where.text(), e.what())); }
    }
    if (o.contains(k::timeline)) {
      if (!o[k::timeline].is_object())
        throw input_error(fmt::format("{}: {}: field 'cudabench.timeline' {}", source, where.text(),
                                      wrong_type(o[k::timeline], kind::object)));
      c.timeline = timeline_from_json(tree_of(o[k::timeline]));
    }
    if (o.contains(k::code))
      c.code =
          code_identity_from_json(tree_of(o[k::code]), fmt::format("{}: {}: field 'cudabench'", source, where.text()));
  }
  return rep;
}

/// Refuses an energy record (first in row `row` of case `c`) where the schema says none can be: in a version 1
/// file, or on a case that runs on the CPU.
void refuse_misplaced_energy(const run_result& r, const case_result& c, std::size_t row) {
  const char* const why = r.settings.schema_version < 2 ? "in a version 1 file, which records no energy"
                          : c.described && !c.on_gpu    ? "on a CPU case (energy is measured on the GPU only)"
                                                        : nullptr;
  if (why)
    throw input_error(fmt::format("{}: {}: field 'cudabench.energy' {}", r.source, row_label{row, c.name}.text(), why));
}
}  // namespace

template <typename Json>
void row_reader::read(const Json& row) {
  ++row_number_;
  if (!row.is_object() || !row.contains(k::name) || !row[k::name].is_string())
    throw input_error(fmt::format("{}: row {} has no name", r_.source, row_number_));
  const std::string name =
      canonical_case_name(string_field(row, k::run_name, row[k::name].template get<std::string>()));
  if (keep_ && !(*keep_)(name)) return;
  check_field_types(row, r_.source, row_number_);
  const std::string run_type = row.value(k::run_type, "iteration");
  const std::string agg = row.value(k::aggregate_name, "");
  const double repetition = number_field(row, k::repetition_index, -1), threads = number_field(row, k::threads, 1);
  const row_label where{row_number_, name};
  auto [it, added] = index_.emplace(name, r_.cases.size());
  // Texts without a '|' are told apart by their joined text exactly when they differ: such a row is never taken
  // for one with a '|'.
  const bool plain = name.find('|') == std::string::npos && run_type.find('|') == std::string::npos &&
                     agg.find('|') == std::string::npos;
  if (plain ? !seen_.insert(it->second, run_type, agg, repetition, threads)
            : !seen_rows_.insert(fmt::format("{}|{}|{}|{}|{}", name, run_type, agg, repetition, threads)).second)
    throw input_error(fmt::format("{}: {}: duplicate case name '{}'", r_.source, where.text(), printable(name)));
  if (added) {
    // Room for every case the run lists at once: a million cases are not moved as the vector grows.
    if (r_.cases.size() == r_.cases.capacity() && r_.cases.size() < r_.selection.size()) {
      r_.cases.reserve(r_.selection.size());
      index_.reserve(r_.selection.size());
    }
    case_result& c = r_.cases.emplace_back();
    c.name = name;
    split_case_name(c);
  }
  case_result& c = r_.cases[it->second];
  if (row.value(k::error_occurred, false) || row.value(k::skipped, false)) {
    const bool skipped = row.value(k::skipped, false);
    c.status = skipped ? case_status::skipped : case_status::failed;
    c.message = skipped ? string_field(row, k::skip_message) : string_field(row, k::error_message);
    return;
  }
  // Of the aggregates only the median is used (stddev rows may legitimately be 0, cv has no time unit).
  if (run_type == "aggregate" && (agg != "median" || row.value(k::aggregate_unit, "time") != "time")) return;
  const double seconds = row_seconds(row, r_.source, where);
  if (run_type == "aggregate")
    median_aggregate_[name] = seconds;
  else
    c.repetitions.push_back(read_repetition(row, seconds, c, r_.source, where));
  if (run_type != "aggregate" && c.repetitions.back().record && c.repetitions.back().record->energy)
    energy_rows_.try_emplace(it->second, row_number_);
}
template void row_reader::read<json>(const json&);
template void row_reader::read<event_json>(const event_json&);

void check_document(const json& j, std::size_t rows, const std::string& source) {
  if (!j.is_object() || !j.contains(k::benchmarks) || !j[k::benchmarks].is_array())
    throw input_error(source + ": not Google Benchmark output (no 'benchmarks' array)");
  if (rows == 0) throw input_error(source + ": holds no results (empty 'benchmarks')");
}

void finish_run(run_result& r, const row_reader& rows, summaries made) {
  for (const case_result& c : r.cases)  // a round past the run's rounds would be counted as a round of its own
    for (const repetition& rep : c.repetitions)
      if (rep.record && rep.record->round > r.settings.rounds)
        throw input_error(fmt::format(
            "{}: case '{}': a repetition of round {}, and the run has {} round(s) (context.cudabench.rounds)", r.source,
            printable(c.name), rep.record->round, r.settings.rounds));
  // A case's metadata is found where it stands in the selection when the cases come in the selection's order
  // (as a run writes them), else by name.
  std::unordered_map<std::string_view, const case_meta*> meta;
  auto meta_of = [&](const case_result& c, std::size_t i) -> const case_meta* {
    if (i < r.selection.size() && r.selection[i].name == c.name) return &r.selection[i];
    if (meta.empty())
      for (const case_meta& m : r.selection) meta.emplace(m.name, &m);
    const auto it = meta.find(c.name);
    return it != meta.end() ? it->second : nullptr;
  };
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    case_result& c = r.cases[i];
    if (const case_meta* m = meta_of(c, i)) static_cast<case_meta&>(c) = *m;
    if (auto energy = rows.energy_rows().find(i); energy != rows.energy_rows().end())
      refuse_misplaced_energy(r, c, energy->second);
    if (c.status != case_status::ok || !c.repetitions.empty()) continue;
    if (auto it = rows.median_aggregates().find(c.name); it != rows.median_aggregates().end()) {
      c.median_s = it->second;
      c.aggregates_only = true;
    } else
      throw input_error(fmt::format("{}: case '{}' has neither per-repetition rows nor a median", r.source, c.name));
  }
  if (made == summaries::made)
    r.finish_cases();
  else
    r.index_cases();
}

}  // namespace cudabench::reading

// Reading benchmark JSON into the result model, with the validation that makes bad input a clear error.
#include "results/results.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "io/json_input.hpp"
#include "results/json_events.hpp"
#include "results/results_schema.hpp"
#include "results/stats.hpp"

namespace cudabench {

std::string canonical_case_name(const std::string& gbench_name) {
  // Google Benchmark's run-setting components, dropped wherever they stand: one pass over the '/'s.
  auto is_setting = [](std::string_view part) {
    for (std::string_view flag : {"manual_time", "real_time", "process_time"})
      if (part == flag) return true;
    for (std::string_view key : {"iterations:", "repeats:", "min_time:", "min_warmup_time:"})
      if (part.substr(0, key.size()) == key) return true;
    return false;
  };
  std::string out;
  out.reserve(gbench_name.size());
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = gbench_name.find('/', start);
    const std::string_view part =
        std::string_view(gbench_name).substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (start == 0 || !is_setting(part)) {
      if (start != 0) out += '/';
      out += part;
    }
    if (slash == std::string::npos) return out;
    start = slash + 1;
  }
}

namespace {
namespace k = schema;
using json = nlohmann::ordered_json;

/// A row as messages name it, "row 3 ('conv2d/tiled/4096')": made only for a message, not for every row read.
struct row_label {
  std::size_t number;
  const std::string& name;
  std::string text() const { return fmt::format("row {} ('{}')", number, printable(name)); }
};

double unit_to_seconds(const std::string& unit, const std::string& source, const row_label& row) {
  if (const double per_second = units_per_second(unit); per_second > 0) return 1 / per_second;
  throw input_error(fmt::format("{}: {}: unknown time_unit '{}'", source, row.text(), printable(unit, 40)));
}

/// The strings of a JSON string or array of strings (anything else in it is ignored).
std::vector<std::string> strings_of(const json& j) {
  if (j.is_string()) return {j.get<std::string>()};
  std::vector<std::string> out;
  if (j.is_array())
    for (auto& v : j)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

// The readers of a row or a case's metadata take a tree (json) or its events (event_json) alike.
template <typename Json>
std::string string_field(const Json& j, const char* key, const std::string& fallback = "") {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->template get<std::string>() : fallback;
}
template <typename Json>
double number_field(const Json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return fallback;
  const double v = it->template get<double>();
  return std::isfinite(v) ? v : fallback;
}
template <typename Json>
bool bool_field(const Json& j, const char* key, bool fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->template get<bool>() : fallback;
}

enum class kind { string, number, boolean, object, array };

template <typename Json>
bool is_kind(const Json& v, kind want) {
  switch (want) {
    case kind::string: return v.is_string();
    case kind::number: return v.is_number();
    case kind::boolean: return v.is_boolean();
    case kind::object: return v.is_object();
    case kind::array: return v.is_array();
  }
  return false;
}
/// What each kind is called in a message.
const char* kind_name(kind want) {
  switch (want) {
    case kind::string: return "a string";
    case kind::number: return "a number";
    case kind::boolean: return "true or false";
    case kind::object: return "an object";
    case kind::array: return "an array";
  }
  return "";
}
template <typename Json>
std::string wrong_type(const Json& v, kind want) {
  return fmt::format("is {} {} where {} is expected", v.is_array() || v.is_object() ? "an" : "a", v.type_name(),
                     kind_name(want));
}

/// Throws naming the field (`where`.`key`) when it is present, not null, and not of the kind expected
/// (the JSON library's own message names no field).
void expect_kind(const json& j, const char* key, kind want, const std::string& where, const std::string& source) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null() && !is_kind(*it, want))
    throw input_error(
        fmt::format("{}: field '{}{}{}' {}", source, where, where.empty() ? "" : ".", key, wrong_type(*it, want)));
}

/// Names the first field of a row whose type is not the one Google Benchmark writes (the JSON library's
/// own message names neither the row nor the field).
template <typename Json>
void check_field_types(const Json& row, const std::string& source, std::size_t row_number) {
  static constexpr std::pair<std::string_view, kind> fields[] = {
      {k::run_name, kind::string},        {k::run_type, kind::string},      {k::aggregate_name, kind::string},
      {k::aggregate_unit, kind::string},  {k::time_unit, kind::string},     {k::label, kind::string},
      {k::skip_message, kind::string},    {k::error_message, kind::string}, {k::repetition_index, kind::number},
      {k::threads, kind::number},         {k::real_time, kind::number},     {k::cpu_time, kind::number},
      {k::error_occurred, kind::boolean}, {k::skipped, kind::boolean},      {k::cudabench, kind::object}};
  for (const auto& [key, value] : row.items()) {  // one pass over the row, not a search a field
    if (value.is_null()) continue;
    const std::string_view name = key;  // a structured binding, which clang 14's lambdas cannot capture
    const auto want =
        std::find_if(std::begin(fields), std::end(fields), [&](const auto& f) { return f.first == name; });
    if (want != std::end(fields) && !is_kind(value, want->second))
      throw input_error(fmt::format("{}: row {} ('{}'): field '{}' {}", source, row_number,
                                    printable(row[k::name].template get<std::string>()), key,
                                    wrong_type(value, want->second)));
  }
  if (auto it = row.find(k::cudabench); it != row.end() && it->is_object()) {
    if (auto round = it->find(k::round);
        round != it->end() && (!round->is_number_integer() || round->template get<std::int64_t>() < 1 ||
                               round->template get<std::int64_t>() > 1000000))
      throw input_error(
          fmt::format("{}: row {}: field 'cudabench.{}' is {} where a round number (1 to the run's rounds) is expected",
                      source, row_number, k::round, printable(round->dump(), 40)));
    for (const char* key : {k::cache, k::note, k::stop})
      if (it->contains(key) && !(*it)[key].is_string() && !(*it)[key].is_null())
        throw input_error(fmt::format("{}: row {}: field 'cudabench.{}' is a {} where a string is expected", source,
                                      row_number, key, (*it)[key].type_name()));
    if (it->contains(k::correct) && !(*it)[k::correct].is_boolean())
      throw input_error(fmt::format("{}: row {}: field 'cudabench.correct' is a {} where true or false is expected",
                                    source, row_number, (*it)[k::correct].type_name()));
  }
}

/// The schema versions this reader knows, and nothing else: 3, 0, "1" or null is refused, not guessed at. A file
/// without one is read as version 1: plain Google Benchmark output has none, nor do files other tools extend.
void check_schema_version(const json& meta, const std::string& source) {
  auto it = meta.find(k::schema_version);
  if (it == meta.end()) return;
  if (!it->is_number_integer() || it->get<std::int64_t>() < k::oldest_version || it->get<std::int64_t>() > k::version)
    throw input_error(fmt::format("{}: field 'context.cudabench.{}' is {}; this reader reads versions {} to {}", source,
                                  k::schema_version, printable(it->dump(), 40), k::oldest_version, k::version));
}

void check_settings_types(const json& meta, const std::string& source) {
  static const std::pair<const char*, kind> fields[] = {
      {k::preset, kind::string},          {k::repetitions, kind::number},  {k::git_revision, kind::string},
      {k::rounds, kind::number},          {k::shuffle_seed, kind::number}, {k::git_dirty, kind::boolean},
      {k::host_name, kind::string},       {k::started_utc, kind::string},  {k::cache, kind::string},
      {k::inject_slowdown, kind::string}, {k::incomplete, kind::boolean},  {k::interrupted_by, kind::string},
      {k::families, kind::object},        {k::limits, kind::object},       {k::cases, kind::object},
      {k::build, kind::object},           {k::energy_absent, kind::string}};
  for (const auto& [key, want] : fields) expect_kind(meta, key, want, "context.cudabench", source);
  if (auto it = meta.find(k::build); it != meta.end() && it->is_object()) {
    static const std::pair<const char*, kind> build_fields[] = {{k::build_type, kind::string},
                                                                {k::optimized, kind::boolean},
                                                                {k::assertions, kind::boolean},
                                                                {k::flags, kind::string},
                                                                {k::libraries, kind::array}};
    for (const auto& [key, want] : build_fields) expect_kind(*it, key, want, "context.cudabench.build", source);
    for (const json& l : it->value(k::libraries, json::array())) {
      if (!l.is_object())
        throw input_error(
            fmt::format("{}: field 'context.cudabench.build.libraries' holds {} where an object is expected", source,
                        l.type_name()));
      for (const auto& [key, want] :
           {std::pair{k::target, kind::string}, {k::optimized, kind::boolean}, {k::assertions, kind::boolean}})
        expect_kind(l, key, want, "context.cudabench.build.libraries[]", source);
    }
  }
}

/// How the cases were built (context.cudabench.build); nothing when the file does not say (written before
/// builds were recorded): compared as compatible with any build.
std::optional<code_build> read_build(const json& meta) {
  auto it = meta.find(k::build);
  if (it == meta.end() || !it->is_object()) return std::nullopt;
  code_build b{string_field(*it, k::build_type),
               bool_field(*it, k::optimized, false),
               bool_field(*it, k::assertions, false),
               string_field(*it, k::flags),
               {}};
  for (const json& l : it->value(k::libraries, json::array()))
    b.libraries.push_back(
        {string_field(l, k::target), bool_field(l, k::optimized, false), bool_field(l, k::assertions, false)});
  return b;
}

/// A field that is present must be a whole number from `least` to a million (a count of rounds or repetitions).
void expect_count(const json& meta, const char* key, std::int64_t least, const std::string& source) {
  auto it = meta.find(key);
  if (it == meta.end() || it->is_null()) return;
  if (!it->is_number_integer() || it->get<std::int64_t>() < least || it->get<std::int64_t>() > 1000000)
    throw input_error(
        fmt::format("{}: field 'context.cudabench.{}' is {} where a whole number from {} to 1000000 is expected",
                    source, key, printable(it->dump(), 40), least));
}

/// True for text that starts as an ISO 8601 date: YYYY-MM-DD.
bool is_iso_date(const std::string& text) {
  if (text.size() < 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

/// The values of the run's settings that no run of this program writes, each refused naming the field.
void check_settings_values(const json& meta, const std::string& source) {
  expect_count(meta, k::rounds, 1, source);
  expect_count(meta, k::repetitions, 1, source);
  if (auto it = meta.find(k::shuffle_seed); it != meta.end() && !it->is_null() && !it->is_number_unsigned())
    throw input_error(
        fmt::format("{}: field 'context.cudabench.{}' is {} where a whole number from 0 to 2^64-1 is expected", source,
                    k::shuffle_seed, printable(it->dump(), 40)));
  if (auto it = meta.find(k::started_utc); it != meta.end() && it->is_string() && !is_iso_date(it->get<std::string>()))
    throw input_error(
        fmt::format("{}: field 'context.cudabench.{}' is '{}' where an ISO 8601 date and time is expected", source,
                    k::started_utc, printable(it->get<std::string>(), 40)));
  const double rounds = number_field(meta, k::rounds, 1), repetitions = number_field(meta, k::repetitions);
  if (repetitions >= 1 && rounds > repetitions)  // each round runs every case once at least
    throw input_error(fmt::format(
        "{}: field 'context.cudabench.{}' is {} where at most the run's {} repetition(s) are expected (a round "
        "takes one at least)",
        source, k::rounds, rounds, repetitions));
}

void read_settings(run_result& r, const json& meta) {
  run_settings& s = r.settings;
  check_schema_version(meta, r.source);
  check_settings_types(meta, r.source);
  check_settings_values(meta, r.source);
  s.schema_version = int(number_field(meta, k::schema_version, 1));
  s.preset = string_field(meta, k::preset);
  s.repetitions = int(std::clamp(number_field(meta, k::repetitions), 0.0, 1e6));
  s.rounds = int(std::clamp(number_field(meta, k::rounds, 1), 1.0, 1e6));
  if (auto it = meta.find(k::shuffle_seed); it != meta.end() && it->is_number_unsigned())
    s.shuffle_seed = it->get<std::uint64_t>();
  s.git_revision = string_field(meta, k::git_revision);
  s.git_dirty = bool_field(meta, k::git_dirty, false);
  s.host_name = string_field(meta, k::host_name);
  s.started_utc = string_field(meta, k::started_utc);
  s.energy_absent = string_field(meta, k::energy_absent);
  s.cache = string_field(meta, k::cache, "declared");
  if (meta.contains(k::inject_slowdown) && meta[k::inject_slowdown].is_string())
    s.injected = meta[k::inject_slowdown].get<std::string>();
  s.incomplete = bool_field(meta, k::incomplete, false);
  if (meta.contains(k::interrupted_by) && meta[k::interrupted_by].is_string())
    s.interrupted_by = meta[k::interrupted_by].get<std::string>();
  s.build = read_build(meta);
}

void read_families(run_result& r, const json& meta) {
  const json families = meta.value(k::families, json::object());  // kept alive for items()
  if (!families.is_object()) return;
  for (auto& [fam, fj] : families.items()) {
    if (!fj.is_object()) continue;
    family_refs f;
    f.description = string_field(fj, k::description);
    f.tolerance = string_field(fj, k::tolerance);
    const json refs = fj.value(k::references, json::object());
    if (refs.is_object())
      for (auto& [role, variants] : refs.items()) f.references[role] = strings_of(variants);
    const json tables = fj.value(k::tables, json::array());
    if (tables.is_array())
      for (auto& t : tables)
        if (t.is_object() && t.contains(k::base) && t.contains(k::variants))
          f.tables.push_back({string_field(t, k::title, fam), strings_of(t[k::base]), strings_of(t[k::variants])});
    r.families[fam] = f;
  }
}

/// A limit's number `key` (a rate, its energy per unit): a finite number above 0, up to 1e30; refused naming the
/// field otherwise (null: a NaN literal).
double limit_number(const json& l, const char* key, const std::string& name, const std::string& source) {
  const auto it = l.find(key);
  if (it == l.end() || !it->is_number() || !(it->get<double>() > 0 && it->get<double>() <= 1e30))
    throw input_error(fmt::format("{}: field 'context.cudabench.limits.{}.{}' is {} where a number above 0 is expected",
                                  source, printable(name, 60), key,
                                  it == l.end() ? "absent" : printable(it->dump(), 40)));
  return it->get<double>();
}

void read_limits(run_result& r, const json& meta) {
  const json limits = meta.value(k::limits, json::object());
  if (!limits.is_object()) return;
  for (auto& [name, l] : limits.items()) {
    if (!l.is_object()) continue;
    const double rate = limit_number(l, k::rate, name, r.source);
    double joules = 0;
    if (l.contains(k::joules_per_unit)) {
      if (r.settings.schema_version < 2)
        throw input_error(
            fmt::format("{}: field 'context.cudabench.limits.{}.{}' in a version 1 file, which records no "
                        "energy (refused: its schema_version would say 2)",
                        r.source, printable(name, 60), k::joules_per_unit));
      joules = limit_number(l, k::joules_per_unit, name, r.source);
    }
    r.limits[name] = {rate, string_field(l, k::unit), string_field(l, k::from), joules};
  }
}

/// A case's declared amount `key` (its size, bytes, items, FLOPs): 0 where absent, else a finite number from 0,
/// refused naming the field (null: a NaN literal).
template <typename Json>
double amount_field(const Json& m, const char* key, const std::string& name, const std::string& source) {
  const auto it = m.find(key);
  if (it == m.end()) return 0;
  if (!it->is_number() || !(it->template get<double>() >= 0 && it->template get<double>() <= 1e30))
    throw input_error(fmt::format("{}: field 'context.cudabench.cases.{}.{}' is {} where a number from 0 is expected",
                                  source, printable(name, 60), key, printable(it->dump(), 40)));
  return it->template get<double>();
}

template <typename Json>
case_meta read_meta(const std::string& name, const Json& m, const std::string& source) {
  case_meta c;
  c.name = name;
  split_case_name(c);
  if (!m.is_object()) return c;
  c.described = true;
  c.on_gpu = string_field(m, k::on) == "gpu";
  c.declared_cache = string_field(m, k::cache, "hot");
  c.host_bound = string_field(m, k::bound) == "host";
  c.gated = bool_field(m, k::gated, true);
  c.size = amount_field(m, k::size, name, source);
  c.bytes = amount_field(m, k::bytes, name, source);
  c.items = amount_field(m, k::items, name, source);
  c.flops = amount_field(m, k::flops, name, source);
  c.limit = string_field(m, k::limit);
  c.control = string_field(m, k::control);
  return c;
}

/// The context: the host, the device(s), how the run was made, its families and limits, and (with
/// `with_cases`; the streaming reader takes them as they come) the cases it selected.
void read_context(run_result& r, const json& j, bool with_cases) {
  expect_kind(j, k::context, kind::object, "", r.source);
  const json context = j.value(k::context, json::object());
  if (!context.is_object()) return;
  for (const auto& [key, want] : {std::pair{k::date, kind::string},
                                  {k::device, kind::object},
                                  {k::devices, kind::array},
                                  {k::cudabench, kind::object}})
    expect_kind(context, key, want, "context", r.source);
  // Appended, not assigned through operator[], whose one-by-one key search made a large context quadratic
  // (the context's keys are distinct already).
  auto& host = static_cast<json::object_t::Container&>(r.host.get_ref<json::object_t&>());
  for (auto& [key, v] : context.items())
    if (key != k::device && key != k::devices && key != k::cudabench && key != k::device_name && key != k::preset_name)
      host.emplace_back(key, v);
  r.date = string_field(context, k::date);
  if (context.contains(k::device) && context[k::device].is_object()) {
    try {
      r.device = device_info_from_json(context[k::device], "context.device");
    } catch (const input_error& e) { throw input_error(r.source + ": " + e.what()); }
  }
  if (context.contains(k::devices) && context[k::devices].is_array()) r.devices = context[k::devices];
  const json meta = context.value(k::cudabench, json::object());
  if (!meta.is_object()) return;
  read_settings(r, meta);
  read_families(r, meta);
  read_limits(r, meta);
  if (!with_cases) return;
  const json cases = meta.value(k::cases, json::object());
  if (cases.is_object())
    for (auto& [name, m] : cases.items()) r.selection.push_back(read_meta(name, m, r.source));
}

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

/// The rows read, each by its case, run type, aggregate, repetition index and threads: a row that repeats one is
/// refused. Kept without a string a row: the run type and aggregate by a number each, the numbers by their bits
/// (which tell apart what their shortest text does: 0 and -0, every other finite value).
class seen_rows {
 public:
  /// False where a row of these was seen before.
  bool insert(std::size_t case_index, const std::string& run_type, const std::string& aggregate, double repetition,
              double threads) {
    const key k{case_index, bits(repetition), bits(threads), id(run_type), id(aggregate)};
    if (2 * (used_ + 1) > slots_.size()) grow();
    return place(k);
  }

 private:
  struct key {
    std::uint64_t case_index = empty, repetition = 0, threads = 0;
    std::uint32_t run_type = 0, aggregate = 0;
    bool operator==(const key& o) const {
      return case_index == o.case_index && repetition == o.repetition && threads == o.threads &&
             run_type == o.run_type && aggregate == o.aggregate;
    }
  };
  static constexpr std::uint64_t empty = ~std::uint64_t(0);
  static std::uint64_t bits(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
  }
  std::uint32_t id(const std::string& name) {
    return names_.try_emplace(name, std::uint32_t(names_.size())).first->second;
  }
  static std::size_t hash(const key& k) {
    std::uint64_t h = k.case_index * 0x9e3779b97f4a7c15ull;
    for (const std::uint64_t v : {k.repetition, k.threads, std::uint64_t(k.run_type) << 32 | k.aggregate})
      h = (h ^ v) * 0x100000001b3ull + (h >> 29);
    return std::size_t(h ^ (h >> 32));
  }
  bool place(const key& k) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(k) & mask;; i = (i + 1) & mask) {
      if (slots_[i].case_index == empty) {
        slots_[i] = k;
        ++used_;
        return true;
      }
      if (slots_[i] == k) return false;
    }
  }
  void grow() {
    std::vector<key> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    used_ = 0;
    for (const key& k : old)
      if (k.case_index != empty) place(k);
  }
  std::unordered_map<std::string, std::uint32_t> names_;
  std::vector<key> slots_;  ///< open addressing, at most half full
  std::size_t used_ = 0;
};

/// Reads rows one at a time into their cases (in the order first seen), as the parser meets them.
class row_reader {
 public:
  explicit row_reader(run_result& r, const case_filter* keep = nullptr) : r_(r), keep_(keep) {}
  template <typename Json>
  void read(const Json& row);
  /// The median aggregates of cases that may have only those.
  const std::map<std::string, double>& median_aggregates() const { return median_aggregate_; }
  /// Of each case with an energy record, the first row that has one (by the case's index).
  const std::map<std::size_t, std::size_t>& energy_rows() const { return energy_rows_; }
  /// Drops the indexes of the rows read (every row is read by now), so their memory is free before the model is
  /// finished.
  void forget_rows() {
    index_ = {};
    seen_rows_ = {};
    seen_ = {};
  }

 private:
  run_result& r_;
  const case_filter* keep_;  ///< the cases read (null: all)
  std::unordered_map<std::string, std::size_t> index_;
  seen_rows seen_;                             ///< the rows whose names, run type and aggregate hold no '|'
  std::unordered_set<std::string> seen_rows_;  ///< the others, by their text "name|run type|aggregate|index|threads"
  std::map<std::string, double> median_aggregate_;
  std::map<std::size_t, std::size_t> energy_rows_;
  std::size_t row_number_ = 0;
};

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

/// Throws unless `j` is a document with a non-empty "benchmarks" array (`rows` rows, read or still there).
void check_document(const json& j, std::size_t rows, const std::string& source) {
  if (!j.is_object() || !j.contains(k::benchmarks) || !j[k::benchmarks].is_array())
    throw input_error(source + ": not Google Benchmark output (no 'benchmarks' array)");
  if (rows == 0) throw input_error(source + ": holds no results (empty 'benchmarks')");
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

/// After the context and every row are read: each case's declared metadata, its summary, the index.
void finish_run(run_result& r, const row_reader& rows) {
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
  r.finish_cases();
}

/// What one pass of the parser leaves: the document without its rows and without the entries of
/// context.cudabench.cases (those went to their callbacks as each ended), and the rows' count.
struct streamed_document {
  json top;
  std::size_t rows = 0;
};

/// nlohmann's SAX events made into a tree, except that each element of the top-level "benchmarks" array and
/// each entry of context.cudabench.cases goes to its callback as soon as it ends and is dropped: the tree
/// never holds more than one row, so memory follows the model, not the text (a tree of a million rows took
/// ten times the file). Members are appended without ordered_json's one-by-one key search, which made any
/// large object quadratic (a key seen before in the same object replaces its value in place, as a tree does).
/// A row or a case's entry that is an object of scalars and objects goes to its callback as its events
/// (json_events), with no tree: at anything else in it (an array, a key given twice, an object of many
/// members) its events so far are handed to the tree and the rest of it is read as a tree.
template <typename OnRow, typename OnCase, typename OnRestart>
class streaming_builder {
 public:
  streaming_builder(std::string source, OnRow on_row, OnCase on_case, OnRestart on_restart)
      : source(std::move(source)),
        on_row_(std::move(on_row)),
        on_case_(std::move(on_case)),
        on_restart_(std::move(on_restart)) {}
  streamed_document doc;
  std::string source;  ///< the file, for messages

  bool null() { return flat_ ? (events_.add(json_events::type::null), true) : place(json(nullptr)); }
  bool boolean(bool v) { return flat_ ? (events_.add_boolean(v), true) : place(json(v)); }
  bool number_integer(json::number_integer_t v) {
    return flat_ ? (events_.add_number(json_events::type::integer, v), true) : place(json(v));
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return flat_ ? (events_.add_number(json_events::type::unsigned_integer, v), true) : place(json(v));
  }
  bool number_float(json::number_float_t v, const std::string&) {
    return flat_ ? (events_.add_number(json_events::type::floating, v), true) : place(json(v));
  }
  bool string(std::string& v) {
    return flat_ ? (events_.add_text(json_events::type::string, v), true) : place(json(std::move(v)));
  }
  bool binary(json::binary_t& v) {
    if (flat_) to_tree();
    return place(json::binary(std::move(v)));
  }
  bool start_object(std::size_t) {
    if (flat_ || (flat_allowed_ && (at_row() || at_case_entry()))) return start_flat_object();
    open(json::object());
    // A row, and an object in it: room for Google Benchmark's fields and ours at once (members of an ordered_json
    // are copied, not moved, as its vector grows).
    if (stack_.size() >= 3 && is_key(0, k::benchmarks))
      static_cast<json::object_t::Container&>(stack_.back().value.template get_ref<json::object_t&>())
          .reserve(stack_.size() == 3 ? row_members : 16);
    return true;
  }
  bool key(std::string& k) {
    if (flat_ && !flat_key(k)) to_tree();
    if (!flat_) stack_.back().key = std::move(k);
    return true;
  }
  bool end_object() { return flat_ ? end_flat_object() : close(); }
  bool start_array(std::size_t) {
    if (flat_) to_tree();
    if (stack_.size() == 1 && is_key(0, k::benchmarks)) {  // the rows begin (again: a tree keeps the last array)
      if (doc.rows > 0) on_restart_();
      doc.rows = 0;
    }
    return open(json::array());
  }
  bool end_array() { return close(); }
  template <typename Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  struct frame {
    json value;
    std::string key;                                     ///< an object's current key
    std::uint64_t key_bits = 0;                          ///< a bit for each key's hash: most new keys need no search
    std::unordered_map<std::string, std::size_t> index;  ///< an object's keys, once it has many
  };
  static constexpr std::size_t searched_members = 48;  // below this a search where a key's bit is set; above, a hash
  static constexpr std::size_t row_members = 32;
  std::vector<frame> stack_;
  OnRow on_row_;
  OnCase on_case_;
  OnRestart on_restart_;
  /// The row or case entry read as events: its events, and for each object open in it, its object_start and
  /// a bit for each of its keys' hashes.
  json_events events_;
  struct open_object {
    std::size_t start;
    std::uint64_t key_bits = 0;
    std::size_t members = 0;
  };
  std::vector<open_object> open_;
  bool flat_ = false;         ///< events go to events_
  bool flat_allowed_ = true;  ///< false from a row's change to a tree to its end

  bool at_row() const { return stack_.size() == 2 && is_key(0, k::benchmarks) && stack_[1].value.is_array(); }
  bool at_case_entry() const {
    return stack_.size() == 4 && is_key(0, k::context) && is_key(1, k::cudabench) && is_key(2, k::cases) &&
           stack_[3].value.is_object();
  }
  bool start_flat_object() {
    if (!flat_) events_.clear();
    flat_ = true;
    open_.push_back({events_.size()});
    events_.add(json_events::type::object_start);
    return true;
  }
  /// Adds a key to the events; false where it is one the object has, or the object has many (the tree
  /// refuses the one, indexes the other).
  bool flat_key(const std::string& key) {
    open_object& o = open_.back();
    if (o.members + 1 >= searched_members) return false;
    const std::uint32_t tag = json_events::key_tag(key);
    const std::uint64_t bit = json_events::key_bit(tag);
    if (o.key_bits & bit)
      for (auto it = event_json(events_, o.start).begin(); it.at() < events_.size(); ++it)
        if (it.key_tag() == tag && it.key() == key) return false;
    o.key_bits |= bit;
    ++o.members;
    events_.add_text(json_events::type::key, key);
    return true;
  }
  bool end_flat_object() {
    events_.end_object(open_.back().start, open_.back().key_bits);
    open_.pop_back();
    if (!open_.empty()) return true;
    flat_ = false;
    const event_json v(events_, 0);
    if (stack_.size() == 2) {
      ++doc.rows;
      on_row_(v);
    } else {
      on_case_(stack_.back().key, v);
    }
    return true;
  }
  /// The events so far handed to the tree, which reads the rest of the row or case entry.
  void to_tree() {
    flat_ = false;
    flat_allowed_ = false;
    open_.clear();
    events_.replay(*this);
  }

  bool is_key(std::size_t depth, const char* key) const {
    return stack_[depth].value.is_object() && stack_[depth].key == key;
  }
  bool open(json container) {
    stack_.push_back({std::move(container), {}, 0, {}});
    return true;
  }
  bool close() {
    json value = std::move(stack_.back().value);
    stack_.pop_back();
    return place(std::move(value));
  }
  bool place(json v) {
    if (stack_.empty()) {
      doc.top = std::move(v);
      return true;
    }
    frame& parent = stack_.back();
    if (parent.value.is_array()) {
      if (stack_.size() == 2 && is_key(0, k::benchmarks)) {
        flat_allowed_ = true;
        ++doc.rows;
        on_row_(v);
      } else {
        parent.value.push_back(std::move(v));
      }
      return true;
    }
    if (stack_.size() == 4 && is_key(0, k::context) && is_key(1, k::cudabench) && is_key(2, k::cases)) {
      flat_allowed_ = true;
      on_case_(parent.key, v);
      return true;
    }
    add_member(parent, std::move(v));
    return true;
  }
  void add_member(frame& object, json v) {
    auto& members = static_cast<json::object_t::Container&>(object.value.template get_ref<json::object_t&>());
    if (members.size() < searched_members) {
      const std::uint64_t bit = std::uint64_t(1) << (std::hash<std::string>{}(object.key) % 64);
      if (object.key_bits & bit)
        for (auto& [name, value] : members)
          if (name == object.key) refuse_repeated_key();
      object.key_bits |= bit;
    } else {
      if (object.index.empty())
        for (std::size_t i = 0; i < members.size(); ++i) object.index.emplace(members[i].first, i);
      if (!object.index.emplace(object.key, members.size()).second) refuse_repeated_key();
    }
    members.emplace_back(std::move(object.key), std::move(v));
  }
  /// A key given twice in one object (which one is meant?), named by its path: "row 3: key 'real_time'",
  /// "key 'context.date'".
  [[noreturn]] void refuse_repeated_key() const {
    std::string at, row;
    for (std::size_t d = 0; d < stack_.size(); ++d) {
      if (d == 1 && is_key(0, k::benchmarks)) {
        row = fmt::format("row {}: ", doc.rows + 1);
        at.clear();
        continue;
      }
      if (stack_[d].value.is_object()) at += (at.empty() ? "" : ".") + printable(stack_[d].key, 60);
    }
    throw input_error(
        fmt::format("{}: {}key '{}' appears twice in one object (refused: which one is meant?)", source, row, at));
  }
};

/// Parses in one pass (streaming_builder) what `sax_parse(&builder)` reads; syntax errors and numbers out of
/// range throw nlohmann's exceptions, as json::parse does.
template <typename SaxParse, typename OnRow, typename OnCase, typename OnRestart>
streamed_document parse_streaming(SaxParse sax_parse, const std::string& source, OnRow on_row, OnCase on_case,
                                  OnRestart on_restart) {
  streaming_builder<OnRow, OnCase, OnRestart> builder(source, std::move(on_row), std::move(on_case),
                                                      std::move(on_restart));
  sax_parse(&builder);
  return std::move(builder.doc);
}
}  // namespace

run_result parse_run(const json& j, const std::string& source) {
  run_result r;
  r.source = source;
  check_document(
      j, j.is_object() && j.contains(k::benchmarks) && j[k::benchmarks].is_array() ? j[k::benchmarks].size() : 0,
      source);
  read_context(r, j, true);
  row_reader rows(r);
  for (const auto& row : j[k::benchmarks]) rows.read(row);
  finish_run(r, rows);
  return r;
}

namespace {
/// The text with every bare NaN/nan/inf/Inf/Infinity outside strings (optionally signed) turned into null,
/// or nothing when it holds none (a large file is then parsed where it lies, not copied).
std::optional<std::string> sanitized_copy(const std::string& text) {
  static const std::string_view words[] = {"Infinity", "NaN", "nan", "Inf", "inf"};
  std::optional<std::string> out;  // starts at the first replacement
  std::size_t copied = 0;          // text[copied, i) still to append to out
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\' && i + 1 < text.size())
        ++i;
      else if (ch == '"')
        in_string = false;
      ++i;
      continue;
    }
    if (ch == '"') {
      in_string = true;
      ++i;
      continue;
    }
    const std::size_t j = i + (ch == '-' || ch == '+' ? 1 : 0);
    if (j >= text.size() || (text[j] != 'N' && text[j] != 'n' && text[j] != 'I' && text[j] != 'i')) {
      ++i;
      continue;
    }
    bool replaced = false;
    for (std::string_view w : words) {
      if (text.compare(j, w.size(), w) != 0) continue;
      const std::size_t end = j + w.size();
      const bool word_ends =
          end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
      const bool word_starts = i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                           text[i - 1] == '_' || text[i - 1] == '.');
      if (word_ends && word_starts) {
        if (!out) out.emplace().reserve(text.size());
        out->append(text, copied, i - copied);
        *out += "null";
        i = copied = end;
        replaced = true;
        break;
      }
    }
    if (!replaced) ++i;
  }
  if (out) out->append(text, copied, std::string::npos);
  return out;
}
}  // namespace

std::string sanitize_gbench_json(const std::string& text) {
  std::optional<std::string> out = sanitized_copy(text);
  return out ? std::move(*out) : text;
}

std::size_t json_nesting_depth(std::string_view text) {
  json_text_scan scan;
  scan.feed(text);
  return scan.deepest();
}

namespace {
void refuse_deep(std::size_t depth, const std::string& path) {
  if (depth > max_json_depth)
    throw input_error(fmt::format("{}: JSON nested {} levels deep (benchmark results need a few; over {} is refused)",
                                  path, depth, max_json_depth));
}

/// The model of the text that `sax_parse(builder)` hands to the builder (parse_run_text's steps after the checks
/// of the text as a whole).
template <typename SaxParse>
run_result parse_run_input(SaxParse sax_parse, const std::string& path, const case_filter* keep = nullptr) {
  run_result r;
  r.source = path;
  std::optional<row_reader> rows(std::in_place, r, keep);
  std::exception_ptr
      row_error;  // the first row's problem, thrown after the checks of the whole, as a tree's reader would
  std::unordered_map<std::string, std::size_t> selected;  // the cases listed, each once
  streamed_document doc;
  try {
    doc = parse_streaming(
        sax_parse, path,
        [&](const auto& row) {
          if (row_error) return;
          try {
            rows->read(row);
          } catch (...) { row_error = std::current_exception(); }
        },
        [&](const std::string& name, const auto& m) {
          if (!selected.emplace(name, r.selection.size()).second)
            throw input_error(fmt::format(
                "{}: key 'context.cudabench.cases.{}' appears twice in one object (refused: which one is meant?)", path,
                printable(name, 60)));
          if (!keep || (*keep)(name)) r.selection.push_back(read_meta(name, m, r.source));
        },
        [&] {
          r.cases.clear();
          rows.emplace(r, keep);
          row_error = nullptr;
        });
  } catch (const nlohmann::json::exception& e) {  // syntax errors, and numbers out of a double's range
    throw input_error(fmt::format("{}: invalid JSON ({})", path, printable(e.what())));
  }
  try {
    check_document(doc.top, doc.rows, path);
    read_context(r, doc.top, false);
    if (row_error) std::rethrow_exception(row_error);
    selected = {};
    rows->forget_rows();
    finish_run(r, *rows);
    return r;
  } catch (const input_error&) {
    throw;
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type somewhere
    throw input_error(fmt::format("{}: not benchmark output we can read ({})", path, printable(e.what())));
  } catch (const std::exception& e) {  // anything else the library or the model throws: still this file's fault
    throw input_error(fmt::format("{}: not benchmark output we can read ({})", path, printable(e.what())));
  }
}

/// parse_run_text, keeping the cases `keep` accepts (null: all).
run_result parse_text(const std::string& raw, const std::string& path, const case_filter* keep) {
  if (blank(raw)) throw input_error(empty_input(path, "results"));
  json_text_scan scan;  // one pass for the depth, and for whether a copy without bare words is needed at all
  scan.feed(raw);
  refuse_deep(scan.deepest(), path);
  const std::optional<std::string> sanitized = scan.bare_words() ? sanitized_copy(raw) : std::nullopt;
  const std::string& text = sanitized ? *sanitized : raw;
  return parse_run_input([&](auto* builder) { json::sax_parse(text, builder); }, path, keep);
}
}  // namespace

run_result parse_run_text(const std::string& raw, const std::string& path) { return parse_text(raw, path, nullptr); }

namespace {
/// A regular file within the size limit, read in pieces: the checks in one pass, then the parse in another, so
/// its text is never held whole. Nothing where read_file has something to say of the file first (not a regular
/// file, over the limit, a NUL byte) or its text holds bare NaN/inf words to rewrite: it is read whole then.
std::optional<run_result> load_run_in_pieces(const std::string& path, const case_filter* keep) {
  struct stat st {};
  if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
      std::uint64_t(st.st_size) > max_input_size())
    return std::nullopt;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  struct closing {
    int fd;
    ~closing() { ::close(fd); }
  } const closes{fd};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || std::uint64_t(st.st_size) > max_input_size())
    return std::nullopt;
  file_pieces in(fd, path, std::uint64_t(st.st_size));
  // The plain reader first: a text it reads to the end passes the checks of the whole text. Where it stops, the
  // checks come first, then nlohmann's parser; a problem it met before it stopped is the file's where they pass.
  struct not_plain {};
  std::exception_ptr problem;
  try {
    return parse_run_input(
        [&](auto* builder) {
          if (!plain_json_parser(in, *builder, max_json_depth).parse()) throw not_plain{};
        },
        path, keep);
  } catch (const not_plain&) {
  } catch (const input_error&) { problem = std::current_exception(); }
  in.rewind();
  json_text_scan scan;
  bool nothing = true;  // only white space: empty, to the user
  in.each_piece([&](std::string_view piece) {
    scan.feed(piece);
    nothing = nothing && blank(piece);
  });
  if (nothing) throw input_error(empty_input(path, "results"));
  if (scan.nul() || scan.bare_words()) return std::nullopt;
  refuse_deep(scan.deepest(), path);
  if (problem) std::rethrow_exception(problem);
  return parse_run_input([&](auto* builder) { json::sax_parse(in.begin(), in.end(), builder); }, path, keep);
}

run_result load_filtered(const std::string& path, const case_filter* keep) {
  if (std::optional<run_result> r = load_run_in_pieces(path, keep)) return std::move(*r);
  return parse_text(read_file(path), path, keep);
}
}  // namespace

run_result load_run(const std::string& path) { return load_filtered(path, nullptr); }

run_result load_run(const std::string& path, const case_filter& keep) {
  const case_filter none = [](const std::string&) { return false; };
  return load_filtered(path, keep ? &keep : &none);
}

}  // namespace cudabench

// Reading a results file's context: the host, the device(s), the run's settings, families, limits and cases.
#include <fmt/format.h>

#include <optional>
#include <string>

#include "io/errors.hpp"
#include "io/format.hpp"
#include "results/reading.hpp"

namespace cudabench::reading {
namespace {
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
}  // namespace

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
template case_meta read_meta<json>(const std::string&, const json&, const std::string&);
template case_meta read_meta<event_json>(const std::string&, const event_json&, const std::string&);

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

}  // namespace cudabench::reading

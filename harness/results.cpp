// Reading benchmark JSON into the result model, with the validation that makes bad input a clear error.
#include "harness/results.hpp"

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_set>
#include <string_view>

#include "harness/atomic_file.hpp"
#include "harness/results_schema.hpp"
#include "harness/errors.hpp"
#include "harness/format.hpp"
#include "harness/stats.hpp"

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
    const std::string_view part = std::string_view(gbench_name).substr(start, slash == std::string::npos ? std::string::npos : slash - start);
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

/// `row` names the row in messages: "row 3 ('conv2d/tiled/4096')".
double unit_to_seconds(const std::string& unit, const std::string& source, const std::string& row) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  throw input_error(fmt::format("{}: {}: unknown time_unit '{}'", source, row, printable(unit, 40)));
}

/// The strings of a JSON string or array of strings (anything else in it is ignored).
std::vector<std::string> strings_of(const json& j) {
  if (j.is_string()) return {j.get<std::string>()};
  std::vector<std::string> out;
  if (j.is_array())
    for (auto& v : j) if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

std::string string_field(const json& j, const char* key, const std::string& fallback = "") {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}
double number_field(const json& j, const char* key, double fallback = 0) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() && std::isfinite(it->get<double>()) ? it->get<double>() : fallback;
}
bool bool_field(const json& j, const char* key, bool fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

enum class kind { string, number, boolean, object, array };

bool is_kind(const json& v, kind want) {
  switch (want) {
    case kind::string: return v.is_string();
    case kind::number: return v.is_number();
    case kind::boolean: return v.is_boolean();
    case kind::object: return v.is_object();
    case kind::array: return v.is_array();
  }
  return false;
}
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
std::string wrong_type(const json& v, kind want) {
  return fmt::format("is {} {} where {} is expected", v.is_array() || v.is_object() ? "an" : "a", v.type_name(), kind_name(want));
}

/// Throws naming the field (`where`.`key`) when it is present, not null, and not of the kind expected
/// (the JSON library's own message names no field).
void expect_kind(const json& j, const char* key, kind want, const std::string& where, const std::string& source) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null() && !is_kind(*it, want))
    throw input_error(fmt::format("{}: field '{}{}{}' {}", source, where, where.empty() ? "" : ".", key, wrong_type(*it, want)));
}

/// Names the first field of a row whose type is not the one Google Benchmark writes (the JSON library's
/// own message names neither the row nor the field).
void check_field_types(const json& row, const std::string& source, std::size_t row_number) {
  static const std::pair<const char*, kind> fields[] = {
      {k::run_name, kind::string},        {k::run_type, kind::string},      {k::aggregate_name, kind::string},
      {k::aggregate_unit, kind::string},  {k::time_unit, kind::string},     {k::label, kind::string},
      {k::skip_message, kind::string},    {k::error_message, kind::string}, {k::repetition_index, kind::number},
      {k::threads, kind::number},         {k::real_time, kind::number},     {k::cpu_time, kind::number},
      {k::error_occurred, kind::boolean}, {k::skipped, kind::boolean},      {k::cudabench, kind::object}};
  for (const auto& [key, want] : fields) {
    auto it = row.find(key);
    if (it == row.end() || it->is_null()) continue;
    if (!is_kind(*it, want))
      throw input_error(fmt::format("{}: row {} ('{}'): field '{}' {}", source, row_number,
                                    printable(row[k::name].get<std::string>()), key, wrong_type(*it, want)));
  }
  if (auto it = row.find(k::cudabench); it != row.end() && it->is_object()) {
    for (const char* key : {k::cache, k::note, k::stop})
      if (it->contains(key) && !(*it)[key].is_string() && !(*it)[key].is_null())
        throw input_error(fmt::format("{}: row {}: field 'cudabench.{}' is a {} where a string is expected", source, row_number, key, (*it)[key].type_name()));
    if (it->contains(k::correct) && !(*it)[k::correct].is_boolean())
      throw input_error(fmt::format("{}: row {}: field 'cudabench.correct' is a {} where true or false is expected", source, row_number, (*it)[k::correct].type_name()));
  }
}

/// The schema version this reader knows, and nothing else: 2, 0, "1" or null is refused, not guessed at.
void check_schema_version(const json& meta, const std::string& source) {
  auto it = meta.find(k::schema_version);
  if (it == meta.end()) return;
  if (!it->is_number_integer() || *it != k::version)
    throw input_error(fmt::format("{}: field 'context.cudabench.{}' is {}; this reader reads version {} only", source,
                                  k::schema_version, printable(it->dump(), 40), k::version));
}

void check_settings_types(const json& meta, const std::string& source) {
  static const std::pair<const char*, kind> fields[] = {
      {k::preset, kind::string},      {k::repetitions, kind::number},     {k::git_revision, kind::string},
      {k::git_dirty, kind::boolean},  {k::host_name, kind::string},       {k::started_utc, kind::string},
      {k::cache, kind::string},       {k::inject_slowdown, kind::string}, {k::incomplete, kind::boolean},
      {k::interrupted_by, kind::string}, {k::families, kind::object},     {k::limits, kind::object},
      {k::cases, kind::object}};
  for (const auto& [key, want] : fields) expect_kind(meta, key, want, "context.cudabench", source);
}

void read_settings(run_result& r, const json& meta) {
  run_settings& s = r.settings;
  check_schema_version(meta, r.source);
  check_settings_types(meta, r.source);
  s.schema_version = k::version;
  s.preset = string_field(meta, k::preset);
  s.repetitions = int(std::clamp(number_field(meta, k::repetitions), 0.0, 1e6));
  s.git_revision = string_field(meta, k::git_revision);
  s.git_dirty = bool_field(meta, k::git_dirty, false);
  s.host_name = string_field(meta, k::host_name);
  s.started_utc = string_field(meta, k::started_utc);
  s.cache = string_field(meta, k::cache, "declared");
  if (meta.contains(k::inject_slowdown) && meta[k::inject_slowdown].is_string()) s.injected = meta[k::inject_slowdown].get<std::string>();
  s.incomplete = bool_field(meta, k::incomplete, false);
  if (meta.contains(k::interrupted_by) && meta[k::interrupted_by].is_string()) s.interrupted_by = meta[k::interrupted_by].get<std::string>();
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

void read_limits(run_result& r, const json& meta) {
  const json limits = meta.value(k::limits, json::object());
  if (!limits.is_object()) return;
  for (auto& [name, l] : limits.items()) {
    if (!l.is_object()) continue;
    const double rate = number_field(l, k::rate);
    if (rate > 0) r.limits[name] = {rate, string_field(l, k::unit), string_field(l, k::from)};
  }
}

case_meta read_meta(const std::string& name, const json& m) {
  case_meta c;
  c.name = name;
  split_case_name(c);
  if (!m.is_object()) return c;
  c.described = true;
  c.on_gpu = string_field(m, k::on) == "gpu";
  c.declared_cache = string_field(m, k::cache, "hot");
  c.host_bound = string_field(m, k::bound) == "host";
  c.gated = bool_field(m, k::gated, true);
  c.size = number_field(m, k::size);
  c.bytes = number_field(m, k::bytes);
  c.items = number_field(m, k::items);
  c.flops = number_field(m, k::flops);
  c.limit = string_field(m, k::limit);
  return c;
}

void read_context(run_result& r, const json& j) {
  expect_kind(j, k::context, kind::object, "", r.source);
  const json context = j.value(k::context, json::object());
  if (!context.is_object()) return;
  for (const auto& [key, want] : {std::pair{k::date, kind::string}, {k::device, kind::object}, {k::devices, kind::array},
                                  {k::cudabench, kind::object}})
    expect_kind(context, key, want, "context", r.source);
  for (auto& [key, v] : context.items())
    if (key != k::device && key != k::devices && key != k::cudabench && key != k::device_name && key != k::preset_name) r.host[key] = v;
  r.date = string_field(context, k::date);
  if (context.contains(k::device) && context[k::device].is_object()) {
    try {
      r.device = device_info_from_json(context[k::device], "context.device");
    } catch (const input_error& e) {
      throw input_error(r.source + ": " + e.what());
    }
  }
  if (context.contains(k::devices) && context[k::devices].is_array()) r.devices = context[k::devices];
  const json meta = context.value(k::cudabench, json::object());
  if (!meta.is_object()) return;
  read_settings(r, meta);
  read_families(r, meta);
  read_limits(r, meta);
  const json cases = meta.value(k::cases, json::object());
  if (cases.is_object())
    for (auto& [name, m] : cases.items()) r.selection.push_back(read_meta(name, m));
}

/// The record of a row's "cudabench" object (types checked by check_field_types).
run_record read_record(const json& o) {
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
  return rec;
}

/// A row's time in seconds, checked; `row` names it in messages.
double row_seconds(const json& j, const std::string& source, const std::string& row) {
  constexpr double shortest_s = 1e-12, longest_s = 86400;  // 1 ps to 1 day
  if (!j.contains(k::real_time) || !j[k::real_time].is_number())
    throw input_error(fmt::format("{}: {}: real_time is not a positive number (NaN or missing)", source, row));
  const double t = j[k::real_time].get<double>();
  if (!std::isfinite(t) || t <= 0) throw input_error(fmt::format("{}: {}: real_time is not a positive number ({})", source, row, t));
  if (!j.contains(k::time_unit) || !j[k::time_unit].is_string())
    throw input_error(fmt::format("{}: {}: no time_unit (Google Benchmark writes one on every row)", source, row));
  const double seconds = t * unit_to_seconds(j[k::time_unit].get<std::string>(), source, row);
  if (!(seconds >= shortest_s && seconds <= longest_s))  // printed as compared: shortest round-trip forms
    throw input_error(fmt::format("{}: {}: a time of {} s, outside {} s to {} s", source, row, seconds, shortest_s, longest_s));
  return seconds;
}

/// One iteration row as a repetition: its time, CPU time, counters (every other number), label and record.
repetition read_repetition(const json& row, double seconds, case_result& c, const std::string& source, const std::string& where) {
  static const std::set<std::string> standard = {k::real_time, k::cpu_time, k::iterations, k::repetitions, k::repetition_index,
                                                 k::threads, k::family_index, k::per_family_instance_index, k::device_ordinal};
  repetition rep;
  rep.real_time_s = seconds;
  if (row.contains(k::cpu_time) && row[k::cpu_time].is_number() && std::isfinite(row[k::cpu_time].get<double>()))
    rep.cpu_time_s = row[k::cpu_time].get<double>() * seconds / row[k::real_time].get<double>();
  for (auto& [key, v] : row.items())
    if (v.is_number() && !standard.count(key) && std::isfinite(v.get<double>())) rep.counters[key] = v.get<double>();
  rep.label = string_field(row, k::label);
  if (row.contains(k::cudabench) && row[k::cudabench].is_object()) {
    const json& o = row[k::cudabench];
    rep.record = read_record(o);
    if (o.contains(k::timeline)) {
      if (!o[k::timeline].is_object())
        throw input_error(fmt::format("{}: {}: field 'cudabench.timeline' {}", source, where, wrong_type(o[k::timeline], kind::object)));
      c.timeline = timeline_from_json(o[k::timeline]);
    }
  }
  return rep;
}

/// Reads every row into its case; returns the median aggregates of cases that may have only those.
std::map<std::string, double> read_rows(run_result& r, const json& rows, const std::map<std::string, const case_meta*>& meta) {
  std::map<std::string, std::size_t> index;
  std::set<std::string> seen_rows;
  std::map<std::string, double> median_aggregate;
  std::size_t row_number = 0;
  for (const auto& row : rows) {
    ++row_number;
    if (!row.is_object() || !row.contains(k::name) || !row[k::name].is_string())
      throw input_error(fmt::format("{}: row {} has no name", r.source, row_number));
    check_field_types(row, r.source, row_number);
    const std::string name = canonical_case_name(string_field(row, k::run_name, row[k::name].get<std::string>()));
    const std::string run_type = row.value(k::run_type, "iteration");
    const std::string agg = row.value(k::aggregate_name, "");
    const std::string key = fmt::format("{}|{}|{}|{}|{}", name, run_type, agg, number_field(row, k::repetition_index, -1), number_field(row, k::threads, 1));
    const std::string where = fmt::format("row {} ('{}')", row_number, printable(name));
    if (!seen_rows.insert(key).second) throw input_error(fmt::format("{}: {}: duplicate case name '{}'", r.source, where, printable(name)));
    auto [it, added] = index.emplace(name, r.cases.size());
    if (added) {
      case_result c;
      if (auto m = meta.find(name); m != meta.end()) static_cast<case_meta&>(c) = *m->second;
      else { c.name = name; split_case_name(c); }
      r.cases.push_back(std::move(c));
    }
    case_result& c = r.cases[it->second];
    if (row.value(k::error_occurred, false) || row.value(k::skipped, false)) {
      const bool skipped = row.value(k::skipped, false);
      c.status = skipped ? case_status::skipped : case_status::failed;
      c.message = skipped ? string_field(row, k::skip_message) : string_field(row, k::error_message);
      continue;
    }
    // Of the aggregates only the median is used (stddev rows may legitimately be 0, cv has no time unit).
    if (run_type == "aggregate" && (agg != "median" || row.value(k::aggregate_unit, "time") != "time")) continue;
    const double seconds = row_seconds(row, r.source, where);
    if (run_type == "aggregate") median_aggregate[name] = seconds;
    else c.repetitions.push_back(read_repetition(row, seconds, c, r.source, where));
  }
  return median_aggregate;
}
}  // namespace

run_result parse_run(const json& j, const std::string& source) {
  run_result r;
  r.source = source;
  if (!j.is_object() || !j.contains(k::benchmarks) || !j[k::benchmarks].is_array())
    throw input_error(source + ": not Google Benchmark output (no 'benchmarks' array)");
  if (j[k::benchmarks].empty()) throw input_error(source + ": holds no results (empty 'benchmarks')");
  read_context(r, j);
  std::map<std::string, const case_meta*> meta;
  for (const case_meta& m : r.selection) meta.emplace(m.name, &m);
  const std::map<std::string, double> median_aggregate = read_rows(r, j[k::benchmarks], meta);
  for (auto& c : r.cases) {
    summarize_case(c);
    if (c.status != case_status::ok || !c.repetitions.empty()) continue;
    if (auto it = median_aggregate.find(c.name); it != median_aggregate.end()) { c.median_s = it->second; c.aggregates_only = true; }
    else throw input_error(fmt::format("{}: case '{}' has neither per-repetition rows nor a median", source, c.name));
  }
  r.index_cases();
  return r;
}

std::string sanitize_gbench_json(const std::string& text) {
  // One pass: outside strings, a bare NaN/nan/inf/Inf/Infinity (optionally signed) becomes null.
  static const std::string_view words[] = {"Infinity", "NaN", "nan", "Inf", "inf"};
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    if (in_string) {
      out += ch;
      if (ch == '\\' && i + 1 < text.size()) out += text[++i];
      else if (ch == '"') in_string = false;
      ++i;
      continue;
    }
    if (ch == '"') { in_string = true; out += ch; ++i; continue; }
    std::size_t j = i + (ch == '-' || ch == '+' ? 1 : 0);
    bool replaced = false;
    for (std::string_view w : words) {
      if (text.compare(j, w.size(), w) != 0) continue;
      const std::size_t end = j + w.size();
      const bool word_ends = end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
      const bool word_starts = i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_' || text[i - 1] == '.');
      if (word_ends && word_starts) {
        out += "null";
        i = end;
        replaced = true;
        break;
      }
    }
    if (!replaced) { out += ch; ++i; }
  }
  return out;
}

std::size_t json_nesting_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\') ++i;
      else if (ch == '"') in_string = false;
    } else if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((ch == ']' || ch == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

namespace {
/// The library's DOM builder, with one check added: a key given twice in one object is refused (the builder
/// would keep one of them silently), named by its path: "row 3: key 'real_time'", "key 'context.date'".
/// A SAX handler rather than a parser callback, which would make every parse several times slower.
class duplicate_key_parser {
 public:
  using json = nlohmann::ordered_json;
  duplicate_key_parser(json& root, const std::string& path) : dom_(root, true), path_(path) {}

  bool null() { element(); return dom_.null(); }
  bool boolean(bool v) { element(); return dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { element(); return dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { element(); return dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& text) { element(); return dom_.number_float(v, text); }
  bool string(json::string_t& v) { element(); return dom_.string(v); }
  bool binary(json::binary_t& v) { element(); return dom_.binary(v); }
  bool start_object(std::size_t n) { element(); push(true); return dom_.start_object(n); }
  bool end_object() { --depth_; return dom_.end_object(); }
  bool start_array(std::size_t n) { element(); push(false); return dom_.start_array(n); }
  bool end_array() { --depth_; return dom_.end_array(); }
  bool key(json::string_t& k) {
    frame& f = frames_[depth_ - 1];
    f.key = k;
    if (!f.add(k)) throw input_error(fmt::format("{}: {} appears twice in one object (refused: which one is meant?)", path_, where()));
    return dom_.key(k);
  }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) {
    return dom_.parse_error(position, token, e);
  }

 private:
  struct frame {
    bool object = false;
    std::string key;                       // the member being read, in an object
    std::size_t index = 0;                 // elements begun so far, in an array
    std::vector<std::string> few;          // keys seen in this object: a row has about 15, searched in place,
    std::unordered_set<std::string> many;  // and a larger object's (a run's cases) hashed
    /// False when `k` was seen before in this object.
    bool add(const std::string& k) {
      if (many.empty() && few.size() < 32) {
        if (std::find(few.begin(), few.end(), k) != few.end()) return false;
        few.push_back(k);
        return true;
      }
      if (many.empty()) many.insert(few.begin(), few.end());
      return many.insert(k).second;
    }
  };
  /// A value begins: in an array, the next element.
  void element() {
    if (depth_ > 0 && !frames_[depth_ - 1].object) ++frames_[depth_ - 1].index;
  }
  /// Frames are reused, so their buffers are allocated once per depth, not once per object.
  void push(bool object) {
    if (depth_ == frames_.size()) frames_.emplace_back();
    frame& f = frames_[depth_++];
    f.object = object;
    f.key.clear();
    f.index = 0;
    f.few.clear();
    if (!f.many.empty()) f.many = {};
  }
  /// The key being read, with its path ("row 3: key 'cudabench.note'").
  std::string where() const {
    std::string out, row;
    for (std::size_t d = 0; d + 1 < depth_; ++d) {
      const frame& f = frames_[d];
      if (!f.object && d == 1 && frames_[0].key == k::benchmarks) { row = fmt::format("row {}: ", f.index); out.clear(); continue; }
      if (f.object) out += (out.empty() ? "" : ".") + printable(f.key, 60);
      else out += fmt::format("[{}]", f.index - 1);
    }
    return row + "key '" + (out.empty() ? "" : out + ".") + printable(frames_[depth_ - 1].key, 60) + "'";
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::string path_;
  std::vector<frame> frames_;
  std::size_t depth_ = 0;
};
}  // namespace

run_result parse_run_text(const std::string& raw, const std::string& path) {
  const std::string text = sanitize_gbench_json(raw);
  if (const std::size_t depth = json_nesting_depth(text); depth > max_json_depth)
    throw input_error(fmt::format("{}: JSON nested {} levels deep (benchmark results need a few; over {} is refused)", path, depth, max_json_depth));
  nlohmann::ordered_json j;
  try {
    duplicate_key_parser builder(j, path);
    nlohmann::ordered_json::sax_parse(text, &builder);
  } catch (const nlohmann::json::exception& e) {  // syntax errors, and numbers out of a double's range
    throw input_error(fmt::format("{}: invalid JSON ({})", path, printable(e.what())));
  }
  try {
    return parse_run(j, path);
  } catch (const input_error&) {  // already names the file
    throw;
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type somewhere
    throw input_error(fmt::format("{}: not benchmark output we can read ({})", path, printable(e.what())));
  } catch (const std::exception& e) {  // anything else the library or the model throws: still this file's fault
    throw input_error(fmt::format("{}: not benchmark output we can read ({})", path, printable(e.what())));
  }
}

run_result load_run(const std::string& path) { return parse_run_text(read_file(path), path); }

}  // namespace cudabench

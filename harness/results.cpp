// Reading benchmark JSON into the result model, with the validation that makes bad input a clear error.
#include "harness/results.hpp"

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <cctype>
#include <set>
#include <string_view>

#include "harness/atomic_file.hpp"
#include "harness/merge.hpp"
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

const char* to_string(case_status s) {
  switch (s) {
    case case_status::ok: return "ok";
    case case_status::failed: return "failed";
    case case_status::skipped: return "skipped";
  }
  return "?";
}

const case_result* run_result::find(const std::string& name) const {
  if (by_name.size() == cases.size()) {  // the index parse_run built (cases edited since: scan)
    auto it = by_name.find(name);
    if (it != by_name.end() && it->second < cases.size() && cases[it->second].name == name) return &cases[it->second];
    if (it == by_name.end()) return nullptr;
  }
  for (auto& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

namespace {
double unit_to_seconds(const std::string& unit, const std::string& source, const std::string& name) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  if (unit == "ms") return 1e-3;
  if (unit == "s") return 1.0;
  throw input_error(fmt::format("{}: case '{}' has unknown time_unit '{}'", source, name, unit));
}

/// The strings of a JSON string or array of strings (anything else in it is ignored).
std::vector<std::string> strings_of(const nlohmann::json& j) {
  if (j.is_string()) return {j.get<std::string>()};
  std::vector<std::string> out;
  if (j.is_array())
    for (auto& v : j) if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

/// Names the first field of a row whose type is not the one Google Benchmark writes (the JSON library's
/// own message names neither the row nor the field).
void check_field_types(const nlohmann::json& row, const std::string& source, std::size_t row_number) {
  enum class kind { string, number, boolean, object };
  static const std::pair<const char*, kind> fields[] = {
      {"run_name", kind::string},        {"run_type", kind::string},      {"aggregate_name", kind::string},
      {"aggregate_unit", kind::string},  {"time_unit", kind::string},     {"label", kind::string},
      {"skip_message", kind::string},    {"error_message", kind::string}, {"repetition_index", kind::number},
      {"threads", kind::number},         {"real_time", kind::number},     {"cpu_time", kind::number},
      {"error_occurred", kind::boolean}, {"skipped", kind::boolean},      {"cudabench", kind::object}};
  for (const auto& [key, want] : fields) {
    auto it = row.find(key);
    if (it == row.end() || it->is_null()) continue;
    const bool ok = want == kind::string ? it->is_string() : want == kind::number ? it->is_number()
                  : want == kind::boolean ? it->is_boolean() : it->is_object();
    if (!ok) {
      const char* expected = want == kind::string ? "a string" : want == kind::number ? "a number" : want == kind::boolean ? "true or false" : "an object";
      throw input_error(fmt::format("{}: row {} ('{}'): field '{}' is {} {} where {} is expected", source, row_number,
                                    printable(row["name"].get<std::string>()), key, it->is_array() || it->is_object() ? "an" : "a",
                                    it->type_name(), expected));
    }
  }
  if (auto it = row.find("cudabench"); it != row.end() && it->is_object()) {
    for (const char* key : {"cache", "note", "stop"})
      if (it->contains(key) && !(*it)[key].is_string() && !(*it)[key].is_null())
        throw input_error(fmt::format("{}: row {}: field 'cudabench.{}' is a {} where a string is expected", source, row_number, key, (*it)[key].type_name()));
    if (it->contains("correct") && !(*it)["correct"].is_boolean())
      throw input_error(fmt::format("{}: row {}: field 'cudabench.correct' is a {} where true or false is expected", source, row_number, (*it)["correct"].type_name()));
  }
}

void split_name(case_result& c) {
  auto [device, name] = split_device_prefix(c.name);
  c.device = device;
  auto first = name.find('/');
  if (first == std::string::npos) { c.family = name; return; }
  c.family = name.substr(0, first);
  auto second = name.find('/', first + 1);
  c.variant = name.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
  if (second != std::string::npos) c.params = name.substr(second + 1);
}
}  // namespace

run_result parse_run(const nlohmann::json& j, const std::string& source) {
  run_result r;
  r.source = source;
  if (!j.is_object() || !j.contains("benchmarks") || !j["benchmarks"].is_array())
    throw input_error(source + ": not Google Benchmark output (no 'benchmarks' array)");
  const auto& rows = j["benchmarks"];
  if (rows.empty()) throw input_error(source + ": holds no results (empty 'benchmarks')");
  r.context = j.value("context", nlohmann::json::object());
  if (r.context.contains("device") && r.context["device"].is_object())
    r.device = device_info_from_json(r.context["device"]);
  nlohmann::json meta = r.context.value("cudabench", nlohmann::json::object());
  r.preset = meta.value("preset", "");
  r.git_revision = meta.value("git_revision", "");
  r.git_dirty = meta.value("git_dirty", false);
  r.date = r.context.value("date", "");
  if (meta.contains("inject_slowdown") && meta["inject_slowdown"].is_string()) r.injected = meta["inject_slowdown"].get<std::string>();
  const nlohmann::json families = meta.value("families", nlohmann::json::object());  // kept alive for items()
  for (auto& [fam, fj] : families.items()) {
    family_refs f;
    f.description = fj.value("description", "");
    const nlohmann::json refs = fj.value("references", nlohmann::json::object());
    for (auto& [role, variants] : refs.items()) f.references[role] = strings_of(variants);
    const nlohmann::json tables = fj.value("tables", nlohmann::json::array());
    if (tables.is_array())
      for (auto& t : tables)
        if (t.is_object() && t.contains("base") && t.contains("variants"))
          f.tables.push_back({t.value("title", fam), strings_of(t["base"]), strings_of(t["variants"])});
    r.families[fam] = f;
  }
  const nlohmann::json limits = meta.value("limits", nlohmann::json::object());
  if (limits.is_object())
    for (auto& [name, l] : limits.items())
      if (l.is_object() && l.contains("rate") && l["rate"].is_number() && std::isfinite(l["rate"].get<double>()) && l["rate"].get<double>() > 0)
        r.limits[name] = {l["rate"].get<double>(), l.contains("unit") && l["unit"].is_string() ? l["unit"].get<std::string>() : "",
                          l.contains("from") && l["from"].is_string() ? l["from"].get<std::string>() : ""};
  const nlohmann::json case_meta = meta.value("cases", nlohmann::json::object());
  if (case_meta.is_object() && !case_meta.empty()) {  // an empty list says nothing about a filter
    r.lists_selection = true;
    for (auto& [name, m] : case_meta.items()) r.selected.insert(name);
  }

  std::map<std::string, std::size_t> index;
  std::set<std::string> seen_rows;
  std::map<std::string, double> median_aggregate;
  auto get_case = [&](const std::string& name) -> case_result& {
    auto it = index.find(name);
    if (it != index.end()) return r.cases[it->second];
    index[name] = r.cases.size();
    case_result c;
    c.name = name;
    split_name(c);
    if (case_meta.contains(name)) {
      const auto& m = case_meta[name];
      c.size = m.value("size", 0.0);
      c.bytes = m.value("bytes", 0.0);
      c.host_bound = m.value("bound", "") == "host";
      c.gated = !(m.contains("gated") && m["gated"].is_boolean() && !m["gated"].get<bool>());
    }
    r.cases.push_back(std::move(c));
    return r.cases.back();
  };

  std::size_t row_number = 0;
  for (const auto& row : rows) {
    ++row_number;
    if (!row.is_object() || !row.contains("name") || !row["name"].is_string())
      throw input_error(fmt::format("{}: row {} has no name", source, row_number));
    check_field_types(row, source, row_number);
    const std::string raw = row.contains("run_name") && row["run_name"].is_string() ? row["run_name"].get<std::string>()
                                                                                      : row["name"].get<std::string>();
    const std::string name = canonical_case_name(raw);
    const std::string run_type = row.value("run_type", "iteration");
    const std::string agg = row.value("aggregate_name", "");
    const long rep = row.value("repetition_index", -1L);
    const std::string key = fmt::format("{}|{}|{}|{}|{}", name, run_type, agg, rep, row.value("threads", 1));
    if (!seen_rows.insert(key).second)
      throw input_error(fmt::format("{}: duplicate case name '{}'", source, name));
    case_result& c = get_case(name);

    const bool error = row.value("error_occurred", false);
    const bool skipped = row.value("skipped", false);
    if (error || skipped) {
      c.status = skipped ? case_status::skipped : case_status::failed;
      c.message = skipped ? row.value("skip_message", "") : row.value("error_message", "");
      continue;
    }
    // Of the aggregates only the median is used (stddev rows may legitimately be 0, cv has no time unit).
    if (run_type == "aggregate" && (agg != "median" || row.value("aggregate_unit", "time") != "time")) continue;
    if (!row.contains("real_time") || !row["real_time"].is_number())
      throw input_error(fmt::format("{}: case '{}' has a time that is not a positive number (NaN or missing real_time)", source, name));
    const double t = row["real_time"].get<double>();
    if (!std::isfinite(t) || t <= 0)
      throw input_error(fmt::format("{}: case '{}' has a time that is not a positive number ({})", source, name, t));
    if (!row.contains("time_unit") || !row["time_unit"].is_string())
      throw input_error(fmt::format("{}: case '{}' has no time_unit (Google Benchmark writes one on every row)", source, name));
    const double seconds = t * unit_to_seconds(row["time_unit"].get<std::string>(), source, name);
    if (!(seconds >= 1e-12 && seconds <= 86400))
      throw input_error(fmt::format("{}: case '{}' has a time of {:g} s, outside 1 ps to 1 day", source, name, seconds));
    if (run_type == "aggregate") {
      if (agg == "median") median_aggregate[name] = seconds;
      continue;
    }
    c.samples_s.push_back(seconds);
    if (row.contains("cudabench") && row["cudabench"].is_object() && row["cudabench"].contains("timeline")) {
      const nlohmann::json& t = row["cudabench"]["timeline"];
      if (!t.is_object()) throw input_error(fmt::format("{}: case '{}' has a timeline that is not an object", source, name));
      c.timeline = t;
      c.timeline_metrics.clear();
      if (t.contains("metrics") && t["metrics"].is_object())
        for (auto& [k, v] : t["metrics"].items())
          if (v.is_number() && std::isfinite(v.get<double>())) c.timeline_metrics[k] = v.get<double>();
    }
    if (c.samples_s.size() == 1) {
      for (auto& [k, v] : row.items())
        if (v.is_number() && k != "real_time" && k != "cpu_time" && k != "iterations" && k != "repetitions" &&
            k != "repetition_index" && k != "threads" && k != "family_index" && k != "per_family_instance_index")
          c.counters[k] = v.get<double>();
      c.label = row.value("label", "");
      if (row.contains("cudabench") && row["cudabench"].is_object()) {
        c.correct = row["cudabench"].value("correct", true);
        c.cache = row["cudabench"].value("cache", "");
      }
    }
  }
  for (auto& c : r.cases) {
    if (c.status != case_status::ok) continue;
    if (!c.samples_s.empty()) c.median_s = median(c.samples_s);
    else if (median_aggregate.count(c.name)) { c.median_s = median_aggregate[c.name]; c.aggregates_only = true; }
    else throw input_error(fmt::format("{}: case '{}' has neither per-repetition rows nor a median", source, c.name));
  }
  for (std::size_t i = 0; i < r.cases.size(); ++i) r.by_name.emplace(r.cases[i].name, i);
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

run_result parse_run_text(const std::string& raw, const std::string& path) {
  const std::string text = sanitize_gbench_json(raw);
  if (const std::size_t depth = json_nesting_depth(text); depth > max_json_depth)
    throw input_error(fmt::format("{}: JSON nested {} levels deep (benchmark results need a few; over {} is refused)", path, depth, max_json_depth));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // syntax errors, and numbers out of a double's range
    throw input_error(fmt::format("{}: invalid JSON ({})", path, printable(e.what())));
  }
  try {
    return parse_run(j, path);
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type somewhere
    throw input_error(fmt::format("{}: not benchmark output we can read ({})", path, printable(e.what())));
  } catch (const std::exception& e) {  // anything else the library or the model throws: still this file's fault
    throw input_error(fmt::format("{}: not benchmark output we can read ({})", path, printable(e.what())));
  }
}

run_result load_run(const std::string& path) { return parse_run_text(read_file(path), path); }

}  // namespace cudabench

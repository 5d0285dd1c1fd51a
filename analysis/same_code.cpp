// Identities files (one writer, one reader) and the plan of what two revisions' identities leave to measure.
#include "analysis/same_code.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "cudabench/limit_names.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "results/code_identity.hpp"
#include "results/results.hpp"

namespace cudabench {
namespace {
using json = nlohmann::json;

/// A string field of a case (absent: ""), input_error where it is not a string.
std::string text_of(const json& c, const char* key, const std::string& where) {
  if (!c.contains(key)) return "";
  if (!c[key].is_string()) throw input_error(fmt::format("{}: '{}' is not a string", where, key));
  return c[key].get<std::string>();
}

/// The JSON document of an identities file's text (its cases are objects of strings: 3 levels deep).
json document_of(const std::string& text, const std::string& source) {
  if (blank(text)) throw input_error(empty_input(source, "code identities"));
  if (json_nesting_depth(text) > 4)
    throw input_error(fmt::format("{}: JSON nested deeper than an identities file's 3 levels", source));
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw input_error(fmt::format("{}: invalid JSON ({})", source, printable(e.what())));
  }
}

identified_case case_of(const json& c, const std::string& where) {
  if (!c.is_object()) throw input_error(fmt::format("{}: not an object", where));
  identified_case out{text_of(c, "name", where), text_of(c, "family", where), text_of(c, "digest", where),
                      text_of(c, "why", where)};
  if (out.name.empty()) throw input_error(fmt::format("{}: no case name", where));
  if (!out.digest.empty() && !is_identity_digest(out.digest))
    throw input_error(fmt::format("{}: digest '{}' is not 16 hex digits", where, printable(out.digest, 40)));
  return out;
}
}  // namespace

nlohmann::ordered_json to_json(const case_identities& ids) {
  nlohmann::ordered_json cases = nlohmann::ordered_json::array();
  for (const identified_case& c : ids.cases) {
    nlohmann::ordered_json row{{"name", c.name}, {"family", c.family}, {"digest", c.digest}};
    if (!c.why.empty()) row["why"] = c.why;
    cases.push_back(row);
  }
  return {{"kind", identities_kind}, {"schema_version", identities_schema_version}, {"cases", cases}};
}

case_identities parse_identities(const std::string& text, const std::string& source) {
  const json j = document_of(text, source);
  if (!j.is_object() || j.value("kind", json()) != identities_kind)
    throw input_error(fmt::format("{}: not an identities file (no \"kind\": \"{}\"; run --identify writes one)", source,
                                  identities_kind));
  if (j.value("schema_version", json()) != identities_schema_version)
    throw input_error(fmt::format("{}: 'schema_version' is not {}", source, identities_schema_version));
  if (!j.contains("cases") || !j["cases"].is_array())
    throw input_error(fmt::format("{}: 'cases' is not a list", source));
  case_identities ids;
  ids.source = source;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < j["cases"].size(); ++i) {
    identified_case c = case_of(j["cases"][i], fmt::format("{}: case {}", source, i + 1));
    if (!seen.insert(c.name).second)
      throw input_error(fmt::format("{}: case '{}' is listed twice", source, printable(c.name, 200)));
    ids.cases.push_back(std::move(c));
  }
  return ids;
}

case_identities load_identities(const std::string& path) { return parse_identities(read_file(path), path); }

bool is_control(const identified_case& c) { return c.family == limits_family; }

measure_plan plan_measurement(const case_identities& good, const case_identities& bad) {
  std::map<std::string, const identified_case*> good_by_name;
  for (const identified_case& c : good.cases) good_by_name.emplace(c.name, &c);
  measure_plan plan;
  std::set<std::string> in_bad;
  for (const identified_case& c : bad.cases) {
    in_bad.insert(c.name);
    const auto it = good_by_name.find(c.name);
    const identified_case* g = it == good_by_name.end() ? nullptr : it->second;
    if (is_control(c) || (g && is_control(*g))) {
      ++plan.controls;
    } else if (!g || c.digest.empty() || g->digest.empty()) {
      ++plan.unknown;
    } else if (c.digest != g->digest) {
      ++plan.changed;
    } else {
      plan.same_code.push_back(c.name);
      continue;
    }
    plan.measured.push_back(c.name);
  }
  for (const identified_case& c : good.cases)  // missing at the head: measured, so the comparison says so
    if (!in_bad.count(c.name)) {
      ++(is_control(c) ? plan.controls : plan.unknown);
      plan.measured.push_back(c.name);
    }
  // Each side's process must select a case: where one would select none, every case is measured instead.
  const std::set<std::string> measured(plan.measured.begin(), plan.measured.end());
  auto runs_one = [&](const case_identities& side) {
    return std::any_of(side.cases.begin(), side.cases.end(),
                       [&](const identified_case& c) { return measured.count(c.name) > 0; });
  };
  if (!plan.same_code.empty() && (!runs_one(good) || !runs_one(bad))) {
    plan.measured.insert(plan.measured.end(), plan.same_code.begin(), plan.same_code.end());
    plan.same_code.clear();
    plan.everything = true;
  }
  return plan;
}

nlohmann::ordered_json same_code_json(const measure_plan& plan, const std::string& note) {
  return {{"kind", "cudabench same code"}, {"schema_version", 1},
          {"measured", plan.measured},     {"same_code", plan.same_code},
          {"changed", plan.changed},       {"unknown", plan.unknown},
          {"controls", plan.controls},     {"note", note}};
}

}  // namespace cudabench

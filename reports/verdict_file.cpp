// The one reader of the verdict file, beside its writer (verdict_json in render.cpp).
#include "reports/verdict_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <unordered_set>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "reports/render.hpp"

namespace cudabench::reports {
namespace {
using json = nlohmann::json;

json parsed(const std::string& path) {
  const std::string text = cudabench::read_file(path);
  if (cudabench::blank(text)) throw input_error(cudabench::empty_input(path, "verdicts"));
  try {
    return json::parse(text);
  } catch (const json::exception& e) { throw input_error(fmt::format("{}: not a verdict file ({})", path, e.what())); }
}

void check_version(const json& j, const std::string& path) {
  const json version = j.value("schema_version", json());
  if (version.is_number_integer() && version.get<std::int64_t>() >= oldest_verdict_schema_version &&
      version.get<std::int64_t>() <= verdict_schema_version)
    return;
  throw input_error(fmt::format("{}: 'schema_version' is {}; this reader reads verdict files of versions {} to {}",
                                path, version.is_null() ? "missing" : printable(version.dump(), 20),
                                oldest_verdict_schema_version, verdict_schema_version));
}

/// The verdicts a schema version after the oldest one read added: a file of an earlier version never holds them.
constexpr std::pair<cudabench::verdict, int> verdict_added_in[] = {
    {cudabench::verdict::machine_differs, 3}, {cudabench::verdict::unconfirmed, 4}, {cudabench::verdict::same_code, 4}};

/// Each verdict's name, with the schema version that first holds it.
const std::map<std::string, int>& verdict_versions() {
  static const std::map<std::string, int> versions = [] {
    std::map<std::string, int> m;
    for (cudabench::verdict v : cudabench::all_verdicts) m.emplace(to_string(v), oldest_verdict_schema_version);
    for (const auto& [v, version] : verdict_added_in) m[to_string(v)] = version;
    return m;
  }();
  return versions;
}

/// Refuses `verdict` (said of `what`: a case, or the counts) unless a verdict file of schema `version` holds it.
void check_verdict(const std::string& verdict, int version, const std::string& what, const std::string& path) {
  const auto it = verdict_versions().find(verdict);
  if (it == verdict_versions().end()) {
    std::string known;
    for (const auto& [name, first] : verdict_versions()) known += (known.empty() ? "" : ", ") + name;
    throw input_error(fmt::format("{}: {} has the verdict '{}', which is no verdict (one of: {})", path, what,
                                  printable(verdict, 60), known));
  }
  if (it->second > version)
    throw input_error(fmt::format(
        "{}: {} has the verdict '{}', which a verdict file of schema version {} cannot hold (it came with version {})",
        path, what, verdict, version, it->second));
}

std::vector<std::string> machine_differences(const json& j) {
  std::vector<std::string> facts;
  if (auto machine = j.find("machine"); machine != j.end() && machine->is_object())
    if (auto d = machine->find("differences"); d != machine->end() && d->is_array())
      for (const auto& x : *d)
        if (x.is_object() && x.value("fact", json()).is_string()) facts.push_back(x["fact"].get<std::string>());
  return facts;
}
}  // namespace

std::string verdict_file::counts_text() const {
  std::string out;
  for (const auto& [verdict, n] : counts) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, verdict);
  return out;
}

verdict_file read_verdict_file(const std::string& path) {
  const json j = parsed(path);
  if (!j.is_object() || !j.contains("cases") || !j["cases"].is_array() || !j.value("failing", json()).is_boolean())
    throw input_error(path + ": not a verdict file (no 'cases' list and 'failing' flag, as compare --verdict writes)");
  check_version(j, path);
  verdict_file v;
  v.schema_version = j["schema_version"].get<int>();
  v.failing = j["failing"].get<bool>();
  std::unordered_set<std::string> names;
  for (const auto& c : j["cases"]) {
    if (!c.is_object() || !c.value("name", json()).is_string() || !c.value("verdict", json()).is_string())
      throw input_error(path + ": a case without a 'name' and a 'verdict'");
    const std::string& name = c["name"].get_ref<const std::string&>();
    const std::string what = fmt::format("case '{}'", printable(name, 80));
    if (!names.insert(name).second)
      throw input_error(fmt::format("{}: {} is listed twice (which verdict is meant?)", path, what));
    check_verdict(c["verdict"].get<std::string>(), v.schema_version, what, path);
    v.verdicts.emplace_back(name, c["verdict"].get<std::string>());
  }
  if (j.contains("counts") && j["counts"].is_object())
    for (const auto& [verdict, n] : j["counts"].items()) {
      check_verdict(verdict, v.schema_version, "'counts'", path);
      if (n.is_number_unsigned() && n.get<std::size_t>() > 0) v.counts.emplace_back(verdict, n.get<std::size_t>());
    }
  v.machine_differences = machine_differences(j);
  return v;
}

}  // namespace cudabench::reports

// The one reader of the verdict file, beside its writer (verdict_json in render.cpp).
#include "reports/verdict_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdint>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "reports/render.hpp"

namespace cudabench::reports {
namespace {
using json = nlohmann::json;

json parsed(const std::string& path) {
  try {
    return json::parse(cudabench::read_file(path));
  } catch (const json::exception& e) {
    throw input_error(fmt::format("{}: not a verdict file ({})", path, e.what()));
  }
}

void check_version(const json& j, const std::string& path) {
  const json version = j.value("schema_version", json());
  if (version.is_number_integer() && version.get<std::int64_t>() >= oldest_verdict_schema_version &&
      version.get<std::int64_t>() <= verdict_schema_version)
    return;
  throw input_error(fmt::format("{}: 'schema_version' is {}; this reader reads verdict files of versions {} to {}", path,
                                version.is_null() ? "missing" : printable(version.dump(), 20), oldest_verdict_schema_version,
                                verdict_schema_version));
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

verdict_file read_verdict_file(const std::string& path) {
  const json j = parsed(path);
  if (!j.is_object() || !j.contains("cases") || !j["cases"].is_array() || !j.value("failing", json()).is_boolean())
    throw input_error(path + ": not a verdict file (no 'cases' list and 'failing' flag, as compare --verdict writes)");
  check_version(j, path);
  verdict_file v;
  v.schema_version = j["schema_version"].get<int>();
  v.failing = j["failing"].get<bool>();
  for (const auto& c : j["cases"]) {
    if (!c.is_object() || !c.value("name", json()).is_string() || !c.value("verdict", json()).is_string())
      throw input_error(path + ": a case without a 'name' and a 'verdict'");
    v.verdicts.emplace_back(c["name"].get<std::string>(), c["verdict"].get<std::string>());
  }
  if (j.contains("counts") && j["counts"].is_object())
    for (const auto& [verdict, n] : j["counts"].items())
      if (n.is_number_unsigned() && n.get<std::size_t>() > 0) v.counts.emplace_back(verdict, n.get<std::size_t>());
  v.machine_differences = machine_differences(j);
  return v;
}

}  // namespace cudabench::reports

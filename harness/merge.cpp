// Merging per-device results.
#include "harness/merge.hpp"

#include <cctype>

#include "harness/errors.hpp"

namespace cudabench {

std::pair<int, std::string> split_device_prefix(const std::string& name) {
  // "dev<N>/rest", N of 1 to 6 digits; anything else has no device prefix.
  if (name.compare(0, 3, "dev") != 0) return {-1, name};
  std::size_t i = 3;
  while (i < name.size() && i < 9 && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  if (i == 3 || i >= name.size() || name[i] != '/') return {-1, name};
  return {std::stoi(name.substr(3, i - 3)), name.substr(i + 1)};
}

nlohmann::ordered_json merge_device_results(const std::vector<device_run>& runs) {
  nlohmann::ordered_json merged;
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  nlohmann::ordered_json cases = nlohmann::ordered_json::object();
  for (const device_run& run : runs) {
    const std::string prefix = "dev" + std::to_string(run.ordinal) + "/";
    if (run.result.is_null()) {
      devices.push_back({{"ordinal", run.ordinal}, {"available", false}, {"problem", run.problem}});
      continue;
    }
    const auto& ctx = run.result.at("context");
    if (merged.is_null()) {
      merged["context"] = ctx;
      merged["context"]["cudabench"].erase("cases");
    }
    nlohmann::ordered_json dev = ctx.value("device", nlohmann::ordered_json::object());
    dev["ordinal"] = run.ordinal;
    devices.push_back(dev);
    if (ctx.contains("cudabench") && ctx["cudabench"].contains("cases"))
      for (auto& [name, meta] : ctx["cudabench"]["cases"].items()) cases[prefix + name] = meta;
    for (auto row : run.result.at("benchmarks")) {
      for (const char* key : {"name", "run_name"})
        if (row.contains(key)) row[key] = prefix + row[key].get<std::string>();
      row["device_ordinal"] = run.ordinal;
      rows.push_back(row);
    }
  }
  if (merged.is_null()) throw input_error("--devices: no device produced a result");
  merged["context"]["devices"] = devices;
  merged["context"]["cudabench"]["cases"] = cases;
  merged["benchmarks"] = rows;
  return merged;
}

}  // namespace cudabench

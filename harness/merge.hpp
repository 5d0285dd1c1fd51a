// Merging the results of one run per device (--devices) into one Google Benchmark JSON document.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace cudabench {

struct device_run {
  int ordinal = 0;
  nlohmann::ordered_json result;  ///< null when the device's process left no result
  std::string problem;            ///< why there is no result (exit status, crash)
};

/// Rows become "dev<N>/<case>" and carry "device_ordinal"; the context lists every device under
/// "devices" (and keeps the first as "device"); devices without a result are listed with their problem.
/// A case that failed on one device keeps the other devices' results.
nlohmann::ordered_json merge_device_results(const std::vector<device_run>& runs);

/// "dev1/image/sync" -> (1, "image/sync"); a name without the prefix gives (-1, name).
std::pair<int, std::string> split_device_prefix(const std::string& name);

}  // namespace cudabench

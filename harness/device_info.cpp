// JSON form of the device description.
#include "harness/device_info.hpp"

#include <fmt/format.h>

#include <cctype>

namespace cudabench {

std::string device_info::model_slug() const {
  std::string out;
  for (char c : name.empty() ? std::string("no-gpu") : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') out += c;
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::string cuda_version_string(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

nlohmann::ordered_json to_json(const device_info& d) {
  nlohmann::ordered_json j;
  j["available"] = d.available;
  if (!d.available) {
    j["unavailable_reason"] = d.unavailable_reason;
    if (d.driver_version) j["driver_version"] = cuda_version_string(d.driver_version);
    if (d.runtime_version) j["runtime_version"] = cuda_version_string(d.runtime_version);
    return j;
  }
  j["ordinal"] = d.ordinal;
  j["name"] = d.name;
  j["compute_capability"] = fmt::format("{}.{}", d.cc_major, d.cc_minor);
  j["sm_count"] = d.sm_count;
  j["sm_clock_mhz"] = d.sm_clock_khz / 1000.0;
  j["memory_clock_mhz"] = d.memory_clock_khz / 1000.0;
  j["memory_bus_width_bits"] = d.memory_bus_width_bits;
  j["theoretical_bandwidth_gbps"] = d.theoretical_bandwidth() / 1e9;
  j["l2_bytes"] = d.l2_bytes;
  j["total_memory_bytes"] = d.total_memory_bytes;
  j["driver_version"] = cuda_version_string(d.driver_version);
  j["runtime_version"] = cuda_version_string(d.runtime_version);
  j["pci_bus_id"] = d.pci_bus_id;
  j["uuid"] = d.uuid;
  return j;
}

namespace {
int parse_version(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string()) return 0;
  int major = 0, minor = 0;
  if (std::sscanf(j[key].get<std::string>().c_str(), "%d.%d", &major, &minor) < 1) return 0;
  return major * 1000 + minor * 10;
}
}  // namespace

device_info device_info_from_json(const nlohmann::json& j) {
  device_info d;
  d.available = j.value("available", false);
  d.unavailable_reason = j.value("unavailable_reason", "");
  d.ordinal = j.value("ordinal", -1);
  d.name = j.value("name", "");
  std::string cc = j.value("compute_capability", "0.0");
  std::sscanf(cc.c_str(), "%d.%d", &d.cc_major, &d.cc_minor);
  d.sm_count = j.value("sm_count", 0);
  d.sm_clock_khz = static_cast<int>(j.value("sm_clock_mhz", 0.0) * 1000 + 0.5);
  d.memory_clock_khz = static_cast<int>(j.value("memory_clock_mhz", 0.0) * 1000 + 0.5);
  d.memory_bus_width_bits = j.value("memory_bus_width_bits", 0);
  d.l2_bytes = j.value("l2_bytes", std::int64_t{0});
  d.total_memory_bytes = j.value("total_memory_bytes", std::int64_t{0});
  d.driver_version = parse_version(j, "driver_version");
  d.runtime_version = parse_version(j, "runtime_version");
  d.pci_bus_id = j.value("pci_bus_id", "");
  d.uuid = j.value("uuid", "");
  return d;
}

}  // namespace cudabench

// What a run knows about its GPU (or why it has none); plain C++ so reports and tests need no CUDA.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "results/machine.hpp"

namespace cudabench {

struct device_info {
  bool available = false;
  std::string unavailable_reason;  ///< set when !available: why GPU cases are skipped
  int ordinal = -1;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;      ///< peak SM clock
  int memory_clock_khz = 0;  ///< peak memory clock
  int memory_bus_width_bits = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t total_memory_bytes = 0;
  int driver_version = 0;  ///< e.g. 13000 for 13.0
  int runtime_version = 0;
  std::string pci_bus_id;
  std::string uuid;
  /// The board and host beyond the model (NVML, /proc); absent in results written before it was recorded.
  std::optional<machine_facts> machine;

  /// Peak DRAM bandwidth in bytes/s: 2 transfers per clock (DDR) x bus width.
  double theoretical_bandwidth() const { return 2.0 * memory_clock_khz * 1e3 * memory_bus_width_bits / 8.0; }
  /// A name safe for a directory: "NVIDIA H100 80GB HBM3" -> "NVIDIA_H100_80GB_HBM3".
  std::string model_slug() const;
};

/// "13.0" from 13000.
std::string cuda_version_string(int v);

nlohmann::ordered_json to_json(const device_info& d);
/// Reads a device description; a field of the wrong type or out of range is an input_error naming it as
/// `where`.field (a version or capability that is not "MAJOR.MINOR" too).
device_info device_info_from_json(const nlohmann::json& j, const std::string& where = "device");

}  // namespace cudabench

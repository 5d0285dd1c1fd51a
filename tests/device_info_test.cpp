// Tests of results/device_info: JSON round trip, bandwidth, the baseline directory name; and the words for a
// machine without a usable device (measure/device_query).
#include "results/device_info.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "measure/device_query.hpp"

#include "io/errors.hpp"

using namespace cudabench;

TEST(DeviceInfo, TheoreticalBandwidthOfAnH100) {
  device_info d;
  d.memory_clock_khz = 2619000;
  d.memory_bus_width_bits = 5120;
  EXPECT_NEAR(d.theoretical_bandwidth() / 1e9, 3352.3, 0.1);
}

TEST(DeviceInfo, JsonRoundTrip) {
  device_info d;
  d.available = true;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.sm_count = 132;
  d.sm_clock_khz = 1980000;
  d.memory_clock_khz = 2619000;
  d.memory_bus_width_bits = 5120;
  d.driver_version = 13000;
  d.runtime_version = 13000;
  auto j = to_json(d);
  EXPECT_EQ(j["compute_capability"], "9.0");
  EXPECT_EQ(j["driver_version"], "13.0");
  device_info back = device_info_from_json(j);
  EXPECT_EQ(back.name, d.name);
  EXPECT_EQ(back.sm_clock_khz, d.sm_clock_khz);
  EXPECT_EQ(back.memory_clock_khz, d.memory_clock_khz);
  EXPECT_EQ(back.driver_version, 13000);
}

TEST(DeviceInfo, NoDeviceKeepsTheReason) {
  device_info d;
  d.unavailable_reason = "no usable CUDA device: no driver";
  auto j = to_json(d);
  EXPECT_FALSE(j["available"].get<bool>());
  EXPECT_EQ(j["unavailable_reason"], d.unavailable_reason);
}

TEST(DeviceInfo, NoDriverIsToldApartFromAnOldDriverAndNoGpu) {
  // No libcuda at all: the runtime says "insufficient driver" with a driver version of 0.
  const std::string none = no_device_reason(cudaErrorInsufficientDriver, 0, 13000);
  EXPECT_EQ(none.rfind("no NVIDIA driver", 0), 0u) << none;
  EXPECT_EQ(none.find("insufficient"), std::string::npos) << none;
  const std::string old = no_device_reason(cudaErrorInsufficientDriver, 12040, 13000);
  EXPECT_NE(old.find("driver (CUDA 12.4) is older than this build's CUDA runtime 13.0"), std::string::npos) << old;
  const std::string no_gpu = no_device_reason(cudaErrorNoDevice, 13000, 13000);
  EXPECT_EQ(no_gpu.rfind("no NVIDIA GPU: the driver (CUDA 13.0) found none", 0), 0u) << no_gpu;
  EXPECT_NE(no_device_reason(cudaErrorUnknown, 13000, 13000).find("cudaErrorUnknown"), std::string::npos);
}

TEST(DeviceInfo, ModelSlugIsAPathComponent) {
  device_info d;
  d.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(d.model_slug(), "NVIDIA_H100_80GB_HBM3");
  d.name = "";
  EXPECT_EQ(d.model_slug(), "no-gpu");
}

namespace {
std::string read_error(const nlohmann::json& j) {
  try {
    device_info_from_json(j);
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(DeviceInfo, FieldsOutOfRangeOrOfTheWrongTypeAreNamed) {
  const nlohmann::json good = to_json([] {
    device_info d;
    d.available = true;
    d.name = "G";
    d.driver_version = 12040;
    return d;
  }());
  EXPECT_EQ(device_info_from_json(good).driver_version, 12040);
  auto with = [&](const char* key, nlohmann::json v) {
    nlohmann::json j = good;
    j[key] = std::move(v);
    return read_error(j);
  };
  EXPECT_EQ(with("driver_version", "99999999999.9"), "field 'device.driver_version' is '99999999999.9', not a version such as 12.4");
  EXPECT_EQ(with("runtime_version", "12.x"), "field 'device.runtime_version' is '12.x', not a version such as 12.4");
  EXPECT_EQ(with("compute_capability", "99999999999.0"), "field 'device.compute_capability' is '99999999999.0', not a compute capability such as 9.0");
  EXPECT_EQ(with("sm_clock_mhz", 1e300), "field 'device.sm_clock_mhz' is 1e+300, outside 0 to 1000000");
  EXPECT_EQ(with("memory_clock_mhz", -5), "field 'device.memory_clock_mhz' is -5, outside 0 to 1000000");
  EXPECT_EQ(with("sm_count", 1e300), "field 'device.sm_count' is 1e+300, outside 0 to 1000000");
  EXPECT_EQ(with("ordinal", 1e10), "field 'device.ordinal' is 10000000000, outside -1 to 1000000");
  EXPECT_NE(with("l2_bytes", 1e300).find("field 'device.l2_bytes' is 1e+300, outside 0 to 9007199254740992"), std::string::npos);
  EXPECT_EQ(with("sm_count", "many"), "field 'device.sm_count' is a string where a number is expected");
  EXPECT_EQ(with("available", 1), "field 'device.available' is a number where true or false is expected");
  EXPECT_EQ(with("uuid", nlohmann::json::array()), "field 'device.uuid' is an array where a string is expected");
  EXPECT_EQ(with("sm_clock_mhz", nullptr), "");  // null: not given
}

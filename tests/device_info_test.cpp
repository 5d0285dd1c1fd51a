// Tests of harness/device_info: JSON round trip, bandwidth, the baseline directory name.
#include "harness/device_info.hpp"

#include <gtest/gtest.h>

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

TEST(DeviceInfo, ModelSlugIsAPathComponent) {
  device_info d;
  d.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(d.model_slug(), "NVIDIA_H100_80GB_HBM3");
  d.name = "";
  EXPECT_EQ(d.model_slug(), "no-gpu");
}

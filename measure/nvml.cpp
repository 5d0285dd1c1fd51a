// NVML's power, energy, clock and throttle readings, through the library opened once (dlopen) and kept open
// until the process ends; the board facts (machine_query.cpp) read it through the same, one initialisation a process.
#include "measure/nvml.hpp"

#include <dlfcn.h>

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include "results/machine.hpp"

namespace cudabench {
namespace {
// NVML's types and constants, as its API defines them.
using nvml_return = int;
using nvml_device = void*;
constexpr nvml_return nvml_success = 0;
constexpr int nvml_clock_sm = 1, nvml_clock_mem = 2;
struct nvml_violation_time {
  unsigned long long reference_time;  ///< CPU timestamp, microseconds
  unsigned long long violation_time;  ///< nanoseconds
};

/// The symbol `name` of the process's NVML (process_nvml), or null.
template <class F>
F symbol(const char* name) {
  std::string problem;
  void* lib = process_nvml(problem);
  return lib ? reinterpret_cast<F>(dlsym(lib, name)) : nullptr;
}

}  // namespace

void* process_nvml(std::string& problem) {
  // By library name: a test that names another library with CUDABENCH_NVML_LIBRARY gets that one.
  static std::mutex mutex;
  static std::map<std::string, std::pair<void*, std::string>> opened;
  const char* name = std::getenv(nvml_library_environment);
  const std::string key = name ? name : "";
  const std::lock_guard lock(mutex);
  auto it = opened.find(key);
  if (it == opened.end()) {
    std::string why;
    void* lib = open_nvml(why);
    it = opened.emplace(key, std::pair{lib, why}).first;
  }
  problem = it->second.second;
  return it->second.first;
}

void* open_nvml(std::string& problem) {
  const char* name = std::getenv(nvml_library_environment);
  const char* file = name && *name ? name : "libnvidia-ml.so.1";
  void* lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    problem = fmt::format("NVML not loaded ({})", file);
    return nullptr;
  }
  auto init = reinterpret_cast<nvml_return (*)()>(dlsym(lib, "nvmlInit_v2"));
  if (init && init() == nvml_success) return lib;
  dlclose(lib);
  problem = "NVML did not initialise";
  return nullptr;
}

namespace {
template <class T, class... Args>
std::optional<T> read(const char* fn, nvml_device d, Args... args) {
  T v{};
  auto f = symbol<nvml_return (*)(nvml_device, Args..., T*)>(fn);
  if (!d || !f || f(d, args..., &v) != nvml_success) return std::nullopt;
  return v;
}
}  // namespace

const std::vector<clock_reason>& clock_reasons() {
  static const std::vector<clock_reason> reasons = {
      {0x1, "idle", false},       {0x2, "applications_clocks", false}, {0x4, "power_cap", true},
      {0x8, "hw_slowdown", true}, {0x10, "sync_boost", true},          {0x20, "sw_thermal", true},
      {0x40, "hw_thermal", true}, {0x80, "hw_power_brake", true},      {0x100, "display_clocks", false}};
  return reasons;
}

std::string throttle_names(std::uint64_t mask) {
  std::string out;
  for (const clock_reason& r : clock_reasons())
    if (r.throttles && (mask & r.bit)) out += (out.empty() ? "" : ", ") + std::string(r.name);
  return out;
}

const std::vector<violation_policy>& violation_policies() {
  static const std::vector<violation_policy> policies = {
      {0, "power"}, {1, "thermal"}, {2, "sync_boost"}, {3, "board_limit"}, {4, "low_utilization"}, {5, "reliability"}};
  return policies;
}

nvml_board::nvml_board(const std::string& uuid, const std::string& pci_bus_id) {
  if (!process_nvml(problem_)) return;
  problem_.clear();
  auto by_uuid = symbol<nvml_return (*)(const char*, nvml_device*)>("nvmlDeviceGetHandleByUUID");
  auto by_bus = symbol<nvml_return (*)(const char*, nvml_device*)>("nvmlDeviceGetHandleByPciBusId_v2");
  nvml_device d = nullptr;
  if ((by_uuid && !uuid.empty() && by_uuid(uuid.c_str(), &d) == nvml_success) ||
      (by_bus && !pci_bus_id.empty() && by_bus(pci_bus_id.c_str(), &d) == nvml_success))
    handle_ = d;
  else
    problem_ = fmt::format("NVML does not know the GPU {}", uuid.empty() ? pci_bus_id : uuid);
}

std::optional<std::uint64_t> nvml_board::energy_mj() const {
  if (auto v = read<unsigned long long>("nvmlDeviceGetTotalEnergyConsumption", handle_)) return std::uint64_t(*v);
  return std::nullopt;
}
std::optional<double> nvml_board::power_w() const {
  if (auto v = read<unsigned>("nvmlDeviceGetPowerUsage", handle_)) return *v / 1000.0;
  return std::nullopt;
}
std::optional<double> nvml_board::sm_clock_mhz() const {
  if (auto v = read<unsigned>("nvmlDeviceGetClockInfo", handle_, nvml_clock_sm)) return double(*v);
  return std::nullopt;
}
std::optional<double> nvml_board::memory_clock_mhz() const {
  if (auto v = read<unsigned>("nvmlDeviceGetClockInfo", handle_, nvml_clock_mem)) return double(*v);
  return std::nullopt;
}
std::optional<std::uint64_t> nvml_board::reasons() const {
  // The newer name first (CUDA 12.2 and later drivers); the older one is kept by every driver since.
  if (auto v = read<unsigned long long>("nvmlDeviceGetCurrentClocksEventReasons", handle_)) return std::uint64_t(*v);
  if (auto v = read<unsigned long long>("nvmlDeviceGetCurrentClocksThrottleReasons", handle_)) return std::uint64_t(*v);
  return std::nullopt;
}
std::optional<std::uint64_t> nvml_board::violation_ns(int policy) const {
  if (auto v = read<nvml_violation_time>("nvmlDeviceGetViolationStatus", handle_, policy))
    return std::uint64_t(v->violation_time);
  return std::nullopt;
}

}  // namespace cudabench

// Device description from cudaGetDeviceProperties and device attributes (CUDA 13 moved clocks there).
#include "measure/device_query.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <cstdlib>

#include "measure/startup_times.hpp"

namespace cudabench {

/// "13.0" of CUDA's 13000.
std::string cuda_version_text(int v) { return fmt::format("{}.{}", v / 1000, v % 1000 / 10); }

std::string no_device_reason(int cuda_error, int driver_version, int runtime_version) {
  const auto e = static_cast<cudaError_t>(cuda_error);
  if (e == cudaErrorInsufficientDriver && driver_version == 0)
    return "no NVIDIA driver: this machine has no libcuda (install the NVIDIA driver; the GPU cases need one)";
  if (e == cudaErrorInsufficientDriver)
    return fmt::format("the NVIDIA driver (CUDA {}) is older than this build's CUDA runtime {} needs (update it)",
                       cuda_version_text(driver_version), cuda_version_text(runtime_version));
  if (e == cudaErrorNoDevice)
    return fmt::format("no NVIDIA GPU: the driver (CUDA {}) found none{}", cuda_version_text(driver_version),
                       std::getenv("CUDA_VISIBLE_DEVICES") ? " (CUDA_VISIBLE_DEVICES hides some or all)" : "");
  return fmt::format("no usable CUDA device: {} ({})", cudaGetErrorString(e), cudaGetErrorName(e));
}

namespace {
device_info query_cuda_device(int ordinal, bool create_context) {
  device_info d;
  cudaDriverGetVersion(&d.driver_version);
  cudaRuntimeGetVersion(&d.runtime_version);
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);  // the driver initialised
  startup_phase_done("cuda");
  if (e != cudaSuccess) {
    d.unavailable_reason = no_device_reason(e, d.driver_version, d.runtime_version);
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return d;
  }
  if (ordinal < 0 || ordinal >= count) {
    d.unavailable_reason = fmt::format("CUDA device {} does not exist ({} visible)", ordinal, count);
    return d;
  }
  cudaDeviceProp p{};
  e = cudaGetDeviceProperties(&p, ordinal);
  if (e == cudaSuccess && create_context) e = cudaSetDevice(ordinal);
  if (e == cudaSuccess && create_context) e = cudaFree(nullptr);  // create the context now, outside any timed region
  startup_phase_done(create_context ? "context" : "cuda");
  if (e != cudaSuccess) {
    d.unavailable_reason = fmt::format("CUDA device {} unusable: {}", ordinal, cudaGetErrorString(e));
    return d;
  }
  d.available = true;
  d.ordinal = ordinal;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, ordinal);
  cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal);
  cudaDeviceGetAttribute(&d.memory_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal);
  d.l2_bytes = p.l2CacheSize;
  d.total_memory_bytes = static_cast<std::int64_t>(p.totalGlobalMem);
  char bus[32] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, ordinal) == cudaSuccess) d.pci_bus_id = bus;
  std::string uuid = "GPU-";
  for (int i = 0; i < 16; ++i) {
    uuid += fmt::format("{:02x}", static_cast<unsigned char>(p.uuid.bytes[i]));
    if (i == 3 || i == 5 || i == 7 || i == 9) uuid += '-';
  }
  d.uuid = uuid;
  return d;
}
}  // namespace

device_info query_device(int ordinal, bool create_context) {
  device_info d = query_cuda_device(ordinal, create_context);
  d.machine = d.available ? query_machine(d.uuid, d.pci_bus_id) : query_machine("", "");
  startup_phase_done("machine");
  if (!d.available) d.machine->board_problem = "no usable GPU";
  return d;
}

std::string lost_context_error() {
  cudaGetLastError();  // a launch error of the failed case that is not sticky is consumed here
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e == cudaSuccess) return {};
  return fmt::format("{}: {}", cudaGetErrorName(e), cudaGetErrorString(e));
}

std::size_t free_device_memory() {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return 0;
  return free_b;
}

}  // namespace cudabench

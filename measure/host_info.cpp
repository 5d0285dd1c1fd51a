// The host a run measures on, from Google Benchmark's CPUInfo and SystemInfo.
#include "measure/host_info.hpp"

#include <benchmark/benchmark.h>

#include <ctime>

#include "results/build_info.hpp"

namespace cudabench {
namespace {
/// Local time as Google Benchmark writes its context's date: 2026-11-29T23:40:01+00:00.
std::string local_date() {
  const std::time_t now = std::time(nullptr);
  char date[40] = {};
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&now));
  std::string iso = date;
  if (iso.size() > 5) iso = iso.substr(0, iso.size() - 2) + ":" + iso.substr(iso.size() - 2);  // +0000 -> +00:00
  return iso;
}
}  // namespace

host_info collect_host_info() {
  const benchmark::CPUInfo& cpu = benchmark::CPUInfo::Get();
  host_info h{.date = local_date(),
              .host_name = benchmark::SystemInfo::Get().name,
              .executable = benchmark::BenchmarkReporter::Context::executable_name
                                ? benchmark::BenchmarkReporter::Context::executable_name
                                : "",
              .num_cpus = cpu.num_cpus,
              .mhz_per_cpu = int(cpu.cycles_per_second / 1e6),
              .cpu_scaling_enabled = cpu.scaling == benchmark::CPUInfo::ENABLED,
              .load_avg = cpu.load_avg,
              .library_build_type = library_build_type()};
  for (const auto& c : cpu.caches) h.caches.push_back({c.type, c.level, c.size, c.num_sharing});
  return h;
}

nlohmann::ordered_json to_json(const host_info& h) {
  nlohmann::ordered_json caches = nlohmann::ordered_json::array();
  for (const cache_info& c : h.caches)
    caches.push_back({{"type", c.type}, {"level", c.level}, {"size", c.size}, {"num_sharing", c.num_sharing}});
  return {{"date", h.date},         {"host_name", h.host_name},     {"executable", h.executable},
          {"num_cpus", h.num_cpus}, {"mhz_per_cpu", h.mhz_per_cpu}, {"cpu_scaling_enabled", h.cpu_scaling_enabled},
          {"caches", caches},       {"load_avg", h.load_avg},       {"library_build_type", h.library_build_type}};
}

}  // namespace cudabench

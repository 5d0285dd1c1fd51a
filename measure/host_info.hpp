// The host a run measures on, as Google Benchmark describes it in its JSON's context.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cudabench {

/// One CPU cache, as Google Benchmark's CPUInfo gives it.
struct cache_info {
  std::string type;  ///< "Data", "Instruction", "Unified"
  int level = 0;
  int size = 0;  ///< bytes
  int num_sharing = 0;
};

/// The host: Google Benchmark's CPUInfo and SystemInfo, the executable, the date and the library's build type.
struct host_info {
  std::string date;  ///< local time, ISO 8601 with the zone as +hh:mm, as Google Benchmark writes it
  std::string host_name;
  std::string executable;  ///< as benchmark::Initialize was given it ("" before)
  int num_cpus = 0;
  int mhz_per_cpu = 0;
  bool cpu_scaling_enabled = false;
  std::vector<cache_info> caches;
  std::vector<double> load_avg;
  std::string library_build_type;  ///< "release" or "debug", cudabench's library's own build
};

/// The host now.
host_info collect_host_info();

/// The host as the fields of Google Benchmark's context, in its order (a run's `host`, results/results.hpp).
nlohmann::ordered_json to_json(const host_info& h);

}  // namespace cudabench

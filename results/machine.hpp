// The machine a run measured on, beyond its GPU model: the board (what NVML says of it) and the host. Two
// boards of one model differ by a few percent in memory bandwidth and host copies, so a comparison says when
// its runs come from different boards or hosts, and which of these facts differ. Plain C++: reports and
// tests need no CUDA.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cudabench {

/// What NVML reports of one board. Each field is empty (or 0) where NVML did not give it.
struct board_facts {
  std::string uuid;
  std::string serial;
  std::string vbios;
  std::string driver;                                  ///< the kernel driver's version, e.g. "580.95.05"
  double power_limit_w = 0;                            ///< the power management limit in force
  int app_sm_clock_mhz = 0, app_memory_clock_mhz = 0;  ///< application clocks
  int max_sm_clock_mhz = 0, max_memory_clock_mhz = 0;
  std::string ecc;                           ///< "on", "off" or ""
  std::string mig;                           ///< "on", "off" or ""
  std::string persistence;                   ///< "on", "off" or ""
  int pcie_gen = 0, pcie_width = 0;          ///< the link as it runs now
  int pcie_max_gen = 0, pcie_max_width = 0;  ///< what board and slot allow
  /// "yes": the application clocks differ from the board's defaults, or NVML reports the clocks held by an
  /// applications-clocks setting (as `nvidia-smi -lgc` or `-ac` leave them); "no"; "" unknown.
  std::string clocks_locked;
};

/// The host the GPU sits in.
struct host_facts {
  std::string cpu_model;  ///< /proc/cpuinfo's "model name"
  int logical_cpus = 0;
  std::string mps;  ///< "on" where an MPS control daemon's pipe is found, "off", "" unknown
};

struct machine_facts {
  std::optional<board_facts> board;  ///< absent where NVML could not be read
  std::string board_problem;         ///< why there is no board (no NVML library, no GPU, ...)
  host_facts host;
};

nlohmann::ordered_json to_json(const machine_facts& m);
/// Reads machine facts; a field of the wrong type or out of range is an input_error naming it as `where`.field.
machine_facts machine_facts_from_json(const nlohmann::json& j, const std::string& where = "device.machine");

/// The name of the fact that says the boards differ (by uuid); it comes first among the differences.
inline constexpr const char* board_fact = "board";

/// One recorded fact that differs between two machines: its name and both values, as people read them.
struct machine_difference {
  std::string fact;  ///< "board", "vbios", "power limit", "host CPU", ...
  std::string a, b;
};

/// The facts recorded on both sides that differ ("board" first, by uuid). A fact one side did not record
/// is not a difference.
std::vector<machine_difference> machine_differences(const machine_facts& a, const machine_facts& b);

/// "board GPU-edd4076f vs GPU-b2c4773f; power limit 700 W vs 650 W": the differences in one line.
std::string describe(const std::vector<machine_difference>& d);

/// The first eight hex digits of a GPU uuid after "GPU-" (how docs and reports name a board), or the uuid.
std::string board_label(const std::string& uuid);

/// The environment variable that names the NVML library to read board facts from (default libnvidia-ml.so.1,
/// the driver's).
inline constexpr const char* nvml_library_environment = "CUDABENCH_NVML_LIBRARY";

/// Reads the board of the GPU with this uuid ("GPU-...", as the CUDA runtime gives it; the PCI bus id where
/// the uuid is not found) through NVML, loaded at run time, and the host. Never throws: a missing library or
/// board leaves `board` empty with the reason in `board_problem`.
machine_facts query_machine(const std::string& uuid, const std::string& pci_bus_id);

/// The host part read from the text of /proc/cpuinfo and a CPU count (split out so tests give it fixtures).
host_facts host_facts_from(const std::string& cpuinfo, int logical_cpus);

}  // namespace cudabench

// NVML's power, energy, clock and throttle readings of one board, through the library loaded once per process
// at run time (CUDABENCH_NVML_LIBRARY names another than libnvidia-ml.so.1). The build needs no NVML headers:
// the entry points used are declared in nvml.cpp as NVML's API documents them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudabench {

/// Opens and initialises NVML ($CUDABENCH_NVML_LIBRARY, else the driver's libnvidia-ml.so.1): its handle for
/// dlsym, or null with the reason in `problem` (the library is closed again where it did not initialise).
void* open_nvml(std::string& problem);

/// The process's NVML: opened and initialised once (open_nvml) at the first call and kept until the process ends, so
/// that the board facts and the energy meter share one initialisation; null with the reason in `problem`.
void* process_nvml(std::string& problem);

/// Clock event (throttle) reasons as NVML's bit mask names them.
struct clock_reason {
  std::uint64_t bit;
  const char* name;
  bool throttles;  ///< holds the clocks below what the work asks for (idle, an applications-clocks or display setting
                   ///< do not)
};
/// Every reason bit NVML documents, in bit order.
const std::vector<clock_reason>& clock_reasons();
/// The names of the throttling reasons set in `mask`, joined with ", " ("" when none).
std::string throttle_names(std::uint64_t mask);

/// A violation counter: the time NVML saw the clocks held down by one policy (power, thermal, ...).
struct violation_policy {
  int id;            ///< nvmlPerfPolicyType_t
  const char* name;  ///< as the results name it
};
const std::vector<violation_policy>& violation_policies();

/// One board's readings. Each is nothing where NVML or the board does not have it.
class nvml_board {
 public:
  /// The board of `uuid` (else of `pci_bus_id`); problem() says why none.
  nvml_board(const std::string& uuid, const std::string& pci_bus_id);
  bool found() const { return handle_ != nullptr; }
  const std::string& problem() const { return problem_; }

  std::optional<std::uint64_t> energy_mj() const;  ///< total energy since the driver loaded (Volta and later)
  std::optional<double> power_w() const;           ///< the power draw now (on A100/H100 averaged by the driver)
  std::optional<double> sm_clock_mhz() const;
  std::optional<double> memory_clock_mhz() const;
  std::optional<std::uint64_t> reasons() const;  ///< the clock event reasons now (a mask of clock_reasons())
  std::optional<std::uint64_t> violation_ns(int policy) const;  ///< a violation counter, in nanoseconds

 private:
  void* handle_ = nullptr;
  std::string problem_;
};

}  // namespace cudabench

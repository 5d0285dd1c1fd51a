// Board facts through NVML, loaded at run time (a machine without the driver has no libnvidia-ml, and the
// build needs no NVML headers: the few entry points used are declared here as NVML's API documents them),
// and host facts from /proc and the MPS control pipe.
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "measure/nvml.hpp"
#include "results/machine.hpp"

namespace cudabench {

namespace {
// NVML's types, as its API defines them.
using nvml_return = int;
using nvml_device = struct nvml_device_opaque*;
constexpr nvml_return nvml_success = 0;
constexpr int nvml_clock_sm = 1, nvml_clock_mem = 2;
/// nvmlClocksThrottleReasonApplicationsClocksSetting: the clocks are held by an applications-clocks setting.
constexpr unsigned long long nvml_reason_app_clocks = 0x2;

/// The process's NVML (process_nvml), initialised once: neither shut down nor closed here, since the energy meter
/// reads it afterwards.
class nvml_session {
 public:
  nvml_session() : lib_(process_nvml(problem_)), ready_(lib_ != nullptr) {}

  bool ready() const { return ready_; }
  const std::string& problem() const { return problem_; }

  template <class F>
  F symbol(const char* name) const {
    return lib_ ? reinterpret_cast<F>(dlsym(lib_, name)) : nullptr;
  }
  /// A text that NVML writes into a buffer: (device, char*, length) or, for `system`, (char*, length).
  std::string text(const char* fn, nvml_device d) const {
    char buf[96] = {};
    auto f = symbol<nvml_return (*)(nvml_device, char*, unsigned)>(fn);
    return f && f(d, buf, sizeof buf - 1) == nvml_success ? std::string(buf) : std::string();
  }
  std::string system_text(const char* fn) const {
    char buf[96] = {};
    auto f = symbol<nvml_return (*)(char*, unsigned)>(fn);
    return f && f(buf, sizeof buf - 1) == nvml_success ? std::string(buf) : std::string();
  }
  unsigned number(const char* fn, nvml_device d) const {
    unsigned v = 0;
    auto f = symbol<nvml_return (*)(nvml_device, unsigned*)>(fn);
    return f && f(d, &v) == nvml_success ? v : 0;
  }
  unsigned clock(const char* fn, nvml_device d, int type) const {
    unsigned v = 0;
    auto f = symbol<nvml_return (*)(nvml_device, int, unsigned*)>(fn);
    return f && f(d, type, &v) == nvml_success ? v : 0;
  }
  /// An on/off state given as (device, current, pending) or, with `pending` false, (device, current).
  std::string state(const char* fn, nvml_device d, bool pending) const {
    unsigned cur = 0, next = 0;
    nvml_return r = -1;
    if (pending) {
      if (auto f = symbol<nvml_return (*)(nvml_device, unsigned*, unsigned*)>(fn)) r = f(d, &cur, &next);
    } else if (auto f = symbol<nvml_return (*)(nvml_device, unsigned*)>(fn)) {
      r = f(d, &cur);
    }
    return r == nvml_success ? (cur ? "on" : "off") : "";
  }

 private:
  std::string problem_;  // before lib_: process_nvml writes it while lib_ is initialised
  void* lib_ = nullptr;
  bool ready_ = false;
};

std::string clocks_locked(const nvml_session& n, nvml_device d, const board_facts& b) {
  const unsigned def_sm = n.clock("nvmlDeviceGetDefaultApplicationsClock", d, nvml_clock_sm);
  const unsigned def_mem = n.clock("nvmlDeviceGetDefaultApplicationsClock", d, nvml_clock_mem);
  unsigned long long reasons = 0;
  auto f = n.symbol<nvml_return (*)(nvml_device, unsigned long long*)>("nvmlDeviceGetCurrentClocksThrottleReasons");
  const bool have_reasons = f && f(d, &reasons) == nvml_success;
  const bool have_defaults = def_sm > 0 && b.app_sm_clock_mhz > 0;
  if (!have_reasons && !have_defaults) return "";
  const bool moved = have_defaults && (unsigned(b.app_sm_clock_mhz) != def_sm ||
                                       (def_mem > 0 && unsigned(b.app_memory_clock_mhz) != def_mem));
  return moved || (have_reasons && (reasons & nvml_reason_app_clocks)) ? "yes" : "no";
}

board_facts read_board(const nvml_session& n, nvml_device d, const std::string& uuid) {
  board_facts b;
  b.uuid = n.text("nvmlDeviceGetUUID", d);
  if (b.uuid.empty()) b.uuid = uuid;
  b.serial = n.text("nvmlDeviceGetSerial", d);
  b.vbios = n.text("nvmlDeviceGetVbiosVersion", d);
  b.driver = n.system_text("nvmlSystemGetDriverVersion");
  b.power_limit_w = n.number("nvmlDeviceGetPowerManagementLimit", d) / 1000.0;
  b.app_sm_clock_mhz = int(n.clock("nvmlDeviceGetApplicationsClock", d, nvml_clock_sm));
  b.app_memory_clock_mhz = int(n.clock("nvmlDeviceGetApplicationsClock", d, nvml_clock_mem));
  b.max_sm_clock_mhz = int(n.clock("nvmlDeviceGetMaxClockInfo", d, nvml_clock_sm));
  b.max_memory_clock_mhz = int(n.clock("nvmlDeviceGetMaxClockInfo", d, nvml_clock_mem));
  b.ecc = n.state("nvmlDeviceGetEccMode", d, true);
  b.mig = n.state("nvmlDeviceGetMigMode", d, true);
  b.persistence = n.state("nvmlDeviceGetPersistenceMode", d, false);
  b.pcie_gen = int(n.number("nvmlDeviceGetCurrPcieLinkGeneration", d));
  b.pcie_width = int(n.number("nvmlDeviceGetCurrPcieLinkWidth", d));
  b.pcie_max_gen = int(n.number("nvmlDeviceGetMaxPcieLinkGeneration", d));
  b.pcie_max_width = int(n.number("nvmlDeviceGetMaxPcieLinkWidth", d));
  b.clocks_locked = clocks_locked(n, d, b);
  return b;
}

std::string read_text_file(const char* path) {
  std::ifstream in(path);
  std::ostringstream s;
  if (in) s << in.rdbuf();
  return s.str();
}

/// "on" where an MPS control daemon's pipe is there (CUDA_MPS_PIPE_DIRECTORY, else /tmp/nvidia-mps).
std::string mps_state() {
  const char* dir = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  const std::string control = std::string(dir && *dir ? dir : "/tmp/nvidia-mps") + "/control";
  struct stat st {};
  return stat(control.c_str(), &st) == 0 ? "on" : "off";
}
}  // namespace

machine_facts query_machine(const std::string& uuid, const std::string& pci_bus_id) {
  machine_facts m;
  m.host = host_facts_from(read_text_file("/proc/cpuinfo"), int(sysconf(_SC_NPROCESSORS_ONLN)));
  m.host.mps = mps_state();
  if (uuid.empty() && pci_bus_id.empty()) {
    m.board_problem = "no GPU";
    return m;
  }
  const nvml_session n;
  if (!n.ready()) {
    m.board_problem = n.problem();
    return m;
  }
  nvml_device d = nullptr;
  auto by_uuid = n.symbol<nvml_return (*)(const char*, nvml_device*)>("nvmlDeviceGetHandleByUUID");
  auto by_bus = n.symbol<nvml_return (*)(const char*, nvml_device*)>("nvmlDeviceGetHandleByPciBusId_v2");
  const bool found = (by_uuid && !uuid.empty() && by_uuid(uuid.c_str(), &d) == nvml_success) ||
                     (by_bus && !pci_bus_id.empty() && by_bus(pci_bus_id.c_str(), &d) == nvml_success);
  if (!found) {
    m.board_problem = fmt::format("NVML does not know the GPU {}", uuid.empty() ? pci_bus_id : uuid);
    return m;
  }
  m.board = read_board(n, d, uuid);
  return m;
}

}  // namespace cudabench

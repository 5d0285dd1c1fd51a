// Machine facts as JSON, their differences, and the host part of /proc/cpuinfo. The checked reader is in
// device_info.cpp, beside the device description it is part of.
#include "results/machine.hpp"

#include <fmt/format.h>

#include <sstream>

namespace cudabench {

namespace {
/// Adds `key` only where the fact was recorded.
void put(nlohmann::ordered_json& j, const char* key, const std::string& v) {
  if (!v.empty()) j[key] = v;
}
void put(nlohmann::ordered_json& j, const char* key, double v) {
  if (v > 0) j[key] = v;
}
void put(nlohmann::ordered_json& j, const char* key, int v) {
  if (v > 0) j[key] = v;
}
}  // namespace

nlohmann::ordered_json to_json(const machine_facts& m) {
  nlohmann::ordered_json j;
  if (m.board) {
    const board_facts& b = *m.board;
    nlohmann::ordered_json o = nlohmann::ordered_json::object();
    put(o, "uuid", b.uuid);
    put(o, "serial", b.serial);
    put(o, "vbios", b.vbios);
    put(o, "driver", b.driver);
    put(o, "power_limit_w", b.power_limit_w);
    put(o, "app_sm_clock_mhz", b.app_sm_clock_mhz);
    put(o, "app_memory_clock_mhz", b.app_memory_clock_mhz);
    put(o, "max_sm_clock_mhz", b.max_sm_clock_mhz);
    put(o, "max_memory_clock_mhz", b.max_memory_clock_mhz);
    put(o, "ecc", b.ecc);
    put(o, "mig", b.mig);
    put(o, "persistence", b.persistence);
    put(o, "pcie_gen", b.pcie_gen);
    put(o, "pcie_width", b.pcie_width);
    put(o, "pcie_max_gen", b.pcie_max_gen);
    put(o, "pcie_max_width", b.pcie_max_width);
    put(o, "clocks_locked", b.clocks_locked);
    j["board"] = std::move(o);
  } else {
    j["board_problem"] = m.board_problem;
  }
  nlohmann::ordered_json h = nlohmann::ordered_json::object();
  put(h, "cpu_model", m.host.cpu_model);
  put(h, "logical_cpus", m.host.logical_cpus);
  put(h, "mps", m.host.mps);
  j["host"] = std::move(h);
  return j;
}

std::string board_label(const std::string& uuid) {
  if (uuid.size() >= 12 && uuid.compare(0, 4, "GPU-") == 0) return uuid.substr(0, 12);
  return uuid;
}

namespace {
class difference_list {
 public:
  void text(const char* fact, const std::string& a, const std::string& b) {
    if (!a.empty() && !b.empty() && a != b) out_.push_back({fact, a, b});
  }
  void number(const char* fact, double a, double b, const char* unit) {
    if (a > 0 && b > 0 && a != b)
      out_.push_back({fact, fmt::format("{:g} {}", a, unit), fmt::format("{:g} {}", b, unit)});
  }
  std::vector<machine_difference> take() { return std::move(out_); }

 private:
  std::vector<machine_difference> out_;
};

std::string link(int gen, int width) { return gen > 0 && width > 0 ? fmt::format("gen{} x{}", gen, width) : ""; }
}  // namespace

std::vector<machine_difference> machine_differences(const machine_facts& a, const machine_facts& b) {
  difference_list d;
  if (a.board && b.board) {
    const board_facts &x = *a.board, &y = *b.board;
    d.text(board_fact, board_label(x.uuid), board_label(y.uuid));
    d.text("serial", x.serial, y.serial);
    d.text("vbios", x.vbios, y.vbios);
    d.text("driver", x.driver, y.driver);
    d.number("power limit", x.power_limit_w, y.power_limit_w, "W");
    d.number("application SM clock", x.app_sm_clock_mhz, y.app_sm_clock_mhz, "MHz");
    d.number("application memory clock", x.app_memory_clock_mhz, y.app_memory_clock_mhz, "MHz");
    d.number("max SM clock", x.max_sm_clock_mhz, y.max_sm_clock_mhz, "MHz");
    d.number("max memory clock", x.max_memory_clock_mhz, y.max_memory_clock_mhz, "MHz");
    d.text("ECC", x.ecc, y.ecc);
    d.text("MIG", x.mig, y.mig);
    d.text("persistence mode", x.persistence, y.persistence);
    d.text("PCIe link", link(x.pcie_gen, x.pcie_width), link(y.pcie_gen, y.pcie_width));
    d.text("PCIe link allowed", link(x.pcie_max_gen, x.pcie_max_width), link(y.pcie_max_gen, y.pcie_max_width));
    d.text("clocks locked", x.clocks_locked, y.clocks_locked);
  }
  d.text("host CPU", a.host.cpu_model, b.host.cpu_model);
  d.number("host CPUs", a.host.logical_cpus, b.host.logical_cpus, "logical");
  d.text("MPS", a.host.mps, b.host.mps);
  return d.take();
}

std::string describe(const std::vector<machine_difference>& d) {
  std::string out;
  for (const machine_difference& x : d) out += fmt::format("{}{} {} vs {}", out.empty() ? "" : "; ", x.fact, x.a, x.b);
  return out;
}

host_facts host_facts_from(const std::string& cpuinfo, int logical_cpus) {
  host_facts h;
  h.logical_cpus = logical_cpus > 0 ? logical_cpus : 0;
  std::istringstream in(cpuinfo);
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, 10, "model name") != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string v = line.substr(colon + 1);
    const auto first = v.find_first_not_of(" \t");
    const auto last = v.find_last_not_of(" \t\r");
    h.cpu_model = first == std::string::npos ? "" : v.substr(first, last - first + 1);
    break;
  }
  return h;
}

}  // namespace cudabench

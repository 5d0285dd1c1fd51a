// JSON form of the device description, and its checked reader.
#include "results/device_info.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>
#include <tuple>
#include <utility>

#include "io/errors.hpp"
#include "io/format.hpp"

namespace cudabench {

std::string device_info::model_slug() const {
  std::string out;
  for (char c : name.empty() ? std::string("no-gpu") : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.')
      out += c;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::string cuda_version_string(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

nlohmann::ordered_json to_json(const device_info& d) {
  nlohmann::ordered_json j;
  j["available"] = d.available;
  if (!d.available) {
    j["unavailable_reason"] = d.unavailable_reason;
    if (d.driver_version) j["driver_version"] = cuda_version_string(d.driver_version);
    if (d.runtime_version) j["runtime_version"] = cuda_version_string(d.runtime_version);
    if (d.machine) j["machine"] = to_json(*d.machine);
    return j;
  }
  j["ordinal"] = d.ordinal;
  j["name"] = d.name;
  j["compute_capability"] = fmt::format("{}.{}", d.cc_major, d.cc_minor);
  j["sm_count"] = d.sm_count;
  j["sm_clock_mhz"] = d.sm_clock_khz / 1000.0;
  j["memory_clock_mhz"] = d.memory_clock_khz / 1000.0;
  j["memory_bus_width_bits"] = d.memory_bus_width_bits;
  j["theoretical_bandwidth_gbps"] = d.theoretical_bandwidth() / 1e9;
  j["l2_bytes"] = d.l2_bytes;
  j["total_memory_bytes"] = d.total_memory_bytes;
  j["driver_version"] = cuda_version_string(d.driver_version);
  j["runtime_version"] = cuda_version_string(d.runtime_version);
  j["pci_bus_id"] = d.pci_bus_id;
  j["uuid"] = d.uuid;
  if (d.machine) j["machine"] = to_json(*d.machine);
  return j;
}

namespace {
/// The fields of a device description, each checked for its type and range before it is converted; a
/// message names the field as `where`.`key`.
class device_fields {
 public:
  device_fields(const nlohmann::json& j, const std::string& where) : j_(j), where_(where) {}

  std::string text(const char* key, const std::string& fallback = "") const {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) wrong_type(key, *v, "a string");
    return v->get<std::string>();
  }
  bool flag(const char* key) const {
    const nlohmann::json* v = find(key);
    if (!v) return false;
    if (!v->is_boolean()) wrong_type(key, *v, "true or false");
    return v->get<bool>();
  }
  /// A number in [lo, hi] (the range keeps every later conversion to an integer defined).
  double number(const char* key, double lo, double hi, double fallback = 0) const {
    const nlohmann::json* v = find(key);
    if (!v) return fallback;
    if (!v->is_number()) wrong_type(key, *v, "a number");
    const double x = v->get<double>();
    if (!(x >= lo && x <= hi))
      throw input_error(fmt::format("field '{}.{}' is {}, outside {} to {}", where_, key, x, lo, hi));
    return x;
  }
  /// The object at `key`, or null where absent.
  const nlohmann::json* object(const char* key) const {
    const nlohmann::json* v = find(key);
    if (v && !v->is_object()) wrong_type(key, *v, "an object");
    return v;
  }
  /// "13.0" as 13000; 0 when absent.
  int version(const char* key) const {
    const std::string t = text(key);
    if (t.empty()) return 0;
    const auto v = major_minor(t);
    if (!v)
      throw input_error(fmt::format("field '{}.{}' is '{}', not a version such as 12.4", where_, key, printable(t)));
    return v->first * 1000 + v->second * 10;
  }
  /// "9.0" as {9, 0}.
  std::pair<int, int> capability(const char* key) const {
    const std::string t = text(key, "0.0");
    const auto v = major_minor(t);
    if (!v)
      throw input_error(
          fmt::format("field '{}.{}' is '{}', not a compute capability such as 9.0", where_, key, printable(t)));
    return *v;
  }

 private:
  const nlohmann::json* find(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  [[noreturn]] void wrong_type(const char* key, const nlohmann::json& v, const char* expected) const {
    throw input_error(fmt::format("field '{}.{}' is {} {} where {} is expected", where_, key,
                                  v.is_array() || v.is_object() ? "an" : "a", v.type_name(), expected));
  }
  /// "MAJOR.MINOR" or "MAJOR" with MAJOR below 10000 and MINOR below 100 (a CUDA version, a capability).
  static std::optional<std::pair<int, int>> major_minor(const std::string& t) {
    int major = 0, minor = 0;
    const char* end = t.data() + t.size();
    auto [p, ec] = std::from_chars(t.data(), end, major);
    if (ec != std::errc() || major < 0 || major >= 10000) return std::nullopt;
    if (p != end) {
      if (*p != '.') return std::nullopt;
      auto [q, ec2] = std::from_chars(p + 1, end, minor);
      if (ec2 != std::errc() || q != end || minor < 0 || minor >= 100) return std::nullopt;
    }
    return std::pair{major, minor};
  }
  const nlohmann::json& j_;
  std::string where_;
};
}  // namespace

machine_facts machine_facts_from_json(const nlohmann::json& j, const std::string& where) {
  const device_fields f(j, where);
  machine_facts m;
  if (const nlohmann::json* bj = f.object("board")) {
    const device_fields b(*bj, where + ".board");
    board_facts x;
    x.uuid = b.text("uuid");
    x.serial = b.text("serial");
    x.vbios = b.text("vbios");
    x.driver = b.text("driver");
    x.power_limit_w = b.number("power_limit_w", 0, 1e6);
    x.app_sm_clock_mhz = int(b.number("app_sm_clock_mhz", 0, 1e6));
    x.app_memory_clock_mhz = int(b.number("app_memory_clock_mhz", 0, 1e6));
    x.max_sm_clock_mhz = int(b.number("max_sm_clock_mhz", 0, 1e6));
    x.max_memory_clock_mhz = int(b.number("max_memory_clock_mhz", 0, 1e6));
    x.ecc = b.text("ecc");
    x.mig = b.text("mig");
    x.persistence = b.text("persistence");
    x.pcie_gen = int(b.number("pcie_gen", 0, 1000));
    x.pcie_width = int(b.number("pcie_width", 0, 1000));
    x.pcie_max_gen = int(b.number("pcie_max_gen", 0, 1000));
    x.pcie_max_width = int(b.number("pcie_max_width", 0, 1000));
    x.clocks_locked = b.text("clocks_locked");
    m.board = std::move(x);
  }
  m.board_problem = f.text("board_problem");
  if (const nlohmann::json* hj = f.object("host")) {
    const device_fields h(*hj, where + ".host");
    m.host.cpu_model = h.text("cpu_model");
    m.host.logical_cpus = int(h.number("logical_cpus", 0, 1e7));
    m.host.mps = h.text("mps");
  }
  return m;
}

device_info device_info_from_json(const nlohmann::json& j, const std::string& where) {
  constexpr double max_exact = 9007199254740992.0;  // 2^53: larger byte counts are not read exactly
  const device_fields f(j, where);
  device_info d;
  d.available = f.flag("available");
  d.unavailable_reason = f.text("unavailable_reason");
  d.ordinal = int(f.number("ordinal", -1, 1e6, -1));
  d.name = f.text("name");
  std::tie(d.cc_major, d.cc_minor) = f.capability("compute_capability");
  d.sm_count = int(f.number("sm_count", 0, 1e6));
  d.sm_clock_khz = int(f.number("sm_clock_mhz", 0, 1e6) * 1000 + 0.5);
  d.memory_clock_khz = int(f.number("memory_clock_mhz", 0, 1e6) * 1000 + 0.5);
  d.memory_bus_width_bits = int(f.number("memory_bus_width_bits", 0, 1e6));
  d.l2_bytes = std::int64_t(f.number("l2_bytes", 0, max_exact));
  d.total_memory_bytes = std::int64_t(f.number("total_memory_bytes", 0, max_exact));
  d.driver_version = f.version("driver_version");
  d.runtime_version = f.version("runtime_version");
  d.pci_bus_id = f.text("pci_bus_id");
  d.uuid = f.text("uuid");
  if (const nlohmann::json* m = f.object("machine")) d.machine = machine_facts_from_json(*m, where + ".machine");
  return d;
}

}  // namespace cudabench

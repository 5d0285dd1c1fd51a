// A repetition's energy record as JSON, both ways, and the unit of work energy is given per.
#include "results/energy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "io/errors.hpp"
#include "io/format.hpp"

namespace cudabench {
namespace {
using json = nlohmann::ordered_json;

double number(const json& j, const char* key, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return 0;
  if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
    throw input_error(
        fmt::format("{}.{} is {} where a number of at least 0 is expected", where, key, printable(it->dump(), 40)));
  return std::min(it->get<double>(), 1e300);
}
std::string text(const json& j, const char* key, const std::string& where) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  if (!it->is_string())
    throw input_error(fmt::format("{}.{} is a {} where a string is expected", where, key, it->type_name()));
  return it->get<std::string>();
}
}  // namespace

json to_json(const energy_record& e) {
  json j;
  if (!e.method.empty()) j["method"] = e.method;
  if (!e.absent.empty()) j["absent"] = e.absent;
  if (e.window_s > 0) {
    j["window_s"] = e.window_s;
    j["runs"] = e.runs;
    j["extra_s"] = e.extra_s;
    j["busy_fraction"] = e.busy_fraction;
  }
  if (e.uncertainty > 0) j["uncertainty"] = e.uncertainty;
  j["throttled_samples"] = e.throttled_samples;
  if (!e.throttle_source.empty()) {
    j["throttle_source"] = e.throttle_source;
    j["throttle_s"] = e.throttle_s;
  }
  return j;
}

energy_record energy_record_from_json(const json& j, const std::string& where) {
  if (!j.is_object()) throw input_error(fmt::format("{} is a {} where an object is expected", where, j.type_name()));
  energy_record e;
  e.method = text(j, "method", where);
  e.absent = text(j, "absent", where);
  e.window_s = number(j, "window_s", where);
  e.runs = number(j, "runs", where);
  e.extra_s = number(j, "extra_s", where);
  e.busy_fraction = number(j, "busy_fraction", where);
  e.uncertainty = number(j, "uncertainty", where);
  e.throttled_samples = std::size_t(std::min(number(j, "throttled_samples", where), 1e15));
  e.throttle_source = text(j, "throttle_source", where);
  if (auto it = j.find("throttle_s"); it != j.end() && !it->is_null()) {
    if (!it->is_object())
      throw input_error(fmt::format("{}.throttle_s is a {} where an object is expected", where, it->type_name()));
    for (auto& [reason, v] : it->items()) e.throttle_s[reason] = number(*it, reason.c_str(), where + ".throttle_s");
  }
  return e;
}

energy_unit energy_unit_of(double bytes, double items, double flops) {
  if (flops > 0) return {"joules_per_flop", "J/FLOP", flops};
  if (bytes > 0) return {"joules_per_byte", "J/byte", bytes};
  if (items > 0) return {"joules_per_item", "J/item", items};
  return {energy_counters::joules, "J/run", 1};
}

}  // namespace cudabench

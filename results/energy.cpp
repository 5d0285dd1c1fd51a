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

/// The number fields of an energy record, their physical range (each from 0) and where each goes.
struct record_number {
  energy_bound bound;
  double energy_record::*to;
};
constexpr record_number record_numbers[] = {{{"window_s", 1e6, false}, &energy_record::window_s},
                                            {{"runs", 1e15, false}, &energy_record::runs},
                                            {{"extra_s", 1e6, false}, &energy_record::extra_s},
                                            {{"busy_fraction", 1, false}, &energy_record::busy_fraction},
                                            {{"uncertainty", 1e6, false}, &energy_record::uncertainty},
                                            {{"back_to_back", 1e9, true}, &energy_record::back_to_back}};
constexpr energy_bound throttled_samples{"throttled_samples", 1e15, true};
constexpr energy_bound throttle_seconds{"", 1e6, false};

std::string text(const json& v, const std::string& field) {
  if (!v.is_string())
    throw input_error(fmt::format("field '{}' is {} where a string is expected", field, printable(v.dump(), 40)));
  return v.get<std::string>();
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
  if (e.back_to_back > 0) j["back_to_back"] = e.back_to_back;
  j["throttled_samples"] = e.throttled_samples;
  if (!e.throttle_source.empty()) {
    j["throttle_source"] = e.throttle_source;
    j["throttle_s"] = e.throttle_s;
  }
  return j;
}

double checked_energy_number(const json& v, const std::string& field, const energy_bound& b) {
  const bool in_range = v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0 &&
                        v.get<double>() <= b.most && (!b.whole || std::floor(v.get<double>()) == v.get<double>());
  if (!in_range)
    throw input_error(fmt::format("field '{}' is {} where {} from 0 to {:g} is expected", field,
                                  printable(v.dump(), 40), b.whole ? "a whole number" : "a number", b.most));
  return v.get<double>();
}

energy_record energy_record_from_json(const json& j, const std::string& where) {
  if (!j.is_object())
    throw input_error(fmt::format("field '{}' is {} where an object is expected", where, printable(j.dump(), 40)));
  energy_record e;
  // One pass over the members, each looked at once: a record of many keys is read in linear time.
  for (const auto& [key, v] : j.items()) {
    const std::string field = where + "." + key;
    if (key == "method") e.method = text(v, field);
    if (key == "absent") e.absent = text(v, field);
    if (key == "throttle_source") e.throttle_source = text(v, field);
    if (key == "throttle_s") {
      if (!v.is_object())
        throw input_error(fmt::format("field '{}' is {} where an object is expected", field, printable(v.dump(), 40)));
      for (const auto& [reason, seconds] : v.items())
        e.throttle_s.emplace_hint(e.throttle_s.end(), reason,
                                  checked_energy_number(seconds, field + "." + reason, throttle_seconds));
    }
    if (key == throttled_samples.key)
      e.throttled_samples = std::size_t(checked_energy_number(v, field, throttled_samples));
    for (const record_number& n : record_numbers)
      if (key == n.bound.key) e.*n.to = checked_energy_number(v, field, n.bound);
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

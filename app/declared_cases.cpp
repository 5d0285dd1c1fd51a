// The registry's declarations as the results model keeps them.
#include "app/declared_cases.hpp"

#include <utility>

namespace cudabench::app {

case_meta meta_of(const case_def& c) {
  case_meta m;
  m.name = c.name();
  split_case_name(m);
  m.described = true;
  m.on_gpu = c.on == where::gpu;
  m.declared_cache = c.cache == cache_state::cold ? "cold" : "hot";
  m.host_bound = c.on == where::cpu || c.host_bound;
  m.gated = c.gated;
  m.size = c.size;
  m.bytes = c.work.bytes();
  m.items = c.work.items;
  m.flops = c.work.flops;
  m.limit = c.limit;
  m.control = c.control;
  return m;
}

declared_cases declared_of(const suite& s, const std::vector<const case_def*>& selected) {
  declared_cases d;
  for (const family_def& f : s.families) {
    family_refs& refs = d.families[f.name];
    refs.description = f.description;
    refs.tolerance = f.tolerance;
    refs.references = f.references;
    for (const size_table& t : f.tables) refs.tables.push_back({t.title, t.base, t.variants});
  }
  for (const case_def* c : selected) d.selection.push_back(meta_of(*c));
  return d;
}

run_result recorded_run(nlohmann::ordered_json host, const device_info& device, const run_settings& run, const suite& s,
                        const std::vector<const case_def*>& selected,
                        const std::map<std::string, case_result>& results) {
  return cudabench::recorded_run(std::move(host), device, run, declared_of(s, selected), results);
}

run_result make_run_result(nlohmann::ordered_json host, const device_info& device, const run_settings& run,
                           const suite& s, const std::vector<const case_def*>& selected,
                           const std::map<std::string, case_result>& results) {
  return cudabench::make_run_result(std::move(host), device, run, declared_of(s, selected), results);
}

}  // namespace cudabench::app

// Operations on the results model: summaries, limits, the --devices merge, incompleteness.
#include "results/results_model.hpp"

#include "io/enum_names.hpp"
#include "io/interrupt.hpp"

#include "cudabench/limit_names.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <unordered_set>

#include "io/errors.hpp"
#include "results/results_schema.hpp"
#include "results/run_builder.hpp"
#include "results/stats.hpp"

namespace cudabench {

namespace {
/// The one copy of each counter name. Each thread remembers the names it has looked up, so that the readers
/// of two files at once take the lock once per distinct name, not once per counter.
const std::string* interned(std::string_view name) {
  thread_local std::unordered_map<std::string_view, const std::string*> seen;
  if (const auto it = seen.find(name); it != seen.end()) return it->second;
  static std::mutex lock;
  static std::unordered_set<std::string> names;  // nodes: a name's address never changes
  const std::string* kept = nullptr;
  {
    const std::lock_guard<std::mutex> held(lock);
    kept = &*names.emplace(name).first;
  }
  seen.emplace(*kept, kept);
  return kept;
}

bool name_less(const counter_map::value_type& e, std::string_view name) { return e.first.str() < name; }
}  // namespace

counter_name::counter_name(std::string_view name) : name_(interned(name)) {}

counter_map::counter_map(const std::map<std::string, double>& m) {
  entries_.reserve(m.size());
  for (const auto& [name, v] : m) entries_.emplace_back(name, v);  // already in name order
}

counter_map counter_map::from_unsorted(std::vector<value_type> entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const value_type& a, const value_type& b) { return a.first < b.first; });
  counter_map out;
  for (value_type& e : entries) {
    if (!out.entries_.empty() && out.entries_.back().first == e.first)
      out.entries_.back().second = e.second;
    else
      out.entries_.push_back(std::move(e));
  }
  return out;
}

counter_map::iterator counter_map::find(std::string_view name) {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), name, name_less);
  return it != entries_.end() && it->first.str() == name ? it : entries_.end();
}

counter_map::const_iterator counter_map::find(std::string_view name) const {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), name, name_less);
  return it != entries_.end() && it->first.str() == name ? it : entries_.end();
}

double counter_map::at(std::string_view name) const {
  const auto it = find(name);
  if (it == end()) throw std::out_of_range("no counter named " + std::string(name));
  return it->second;
}

double& counter_map::operator[](std::string_view name) {
  const auto it = std::lower_bound(entries_.begin(), entries_.end(), name, name_less);
  if (it != entries_.end() && it->first.str() == name) return it->second;
  return entries_.insert(it, value_type(name, 0.0))->second;
}

std::map<std::string, double> counter_map::to_map() const {
  std::map<std::string, double> out;
  for (const auto& [name, v] : entries_) out.emplace_hint(out.end(), name.str(), v);
  return out;
}

const char* to_string(case_status s) {
  static constexpr std::pair<case_status, const char*> names[] = {
      {case_status::ok, "ok"}, {case_status::failed, "failed"}, {case_status::skipped, "skipped"}};
  return name_in(names, s);
}

bool standard_context_key(const std::string& key) {
  namespace k = schema;
  static const char* const standard[] = {k::date,
                                         k::host_name,
                                         "executable",
                                         "num_cpus",
                                         "mhz_per_cpu",
                                         "cpu_scaling_enabled",
                                         "caches",
                                         "load_avg",
                                         k::library_build_type,
                                         "library_version",
                                         "json_schema_version",
                                         k::device,
                                         k::devices,
                                         k::device_name,
                                         k::preset_name,
                                         k::cudabench};
  return std::find_if(std::begin(standard), std::end(standard), [&](const char* s) { return key == s; }) !=
         std::end(standard);
}

std::vector<std::pair<std::string, std::string>> custom_context(const run_result& run) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!run.host.is_object()) return out;
  for (const auto& [key, v] : run.host.items())
    if (v.is_string() && !standard_context_key(key)) out.emplace_back(key, v.get<std::string>());
  return out;
}

std::string custom_context_text(const run_result& run) {
  std::string out;
  for (const auto& [key, value] : custom_context(run)) out += (out.empty() ? "" : ", ") + key + "=" + value;
  return out;
}

std::pair<int, std::string> split_device_prefix(const std::string& name) {
  // "dev<N>/rest", N of 1 to 6 digits; anything else has no device prefix.
  if (name.compare(0, 3, "dev") != 0) return {-1, name};
  std::size_t i = 3;
  while (i < name.size() && i < 9 && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  if (i == 3 || i >= name.size() || name[i] != '/') return {-1, name};
  return {std::stoi(name.substr(3, i - 3)), name.substr(i + 1)};
}

void split_case_name(case_meta& m) {
  auto [device, name] = split_device_prefix(m.name);
  m.device = device;
  m.family = m.variant = m.params = "";
  const auto first = name.find('/');
  if (first == std::string::npos) {
    m.family = name;
    return;
  }
  m.family = name.substr(0, first);
  const auto second = name.find('/', first + 1);
  m.variant = name.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
  if (second != std::string::npos) m.params = name.substr(second + 1);
}

namespace {
template <typename Get>
std::vector<double> each(const case_result& c, Get get) {
  std::vector<double> out;
  out.reserve(c.repetitions.size());
  for (const repetition& r : c.repetitions) out.push_back(get(r));
  return out;
}

/// Counter names present in every repetition.
std::vector<std::string> common_counters(const case_result& c) {
  std::vector<std::string> names;
  for (const auto& [k, v] : c.repetitions.front().counters) {
    bool everywhere = true;
    for (const repetition& r : c.repetitions) everywhere = everywhere && r.counters.count(k.str());
    if (everywhere) names.push_back(k.str());
  }
  return names;
}

/// The per-second counter of a row that a limit of `unit` is a rate of (bytes for an unknown unit).
const char* rate_counter(const std::string& unit) {
  return unit == "FLOP/s" ? "flops_per_second" : unit == "1/s" ? "items_per_second" : "bytes_per_second";
}
}  // namespace

namespace {
/// Each round's lower median, in round order, when the repetitions came from two rounds or more; else nothing.
std::vector<double> round_medians(const case_result& c, std::size_t& rounds) {
  auto round_of = [](const repetition& r) { return r.record ? r.record->round : 0; };
  // Most cases have no rounds recorded, or one: no grouping to do (a million cases read without a map each).
  const bool unknown =
      std::any_of(c.repetitions.begin(), c.repetitions.end(), [&](const repetition& r) { return round_of(r) == 0; });
  const bool one = std::all_of(c.repetitions.begin(), c.repetitions.end(),
                               [&](const repetition& r) { return round_of(r) == round_of(c.repetitions.front()); });
  if (unknown || one) {
    rounds = unknown || c.repetitions.empty() ? 0 : 1;
    return {};
  }
  std::map<int, std::vector<double>> by_round;
  for (const repetition& r : c.repetitions) by_round[r.record ? r.record->round : 0].push_back(r.real_time_s);
  rounds = by_round.count(0) ? 0 : by_round.size();
  if (rounds < 2) return {};
  std::vector<double> out;
  for (auto& [round, times] : by_round) out.push_back(lower_median(std::move(times)));
  return out;
}
}  // namespace

void summarize_case(case_result& c) {
  c.samples_s = round_medians(c, c.rounds);
  if (c.samples_s.empty()) c.samples_s = each(c, [](const repetition& r) { return r.real_time_s; });
  c.timeline_metrics = c.timeline ? c.timeline->metrics : timeline_metrics{};
  if (c.repetitions.empty()) return;
  c.median_s = median(c.samples_s);
  c.aggregates_only = false;
  const repetition& first = c.repetitions.front();
  c.counters = first.counters;
  c.label = first.label;
  c.correct = first.record ? first.record->correct : true;
  c.cache = first.record ? first.record->cache : "";
}

repetition median_repetition(const case_result& c) {
  if (c.repetitions.size() < 2) return c.repetitions.empty() ? repetition{} : c.repetitions.front();
  repetition out = c.repetitions.front();
  out.real_time_s = median(each(c, [](const repetition& r) { return r.real_time_s; }));
  out.cpu_time_s = median(each(c, [](const repetition& r) { return r.cpu_time_s; }));
  out.counters.clear();
  for (const std::string& k : common_counters(c))
    out.counters[k] = median(each(c, [&](const repetition& r) { return r.counters.at(k); }));
  return out;
}

const case_result* run_result::find(const std::string& name) const {
  if (by_name.size() == cases.size()) {  // the index index_cases built (cases edited since: scan)
    auto it = by_name.find(name);
    if (it != by_name.end() && it->second < cases.size() && cases[it->second].name == name) return &cases[it->second];
    if (it == by_name.end()) return nullptr;
  }
  for (auto& c : cases)
    if (c.name == name) return &c;
  return nullptr;
}

void run_result::index_cases() {
  by_name.clear();
  by_name.reserve(cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) by_name.emplace(cases[i].name, i);
  selected.clear();
  for (const case_meta& m : selection) selected.insert(m.name);
  lists_selection = !selection.empty();  // an empty list says nothing about a filter
}

void run_result::finish_cases(std::size_t from) {
  for (std::size_t i = from; i < cases.size(); ++i) summarize_case(cases[i]);
  index_cases();
}

void run_result::mark_incomplete(const std::string& signal) {
  settings.incomplete = true;
  settings.interrupted_by = signal;
}

std::map<std::string, limit_rate> measured_limits(const run_result& run) {
  std::map<std::string, limit_rate> out;
  for (const case_result& c : run.cases) {
    if (c.family != limits_family || !c.described || c.status != case_status::ok || c.repetitions.empty()) continue;
    const char* unit = c.flops > 0 ? "FLOP/s" : c.bytes > 0 ? "B/s" : "1/s";
    const auto m = median_repetition(c).counters;
    const auto it = m.find(rate_counter(unit));
    if (it == m.end() || !std::isfinite(it->second) || !(it->second > 0)) continue;
    const auto energy = m.find(energy_unit_of(c.bytes, c.items, c.flops).counter);
    out[c.name] = {it->second, unit, energy != m.end() && energy->second > 0 ? energy->second : 0};
  }
  return out;
}

void apply_limits(run_result& run, const std::map<std::string, limit_rate>& limits, const std::string& source) {
  if (limits.empty()) return;
  run.limits.clear();
  for (const auto& [name, l] : limits) run.limits[name] = {l.rate, l.unit, source, l.joules_per_unit};
  for (case_result& c : run.cases) {
    const auto it = c.limit.empty() ? limits.end() : limits.find(c.limit);
    if (it == limits.end()) continue;
    const char* counter = rate_counter(it->second.unit);
    for (repetition& r : c.repetitions)
      if (auto k = r.counters.find(counter); k != r.counters.end())
        r.counters["limit_fraction"] = k->second / it->second.rate;
    // The summary's counters are its first repetition's (summarize_case): the fraction joins them, the case
    // is not summarized again.
    if (c.repetitions.empty()) continue;
    const counter_map& first = c.repetitions.front().counters;
    if (auto k = first.find("limit_fraction"); k != first.end()) c.counters["limit_fraction"] = k->second;
  }
}

run_result merge_device_runs(std::vector<device_run> runs) {
  std::optional<run_builder> merged;
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (device_run& run : runs) {
    if (!run.result) {
      devices.push_back({{"ordinal", run.ordinal}, {"available", false}, {"problem", run.problem}});
      continue;
    }
    run_result& r = *run.result;
    nlohmann::ordered_json dev = r.device ? to_json(*r.device) : nlohmann::ordered_json::object();
    dev["ordinal"] = run.ordinal;
    devices.push_back(dev);
    const std::string prefix = "dev" + std::to_string(run.ordinal) + "/";
    auto rename = [&](case_meta& m) {
      m.name = prefix + m.name;
      split_case_name(m);
    };
    for (case_meta& m : r.selection) rename(m);
    for (case_result& c : r.cases) rename(c);
    if (!merged) {
      merged.emplace(std::move(r));
      continue;
    }
    for (case_result& c : r.cases) merged->add(std::move(c), origin::device);
    run_result& head = merged->description();
    head.selection.insert(head.selection.end(), r.selection.begin(), r.selection.end());
    if (r.settings.incomplete) head.mark_incomplete(r.settings.interrupted_by.value_or(signal_name(SIGINT)));
  }
  if (!merged) throw input_error("--devices: no device produced a result");
  merged->description().devices = std::move(devices);
  return merged->finish();
}

}  // namespace cudabench

// Learning each case's gate from its between-run drift, and the gates file's one writer and one reader.
#include "analysis/gates.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <string_view>

#include "analysis/normalize.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "results/results.hpp"
#include "results/stats.hpp"

namespace cudabench {

namespace {
using json = nlohmann::ordered_json;
/// 2 adds each run's board, each case's same-board and across-board drifts and boards, and "normalized"; 3 adds
/// host-bound cases' gates (a case's "host": true) and each run's host; earlier files are read as they are
/// (none of these).
constexpr int gates_schema_version = 3;
/// Fewer pairs of runs of one board than this estimate no drift of their own: a same-board gate is tighter than
/// the gate, so it waits for as much evidence as six runs of one board give (a lower median of fewer pairs
/// is often low, and its gate then raises false alarms); fewer pairs of runs of two boards than the second
/// estimate no drift across boards.
constexpr std::size_t min_same_board_pairs = 12, min_across_board_pairs = 4;
constexpr const char* gates_kind = "cudabench gates";

/// Runs at most this far apart are paired: more pairs than consecutive runs alone make the estimate steadier
/// (with 5 runs, 9 pairs instead of 4), and a step in the history still spoils only the few pairs across it.
constexpr std::size_t pair_reach = 3;

/// 1 / E[1.4826 x lower median of the pairs' |log ratio|] / sqrt(2) for n standard normal values (a simulation
/// of 4 x 10^4 histories per size); beyond the table 0.997 (even n) or 1 - 0.5 / n (odd n, whose even count of
/// pairs has a low lower median), within 0.3% of the simulation.
double unbiasing(std::size_t n) {
  static const double small[] = {1,     1,     0.846, 0.769, 1.091, 0.907, 1.005, 0.928, 1.001, 0.945, 0.996,
                                 0.955, 0.997, 0.963, 0.999, 0.967, 0.997, 0.971, 0.997, 0.976, 0.997};
  if (n < std::size(small)) return small[n];
  return n % 2 == 0 ? 0.997 : 1 - 0.5 / double(n);
}

std::string device_model(const run_result& r) {
  if (!r.device) throw input_error(r.source + ": has no device description (context.device): its GPU model is unknown");
  return r.device->available ? r.device->name : "no GPU";
}

std::string run_date(const run_result& r) { return r.settings.started_utc.empty() ? r.date : r.settings.started_utc; }

bool learns(const case_result& c) { return c.gated && c.status == case_status::ok && c.median_s > 0; }

/// The machine a host-bound case's run is of: its host and board ("" where the run did not name its host).
std::string host_machine(const run_result& r) {
  return r.settings.host_name.empty() ? "" : r.settings.host_name + "/" + (r.device ? r.device->uuid : "");
}

/// Refuses runs of more than one GPU model or preset, naming the first that differs.
void check_one_model_and_preset(const std::vector<run_result>& runs) {
  const std::string model = device_model(runs.front());
  for (const run_result& r : runs) {
    if (const std::string m = device_model(r); m != model)
      throw input_error(fmt::format("{} is a run of {} and {} one of {}: gates are learned from runs of one GPU model",
                                    r.source, m, runs.front().source, model));
    if (r.settings.preset != runs.front().settings.preset)
      throw input_error(fmt::format(
          "{} is a run of preset '{}' and {} one of '{}': gates are learned from runs of one preset", r.source,
          printable(r.settings.preset), runs.front().source, printable(runs.front().settings.preset)));
  }
}
}  // namespace

const learned_gate* gate_table::find(const std::string& name) const {
  auto it = cases.find(name);
  return it == cases.end() ? nullptr : &it->second;
}

std::set<std::string> gate_table::boards() const {
  std::set<std::string> out;
  for (const gate_source_run& r : runs)
    if (!r.board.empty()) out.insert(r.board);
  return out;
}

learned_gate learned_gate::for_pair(bool same_board) const {
  learned_gate g = *this;
  if (same_board && same_board_gate > 0) {
    g.gate = same_board_gate;
    g.drift = same_board_drift;
  } else if (across_board_drift > drift) {
    g.drift = across_board_drift;
  }
  return g;
}

double pair_drift(std::vector<double> abs_log_ratios, std::size_t min_pairs) {
  if (abs_log_ratios.size() < std::max<std::size_t>(min_pairs, 1)) return std::numeric_limits<double>::quiet_NaN();
  return mad_to_stddev * lower_median(std::move(abs_log_ratios));
}

double between_run_drift(const std::vector<double>& medians_s) {
  if (medians_s.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  // Each pair of runs gives a two-run change. A real step in the history spoils only the pairs across it and a
  // bad night only its own, so the lower median of them hardly moves (a spread about the history's centre
  // grows with a step that splits it). The lower of the two middle values, not their average, which would take
  // a spoilt pair as soon as half of them are (one bad night among 5 runs spoils 4 of the 9).
  std::vector<double> changes;
  for (std::size_t i = 1; i < medians_s.size(); ++i)
    for (std::size_t j = i > pair_reach ? i - pair_reach : 0; j < i; ++j)
      changes.push_back(std::fabs(std::log(medians_s[i] / medians_s[j])));
  return mad_to_stddev * lower_median(changes) * unbiasing(medians_s.size());
}

namespace {
/// One run's median of a case: as measured, on its control's scale (time x the control's rate in that run)
/// where the run measured the control, and the board it came from.
struct history_point {
  double median_s = 0;
  std::optional<double> scaled;
  std::string board;
};

/// A case's gate from its history in date order: the drift over neighbouring runs (as between_run_drift), and
/// apart from it the drifts of pairs of one board (neighbours in that board's own runs) and of pairs of two
/// boards (neighbours in the history). Neighbours only, as between_run_drift pairs them: a real step in the
/// history then spoils only the few pairs across it.
learned_gate gate_of(const std::vector<history_point>& h, const gate_settings& s) {
  const bool scaled = std::all_of(h.begin(), h.end(), [](const history_point& p) { return p.scaled.has_value(); });
  std::vector<double> values;
  for (const history_point& p : h) values.push_back(scaled ? *p.scaled : p.median_s);
  std::vector<double> same, across;
  std::map<std::string, std::vector<std::size_t>> by_board;  // each board's runs, in date order
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (h[i].board.empty()) continue;
    by_board[h[i].board].push_back(i);
    for (std::size_t j = i > pair_reach ? i - pair_reach : 0; j < i; ++j)
      if (!h[j].board.empty() && h[j].board != h[i].board) across.push_back(std::fabs(std::log(values[i] / values[j])));
  }
  for (const auto& [board, runs] : by_board)
    for (std::size_t a = 1; a < runs.size(); ++a)
      for (std::size_t b = a > pair_reach ? a - pair_reach : 0; b < a; ++b)
        same.push_back(std::fabs(std::log(values[runs[a]] / values[runs[b]])));
  learned_gate g;
  g.drift = between_run_drift(values);
  g.runs = h.size();
  g.boards = by_board.size();
  const double within = pair_drift(same, min_same_board_pairs), between = pair_drift(across, min_across_board_pairs);
  if (std::isfinite(within)) {
    g.same_board_drift = within;
    g.same_board_gate = std::max(s.floor, s.k * within);
  }
  if (std::isfinite(between)) g.across_board_drift = between;
  // A history wilder than any benchmark's (machines a thousand times apart) is held at the file's limits, so
  // that the gates file written is one its reader takes.
  for (double* d : {&g.drift, &g.same_board_drift, &g.across_board_drift}) *d = std::min(*d, max_gate_drift);
  g.same_board_gate = std::min(g.same_board_gate, max_gate);
  g.gate = std::min(max_gate, std::max(s.floor, s.k * std::max(g.drift, g.across_board_drift)));
  return g;
}
}  // namespace

gate_table learn_gates(const std::vector<run_result>& runs, const gate_settings& s) {
  if (runs.empty()) throw input_error("no runs to learn gates from");
  check_one_model_and_preset(runs);
  std::vector<const run_result*> by_date;  // oldest first, as trend orders them: runs are paired with their neighbours
  for (const run_result& r : runs) by_date.push_back(&r);
  std::stable_sort(by_date.begin(), by_date.end(), [](const run_result* a, const run_result* b) {
    return run_date(*a) == run_date(*b) ? a->source < b->source : run_date(*a) < run_date(*b);
  });
  gate_table t;
  t.device = device_model(runs.front());
  t.preset = runs.front().settings.preset;
  t.settings = s;
  t.normalized = true;
  std::map<std::string, std::vector<history_point>> history;
  std::set<std::string> excluded;          // declared not gated in any run, or host-bound in some runs only
  std::map<std::string, bool> host_bound;  // as the first run with the case says
  // Each case's control as the newest run declares it: older runs may predate its declaration, and every run of
  // a history must be on the same scale.
  std::map<std::string, const case_meta*> newest;
  for (const run_result* run : by_date)
    for (const case_result& c : run->cases) newest[c.name] = &c;
  for (const run_result* run : by_date) {
    const run_result& r = *run;
    const std::string board = r.device ? r.device->uuid : "";
    t.runs.push_back({std::filesystem::path(r.source).filename().string(), r.settings.git_revision, run_date(r), board,
                      r.settings.host_name});
    const auto rates = control_rates(r);
    for (const case_result& c : r.cases) {
      const bool host = host_bound.try_emplace(c.name, c.host_bound).first->second;
      if (!c.gated || c.host_bound != host) excluded.insert(c.name);
      if (!learns(c)) continue;
      const auto rate = host ? std::nullopt : control_rate(*newest[c.name], rates);
      history[c.name].push_back({c.median_s, rate ? std::optional<double>(c.median_s * *rate) : std::nullopt,
                                 host ? host_machine(r) : board});
    }
  }
  for (const auto& [name, h] : history) {
    if (excluded.count(name) || h.size() < s.min_runs) continue;
    learned_gate g = gate_of(h, s);
    g.host = host_bound[name];
    if (g.host && g.same_board_gate <= 0) continue;  // no pairs of one machine: nothing a comparison could use
    t.cases[name] = g;
  }
  return t;
}

std::string gates_json(const gate_table& t) {
  json j;
  j["kind"] = gates_kind;
  j["schema_version"] = gates_schema_version;
  j["device"] = t.device;
  j["preset"] = t.preset;
  j["floor"] = t.settings.floor;
  j["k"] = t.settings.k;
  j["min_runs"] = t.settings.min_runs;
  j["normalized"] = t.normalized;
  json runs = json::array();
  for (const gate_source_run& r : t.runs)
    runs.push_back(
        {{"file", r.file}, {"revision", r.revision}, {"date", r.date}, {"board", r.board}, {"host", r.host}});
  j["runs"] = runs;
  json cases = json::object();
  for (const auto& [name, g] : t.cases) {
    cases[name] = {{"gate", g.gate},
                   {"drift", g.drift},
                   {"runs", g.runs},
                   {"boards", g.boards},
                   {"same_board_gate", g.same_board_gate},
                   {"same_board_drift", g.same_board_drift},
                   {"across_board_drift", g.across_board_drift}};
    if (g.host) cases[name]["host"] = true;
  }
  j["cases"] = cases;
  return j.dump(2) + "\n";
}

namespace {
/// A gates file is read into nlohmann::json, whose objects are sorted maps: ordered_json's one-by-one key search
/// made reading the cases quadratic (400k cases took minutes). The writer's order is not needed to read it.
using parsed_json = nlohmann::json;

/// A pass over the text that only refuses a key given twice in one object (which one is meant?). It builds
/// nothing: json::parse's callback form, which could do the same, searches its parent object at every
/// object's end, which made a large file quadratic.
struct repeated_key_check : nlohmann::json_sax<parsed_json> {
  explicit repeated_key_check(const std::string& source) : source(source) {}
  const std::string& source;
  std::vector<std::set<std::string>> keys;  // of each object being read

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    keys.emplace_back();
    return true;
  }
  bool key(string_t& k) override {
    if (!keys.back().insert(k).second)
      throw input_error(fmt::format("{}: key '{}' appears twice in one object (refused: which one is meant?)", source,
                                    printable(k, 60)));
    return true;
  }
  bool end_object() override {
    keys.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    throw input_error(fmt::format("{}: invalid JSON ({})", source, printable(e.what())));
  }
};

/// The field `key` of `j`, which must be present and of the kind `check` accepts (named `what` in messages).
template <typename Check>
const parsed_json& field(const parsed_json& j, const char* key, Check check, std::string_view what,
                         const std::string& where, const std::string& source) {
  auto it = j.find(key);
  if (it == j.end()) throw input_error(fmt::format("{}: {}'{}' is missing", source, where, key));
  if (!check(*it))
    throw input_error(
        fmt::format("{}: {}'{}' is {} where {} is expected", source, where, key, printable(it->dump(), 40), what));
  return *it;
}
bool is_string(const parsed_json& v) { return v.is_string(); }
bool is_count(const parsed_json& v) { return v.is_number_unsigned() && v.get<std::uint64_t>() <= 1000000; }

/// A numeric field's range: from `lo` (above it when `above`) to `hi`; `what` says it in a message.
struct number_range {
  double lo, hi;
  bool above = false;
  bool operator()(const parsed_json& v) const {
    if (!v.is_number()) return false;
    const double x = v.get<double>();
    return (above ? x > lo : x >= lo) && x <= hi;  // NaN is neither
  }
  std::string what() const {
    return above ? fmt::format("a number above {:g} and at most {:g}", lo, hi)
                 : fmt::format("a number from {:g} to {:g}", lo, hi);
  }
};

/// A whole number from `lo` to `hi`.
struct count_range {
  std::uint64_t lo, hi;
  bool operator()(const parsed_json& v) const {
    return v.is_number_unsigned() && v.get<std::uint64_t>() >= lo && v.get<std::uint64_t>() <= hi;
  }
  std::string what() const { return fmt::format("a whole number from {} to {}", lo, hi); }
};

template <typename Range>
const parsed_json& ranged(const parsed_json& j, const char* key, const Range& range, const std::string& where,
                          const std::string& source) {
  return field(j, key, range, range.what(), where, source);
}

/// A case's learned gate; `min_runs` is the file's (a case learns from that many runs or more).
learned_gate read_case(const std::string& name, const parsed_json& c, std::size_t min_runs, int version,
                       const std::string& source) {
  const std::string where = fmt::format("case '{}': ", printable(name, 80));
  if (!c.is_object()) throw input_error(fmt::format("{}: {}not an object", source, where));
  const number_range gate{0, max_gate, true}, drift{0, max_gate_drift};
  learned_gate g;
  g.gate = ranged(c, "gate", gate, where, source).get<double>();
  g.drift = ranged(c, "drift", drift, where, source).get<double>();
  g.runs = ranged(c, "runs", count_range{min_runs, 1000000}, where, source).get<std::size_t>();
  if (c.contains("boards"))
    g.boards = field(c, "boards", is_count, "a count of boards", where, source).get<std::size_t>();
  // 0: too few pairs of runs of one board, or of two boards, to learn these
  if (c.contains("same_board_gate"))
    g.same_board_gate = ranged(c, "same_board_gate", number_range{0, max_gate}, where, source).get<double>();
  for (auto [key, value] :
       {std::pair{"same_board_drift", &g.same_board_drift}, std::pair{"across_board_drift", &g.across_board_drift}})
    if (c.contains(key)) *value = ranged(c, key, drift, where, source).get<double>();
  if (version >= 3 && c.contains("host"))
    g.host = field(
                 c, "host", [](const parsed_json& v) { return v.is_boolean(); }, "true or false", where, source)
                 .get<bool>();
  return g;
}

void read_runs(gate_table& t, const parsed_json& runs, const std::string& source) {
  for (const parsed_json& r : runs) {
    if (!r.is_object()) throw input_error(source + ": an entry of 'runs' is not an object");
    t.runs.push_back(
        {field(r, "file", is_string, "a string", "runs: ", source).get<std::string>(),
         field(r, "revision", is_string, "a string", "runs: ", source).get<std::string>(),
         field(r, "date", is_string, "a string", "runs: ", source).get<std::string>(),
         r.contains("board") ? field(r, "board", is_string, "a string", "runs: ", source).get<std::string>() : "",
         r.contains("host") ? field(r, "host", is_string, "a string", "runs: ", source).get<std::string>() : ""});
  }
}
}  // namespace

gate_table parse_gates(const std::string& text, const std::string& source) {
  if (blank(text)) throw input_error(empty_input(source, "gates"));
  if (const std::size_t depth = json_nesting_depth(text); depth > 8)
    throw input_error(fmt::format("{}: JSON nested {} levels deep; a gates file needs 3", source, depth));
  parsed_json j;
  try {
    repeated_key_check check(source);
    parsed_json::sax_parse(text, &check);
    j = parsed_json::parse(text);
  } catch (const parsed_json::exception& e) {
    throw input_error(fmt::format("{}: invalid JSON ({})", source, printable(e.what())));
  }
  if (!j.is_object() || j.value("kind", parsed_json()) != gates_kind)
    throw input_error(
        fmt::format("{}: not a gates file (no \"kind\": \"{}\"; the gates command writes one)", source, gates_kind));
  const parsed_json& version = field(
      j, "schema_version", [](const parsed_json& v) { return v.is_number_integer(); }, "a whole number", "", source);
  if (!version.is_number_unsigned() || version < 1 || version > gates_schema_version)
    throw input_error(fmt::format("{}: 'schema_version' is {}; this reader reads versions 1 to {}", source,
                                  printable(version.dump(), 20), gates_schema_version));
  gate_table t;
  t.source = source;
  t.device = field(j, "device", is_string, "a string", "", source).get<std::string>();
  t.preset =
      field(
          j, "preset", [](const parsed_json& v) { return v.is_string() && !v.get_ref<const std::string&>().empty(); },
          "a preset's name", "", source)
          .get<std::string>();
  t.settings.floor = ranged(j, "floor", number_range{0, max_gate_floor}, "", source).get<double>();
  t.settings.k = ranged(j, "k", number_range{min_gate_k, max_gate_k}, "", source).get<double>();
  t.settings.min_runs =
      ranged(j, "min_runs", count_range{min_gate_min_runs, max_gate_min_runs}, "", source).get<std::size_t>();
  if (j.contains("normalized"))
    t.normalized =
        field(
            j, "normalized", [](const parsed_json& v) { return v.is_boolean(); }, "true or false", "", source)
            .get<bool>();
  read_runs(t,
            field(
                j, "runs", [](const parsed_json& v) { return v.is_array(); }, "an array", "", source),
            source);
  for (const auto& [name, c] :
       field(
           j, "cases", [](const parsed_json& v) { return v.is_object(); }, "an object", "", source)
           .items())
    t.cases[name] = read_case(name, c, t.settings.min_runs, version.get<int>(), source);
  return t;
}

gate_table load_gates(const std::string& path) { return parse_gates(read_file(path), path); }

}  // namespace cudabench

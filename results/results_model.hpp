// The results model: what one run measured (or what a results file holds), in memory. The measuring side
// builds it, every writer and the comparison read it, and JSON is made from it or read into it only where
// the data crosses a process or a file (results_json.hpp writes it, results.hpp reads it).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "results/boxed.hpp"
#include "results/code_identity.hpp"
#include "results/device_info.hpp"
#include "results/energy.hpp"
#include "results/run_settings.hpp"
#include "results/timeline.hpp"

namespace cudabench {

/// A counter's name: a handle to the one copy of that name the process keeps, however many repetitions
/// carry it. Made from any text (implicitly, as names are written where counters are looked up).
class counter_name {
 public:
  counter_name(std::string_view name);                                      // NOLINT(google-explicit-constructor)
  counter_name(const char* name) : counter_name(std::string_view(name)) {}  // NOLINT(google-explicit-constructor)
  counter_name(const std::string& name)
      : counter_name(std::string_view(name)) {}  // NOLINT(google-explicit-constructor)
  const std::string& str() const { return *name_; }
  operator const std::string&() const { return *name_; }  // NOLINT(google-explicit-constructor)
  friend bool operator==(counter_name a, counter_name b) { return a.name_ == b.name_; }
  friend bool operator<(counter_name a, counter_name b) { return *a.name_ < *b.name_; }

 private:
  const std::string* name_;
};

/// Counters by name, in name order (as std::map iterates): a sorted vector of (name, value), 16 bytes a
/// counter, so a million repetitions' counters take a fraction of a map's nodes and strings.
class counter_map {
 public:
  using value_type = std::pair<counter_name, double>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  counter_map() = default;
  explicit counter_map(const std::map<std::string, double>& m);
  /// The counters of `entries`, in any order; of a name given twice the last value is kept. Linear after one sort.
  static counter_map from_unsorted(std::vector<value_type> entries);

  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }

  iterator find(std::string_view name);
  const_iterator find(std::string_view name) const;
  std::size_t count(std::string_view name) const { return find(name) != end(); }
  /// The value of `name`; std::out_of_range when there is none (as std::map::at).
  double at(std::string_view name) const;
  /// The value of `name`, added as 0 when there is none.
  double& operator[](std::string_view name);
  std::map<std::string, double> to_map() const;
  friend bool operator==(const counter_map& a, const counter_map& b) { return a.entries_ == b.entries_; }

 private:
  std::vector<value_type> entries_;  ///< sorted by name, each name once
};

/// What one repetition of a case recorded beyond its time (the "cudabench" object of its JSON row).
struct run_record {
  std::string stop;   ///< "noise" or "time_cap"
  std::string cache;  ///< "cold" or "hot"
  std::size_t samples = 0;
  int batch = 1;                   ///< runs per sample (tiny cases are timed over a batch of runs)
  double sm_clock_mhz = 0;         ///< mean SM clock measured right after each kept sample
  std::size_t clock_discards = 0;  ///< samples dropped because the SM clock was throttled
  bool injected = false;           ///< --inject-slowdown added work to this case
  bool held = false;               ///< the stream was held until each sample's work was queued (stream_blocker)
  double noise = 0;                ///< relative standard error of the mean
  bool correct = true;             ///< false for cases wrong by design (histogram/naive)
  std::string note;
  int round = 0;  ///< the round (1..rounds, one worker process each) that took it; 0 unknown
  /// Host time to build the fixture, and to run it once and check its result, when this repetition built
  /// it (the first of its process); 0 when it reused the fixture.
  double setup_s = 0, check_s = 0;
  bool checked = true;  ///< the fixture's result was checked in this process (later rounds rely on the first's)
  /// How the repetition's energy window was measured and its samples' clocks held (GPU cases with NVML; absent
  /// on a machine without NVML, with energy off, and in files of schema version 1).
  boxed<energy_record> energy;  ///< on the heap: absent from most rows (CPU cases, foreign files, --no-energy)
};

/// One timed repetition: its time, rates and what it recorded.
struct repetition {
  double real_time_s = 0;  ///< median of the repetition's samples
  double cpu_time_s = 0;   ///< host CPU time per run during the measurement
  counter_map counters;    ///< rates, noise, samples, clock, the fixture's own counters
  std::string label;
  std::optional<run_record> record;  ///< absent in rows of a foreign Google Benchmark binary
  /// The runs Google Benchmark timed, where it measured the repetition (a BENCHMARK() function, a foreign
  /// binary's row); 0 where not recorded. cudabench's own say theirs in `record` (samples x batch).
  std::size_t iterations = 0;
};

enum class case_status { ok, failed, skipped };
const char* to_string(case_status s);

/// What a case declares about itself (context.cudabench.cases in the JSON): where it runs, its cache state,
/// the work it does and how it is gated. Empty for a case of a foreign Google Benchmark binary.
struct case_meta {
  std::string name;                     ///< family/variant/params, "dev<N>/" in front after a --devices merge
  std::string family, variant, params;  ///< split from the name
  int device = -1;                      ///< N of a "devN/" prefix (results merged by --devices), else -1
  bool described = false;               ///< the run described it (our metadata is present)
  bool on_gpu = false;
  std::string declared_cache = "hot";  ///< "cold" or "hot", as registered
  bool host_bound = false;             ///< host work dominates its time
  bool gated = true;                   ///< false when its change is never a regression
  double size = 0;
  double bytes = 0, items = 0, flops = 0;  ///< work per run
  std::string limit;                       ///< the limits case its rate is shown against ("" none)
  std::string control;                     ///< the limits case that stands for the machine in a comparison ("": limit)
};

/// One case of a run: its metadata, how it ended, its repetitions and its traced sample; then its summary,
/// derived from them (summarize_case, called by run_result::finish_cases, fills it).
struct case_result : case_meta {
  case_status status = case_status::ok;
  std::string message;                  ///< why failed or skipped
  std::vector<repetition> repetitions;  ///< in order (iteration rows)
  boxed<case_timeline> timeline;        ///< one traced sample after the last repetition (--trace)
  boxed<code_identity> code;            ///< the device code it ran (GPU cases; absent: not recorded)

  // Derived from the repetitions (summarize_case):
  /// The unit the statistics compare: each round's lower median (of its repetitions; the faster of two) when
  /// the repetitions came from two rounds or more, else each repetition's time.
  std::vector<double> samples_s;
  std::size_t rounds = 0;        ///< distinct rounds among the repetitions (0: not recorded)
  double median_s = 0;           ///< median of samples, or the median aggregate when only aggregates exist
  bool aggregates_only = false;  ///< no per-repetition rows: no rank test possible
  counter_map counters;          ///< the first repetition's (rates use its own time)
  std::string label;
  bool correct = true;  ///< false for teaching cases that are wrong by design
  std::string cache;    ///< "cold" / "hot" as measured / "" (unknown)
  std::map<std::string, double> timeline_metrics;
};

/// Fills a case's derived fields from its repetitions (median_s stays as it is when there are none). The product
/// calls it through run_result::finish_cases only.
void summarize_case(case_result& c);

/// The median over a case's repetitions of its time and of each counter present in all of them.
repetition median_repetition(const case_result& c);

/// Splits "dev1/family/variant/params" into the meta's device, family, variant and params.
void split_case_name(case_meta& m);

/// A table of one family that a report prints, one line per size: the time of a base variant (the first of `base`
/// present at that size), the times of `variants`, then each variant's speedup over the base.
struct report_table {
  std::string title;
  std::vector<std::string> base;  ///< candidates, first present wins
  std::vector<std::string> variants;
};

struct family_refs {
  std::string description;
  std::string tolerance;
  std::map<std::string, std::vector<std::string>> references;  ///< role -> candidate variants, first present wins
  std::vector<report_table> tables;                            ///< per-size tables the family declares
};

/// A limit the run's cases were shown against (context.cudabench.limits): a `limits/...` case's rate.
struct run_limit {
  double rate = 0;
  std::string unit;  ///< B/s, FLOP/s or 1/s
  std::string from;  ///< "this run", or the stored baseline it was taken from
  /// The device's energy limit: the case's energy per unit of its rate (J/byte, J/FLOP, J/item; 0 not measured).
  double joules_per_unit = 0;
};

struct run_result {
  std::string source;  ///< the file it came from, or "this run"
  /// The host as Google Benchmark describes it (date, host_name, executable, num_cpus, caches, load_avg),
  /// and whatever else a foreign file's context holds; the device and our metadata are kept apart.
  nlohmann::ordered_json host = nlohmann::ordered_json::object();
  std::optional<device_info> device;  ///< absent for foreign Google Benchmark output
  /// After a --devices merge: each device's description (with "ordinal"), or its problem when it left none.
  nlohmann::ordered_json devices;
  run_settings settings;
  std::string date;  ///< host["date"]
  std::map<std::string, family_refs> families;
  std::map<std::string, run_limit> limits;  ///< limits case name -> its rate
  std::vector<case_meta> selection;         ///< the cases the run selected, in order (run or not)
  std::vector<case_result> cases;           ///< the cases with a result, in order
  bool lists_selection = false;             ///< the run says which cases it selected (selection is not empty)
  std::set<std::string> selected;           ///< their names
  std::unordered_map<std::string, std::size_t> by_name;  ///< case name -> index in cases (index_cases builds it)

  /// The case of that name, or null: by the index (constant time), or a scan when cases changed since.
  const case_result* find(const std::string& name) const;
  /// Rebuilds by_name, selected and lists_selection after cases or selection changed.
  void index_cases();
  /// Summarizes each case from cases[from] on from its repetitions (summarize_case), then index_cases: what
  /// builds a run calls once its cases are in, once per case (make_run_result for a run's own cases, the Google
  /// Benchmark cases it adds, run_builder::finish for a pooled run). A reader of a results file summarizes what
  /// it reads: that is another run object.
  void finish_cases(std::size_t from = 0);
  /// Marks the run stopped early by `signal` ("SIGINT", "SIGTERM"): it holds the finished cases only.
  void mark_incomplete(const std::string& signal);
};

/// A measured limit: a limits case's median rate.
struct limit_rate {
  double rate = 0;
  std::string unit;            ///< "B/s", "FLOP/s" or "1/s"
  double joules_per_unit = 0;  ///< its median energy per byte, FLOP or item (0: not measured)
};

/// The limits a run measured itself (its passing cases of the `limits` family), by case name.
std::map<std::string, limit_rate> measured_limits(const run_result& run);

/// Records `limits` in the run (each with `source`: "this run" or the stored baseline it came from) and
/// gives every repetition of a case that names one of them (case_meta::limit) its fraction of it, the
/// counter "limit_fraction": its bytes_per_second (flops_per_second for a FLOP/s limit, items_per_second
/// for a 1/s one) over the limit's rate, and to the case's summary counters the first repetition's fraction: a
/// summarized run is not summarized again (run_builder::set_limits: the builder's finish summarizes). Nothing
/// happens without limits.
void apply_limits(run_result& run, const std::map<std::string, limit_rate>& limits, const std::string& source);

/// Whether a top-level context key is one the results write themselves (Google Benchmark's host keys:
/// date, host_name, num_cpus, ...; cudabench's: device, cudabench, ...): a key --benchmark_context may not take.
bool standard_context_key(const std::string& key);

/// The context a run was given with --benchmark_context: its string-valued top-level keys that are not
/// standard, in the order written. Kept when the results are read back.
std::vector<std::pair<std::string, std::string>> custom_context(const run_result& run);

/// "KEY=VALUE, KEY=VALUE" of custom_context (terminal text as given), or "" when there is none.
std::string custom_context_text(const run_result& run);

/// One device's run of a --devices fan-out.
struct device_run {
  int ordinal = 0;
  std::optional<run_result> result;  ///< absent when the device's process left no result
  std::string problem;               ///< why there is no result (exit status, crash)
};

/// The runs of several devices as one: cases become "dev<N>/<case>"; `devices` lists every device (the
/// first's description stays the run's device); devices without a result are listed with their problem.
/// A case that failed on one device keeps the other devices' results. Throws input_error when no device
/// left a result.
run_result merge_device_runs(std::vector<device_run> runs);

/// "dev1/image/sync" -> (1, "image/sync"); a name without the prefix gives (-1, name).
std::pair<int, std::string> split_device_prefix(const std::string& name);

}  // namespace cudabench

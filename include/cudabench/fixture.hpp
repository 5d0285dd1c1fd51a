// What a case is: a fixture (set-up, timed work, check) plus the work it declares and where it runs.
// Public API: a family registers case_defs whose factory builds a fixture (see cudabench/registry.hpp).
// Cases without a size axis state their `size` themselves; the name and size of the others come from the axes.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudabench {

/// Bytes and operations one run of a case moves and computes; bandwidth and rates derive from them.
struct work_counts {
  double bytes_read = 0;
  double bytes_written = 0;
  double items = 0;
  double flops = 0;
  double bytes() const { return bytes_read + bytes_written; }
};

enum class where { gpu, cpu };
/// cold: the L2 is flushed before each timed run (kernel-only cases); hot: runs back to back.
enum class cache_state { hot, cold };

/// Thrown by a fixture's constructor when the case cannot run here (too little memory, ...).
class skip_case : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The object a case measures. Constructed untimed (allocation, random input, handles, poisoned outputs).
class fixture {
 public:
  virtual ~fixture() = default;
  /// Untimed, before each timed run: restore the state run() starts from.
  virtual void prepare(cudaStream_t) {}
  /// The timed work. GPU cases enqueue on `s` (forking to their own streams and joining back);
  /// CPU cases get a null stream and do their work before returning.
  virtual void run(cudaStream_t s) = 0;
  /// After one run(): empty when the output matches the CPU reference, else what is wrong.
  virtual std::string verify() = 0;
  /// Extra counters for the result (e.g. lost_counts of a racy teaching kernel).
  virtual void add_counters(std::map<std::string, double>&) const {}
  /// A remark shown with the result (e.g. "incorrect by design").
  virtual std::string note() const { return {}; }
  /// False for teaching cases that are wrong by design (they are timed, never failed, and labelled so).
  virtual bool correct() const { return true; }
};

using fixture_factory = std::function<std::unique_ptr<fixture>()>;

/// One registered case: `family/variant[/params]`.
struct case_def {
  std::string family;
  std::string variant;
  std::string params;  ///< the point's axis values, "" or e.g. "4096" or "16777216/4" (family_builder::add fills it)
  where on = where::gpu;
  cache_state cache = cache_state::hot;
  work_counts work;
  double size = 0;  ///< the problem size a report plots against: the size axis's value, else given
  /// Host work or pageable/managed transfers dominate the time (CPU cases always): compare gates such
  /// cases with the wider host threshold, because host timings drift between runs (docs/validation.md).
  bool host_bound = false;
  /// false: compared and reported, but its change is never a regression (a measurement of the machine that
  /// moves between processes with nothing changed, such as the launch cost).
  bool gated = true;
  /// run() itself waits for the GPU (a stream synchronize inside the timed work), so the harness must not
  /// hold the stream back until the work is queued (host-bound cases are never held either).
  bool syncs = false;
  /// The case of the `limits` family that bounds this one ("limits/read", "limits/copy_d2d", "limits/fma",
  /// "limits/bidir_pinned", ...), or "": its speed of light is its bytes (FLOPs for limits/fma) at that
  /// case's measured rate, and reports show its time against it as "% of limit".
  std::string limit;
  /// The `limits` case whose change between two runs stands for the machine's in a comparison of this case
  /// ("" : its `limit`): where the case is bound by something other than what its rate is shown against (a
  /// device kernel fed by host copies names "limits/h2d_pinned"). compare scales the case's time by that
  /// limit's change, so a board with slower memory or host copies is not read as slower code.
  std::string control;
  fixture_factory make;

  std::string name() const { return params.empty() ? family + "/" + variant : family + "/" + variant + "/" + params; }
};

/// A table of one family that a report prints, one line per size: the time of a base variant (the first of
/// `base` present at that size), the times of `variants`, then each variant's speedup over the base.
struct size_table {
  std::string title;
  std::vector<std::string> base;  ///< candidates, first present wins (e.g. a sequential, then a parallel CPU case)
  std::vector<std::string> variants;
};

/// A family: its cases, the variants reports take as references, and how its outputs are checked.
struct family_def {
  std::string name;
  std::string description;
  std::string tolerance;
  /// role ("cpu", "naive", "sync", "vendor") -> candidate variants; a speedup table uses the first one it holds
  std::map<std::string, std::vector<std::string>> references;
  bool takes_sizes = false;        ///< its cases have a size axis (so --sizes can choose its values)
  std::vector<std::string> axes;   ///< the names of the axes its cases have (so --axis can name them)
  std::vector<size_table> tables;  ///< per-size tables the report prints for this family
};

}  // namespace cudabench

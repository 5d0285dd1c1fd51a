// Device faults: the cases run in a worker process that this one supervises. A case that hangs (no progress
// within the watchdog), loses the CUDA context (an illegal address, a trap) or kills its process is failed
// with what happened, and the remaining cases go on in a fresh worker, so one bad kernel costs one case.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/child_process.hpp"  // install_stop_signals
#include "results/results_model.hpp"

namespace cudabench::app {

/// A worker's exit status after a case lost the CUDA context (its results file holds that case, failed).
constexpr int worker_exit_context_lost = 3;

/// A worker that ended with a status other than success, a failed case, a lost context or an interrupt
/// (a usage or input error it reported itself): the run ends with that status.
class worker_failed : public std::runtime_error {
 public:
  explicit worker_failed(int status) : std::runtime_error("worker process failed"), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

/// What a worker process is told by its supervisor (through the environment).
class worker_link {
 public:
  /// The link when this process is a worker, else nullopt. A worker dies with its supervisor.
  static std::optional<worker_link> from_environment();
  /// The names of the cases to run, in order.
  std::vector<std::string> cases() const;
  /// Appends one finished case's results document (one line of JSON: that case alone) to the worker's results
  /// file, which its supervisor reads whatever becomes of the worker; the earlier lines are never rewritten. Then
  /// tells the supervisor, which reads the line at once for the outputs that follow a run live.
  void record(const std::string& one_case_line) const;
  /// Where the worker writes its trace.
  const std::string& trace_path() const { return trace_; }
  /// Cases finished before this worker started, and the run's total: the progress lines count on from there.
  std::size_t cases_before() const { return before_; }
  std::size_t cases_total() const { return total_; }
  /// This worker's round of the run (1-based) and the run's rounds.
  int round() const { return round_; }
  int rounds() const { return rounds_; }
  /// Tells the supervisor that `name` starts (a repetition of it): the watchdog restarts.
  void starting(const std::string& name) const;

 private:
  std::string cases_file_, results_, trace_;
  int progress_fd_ = -1;
  std::size_t before_ = 0, total_ = 0;
  int round_ = 1, rounds_ = 1;
};

/// Told of each case as it finishes: what the process that ran it recorded (or a failed case for one that hung or
/// killed its process), its round, and the case runs of the run in all (as the progress lines count them).
using case_listener = std::function<void(const case_result& c, int round, std::size_t total)>;

/// Where one supervised pass over the cases stands in the run: its round, and the cases the run's progress
/// lines count (those of earlier rounds, and all of them).
struct round_position {
  int round = 1, rounds = 1;
  std::size_t before = 0;  ///< cases finished by earlier rounds
  std::size_t total = 0;   ///< the run's cases over all rounds (0: this pass's)
  std::size_t cases = 0;   ///< this pass's (set by supervise)
  std::string memo_dir;    ///< the run's memo folder (cudabench/run_memo.hpp), shared by its rounds ("" none)
};

/// What the workers produced, merged: every case they finished, and the cases that failed under them.
struct supervised_run {
  nlohmann::ordered_json host;                 ///< the first worker's host description
  std::optional<device_info> device;           ///< the first worker's device description
  std::map<std::string, case_result> cases;    ///< case name -> its result, as a worker recorded it
  std::map<std::string, std::string> faulted;  ///< case name -> why (hung, died), no rows
  /// The workers' Chrome traces as one (the first's, with the later ones' events appended, their processes
  /// renumbered apart); null when none wrote one.
  nlohmann::ordered_json trace;
  int interrupted_by = 0;  ///< SIGINT/SIGTERM that stopped the run, or 0
};

/// The cases a worker recorded in its results file (worker_link::record: a results document of one case a line,
/// each read by the one reader of the schema), or nothing when it finished none. A last line cut off (the worker
/// killed while writing it) is a case it did not finish; any other line that cannot be read is said on standard
/// error and left out. The cases are as recorded, not summarized: the run's assembly summarizes each case once.
std::optional<run_result> read_worker_results(const std::string& path);

/// Runs `cases` (names, in order) by starting this program again with `args` as a worker, as many times as
/// faults require. `watchdog_s`: the longest a repetition of a case may go without finishing. SIGINT and
/// SIGTERM are passed on to the worker (which stops after its current sample); a second one ends both.
/// `on_case` hears of each case as the worker records it (worker_link::record), or as it fails under the worker.
supervised_run supervise(const std::vector<std::string>& args, const std::vector<std::string>& cases, double watchdog_s,
                         bool want_trace, round_position at = {}, const case_listener& on_case = {});

}  // namespace cudabench::app

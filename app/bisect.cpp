// run_bench bisect: revisions built in a worktree apart, the two ends measured in alternating processes, the
// regressed cases bisected to the first bad commit, and the outcome printed and written as JSON.
#include "app/bisect.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "analysis/bisection.hpp"
#include "analysis/run_store.hpp"
#include "analysis/same_code.hpp"
#include "app/commands.hpp"
#include "app/comparison.hpp"
#include "app/confirm.hpp"
#include "app/git_repo.hpp"
#include "app/outputs.hpp"
#include "app/results_output.hpp"
#include "cli/program_name.hpp"
#include "io/atomic_file.hpp"
#include "io/child_process.hpp"
#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "io/output_sink.hpp"
#include "measure/pattern.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"

namespace cudabench::app {
namespace {
namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

/// This suite's build: configured once in the worktree's build/, then incremental (ccache when present).
constexpr const char* suite_build =
    "[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCUDABENCH_BUILD_TESTS=OFF "
    "-DCMAKE_CUDA_COMPILER=\"${CUDA_HOME:-/usr/local/cuda}/bin/nvcc\" "
    "$(command -v ccache >/dev/null && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "
    "-DCMAKE_CUDA_COMPILER_LAUNCHER=ccache) "
    "&& cmake --build build -j \"$(nproc)\" --target cudabench";

/// A stop signal reached this process: the bisection ends (its worktree is removed on the way out).
struct stopped {
  int signal;
};

std::string short_hash(const std::string& commit) { return commit.substr(0, 12); }

/// The last `n` non-empty lines of a log on one line (" | " between them), or "no output".
std::string tail_of(const std::string& path, std::size_t n) {
  const std::string tail = log_tail(path, n);
  return tail.empty() ? "no output" : tail;
}

std::string pct(double change) { return fmt::format("{:+.1f}%", 100 * change); }

/// One tested revision and what it turned out to be.
struct tested_revision {
  std::string commit;
  std::string result;  ///< "good", "bad" or "skipped"
  std::string reason;  ///< why skipped
  revision_verdict verdict;
};

class bisect_session {
 public:
  explicit bisect_session(const cli::bisect_request& o)
      : o_(o),
        binary_args_(o.binary_args),
        repo_(fs::current_path().string()),
        build_(o.build_command.value_or(suite_build)),
        binary_(o.binary.value_or(cli::bisect_options::suite_binary)) {}
  int run();

 private:
  void resolve_ends();
  std::optional<std::string> build(const std::string& commit, std::string& why_not);
  int run_binary(const std::string& binary, std::vector<std::string> args, const std::string& base);
  std::optional<run_result> measure_once(const std::string& binary, const std::string& label, const std::string& filter,
                                         std::string& why_not);
  std::optional<case_identities> identify_end(const std::string& binary, const std::string& label,
                                              std::string& why_not);
  std::string filter_by_identity(const std::string& good_binary, const std::string& bad_binary);
  /// One binary of each revision (binary, what progress calls it), in alternating processes; each process's run
  /// and the runs pooled.
  struct measured_revision {
    std::string binary, title;
    std::optional<run_result> run;
    std::string why_not;
    std::vector<run_result> runs = {};
  };
  void measure_alternating(std::vector<measured_revision>& revisions, int processes, const std::string& filter);
  comparison compare_ends(const std::vector<measured_revision>& ends) const;
  void decide_undecided(std::vector<measured_revision>& ends, comparison& compared);
  void measure_ends();
  std::optional<revision_verdict> test(const std::string& commit, std::string& why_not);
  void search();
  int finish();
  int write_ends();
  json outcome_json() const;
  void print_outcome() const;
  double elapsed_s() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  void check_stop() const {
    if (const int sig = interrupt_signal().load()) throw stopped{sig};
  }

  const cli::bisect_request& o_;
  bisect_documents docs_;  ///< what outputs_ writes, once made
  const output_list outputs_ = bisect_outputs(o_, docs_);
  std::vector<std::string> binary_args_;
  git_repo repo_;
  std::string build_, binary_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::string good_, bad_;
  std::vector<std::string> candidates_;  ///< after good, up to and including bad, oldest first
  /// .git/cudabench-bisect, removed once empty (after the scratch directory and the worktree in it), and the
  /// lock that keeps a second bisect of the same repository out of its worktree.
  struct cache_dir {
    std::string path;
    int lock_fd = -1;
    ~cache_dir() {
      std::error_code ec;
      if (lock_fd >= 0) {
        fs::remove(path + "/lock", ec);
        ::close(lock_fd);
      }
      fs::remove(path, ec);
    }
  } cache_;
  std::unique_ptr<temp_directory> scratch_;  ///< results, logs and binaries of this bisection
  std::unique_ptr<git_worktree> tree_;
  std::optional<run_result> good_run_, bad_run_;
  std::string good_binary_;
  std::vector<bisected_case> cases_;
  std::size_t compared_ = 0;   ///< cases the comparison of the ends held
  json ends_ = json::array();  ///< each compared case's verdict, change and note
  std::unique_ptr<bisection> search_;
  std::map<std::size_t, tested_revision> tested_;  ///< by candidate index
  bool out_of_time_ = false;
  int runs_ = 0;  ///< processes started, for their file names
};

void bisect_session::resolve_ends() {
  try {
    good_ = repo_.commit(*o_.good);
  } catch (const input_error& e) { throw input_error(fmt::format("--good: {}", e.what())); }
  try {
    bad_ = repo_.commit(*o_.bad);
  } catch (const input_error& e) { throw input_error(fmt::format("--bad: {}", e.what())); }
  if (good_ == bad_) throw input_error(fmt::format("--good and --bad are the same commit {}", short_hash(good_)));
  if (!repo_.is_ancestor(good_, bad_))
    throw input_error(fmt::format("--good {} is not an ancestor of --bad {}", printable(*o_.good), printable(*o_.bad)));
  candidates_ = repo_.commits_between(good_, bad_);
  if (candidates_.empty() || candidates_.back() != bad_)
    throw input_error(
        fmt::format("no commits between --good {} and --bad {}", printable(*o_.good), printable(*o_.bad)));
}

/// Checks `commit` out in the worktree and builds it; the binary is copied aside (the next build replaces it).
std::optional<std::string> bisect_session::build(const std::string& commit, std::string& why_not) {
  fmt::print(stderr, "bisect: building {} {}\n", short_hash(commit), printable(repo_.subject(commit)));
  tree_->checkout(commit);
  const std::string log = fmt::format("{}/build-{}.log", scratch_->path(), short_hash(commit));
  // A stop reaches the shell and the compilers it started, which would otherwise go on in the removed worktree.
  child_spec spec{
      .argv = {"/bin/sh", "-c", build_}, .environment = inherited_environment(""), .stop = child_spec::on_stop::group};
  spec.output_path = log;
  spec.directory = tree_->path();
  const int st = child_process(spec).wait();
  check_stop();
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    why_not = fmt::format("the build failed ({}): {}", wait_status_text(st), tail_of(log, 3));
    return std::nullopt;
  }
  const fs::path built = fs::path(tree_->path()) / binary_;
  std::error_code ec;
  if (!fs::is_regular_file(built, ec)) {
    why_not = fmt::format("the build made no {}", binary_);
    return std::nullopt;
  }
  const std::string copy = fmt::format("{}/bin-{}", scratch_->path(), short_hash(commit));
  fs::copy_file(built, copy, fs::copy_options::overwrite_existing, ec);
  if (ec) throw input_error(fmt::format("cannot copy {} to {}: {}", built.string(), copy, ec.message()));
  return copy;
}

/// The binary run once in the scratch directory, with the suite's preset, `args`, then the arguments after --;
/// its output to `base`.log. Its wait status.
int bisect_session::run_binary(const std::string& binary, std::vector<std::string> args, const std::string& base) {
  args.insert(args.begin(), {binary, fmt::format("--preset={}", cli::bisect_options::suite_preset)});
  args.insert(args.end(), binary_args_.begin(), binary_args_.end());
  child_spec spec{.argv = args, .environment = inherited_environment("")};
  spec.output_path = base + ".log";
  spec.directory = scratch_->path();
  const int st = child_process(spec).wait();
  check_stop();
  return st;
}

/// One process of the binary over the selected cases, its results read back; nothing when it left none.
std::optional<run_result> bisect_session::measure_once(const std::string& binary, const std::string& label,
                                                       const std::string& filter, std::string& why_not) {
  const std::string base = fmt::format("{}/{}", scratch_->path(), label);
  const int st = run_binary(binary, {"--filter=" + filter, "--json=" + base + ".json"}, base);
  std::error_code ec;
  if (!fs::exists(base + ".json", ec)) {
    why_not = fmt::format("the benchmark left no results (exit {}): {}", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                          log_tail(base + ".log"));
    return std::nullopt;
  }
  try {
    return load_run(base + ".json", summaries::left_to_assembly);  // pool_runs summarizes
  } catch (const input_error& e) {
    why_not = e.what();
    return std::nullopt;
  }
}

/// The code identity of each selected case of one end (run --identify, nothing timed); nothing where the binary
/// wrote none (an error, or a binary that has no --identify).
std::optional<case_identities> bisect_session::identify_end(const std::string& binary, const std::string& label,
                                                            std::string& why_not) {
  const std::string base = fmt::format("{}/{}", scratch_->path(), label), file = base + ".identities.json";
  const int st = run_binary(binary, {"--filter=" + o_.filter, "--identify=" + file}, base);
  std::error_code ec;
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || !fs::exists(file, ec)) {
    why_not = fmt::format("cases could not be identified ({}): {}", wait_status_text(st), tail_of(base + ".log", 1));
    return std::nullopt;
  }
  try {
    return load_identities(file);
  } catch (const input_error& e) {
    why_not = e.what();
    return std::nullopt;
  }
}

namespace {
/// The shorter filter that selects `plan.measured`: their names, or (where the selection is every case) every case
/// but the skipped ones; "" where both are over the longest pattern a binary takes.
std::string measured_filter(const measure_plan& plan, bool whole_suite) {
  std::string filter = exact_filter(plan.measured);
  if (whole_suite) {
    const std::string others = "-" + exact_filter(plan.same_code);
    if (others.size() < filter.size()) filter = others;
  }
  return filter.size() <= name_pattern::max_length ? filter : "";
}
}  // namespace

/// --skip-same-code: both ends' binaries identify the selected cases; the filter of the cases to measure (the
/// code changed, unknown on either side, the controls), or --filter's own where every case is measured (a side
/// that could not be identified, nothing of the same code). What was skipped and why goes to docs_.same_code.
std::string bisect_session::filter_by_identity(const std::string& good_binary, const std::string& bad_binary) {
  fmt::print(stderr, "bisect: identifying the cases of both ends (one untimed run of each case)\n");
  std::string why;
  const std::optional<case_identities> good = identify_end(good_binary, "identify-good", why);
  const std::optional<case_identities> bad = good ? identify_end(bad_binary, "identify-bad", why) : std::nullopt;
  measure_plan plan;
  std::string note, filter;
  if (!good || !bad) {
    note = fmt::format("every case measured: the {} end's {}", good ? "bad" : "good", why);
  } else {
    plan = plan_measurement(*good, *bad);
    filter = plan.same_code.empty() ? "" : measured_filter(plan, o_.filter == ".");
    if (plan.everything)
      note = "every case measured: a side would have run none of the cases left";
    else if (plan.same_code.empty())
      note = "every case measured: none has the same code on both ends";
    else if (filter.empty())
      note = "every case measured: the filter naming the cases left is over the longest pattern";
  }
  if (!note.empty()) {
    plan.measured.insert(plan.measured.end(), plan.same_code.begin(), plan.same_code.end());
    plan.same_code.clear();
    docs_.same_code = same_code_json(plan, note);
    fmt::print(stderr, "bisect: {}\n", printable(note));
    return o_.filter;
  }
  docs_.same_code = same_code_json(plan, "");
  fmt::print(stderr,
             "bisect: {} case(s) of the same code on both ends skipped; measuring {}: {} changed, {} of unknown "
             "identity, {} control(s)\n",
             plan.same_code.size(), plan.measured.size(), plan.changed, plan.unknown, plan.controls);
  return filter;
}

void bisect_session::measure_alternating(std::vector<measured_revision>& revisions, int processes,
                                         const std::string& filter) {
  for (int i = 0; i < processes; ++i) {
    for (std::size_t r = 0; r < revisions.size(); ++r) {
      measured_revision& m = revisions[r];
      if (!m.why_not.empty()) continue;
      fmt::print(stderr, "bisect: measuring {} (process {}/{})\n", m.title, m.runs.size() + 1,
                 std::max(m.runs.size() + 1, std::size_t(o_.processes)));
      std::optional<run_result> one =
          measure_once(m.binary, fmt::format("run{}-{}-{}", ++runs_, r, i), filter, m.why_not);
      if (one) m.runs.push_back(std::move(*one));
    }
  }
  for (measured_revision& m : revisions)
    if (m.why_not.empty()) m.run = pool_runs(m.runs);
}

/// The comparison of the two ends' pooled runs, with the gates stored for their model and preset (both ran
/// here: the stored gates' drift within one machine).
comparison bisect_session::compare_ends(const std::vector<measured_revision>& ends) const {
  compare_settings settings = compare_settings_from(o_);
  settings.gates = run_store::gates_for(settings, *ends[0].run, *ends[1].run);
  return compare_runs(*ends[0].run, *ends[1].run, settings);
}

/// Where the ends' comparison leaves self-calibrated cases undecided with a shift more processes could settle (held,
/// or inconclusive at or beyond the gate: worth_more_processes), more alternating pairs of processes of those cases
/// only, pooled with the others, until each is decided, --extra-time would be spent by the next pair, or
/// max_extra_pairs were measured.
void bisect_session::decide_undecided(std::vector<measured_revision>& ends, comparison& compared) {
  const auto start = std::chrono::steady_clock::now();
  double pair_s = 0;  // the last extra pair's time: the next one is not started where it would overrun
  for (int pair = 0; pair < cli::bisect_options::max_extra_pairs; ++pair) {
    std::vector<std::string> undecided;
    for (const case_comparison& c : compared.cases)
      if (worth_more_processes(c)) undecided.push_back(c.name);
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (undecided.empty() || spent + pair_s > o_.extra_time_s) return;
    fmt::print(stderr, "bisect: {} case(s) undecided; another pair of processes ({:.0f} s of --extra-time left)\n",
               undecided.size(), o_.extra_time_s - spent);
    const auto pair_start = std::chrono::steady_clock::now();
    measure_alternating(ends, 1, exact_filter(undecided));
    for (const measured_revision& end : ends)
      if (!end.why_not.empty()) throw input_error(fmt::format("{} cannot be measured: {}", end.title, end.why_not));
    pair_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - pair_start).count();
    compared = compare_ends(ends);
  }
}

/// Both ends built, then measured fresh in alternating processes (good, bad, good, bad, ...), so that a drift
/// of the machine over the session lands on both; then compared.
void bisect_session::measure_ends() {
  std::string why;
  const std::optional<std::string> good_bin = build(good_, why);
  if (!good_bin) throw input_error(fmt::format("the good end {} cannot be measured: {}", short_hash(good_), why));
  good_binary_ = *good_bin;
  const std::optional<std::string> bad_bin = build(bad_, why);
  if (!bad_bin) throw input_error(fmt::format("the bad end {} cannot be measured: {}", short_hash(bad_), why));
  std::vector<measured_revision> ends{{*good_bin, "the good end " + short_hash(good_), {}, {}},
                                      {*bad_bin, "the bad end " + short_hash(bad_), {}, {}}};
  const std::string filter = o_.ends_dir && o_.skip_same_code ? filter_by_identity(*good_bin, *bad_bin) : o_.filter;
  measure_alternating(ends, o_.processes, filter);
  for (const measured_revision& end : ends)
    if (!end.run) throw input_error(fmt::format("{} cannot be measured: {}", end.title, end.why_not));
  comparison ends_compared = compare_ends(ends);
  decide_undecided(ends, ends_compared);
  good_run_ = std::move(ends[0].run);
  bad_run_ = std::move(ends[1].run);
  compared_ = ends_compared.cases.size();
  for (const case_comparison& c : ends_compared.cases) {
    json row{{"name", c.name}, {"verdict", to_string(c.v)}, {"change", nullptr}, {"method", c.method}};
    if (c.base_median_s > 0 && c.cur_median_s > 0) row["change"] = c.change;
    if (!c.note.empty()) row["note"] = c.note;
    ends_.push_back(row);
  }
  cases_ = regressed_cases(ends_compared);
}

/// A candidate built and measured in processes alternating with the good end's; its verdict, or why it was skipped.
std::optional<revision_verdict> bisect_session::test(const std::string& commit, std::string& why_not) {
  const std::optional<std::string> bin = build(commit, why_not);
  if (!bin) return std::nullopt;
  std::vector<measured_revision> pair{{good_binary_, "the good end " + short_hash(good_), {}, {}},
                                      {*bin, short_hash(commit), {}, {}}};
  measure_alternating(pair, o_.processes, o_.filter);
  if (!pair[1].run) {
    why_not = pair[1].why_not;
    return std::nullopt;
  }
  return classify_revision(cases_, *pair[1].run, pair[0].run ? *pair[0].run : *good_run_);
}

/// Tests the candidate nearest the middle until one is left, only skipped ones lie between, or time is up.
void bisect_session::search() {
  search_ = std::make_unique<bisection>(candidates_.size());
  tested_[candidates_.size() - 1] = {bad_, "bad", "", classify_revision(cases_, *bad_run_, *good_run_)};
  while (const std::optional<std::size_t> next = search_->next()) {
    if (o_.time_limit_s && elapsed_s() >= *o_.time_limit_s) {
      out_of_time_ = true;
      fmt::print(stderr, "bisect: --time-limit spent; stopping\n");
      break;
    }
    const auto [first, last] = search_->range();
    const std::size_t steps = search_->steps_left();
    fmt::print(stderr, "bisect: {} candidates left, at most {} more test{}\n", last - first + 1, steps,
               steps == 1 ? "" : "s");
    const std::string& commit = candidates_[*next];
    std::string why;
    const std::optional<revision_verdict> v = test(commit, why);
    if (!v) {
      fmt::print(stderr, "bisect: skipping {}: {}\n", short_hash(commit), printable(why));
      search_->skip(*next);
      tested_[*next] = {commit, "skipped", why, {}};
      continue;
    }
    fmt::print(stderr, "bisect: {} is {} (in {} of {} cases at least half the slowdown of the bad end)\n",
               short_hash(commit), v->bad ? "bad" : "good", v->bad_votes, cases_.size());
    search_->mark(*next, v->bad);
    tested_[*next] = {commit, v->bad ? "bad" : "good", "", *v};
  }
}

json bisect_session::outcome_json() const {
  auto revision = [&](const std::string& commit) {
    return json{{"commit", commit}, {"subject", repo_.subject(commit)}};
  };
  json j{{"schema_version", 1},   {"repository", repo_.top()}, {"good", revision(good_)},
         {"bad", revision(bad_)}, {"filter", o_.filter},       {"binary_arguments", binary_args_}};
  const bool nothing = cases_.empty();
  j["outcome"] = nothing ? "nothing_to_bisect" : search_->found() ? "found" : "range";
  j["stopped_by_time_limit"] = out_of_time_;
  j["ends"] = ends_;
  j["first_bad"] = nullptr;
  j["range"] = json::array();
  std::optional<std::size_t> culprit;
  if (!nothing) {
    const auto [first, last] = search_->range();
    for (std::size_t i = first; i <= last; ++i) j["range"].push_back(revision(candidates_[i]));
    if (search_->found()) {
      culprit = first;
      j["first_bad"] = revision(candidates_[first]);
      j["first_bad"]["files"] = repo_.files(candidates_[first]);
    }
  }
  j["cases"] = json::array();
  for (std::size_t k = 0; k < cases_.size(); ++k) {
    const bisected_case& c = cases_[k];
    json row{{"name", c.name},
             {"good_median_s", c.good_s},
             {"bad_median_s", c.bad_s},
             {"change", c.change()},
             {"first_bad_change", nullptr}};
    if (culprit && tested_.count(*culprit) && tested_.at(*culprit).verdict.changes.size() > k &&
        tested_.at(*culprit).verdict.changes[k])
      row["first_bad_change"] = *tested_.at(*culprit).verdict.changes[k];
    j["cases"].push_back(row);
  }
  j["tested"] = json::array();
  for (const auto& [index, t] : tested_) {
    json row = revision(t.commit);
    row["result"] = t.result;
    if (!t.reason.empty()) row["reason"] = t.reason;
    json changes = json::array();
    for (const std::optional<double>& c : t.verdict.changes) changes.push_back(c ? json(*c) : json(nullptr));
    if (t.result != "skipped") row["bad_votes"] = t.verdict.bad_votes, row["changes"] = changes;
    j["tested"].push_back(row);
  }
  j["elapsed_s"] = elapsed_s();
  return j;
}

void bisect_session::print_outcome() const {
  const json j = outcome_json();
  if (!j["first_bad"].is_null()) {
    const std::string commit = j["first_bad"]["commit"];
    fmt::print("first bad commit: {} {}\n", commit, printable(j["first_bad"]["subject"].get<std::string>()));
    std::istringstream stat(repo_.stat(commit));
    for (std::string line; std::getline(stat, line);) fmt::print("{}\n", printable(line));
  } else {
    fmt::print("the first bad commit is one of these {} (oldest first; {}):\n", j["range"].size(),
               out_of_time_ ? "--time-limit ran out" : "the revisions between could not be built or measured");
    for (const json& r : j["range"])
      fmt::print("  {} {}\n", r["commit"].get<std::string>(), printable(r["subject"].get<std::string>()));
  }
  fmt::print("\n{:<48} {:>12} {:>18}\n", "case", "good -> bad", "good -> first bad");
  for (const json& c : j["cases"])
    fmt::print("{:<48} {:>12} {:>18}\n", printable(c["name"].get<std::string>()), pct(c["change"].get<double>()),
               c["first_bad_change"].is_null() ? "-" : pct(c["first_bad_change"].get<double>()));
}

int bisect_session::finish() {
  if (cases_.empty()) {
    fmt::print("nothing to bisect: none of the {} cases compared regressed from {} to {}\n", compared_,
               short_hash(good_), short_hash(bad_));
    for (const json& c : ends_)
      fmt::print("  {:<46} {:>12} {:>8}  {}\n", printable(c["name"].get<std::string>()),
                 c["verdict"].get<std::string>(), c["change"].is_null() ? "-" : pct(c["change"].get<double>()),
                 printable(c.value("note", c["method"].get<std::string>())));
  } else {
    print_outcome();
  }
  if (o_.json_path) docs_.outcome = outcome_json();
  outputs_.end_together({});
  return !cases_.empty() && search_->found() ? 0 : 1;
}

/// --ends: the two ends' pooled results, as compare reads them; no search. The settings say what was pooled: the
/// repetitions (and rounds) of every process, a case's most.
int bisect_session::write_ends() {
  tree_.reset();
  for (const auto& [name, pooled] : {std::pair{"good", &*good_run_}, std::pair{"bad", &*bad_run_}}) {
    run_result run = *pooled;
    int repetitions = 1, rounds = 1;
    for (const case_result& c : run.cases) {
      repetitions = std::max(repetitions, int(c.repetitions.size()));
      rounds = std::max(rounds, int(c.rounds));
    }
    run.settings.repetitions = repetitions;
    run.settings.rounds = rounds;
    (name == std::string("good") ? docs_.good : docs_.bad) = to_json(run);
  }
  outputs_.end_together({});
  for (const std::string name : {"good", "bad"})
    fmt::print(stderr, "bisect: the {} end {} measured in {} process{}: {}/{}.json\n", name,
               short_hash(name == "good" ? good_ : bad_), o_.processes, o_.processes == 1 ? "" : "es", *o_.ends_dir,
               name);
  fmt::print("{} of {} cases compared regressed from {} to {}; compare {}/good.json {}/bad.json gives the verdicts\n",
             cases_.size(), compared_, short_hash(good_), short_hash(bad_), *o_.ends_dir, *o_.ends_dir);
  return 0;
}

int bisect_session::run() {
  resolve_ends();
  if (o_.json_path) outputs_.check_writable();
  cache_.path = repo_.common_dir() + "/cudabench-bisect";
  std::error_code ec;
  fs::create_directories(cache_.path, ec);
  if (ec) throw input_error(fmt::format("cannot make {}: {}", cache_.path, ec.message()));
  const std::string lock = cache_.path + "/lock";
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) throw input_error(fmt::format("{}: cannot open the bisect lock: {}", lock, std::strerror(errno)));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw input_error(fmt::format("another bisect is running in this repository (it holds {})", lock));
  }
  cache_.lock_fd = fd;
  // Holding the lock, whatever else is here was left by a bisect that was killed: its scratch folders go.
  for (const auto& entry : fs::directory_iterator(cache_.path, ec))
    if (const std::string name = entry.path().filename().string(); name != "lock" && name != "tree")
      fs::remove_all(entry.path(), ec);
  scratch_ = std::make_unique<temp_directory>("cudabench", cache_.path);
  tree_ = std::make_unique<git_worktree>(repo_, cache_.path + "/tree", good_);
  fmt::print(stderr, "bisect: {} commit{} after {} up to {}; worktree {}\n", candidates_.size(),
             candidates_.size() == 1 ? "" : "s", short_hash(good_), short_hash(bad_), tree_->path());
  measure_ends();
  if (o_.ends_dir) return write_ends();
  if (!cases_.empty()) {
    fmt::print(stderr, "bisect: {} of {} cases regressed:", cases_.size(), compared_);
    for (const bisected_case& c : cases_) fmt::print(stderr, " {} {}", c.name, pct(c.change()));
    fmt::print(stderr, "\n");
    search();
  }
  tree_.reset();
  return finish();
}

}  // namespace

int bisect_command(const cli::bisect_request& o) {
  if (!o.good || !o.bad) throw usage_error("bisect needs --good=REV and --bad=REV");
  if (!o.filter_given) throw usage_error("bisect needs --filter=REGEX (the cases to measure)");
  // The defaults build this suite; another project's binary says how its revisions are built.
  if (!cli::program_is_cudabench() && (!o.build_command || !o.binary))
    throw usage_error(
        "bisect needs --build=CMD and --binary=PATH: how a revision of this project is built in its "
        "worktree, and the binary that makes (the defaults build cudabench's own suite)");
  if (o.json_path) check_distinct_outputs({{"--json", *o.json_path}}, files_read(o, {}));
  if (o.skip_same_code && !o.ends_dir)
    throw usage_error("--skip-same-code measures the two ends of --ends only: give --ends=DIR");
  if (o.ends_dir) {
    if (o.json_path) throw usage_error("--ends writes the two ends' results, not a search's outcome: leave out --json");
    std::error_code ec;
    if (!fs::is_directory(*o.ends_dir, ec))
      throw usage_error(fmt::format("--ends={}: not a directory", printable(*o.ends_dir)));
    bisect_outputs(o, bisect_documents()).check_writable();  // checked only: none is written
  }
  install_stop_signals();
  std::optional<standard_output_aside> aside;  // --json -: the document alone on standard output
  if (is_stdout(o.json_path)) aside.emplace();
  try {
    bisect_session session(o);
    return session.run();
  } catch (const stopped& s) {
    fmt::print(stderr, "{} bisect: interrupted\n", cli::program_name());
    return 128 + s.signal;
  }
}

}  // namespace cudabench::app

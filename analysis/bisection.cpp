// The bisection's rule and search: regressed cases, the classification of a revision, pooling, the next step.
#include "analysis/bisection.hpp"

#include <algorithm>
#include <bit>

#include "results/run_builder.hpp"

namespace cudabench {

std::vector<bisected_case> regressed_cases(const comparison& ends) {
  std::vector<bisected_case> out;
  for (const case_comparison& c : ends.cases)
    if (c.v == verdict::regression && c.base_median_s > 0) out.push_back({c.name, c.base_median_s, c.cur_median_s});
  return out;
}

namespace {
bool measured(const case_result* c) { return c && c->status == case_status::ok && c->median_s > 0; }
}  // namespace

revision_verdict classify_revision(const std::vector<bisected_case>& cases, const run_result& run,
                                   const run_result& good) {
  revision_verdict r;
  for (const bisected_case& c : cases) {
    const case_result* m = run.find(c.name);
    if (!measured(m)) {
      r.changes.emplace_back();
      continue;
    }
    const case_result* g = good.find(c.name);
    const double change = m->median_s / (measured(g) ? g->median_s : c.good_s) - 1;
    r.changes.emplace_back(change);
    if (change >= c.change() / 2) ++r.bad_votes;
  }
  r.bad = 2 * r.bad_votes > cases.size();
  return r;
}

namespace {
/// Numbers the rounds of a pooled process after those of the processes before it (`first`), so that the
/// round 1 of two processes stays two rounds. A process that recorded no rounds is one round of its own: its
/// repetitions are numbered after the rest, so that pooled processes are told apart as rounds are (each
/// process's median a sample of the spread between processes). So is a plain BENCHMARK() of a binary of ours (a
/// case the run describes whose rows carry no record of ours): its repetitions get a record holding their round
/// alone. A foreign binary's rows are left as they are: nothing says its processes ran on one machine, and its
/// repetitions pooled are what the rank test has. Returns the last round number used.
int renumber_rounds(run_result& run, int first) {
  int last = first;
  bool unrounded = false;
  for (case_result& c : run.cases)
    for (repetition& r : c.repetitions)
      if (r.record && r.record->round > 0) {
        r.record->round += first;
        last = std::max(last, r.record->round);
      } else if (r.record || c.described) {
        unrounded = true;
      }
  if (!unrounded) return last;
  ++last;
  for (case_result& c : run.cases)
    for (repetition& r : c.repetitions)
      if (r.record ? r.record->round == 0 : c.described) {
        if (!r.record) r.record.emplace();
        r.record->round = last;
      }
  return last;
}
}  // namespace

run_result pool_runs(std::vector<run_result> runs) {
  if (runs.empty()) return {};
  int rounds = 0;
  for (run_result& r : runs) rounds = renumber_rounds(r, rounds);
  run_builder pooled(std::move(runs.front()));
  for (std::size_t i = 1; i < runs.size(); ++i)
    for (case_result& c : runs[i].cases) pooled.add(std::move(c), origin::process);
  return pooled.finish();
}

bisection::bisection(std::size_t candidates) : bad_(candidates - 1), skipped_(candidates, false) {}

std::optional<std::size_t> bisection::next() const {
  const std::ptrdiff_t lo = good_, hi = std::ptrdiff_t(bad_);
  const std::ptrdiff_t mid = lo + (hi - lo) / 2;
  for (std::ptrdiff_t d = 0; d < hi - lo; ++d)  // the middle, then outwards: mid+1, mid-1, mid+2, ...
    for (const std::ptrdiff_t at : {mid - d, mid + d + 1})
      if (at > lo && at < hi && !skipped_[std::size_t(at)]) return std::size_t(at);
  return std::nullopt;
}

void bisection::mark(std::size_t candidate, bool bad) {
  if (bad && candidate < bad_) bad_ = candidate;
  if (!bad && std::ptrdiff_t(candidate) > good_ && candidate < bad_) good_ = std::ptrdiff_t(candidate);
}

void bisection::skip(std::size_t candidate) {
  if (candidate < skipped_.size()) skipped_[candidate] = true;
}

std::size_t bisection::steps_left() const {
  std::size_t open = 0;
  for (std::size_t i = std::size_t(good_ + 1); i < bad_; ++i) open += skipped_[i] ? 0 : 1;
  return std::bit_width(open);  // ceil(log2(open + 1))
}

}  // namespace cudabench

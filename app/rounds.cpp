// The rounds of a supervised run: shuffled passes over the cases, one worker process each, merged.
#include "app/rounds.hpp"

#include <algorithm>
#include <random>
#include <set>

#include "io/atomic_file.hpp"
#include "results/run_builder.hpp"

namespace cudabench::app {

std::uint64_t fresh_shuffle_seed() { return std::random_device{}() & 0x7fffffffu; }

std::vector<std::string> round_order(std::vector<std::string> names, std::uint64_t seed, int round) {
  std::mt19937_64 g(seed * 1000003u + std::uint64_t(round));
  for (std::size_t i = names.size(); i > 1; --i) std::swap(names[i - 1], names[g() % i]);
  return names;
}

bool spread_over_rounds(const case_def& c, bool every_case) {
  return every_case || (c.on == where::gpu && !c.host_bound && c.gated);
}

void merge_round(supervised_run& all, supervised_run&& one, int round, int rounds) {
  if (all.host.empty()) all.host = std::move(one.host);
  if (!all.device) all.device = std::move(one.device);
  if (!one.trace.is_null()) all.trace = std::move(one.trace);
  for (auto& [name, c] : one.cases) {
    if (rounds > 1)
      for (repetition& r : c.repetitions)
        if (r.record) r.record->round = round;
    auto it = all.cases.find(name);
    if (it == all.cases.end())
      all.cases.emplace(name, std::move(c));
    else
      pool_case(it->second, std::move(c), origin::round);
  }
  for (auto& [name, why] : one.faulted)
    all.faulted[name] = rounds > 1 ? why + " (round " + std::to_string(round) + ")" : why;
  all.interrupted_by = one.interrupted_by;
}

supervised_run run_rounds(const std::vector<std::string>& args, const std::vector<std::string>& names,
                          double watchdog_s, bool want_trace, const round_plan& plan, const case_listener& on_case) {
  supervised_run all;
  const temp_directory memo("cudabench-memo");  // what the rounds share (cudabench/run_memo.hpp)
  std::vector<std::string> todo = names;
  std::size_t before = 0;
  for (int round = 1; round <= plan.rounds && !todo.empty(); ++round) {
    const std::vector<std::string> order = plan.rounds > 1 ? round_order(todo, plan.seed, round) : todo;
    // The progress lines count case runs: this round's, and the later rounds' of the cases they will run.
    const auto spread = std::size_t(
        std::count_if(todo.begin(), todo.end(), [&](const std::string& n) { return !plan.first_round_only.count(n); }));
    round_position at{.round = round,
                      .rounds = plan.rounds,
                      .before = before,
                      .total = before + todo.size() + spread * std::size_t(plan.rounds - round) + plan.cases_after,
                      .memo_dir = memo.path()};
    merge_round(all, supervise(args, order, watchdog_s, want_trace && round == plan.rounds, at, on_case), round,
                plan.rounds);
    if (all.interrupted_by) break;
    before += todo.size();
    std::erase_if(todo, [&](const std::string& n) {
      const auto it = all.cases.find(n);
      return plan.first_round_only.count(n) || all.faulted.count(n) || it == all.cases.end() ||
             it->second.status != case_status::ok;
    });
  }
  return all;
}

}  // namespace cudabench::app

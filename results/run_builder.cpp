// The one assembly of a run: one pooling rule for rounds, processes and devices, limits, one summary per case.
#include "results/run_builder.hpp"

#include <utility>

namespace cudabench {

const char* origin_plural(origin from) {
  switch (from) {
    case origin::round: return "rounds";
    case origin::process: return "processes";
    case origin::device: return "devices";
  }
  return "origins";
}

void pool_case(case_result& kept, case_result&& more, origin from) {
  kept.repetitions.insert(kept.repetitions.end(), std::make_move_iterator(more.repetitions.begin()),
                          std::make_move_iterator(more.repetitions.end()));
  if (more.status != case_status::ok) {
    const bool outranks =
        kept.status == case_status::ok || (more.status == case_status::failed && kept.status == case_status::skipped);
    if (outranks) {
      kept.status = more.status;
      kept.message = std::move(more.message);
    }
    return;
  }
  if (more.timeline) kept.timeline = std::move(more.timeline);
  if (!kept.code && more.code) {
    kept.code = std::move(more.code);
  } else if (kept.code && more.code && kept.code->digest != more.code->digest && !kept.code->digest.empty()) {
    kept.code->digest.clear();
    kept.code->problem = std::string("its code identity differed between ") + origin_plural(from);
  }
}

run_builder::run_builder(run_result head) : run_(std::move(head)) {
  for (std::size_t i = 0; i < run_.cases.size(); ++i) at_.emplace(run_.cases[i].name, i);
}

void run_builder::add(case_result c, origin from) {
  const auto it = at_.find(c.name);
  if (it == at_.end()) {
    at_.emplace(c.name, run_.cases.size());
    run_.cases.push_back(std::move(c));
    return;
  }
  pool_case(run_.cases[it->second], std::move(c), from);
}

const case_result* run_builder::find(const std::string& name) const {
  const auto it = at_.find(name);
  return it == at_.end() ? nullptr : &run_.cases[it->second];
}

void run_builder::set_limits(const std::map<std::string, limit_rate>& limits, const std::string& source) {
  apply_limits(run_, limits, source);
}

run_result run_builder::finish() {
  run_.finish_cases();
  at_.clear();
  return std::move(run_);
}

}  // namespace cudabench

// compare: two runs case by case, a verdict each.
#include <fmt/format.h>

#include <exception>
#include <future>
#include <optional>

#include "app/commands.hpp"
#include "app/comparison.hpp"
#include "app/results_output.hpp"

namespace cudabench::app {

/// `compare BASELINE CURRENT`: every output checked before either file is read; 1 on a regression, 3 where the
/// only flags are unconfirmed (runs of different machines).
int compare_handler(const cli::compare_request& r) {
  const file_command_guard guard(r.inputs, "compare");
  const std::vector<std::string>& inputs = r.inputs;
  const output_list outputs = report_outputs(r, "--verdict");
  outputs.check(files_read(r, inputs, inputs[0]));
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  // The two files are read at once (the readers share nothing), so large files take the time of one;
  // the baseline's problem is still the one named when both have one.
  auto reading_base = std::async(std::launch::async, [&] { return load_run(inputs[0]); });
  std::optional<run_result> cur;
  std::exception_ptr cur_problem;
  try {
    cur = load_run(inputs[1]);
  } catch (...) { cur_problem = std::current_exception(); }
  std::optional<run_result> base = reading_base.get();
  if (cur_problem) std::rethrow_exception(cur_problem);
  return all_or_nothing([&] {
    const comparison c = compare_with_gates(*base, *cur, compare_settings_from(r));
    base.reset();  // the reports are of the comparison and the current run: the baseline is freed before them
    outputs.end({.run = &*cur, .compared = &c});
    say_not_judged(c);
    return c.exit_status();
  });
}

}  // namespace cudabench::app

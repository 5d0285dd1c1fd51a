// report: speedup tables of one run, or the run for a dashboard (--format=gab|bmf).
#include <optional>

#include "app/commands.hpp"
#include "app/results_output.hpp"

namespace cudabench::app {
int report_handler(const cli::report_request& r) {
  const file_command_guard guard(r.inputs, "report");
  const cli::report_options& o = r;
  std::unique_ptr<reports::writer> terminal;  // a dashboard export goes to standard output in place of the tables
  if (o.format == "gab") terminal = reports::gab_writer();
  if (o.format == "bmf") terminal = reports::bmf_writer();
  const output_list outputs = report_outputs(r, "--verdict", std::move(terminal));
  outputs.check(r.inputs);
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  const run_result run = load_run(r.inputs[0]);
  output_batch batch;
  outputs.end({.run = &run});
  batch.commit();
  return 0;
}

}  // namespace cudabench::app

// fleet: runs of different GPU models side by side, each case's ratio to a reference model.
#include <optional>

#include "app/commands.hpp"
#include "app/results_output.hpp"
#include "reports/fleet.hpp"

namespace cudabench::app {
/// `fleet PATH...`: the runs side by side, to the terminal and every requested file; 1 when a model's verdict
/// file says its comparison failed.
int fleet_handler(const cli::fleet_request& r) {
  const file_command_guard guard(r.inputs, "fleet");
  const cli::report_files& files = r;
  output_list outputs = report_outputs(r, "--verdict");
  outputs.add("--json", files.json_path, reports::fleet_json_writer());
  outputs.check(r.inputs);
  std::vector<reports::fleet_member> members = reports::fleet_members(r.inputs);
  // A directory stands for the run and verdict files in it, which an output must not overwrite either.
  std::vector<std::string> read = r.inputs;
  for (const reports::fleet_member& m : members) {
    read.push_back(m.source);
    if (!m.verdict_source.empty()) read.push_back(m.verdict_source);
  }
  outputs.check_distinct(read);
  const cli::fleet_options& o = r;
  const reports::fleet f = reports::build_fleet(std::move(members), o.reference);
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  output_batch batch;
  outputs.end({.fleet_of = &f});
  batch.commit();
  return f.failing() ? 1 : 0;
}

}  // namespace cudabench::app

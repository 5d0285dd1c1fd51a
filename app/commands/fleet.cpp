// fleet: runs of different GPU models side by side, each case's ratio to a reference model.
#include <optional>

#include "app/commands.hpp"
#include "app/results_output.hpp"
#include "reports/fleet.hpp"

namespace cudabench::app {
namespace {

/// `fleet PATH...`: the runs side by side, to the terminal and every requested file; 1 when a model's verdict
/// file says its comparison failed.
int fleet(const command_line& cl) {
  const file_command_guard guard(cl, "fleet");
  const report_files& files = cl.options;
  output_list outputs = report_outputs(cl.options, "--verdict");
  outputs.add("--json", files.json_path, reports::fleet_json_writer());
  outputs.check(cl.inputs);
  std::vector<reports::fleet_member> members = reports::fleet_members(cl.inputs);
  // A directory stands for the run and verdict files in it, which an output must not overwrite either.
  std::vector<std::string> read = cl.inputs;
  for (const reports::fleet_member& m : members) {
    read.push_back(m.source);
    if (!m.verdict_source.empty()) read.push_back(m.verdict_source);
  }
  outputs.check_distinct(read);
  const fleet_options& o = cl.options;
  const reports::fleet f = reports::build_fleet(std::move(members), o.reference);
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  outputs.writers().write_fleet(f);
  return f.failing() ? 1 : 0;
}

}  // namespace

extern const command_spec cmd_fleet{
    .name = "fleet", .inputs = "PATH...", .input_count = 1,
    .about = "Puts runs of different GPU models side by side (result files, or directories of nightly results: their "
             "latest run and its verdict file): per case each model's median, noise and % of its own limit, its ratio to "
             "the reference model, its verdict against its own baseline, or missing.",
    .exit_status = "0 written, 1 a model's verdict file says its comparison failed, 2 usage or input error",
    .handler = fleet, .more_inputs = true};

}  // namespace cudabench::app

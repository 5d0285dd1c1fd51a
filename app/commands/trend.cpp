// trend: one line per case over a directory of runs, flagging the steps that hold.
#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include "app/commands.hpp"
#include "app/results_output.hpp"
#include "io/output_sink.hpp"
#include "reports/trend.hpp"

namespace cudabench::app {
namespace {

/// A trend reads every .json file of its directory: one of its outputs there would be read by the next trend.
void refuse_outputs_among_trend_inputs(const report_files& o, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path where = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  for (const auto& [option, path] : {std::pair{"--html", &o.html_path}}) {
    if (!*path || descriptor_named(**path)) continue;
    const fs::path target = fs::weakly_canonical(fs::absolute(final_target(**path), ec), ec);
    if (target.extension() == ".json" && target.parent_path() == where)
      throw usage_error(fmt::format("{} {} is a .json file in the trend directory {}: refused, the next trend would read it as a run",
                                    option, **path, dir));
  }
}

}  // namespace

int trend_handler(const command_line& cl) {
  const file_command_guard guard(cl, "trend");
  const std::string& dir = cl.inputs[0];
  const output_list outputs = report_outputs(cl.options, "--verdict");
  outputs.check(reports::trend_inputs(dir));
  refuse_outputs_among_trend_inputs(cl.options, dir);
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  const compare_options& cmp = cl.options;
  const double threshold = cmp.threshold_pct ? *cmp.threshold_pct / 100 : compare_settings{}.threshold;
  const trend_options& o = cl.options;
  const reports::trend t = reports::build_trend(dir, threshold, o.hold, cmp.allow_device_mismatch);
  output_batch batch;
  outputs.writers().write_trend(t);
  batch.commit();
  return 0;
}

}  // namespace cudabench::app

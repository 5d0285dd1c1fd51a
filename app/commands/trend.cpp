// trend: one line per case over a directory of runs, flagging the steps that hold.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "app/commands.hpp"
#include "app/results_output.hpp"
#include "io/output_sink.hpp"
#include "reports/site.hpp"
#include "reports/trend.hpp"

namespace cudabench::app {

using namespace cudabench::cli;  // the command line (cli/) is the commands' own
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
      throw usage_error(
          fmt::format("{} {} is a .json file in the trend directory {}: refused, the next trend would read it as a run",
                      option, **path, dir));
  }
}

/// `trend STORE --site=DIR`: the dashboard of the history store STORE written into DIR, every page or none.
int write_site(const trend_request& r, double threshold) {
  namespace fs = std::filesystem;
  const trend_options& o = r;
  const report_files& files = r;
  if (files.html_path)
    throw usage_error(
        "--site writes the dashboard of a history store, --html the page of one directory of runs: give one");
  const std::string& store = r.inputs[0];
  std::error_code ec;
  const fs::path site = fs::weakly_canonical(fs::absolute(*o.site_dir, ec), ec),
                 read = fs::weakly_canonical(fs::absolute(store, ec), ec);
  if (const auto m = std::mismatch(read.begin(), read.end(), site.begin(), site.end()); m.first == read.end())
    throw usage_error(fmt::format("--site {} is inside the history store {}: refused, the store keeps its runs alone",
                                  *o.site_dir, store));
  const std::vector<reports::site_page> pages = reports::history_site(store, {threshold, o.hold, o.repository});
  output_list outputs;
  for (const reports::site_page& page : pages) {  // every destination checked before any is written
    const fs::path to = fs::path(*o.site_dir) / page.path;
    if (fs::create_directories(to.parent_path(), ec); ec)
      throw input_error(fmt::format("--site: cannot make the directory {}: {} (no page was replaced)",
                                    to.parent_path().string(), ec.message()));
    outputs.add_text(
        "--site", to.string(), "HTML", [&page] { return page.html; }, output_list::report_order);
  }
  outputs.check_writable();
  outputs.end_together({});
  fmt::print("dashboard: {} page(s) in {} (its index.html)\n", pages.size(), *o.site_dir);
  return 0;
}

}  // namespace

int trend_handler(const trend_request& r) {
  const file_command_guard guard(r.inputs, "trend");
  const compare_options& cmp = r;
  const double threshold = cmp.threshold_pct ? *cmp.threshold_pct / 100 : compare_settings{}.threshold;
  const trend_options& o = r;
  if (o.site_dir) return write_site(r, threshold);
  if (!o.repository.empty()) throw usage_error("--repository links the commits of a dashboard: it goes with --site");
  const std::string& dir = r.inputs[0];
  const output_list outputs = report_outputs(r, "--verdict");
  outputs.check(reports::trend_inputs(dir));
  refuse_outputs_among_trend_inputs(r, dir);
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  const reports::trend t = reports::build_trend(dir, threshold, o.hold, cmp.allow_device_mismatch);
  output_batch batch;
  outputs.end({.trend_of = &t});
  batch.commit();
  return 0;
}

}  // namespace cudabench::app

// Each command's request, copied from the parsed options part by part.
#include "cli/requests.hpp"

#include <stdexcept>

namespace cudabench::cli {

namespace {
/// A request of type R: each of `Parts` (the option groups R is made of) copied from the parsed options, and the
/// command's positional arguments.
template <typename R, typename... Parts>
R assembled(const command_line& cl) {
  R r;
  ((static_cast<Parts&>(r) = static_cast<const Parts&>(cl.options)), ...);
  r.inputs = cl.inputs;
  return r;
}
}  // namespace

run_request run_request_of(const command_line& cl) {
  run_request r;
  static_cast<run_options&>(r) = cl.options;
  r.args = cl.args;
  r.argv = cl.argv;
  return r;
}

compare_request compare_request_of(const command_line& cl) {
  return assembled<compare_request, compare_options, report_files>(cl);
}

confirm_request confirm_request_of(const command_line& cl) {
  confirm_request r = assembled<confirm_request, compare_options, report_files, bisect_options>(cl);
  r.binary_args = cl.passed;
  return r;
}

report_request report_request_of(const command_line& cl) {
  return assembled<report_request, report_options, report_files>(cl);
}

trend_request trend_request_of(const command_line& cl) {
  return assembled<trend_request, compare_options, trend_options, report_files>(cl);
}

gates_request gates_request_of(const command_line& cl) { return assembled<gates_request, gates_options>(cl); }

fleet_request fleet_request_of(const command_line& cl) {
  return assembled<fleet_request, fleet_options, report_files>(cl);
}

store_request store_request_of(const command_line& cl) {
  store_request r = assembled<store_request, store_options>(cl);
  r.baseline_dir = cl.options.baseline_dir;
  return r;
}

bisect_request bisect_request_of(const command_line& cl) {
  bisect_request r;
  static_cast<bisect_options&>(r) = cl.options;
  static_cast<compare_options&>(r) = cl.options;
  r.filter = cl.options.filter.text();
  r.filter_given = cl.options.filter_given;
  r.json_path = cl.options.json_path;
  r.binary_args = cl.passed;
  return r;
}

const std::optional<std::string>& report_path(const report_files& files, std::string_view option) {
  using field = std::optional<std::string> report_files::*;
  const option_spec* spec = find_option(option);
  for (const field f : {&report_files::json_path, &report_files::md_path, &report_files::html_path,
                        &report_files::verdict_path, &report_files::csv_path})
    if (spec && spec->output == f) return files.*f;
  throw std::logic_error(std::string(option) + " is no report file of the option table");
}

}  // namespace cudabench::cli

// Terminal table of a run.
#include "harness/reporter.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include "harness/measure.hpp"
#include "harness/results.hpp"

namespace harness {

table_reporter::table_reporter(const device_info& device, const run_info& info, std::size_t case_count)
    : device_(device), info_(info), total_(case_count), color_(::isatty(STDOUT_FILENO) != 0) {}

bool table_reporter::ReportContext(const Context& ctx) {
  if (device_.available)
    fmt::print("device: {} (sm_{}{}, {} SMs, {:.0f} GB/s peak), driver {}, runtime {}\n", device_.name,
               device_.cc_major, device_.cc_minor, device_.sm_count, device_.theoretical_bandwidth() / 1e9,
               cuda_version_string(device_.driver_version), cuda_version_string(device_.runtime_version));
  else
    fmt::print("device: none ({}); GPU cases are skipped\n", device_.unavailable_reason);
  fmt::print("host: {} ({} CPUs), preset {}, {} repetition(s), revision {}{}\n", info_.host_name, ctx.cpu_info.num_cpus,
             info_.preset, info_.repetitions, info_.git_revision.substr(0, 12), info_.git_dirty ? " (dirty)" : "");
  fmt::print("{:<44} {:>12} {:>7} {:>12} {:>7} {:>7}  {}\n", "case", "median", "noise", "throughput", "%peak",
             "samples", "note");
  fmt::print("{}\n", std::string(110, '-'));
  std::fflush(stdout);
  return true;
}

void table_reporter::print_row(const Run& run) {
  const std::string name = canonical_case_name(run.run_name.str());
  const std::string progress = fmt::format("[{}/{}]", done_, total_);
  auto paint = [&](const char* code, const std::string& text) {
    return color_ ? fmt::format("\033[{}m{}\033[0m", code, text) : text;
  };
#if CUDABENCH_GBENCH_HAS_SKIP_MESSAGE
  const bool is_skip = run.skipped == benchmark::internal::SkippedWithMessage;
  const bool is_error = run.skipped == benchmark::internal::SkippedWithError;
  const std::string message = run.skip_message;
#else
  const std::string message = run.error_message;
  const bool is_skip = run.error_occurred && message.rfind(skip_prefix, 0) == 0;
  const bool is_error = run.error_occurred && !is_skip;
#endif
  if (is_skip || is_error) {
    std::string why = is_skip && message.rfind(skip_prefix, 0) == 0 ? message.substr(std::string(skip_prefix).size()) : message;
    fmt::print("{:<44} {}  {}\n", name, paint(is_skip ? "33" : "31", is_skip ? "SKIPPED" : "FAILED"), why);
    return;
  }
  const double seconds = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit);
  auto counter = [&](const char* k) { auto it = run.counters.find(k); return it == run.counters.end() ? -1.0 : double(it->second); };
  std::string throughput = counter("flops_per_second") > 0 ? format_rate(counter("flops_per_second"), "FLOP/s")
                                                           : format_rate(counter("bytes_per_second"), "B/s");
  std::string peak = counter("bw_peak_fraction") >= 0 ? fmt::format("{:.1f}%", 100 * counter("bw_peak_fraction")) : "-";
  std::string noise = counter("noise_pct") >= 0 ? fmt::format("{:.2f}%", counter("noise_pct")) : "-";
  std::string samples = counter("samples") >= 0 ? fmt::format("{:.0f}", counter("samples")) : "-";
  fmt::print("{:<44} {:>12} {:>7} {:>12} {:>7} {:>7}  {} {}\n", name, format_time(seconds), noise, throughput, peak,
             samples, run.report_label, paint("2", progress));
}

void table_reporter::ReportRuns(const std::vector<Run>& runs) {
  // With repetitions Google Benchmark reports each repetition, then the aggregates: the median row stands
  // for the case. A skipped or failed case has no aggregates, so its first row is shown.
  for (const Run& run : runs) {
#if CUDABENCH_GBENCH_HAS_SKIP_MESSAGE
    const bool bad = run.skipped != benchmark::internal::NotSkipped;
#else
    const bool bad = run.error_occurred;
#endif
    const bool aggregate = run.run_type == Run::RT_Aggregate;
    const std::string name = run.run_name.str();
    const bool shown = bad ? name == last_bad_ : aggregate ? run.aggregate_name != "median" : run.repetitions > 1;
    if (shown) continue;
    if (bad) last_bad_ = name;
    ++done_;
    print_row(run);
  }
  std::fflush(stdout);
}

void table_reporter::Finalize() { std::fflush(stdout); }

}  // namespace harness

// Terminal table of a run.
#include "app/table_reporter.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>

#include "harness/format.hpp"
#include "harness/interrupt.hpp"
#include "harness/measure.hpp"
#include "reports/escape.hpp"

namespace cudabench::app {

table_reporter::table_reporter(const device_info& device, const run_info& info, std::size_t case_count, std::size_t before)
    : device_(device), info_(info), total_(case_count), done_(before), continues_(before > 0),
      color_(::isatty(STDOUT_FILENO) != 0) {}

bool table_reporter::ReportContext(const Context& ctx) {
  const std::time_t now = std::time(nullptr);
  char date[40] = {};
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&now));
  std::string iso = date;
  if (iso.size() > 5) iso = iso.substr(0, iso.size() - 2) + ":" + iso.substr(iso.size() - 2);  // +0000 -> +00:00, as Google Benchmark writes it
  host_["date"] = iso;
  host_["host_name"] = ctx.sys_info.name;
  host_["executable"] = Context::executable_name ? Context::executable_name : "";
  host_["num_cpus"] = ctx.cpu_info.num_cpus;
  host_["mhz_per_cpu"] = int(ctx.cpu_info.cycles_per_second / 1e6);
  host_["cpu_scaling_enabled"] = ctx.cpu_info.scaling == benchmark::CPUInfo::ENABLED;
  nlohmann::ordered_json caches = nlohmann::ordered_json::array();
  for (const auto& c : ctx.cpu_info.caches)
    caches.push_back({{"type", c.type}, {"level", c.level}, {"size", c.size}, {"num_sharing", c.num_sharing}});
  host_["caches"] = caches;
  host_["load_avg"] = ctx.cpu_info.load_avg;

  if (continues_) return true;  // the table goes on under the header an earlier process printed
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

void table_reporter::print_row(const Run& shown, const std::string& label) {
  const std::string name = reports::terminal_text(shown.run_name.function_name);
  const std::string progress = fmt::format("[{}/{}]", done_, total_);
  auto paint = [&](const char* code, const std::string& text) {
    return color_ ? fmt::format("\033[{}m{}\033[0m", code, text) : text;
  };
  if (const reported_outcome ended = outcome_of(shown); ended.status != case_status::ok) {
    const bool skipped = ended.status == case_status::skipped;
    fmt::print("{:<44} {}  {}\n", name, paint(skipped ? "33" : "31", skipped ? "SKIPPED" : "FAILED"), reports::terminal_text(ended.message));
    return;
  }
  auto counter = [&](const char* k) { auto it = shown.counters.find(k); return it == shown.counters.end() ? -1.0 : double(it->second.value); };
  std::string throughput = "-";
  if (counter("flops_per_second") > 0) throughput = format_rate(counter("flops_per_second"), "FLOP/s");
  else if (counter("bytes_per_second") > 0) throughput = format_rate(counter("bytes_per_second"), "B/s");
  else if (counter("items_per_second") > 0) throughput = format_rate(counter("items_per_second"), "items/s");
  std::string peak = counter("bw_peak_fraction") >= 0 ? fmt::format("{:.1f}%", 100 * counter("bw_peak_fraction")) : "-";
  std::string noise = counter("noise_pct") >= 0 ? fmt::format("{:.2f}%", counter("noise_pct")) : "-";
  std::string samples = counter("samples") >= 0 ? fmt::format("{:.0f}", counter("samples")) : "-";
  const double seconds = shown.real_accumulated_time / double(std::max<benchmark::IterationCount>(shown.iterations, 1));
  fmt::print("{:<44} {:>12} {:>7} {:>12} {:>7} {:>7}  {} {}\n", name, format_time(seconds), noise, throughput, peak,
             samples, label, paint("2", progress));
}

void table_reporter::ReportRuns(const std::vector<Run>& runs) {
  // Google Benchmark reports a case once all its repetitions are in: a call with the repetitions, then, when
  // there are several, a call with their aggregates. The line shows the median aggregate (the repetition
  // when there is one), with the first repetition's label; a case that was skipped or failed, at once.
  if (runs.empty() || interrupt_signal().load()) return;  // stopping: abandoned cases are passed over
  const Run& first = runs.front();
  if (first.run_type == Run::RT_Aggregate) {
    for (const Run& r : runs)
      if (r.aggregate_name == "median") show(r, label_);
    return;
  }
  label_ = first.report_label;
  for (const Run& r : runs)
    if (outcome_of(r).status != case_status::ok) return show(r, label_);
  if (first.repetitions <= 1) show(first, label_);
}

void table_reporter::show(const Run& shown, const std::string& label) {
  ++done_;
  print_row(shown, label);
  std::fflush(stdout);
}

void table_reporter::Finalize() { std::fflush(stdout); }

}  // namespace cudabench::app

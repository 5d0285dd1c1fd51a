// Terminal table of a run.
#include "app/table_reporter.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "measure/measure.hpp"

namespace cudabench::app {

bool colored(const table_style& style) { return style.color.value_or(::isatty(STDOUT_FILENO) != 0); }

table_reporter::table_reporter(const device_info& device, const run_settings& settings, std::size_t case_count,
                               std::size_t before, bool rows, table_style style)
    : device_(device),
      settings_(settings),
      total_(case_count),
      done_(before),
      continues_(before > 0),
      rows_(rows),
      style_(std::move(style)),
      color_(colored(style_)) {}

bool table_reporter::ReportContext(const Context& ctx) {
  if (continues_ || !rows_) return true;  // the table goes on under the header an earlier process printed
  print_header(ctx.cpu_info.num_cpus);
  return true;
}

namespace {
/// What one line of the table shows.
struct table_row {
  std::string name;
  case_status status = case_status::ok;
  std::string message;  ///< why skipped or failed
  double seconds = 0;
  std::map<std::string, double> counters;
  std::string label, progress;
};

/// The counters the table's own columns show; --benchmark_counters_tabular adds the others as columns.
bool in_fixed_columns(const std::string& counter) {
  static const char* const shown[] = {"bytes_per_second", "items_per_second", "flops_per_second",
                                      "bw_peak_fraction", "noise_pct",        "samples"};
  return std::find_if(std::begin(shown), std::end(shown), [&](const char* c) { return counter == c; }) !=
         std::end(shown);
}

std::vector<std::string> extra_counters(const table_row& row) {
  std::vector<std::string> names;
  for (const auto& [name, v] : row.counters)
    if (!in_fixed_columns(name)) names.push_back(name);
  return names;
}

/// The counter columns' part of a line: each right-aligned in a column as wide as its name (12 at least).
template <typename Cell>
std::string counter_cells(const std::vector<std::string>& names, Cell cell) {
  std::string out;
  for (const std::string& n : names) out += fmt::format(" {:>{}}", cell(n), std::max<std::size_t>(12, n.size()));
  return out;
}

std::string column_header(const std::vector<std::string>& counters) {
  const std::string extra = counter_cells(counters, [](const std::string& n) { return n; });
  return fmt::format("{:<44} {:>12} {:>7} {:>12} {:>7} {:>7}{}  {}\n", "case", "median", "noise", "throughput", "%peak",
                     "samples", extra, "note") +
         std::string(110 + extra.size(), '-') + "\n";
}

/// The device and host lines, the --benchmark_context line, then the column header (unless the counters'
/// columns give it with the first row).
std::string table_header(const device_info& device, const run_settings& settings, int num_cpus,
                         const table_style& style) {
  std::string out;
  if (device.available)
    out += fmt::format("device: {} (sm_{}{}, {} SMs, {:.0f} GB/s peak), driver {}, runtime {}\n", device.name,
                       device.cc_major, device.cc_minor, device.sm_count, device.theoretical_bandwidth() / 1e9,
                       cuda_version_string(device.driver_version), cuda_version_string(device.runtime_version));
  else
    out += fmt::format("device: none ({}); GPU cases are skipped\n", device.unavailable_reason);
  out += fmt::format("host: {} ({} CPUs), preset {}, {} repetition(s){}, revision {}{}\n", settings.host_name, num_cpus,
                     settings.preset, settings.repetitions,
                     settings.rounds > 1 ? fmt::format(" in {} rounds", settings.rounds) : "",
                     settings.git_revision.substr(0, 12), settings.git_dirty ? " (dirty)" : "");
  std::string context;
  for (const auto& [key, value] : style.context) context += (context.empty() ? "" : ", ") + key + "=" + value;
  if (!context.empty()) out += "context: " + printable(context) + "\n";
  if (!style.counters_tabular) out += column_header({});
  return out;
}

/// A time in the unit --benchmark_time_unit names, with four significant digits at least; else as it reads best.
std::string median_text(double seconds, const std::optional<std::string>& unit) {
  if (!unit) return format_time(seconds);
  const double v = seconds * units_per_second(*unit);
  const int decimals = v > 0 ? std::clamp(3 - int(std::floor(std::log10(v))), 0, 6) : 0;
  return fmt::format("{:.{}f} {}", v, decimals, *unit);
}

auto painter(bool color) {
  return [color](const char* code, const std::string& text) {
    return color ? fmt::format("\033[{}m{}\033[0m", code, text) : text;
  };
}

/// One case's line; `counter_header` holds the counter columns last printed (none yet: unset), so that with
/// --benchmark_counters_tabular a case with other counters gets a header of its own first.
std::string row_text(const table_row& row, bool color, const table_style& style,
                     std::optional<std::string>& counter_header) {
  const std::string name = printable(row.name);
  const auto paint = painter(color);
  if (row.status == case_status::skipped) return "";  // skipped_text groups them by reason
  if (row.status != case_status::ok)
    return fmt::format("{:<44} {}  {}\n", name, paint("31", fmt::format("{:>12}", "FAILED")), printable(row.message));
  const std::vector<std::string> extra = style.counters_tabular ? extra_counters(row) : std::vector<std::string>{};
  const std::string header = fmt::format("{}", fmt::join(extra, ","));
  std::string out;
  if (style.counters_tabular && counter_header != header) {
    out = column_header(extra);
    counter_header = header;
  }
  auto counter = [&](const std::string& k) {
    auto it = row.counters.find(k);
    return it == row.counters.end() ? -1.0 : it->second;
  };
  std::string throughput = "-";
  if (counter("flops_per_second") > 0)
    throughput = format_rate(counter("flops_per_second"), "FLOP/s");
  else if (counter("bytes_per_second") > 0)
    throughput = format_rate(counter("bytes_per_second"), "B/s");
  else if (counter("items_per_second") > 0)
    throughput = format_rate(counter("items_per_second"), "items/s");
  std::string peak = counter("bw_peak_fraction") >= 0 ? fmt::format("{:.1f}%", 100 * counter("bw_peak_fraction")) : "-";
  std::string noise = counter("noise_pct") >= 0 ? fmt::format("{:.2f}%", counter("noise_pct")) : "-";
  std::string samples = counter("samples") >= 0 ? fmt::format("{:.0f}", counter("samples")) : "-";
  const std::string cells =
      counter_cells(extra, [&](const std::string& n) { return fmt::format("{:.4g}", row.counters.at(n)); });
  std::string note = row.label;
  if (style.progress && !row.progress.empty()) note += (note.empty() ? "" : " ") + paint("2", row.progress);
  return out + fmt::format("{:<44} {:>12} {:>7} {:>12} {:>7} {:>7}{}  {}\n", name,
                           median_text(row.seconds, style.time_unit), noise, throughput, peak, samples, cells, note);
}
}  // namespace

void table_reporter::print_header(int num_cpus) const {
  fmt::print("{}", table_header(device_, settings_, num_cpus, style_));
  std::fflush(stdout);
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
  if (!rows_) return;
  table_row row;
  row.name = shown.run_name.function_name;
  const reported_outcome ended = outcome_of(shown);
  row.status = ended.status;
  row.message = ended.message;
  for (const auto& [k, c] : shown.counters) row.counters[k] = double(c.value);
  row.seconds = shown.real_accumulated_time / double(std::max<benchmark::IterationCount>(shown.iterations, 1));
  row.label = label;
  row.progress = fmt::format("[{}/{}]", done_, total_);
  fmt::print("{}", row_text(row, color_, style_, counter_header_));
  std::fflush(stdout);
}

std::string run_table_text(const run_result& run, const device_info& device, const run_settings& settings, int num_cpus,
                           const table_style& style) {
  std::string out = table_header(device, settings, num_cpus, style);
  const bool color = colored(style);
  std::optional<std::string> counter_header;
  for (const case_result& c : run.cases) {
    table_row row;
    row.name = c.name;
    row.status = c.status;
    row.message = c.message;
    row.seconds = c.median_s;
    if (!c.repetitions.empty()) row.counters = median_repetition(c).counters.to_map();
    row.label = c.label;
    out += row_text(row, color, style, counter_header);
  }
  return out;
}

void print_run_table(const run_result& run, const device_info& device, const run_settings& settings, int num_cpus,
                     const table_style& style) {
  fmt::print("{}", run_table_text(run, device, settings, num_cpus, style));
  std::fflush(stdout);
}

std::string skipped_text(const run_result& run, const table_style& style) {
  std::vector<std::pair<std::string, std::vector<std::string>>> reasons;  // in the order first met
  for (const case_result& c : run.cases) {
    if (c.status != case_status::skipped) continue;
    auto it = std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == c.message; });
    if (it == reasons.end()) it = reasons.insert(reasons.end(), {c.message, {}});
    it->second.push_back(c.name);
  }
  const auto paint = painter(colored(style));
  std::string out;
  for (const auto& [reason, names] : reasons) {
    out += fmt::format("{:<44} {}  {}\n", fmt::format("{} case(s)", names.size()),
                       paint("33", fmt::format("{:>12}", "SKIPPED")), printable(reason));
    if (style.verbose)
      for (const std::string& n : names) out += fmt::format("  {}\n", printable(n));
  }
  return out;
}

void print_skipped(const run_result& run, const table_style& style) {
  fmt::print("{}", skipped_text(run, style));
  std::fflush(stdout);
}

void table_reporter::Finalize() { std::fflush(stdout); }

}  // namespace cudabench::app

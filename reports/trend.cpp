// Trend building and sustained-shift detection.
#include "reports/trend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "harness/errors.hpp"
#include "harness/format.hpp"
#include "harness/stats.hpp"
#include "reports/escape.hpp"
#include "reports/svg.hpp"

namespace cudabench::reports {

std::vector<std::size_t> sustained_shifts(const std::vector<double>& v, double threshold, std::size_t hold,
                                          std::vector<double>* sizes) {
  std::vector<std::size_t> out;
  std::size_t level_start = 0;  // the current level begins here: windows never reach back across a step
  for (std::size_t i = 1; i + hold <= v.size(); ++i) {
    std::vector<double> before, after;
    for (std::size_t k = std::max(level_start, i >= 5 ? i - 5 : 0); k < i; ++k) if (std::isfinite(v[k])) before.push_back(v[k]);
    for (std::size_t k = i; k < i + hold; ++k) if (std::isfinite(v[k])) after.push_back(v[k]);
    if (before.size() < 2 || after.size() < hold) continue;
    const double ref = cudabench::median(before);
    const double change = cudabench::median(after) / ref - 1;
    if (std::fabs(change) < threshold) continue;
    bool same_side = std::all_of(after.begin(), after.end(), [&](double x) {
      return change > 0 ? x / ref - 1 >= threshold / 2 : x / ref - 1 <= -threshold / 2;
    });
    if (!same_side) continue;
    out.push_back(i);
    if (sizes) sizes->push_back(change);
    level_start = i;
    i += hold - 1;
  }
  return out;
}

std::vector<std::string> trend_inputs(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  for (auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.path().stem().extension() != ".gates") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

namespace {
/// Each file read into its slot, on as many threads as there are cores (at most one a file): the files are
/// independent, and at a million rows a side reading is nearly all of a trend's time. A file that is not
/// results becomes its message; anything else stops the trend, as it would read one by one.
std::vector<std::optional<cudabench::run_result>> load_runs(const std::vector<std::string>& files, std::vector<std::string>& unreadable) {
  std::vector<std::optional<cudabench::run_result>> runs(files.size());
  std::vector<std::string> messages(files.size());
  std::vector<std::exception_ptr> failures(files.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      try {
        runs[i] = cudabench::load_run(files[i]);
      } catch (const cudabench::input_error& e) {
        messages[i] = e.what();
      } catch (...) {
        failures[i] = std::current_exception();
      }
    }
  };
  const std::size_t threads = std::min<std::size_t>(files.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (failures[i]) std::rethrow_exception(failures[i]);
    if (!runs[i]) unreadable.push_back(std::move(messages[i]));
  }
  return runs;
}
}  // namespace

trend build_trend(const std::string& dir, double threshold, std::size_t hold, bool allow_mixed_gpus) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(dir, ec))) throw cudabench::input_error(dir + ": does not exist");
  if (!fs::is_directory(dir, ec)) throw cudabench::input_error(dir + ": not a directory");
  std::vector<cudabench::run_result> runs;
  trend t;
  const std::vector<std::string> files = trend_inputs(dir);
  for (auto& r : load_runs(files, t.unreadable))
    if (r) runs.push_back(std::move(*r));
  if (runs.empty())
    throw cudabench::input_error(files.empty() ? dir + ": holds no .json results"
                                               : dir + ": none of its " + std::to_string(files.size()) + " .json files could be read (" + t.unreadable.front() + ")");
  std::set<std::string> gpus;
  for (const auto& r : runs) gpus.insert(r.device && r.device->available ? r.device->name : r.device ? "no GPU" : "unknown");
  t.gpus.assign(gpus.begin(), gpus.end());
  if (gpus.size() > 1 && !allow_mixed_gpus) {
    std::string list;
    for (const auto& g : gpus) list += (list.empty() ? "" : ", ") + g;
    throw cudabench::input_error(dir + ": holds runs of different GPU models (" + list + "); a trend mixes them only with --allow-device-mismatch");
  }
  for (const auto& r : runs)  // a quick run's medians beside a nightly's would read as a step
    if (r.settings.preset != runs.front().settings.preset)
      throw cudabench::input_error(fmt::format("{}: holds runs of preset '{}' ({}) and '{}' ({}); a trend follows runs of one preset",
                                               dir, cudabench::printable(runs.front().settings.preset), runs.front().source,
                                               cudabench::printable(r.settings.preset), r.source));
  std::sort(runs.begin(), runs.end(), [](auto& a, auto& b) { return a.date == b.date ? a.source < b.source : a.date < b.date; });
  std::unordered_map<std::string_view, std::size_t> index;  // names live in `runs`, which outlives it
  index.reserve(runs.front().cases.size());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    t.runs.push_back(fs::path(runs[r].source).filename().string());
    for (auto& c : runs[r].cases) {
      const auto [at, added] = index.try_emplace(c.name, t.series.size());
      if (added) t.series.push_back({c.name, std::vector<double>(runs.size(), std::nan("")), {}, {}});
      if (c.status == cudabench::case_status::ok) t.series[at->second].medians_s[r] = c.median_s;
    }
  }
  for (auto& s : t.series) s.shifts = sustained_shifts(s.medians_s, threshold, hold, &s.shift_sizes);
  t.machines = machines_of(runs);
  return t;
}

std::vector<std::string> machines_of(const std::vector<cudabench::run_result>& runs) {
  std::map<std::string, std::size_t> boards, hosts;
  for (const auto& r : runs) {
    if (r.device && !r.device->uuid.empty()) ++boards[cudabench::board_label(r.device->uuid)];
    if (!r.settings.host_name.empty()) ++hosts[r.settings.host_name];
  }
  std::vector<std::string> out;
  for (const auto* counts : {&boards, &hosts}) {
    if (counts->size() < 2) continue;
    std::string line = fmt::format("runs from {} {}: ", counts->size(), counts == &boards ? "boards" : "hosts");
    bool first = true;
    for (const auto& [name, n] : *counts) {
      line += fmt::format("{}{} ({} run{})", first ? "" : ", ", name, n, n == 1 ? "" : "s");
      first = false;
    }
    out.push_back(line);
  }
  return out;
}

std::string trend_terminal(const trend& t) {
  std::string out;
  for (const auto& u : t.unreadable) out += "left out (unreadable): " + terminal_text(u) + "\n";
  out += fmt::format("{} runs: {} .. {}\n", t.runs.size(), terminal_text(t.runs.front()), terminal_text(t.runs.back()));
  for (const auto& m : t.machines) out += "note: " + terminal_text(m) + " (a step between boards may be the board's)\n";
  std::size_t flagged = 0;
  for (auto& s : t.series) {
    double last = std::nan("");
    for (double v : s.medians_s) if (std::isfinite(v)) last = v;
    std::string shifts;
    for (std::size_t k = 0; k < s.shifts.size(); ++k)
      shifts += fmt::format(" step {:+.1f}% at {}", 100 * s.shift_sizes[k], terminal_text(t.runs[s.shifts[k]]));
    flagged += !s.shifts.empty();
    out += fmt::format("{:<44} last {:>12}{}\n", terminal_text(s.name), std::isfinite(last) ? cudabench::format_time(last) : "-", shifts);
  }
  out += fmt::format("{} case(s) with a sustained shift\n", flagged);
  return out;
}

std::string trend_html(const trend& t) {
  std::string body, notes;
  for (const auto& m : t.machines) notes += "<p>note: " + html_text(m) + " (a step between boards may be the board's)</p>";
  for (auto& s : t.series) {
    std::vector<double> v;
    std::vector<std::string> labels;
    std::vector<std::size_t> marked;
    for (std::size_t i = 0; i < s.medians_s.size(); ++i) {
      if (!std::isfinite(s.medians_s[i])) continue;
      if (std::find(s.shifts.begin(), s.shifts.end(), i) != s.shifts.end()) marked.push_back(v.size());
      v.push_back(s.medians_s[i] * 1e3);
      labels.push_back(t.runs[i]);
    }
    body += "<div class=\"chart\">" + svg::trend(s.name + " (ms)" + (s.shifts.empty() ? "" : " — sustained shift"), v, labels, marked) + "</div>\n";
  }
  return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>cudabench trend</title><style>body{font-family:sans-serif;margin:20px}"
         ".chart{margin:8px 0}</style></head><body><h1>Trend over " + std::to_string(t.runs.size()) + " runs</h1>" + notes + body + "</body></html>\n";
}

}  // namespace cudabench::reports

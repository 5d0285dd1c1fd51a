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

#include "analysis/run_store.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "results/stats.hpp"

namespace cudabench::reports {

namespace {
/// The median of the last `hold` finite values of `v` (fewer where it has fewer), NaN where it has none.
double latest_level(const std::vector<double>& v, std::size_t hold) {
  std::vector<double> last;
  for (std::size_t k = v.size(); k-- > 0 && last.size() < hold;)
    if (std::isfinite(v[k])) last.push_back(v[k]);
  return last.empty() ? std::nan("") : cudabench::median(last);
}

/// Marks the steps whose latest runs are back: on the other side of the level before the step, or within half
/// the threshold of it, or of the level before an earlier step (those steps together were an excursion).
void mark_returned(std::vector<trend_step>& steps, double latest, double threshold) {
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const double now = latest / steps[s].before - 1;
    bool back = steps[s].size > 0 ? now < threshold / 2 : now > -threshold / 2;
    for (std::size_t e = 0; e <= s && !back; ++e) back = std::fabs(latest / steps[e].before - 1) < threshold / 2;
    steps[s].returned = back;
  }
}
}  // namespace

std::vector<trend_step> trend_steps(const std::vector<double>& v, double threshold, std::size_t hold) {
  std::vector<trend_step> out;
  std::size_t level_start = 0;  // the current level begins here: windows never reach back across a step
  for (std::size_t i = 1; i + hold <= v.size(); ++i) {
    std::vector<double> before, after;
    for (std::size_t k = std::max(level_start, i >= 5 ? i - 5 : 0); k < i; ++k)
      if (std::isfinite(v[k])) before.push_back(v[k]);
    for (std::size_t k = i; k < i + hold; ++k)
      if (std::isfinite(v[k])) after.push_back(v[k]);
    if (before.size() < 2 || after.size() < hold) continue;
    const double ref = cudabench::median(before);
    const double change = cudabench::median(after) / ref - 1;
    if (std::fabs(change) < threshold) continue;
    bool same_side = std::all_of(after.begin(), after.end(), [&](double x) {
      return change > 0 ? x / ref - 1 >= threshold / 2 : x / ref - 1 <= -threshold / 2;
    });
    if (!same_side) continue;
    out.push_back({i, change, ref, false});
    level_start = i;
    i += hold - 1;
  }
  mark_returned(out, latest_level(v, hold), threshold);
  return out;
}

std::vector<std::size_t> sustained_shifts(const std::vector<double>& v, double threshold, std::size_t hold,
                                          std::vector<double>* sizes) {
  std::vector<std::size_t> out;
  for (const trend_step& s : trend_steps(v, threshold, hold)) {
    if (s.returned) continue;
    out.push_back(s.at);
    if (sizes) sizes->push_back(s.size);
  }
  return out;
}

bool trend_series::sustained() const {
  return std::any_of(steps.begin(), steps.end(), [](const trend_step& s) { return !s.returned; });
}

std::size_t trend::sustained() const {
  return std::size_t(std::count_if(series.begin(), series.end(), [](const trend_series& s) { return s.sustained(); }));
}

std::vector<std::string> trend_inputs(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  for (auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && !run_store::is_gates_file(e.path())) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

namespace {
/// Each file read into its slot, on as many threads as there are cores (at most one a file): the files are
/// independent, and at a million rows a side reading is nearly all of a trend's time. A file that is not
/// results becomes its message; anything else stops the trend, as it would read one by one.
std::vector<std::optional<cudabench::run_result>> load_runs(const std::vector<std::string>& files,
                                                            std::vector<std::string>& unreadable) {
  std::vector<std::optional<cudabench::run_result>> runs(files.size());
  std::vector<std::string> messages(files.size());
  std::vector<std::exception_ptr> failures(files.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      try {
        runs[i] = cudabench::load_run(files[i]);
      } catch (const cudabench::input_error& e) { messages[i] = e.what(); } catch (...) {
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

/// A series per case over the runs (oldest first), each with why it is kept apart: host-bound or not gated in
/// any run, as compare would judge it against that run.
void fill_series(trend& t, const std::vector<cudabench::run_result>& runs) {
  namespace fs = std::filesystem;
  std::unordered_map<std::string_view, std::size_t> index;  // names live in `runs`, which outlives it
  index.reserve(runs.front().cases.size());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    t.runs.push_back(fs::path(runs[r].source).filename().string());
    t.dates.push_back(runs[r].date);
    t.revisions.push_back(runs[r].settings.git_revision);
    for (auto& c : runs[r].cases) {
      const auto [at, added] = index.try_emplace(c.name, t.series.size());
      if (added) t.series.push_back({c.name, c.family, std::vector<double>(runs.size(), std::nan("")), "", {}});
      trend_series& s = t.series[at->second];
      if (c.status == cudabench::case_status::ok) s.medians_s[r] = c.median_s;
      if (c.host_bound)
        s.apart = "host-bound";
      else if (!c.gated && s.apart.empty())
        s.apart = "not gated";
    }
  }
}

/// Per family, per run: the geometric mean over its gated device cases of each one's median over its first.
std::vector<family_trend> family_trends(const trend& t) {
  std::vector<family_trend> out;
  std::map<std::string, std::size_t> at;
  std::vector<std::vector<std::pair<double, std::size_t>>> sums;  // family -> per run (sum of logs, count)
  for (const trend_series& s : t.series) {
    if (!s.apart.empty()) continue;
    const auto first =
        std::find_if(s.medians_s.begin(), s.medians_s.end(), [](double v) { return std::isfinite(v) && v > 0; });
    if (first == s.medians_s.end()) continue;
    const auto [it, added] = at.try_emplace(s.family, out.size());
    if (added) {
      out.push_back({s.family, 0, {}});
      sums.emplace_back(t.runs.size());
    }
    ++out[it->second].cases;
    for (std::size_t r = 0; r < s.medians_s.size(); ++r)
      if (std::isfinite(s.medians_s[r]) && s.medians_s[r] > 0) {
        sums[it->second][r].first += std::log(s.medians_s[r] / *first);
        ++sums[it->second][r].second;
      }
  }
  for (std::size_t f = 0; f < out.size(); ++f)
    for (const auto& [logs, n] : sums[f]) out[f].geomean.push_back(n ? std::exp(logs / double(n)) : std::nan(""));
  return out;
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
                                               : dir + ": none of its " + std::to_string(files.size()) +
                                                     " .json files could be read (" + t.unreadable.front() + ")");
  std::set<std::string> gpus;
  for (const auto& r : runs)
    gpus.insert(r.device && r.device->available ? r.device->name : r.device ? "no GPU" : "unknown");
  t.gpus.assign(gpus.begin(), gpus.end());
  if (gpus.size() > 1 && !allow_mixed_gpus) {
    std::string list;
    for (const auto& g : gpus) list += (list.empty() ? "" : ", ") + g;
    throw cudabench::input_error(dir + ": holds runs of different GPU models (" + list +
                                 "); a trend mixes them only with --allow-device-mismatch");
  }
  for (const auto& r : runs)  // a quick run's medians beside a nightly's would read as a step
    if (r.settings.preset != runs.front().settings.preset)
      throw cudabench::input_error(
          fmt::format("{}: holds runs of preset '{}' ({}) and '{}' ({}); a trend follows runs of one preset", dir,
                      cudabench::printable(runs.front().settings.preset), runs.front().source,
                      cudabench::printable(r.settings.preset), r.source));
  std::sort(runs.begin(), runs.end(),
            [](auto& a, auto& b) { return a.date == b.date ? a.source < b.source : a.date < b.date; });
  t.threshold = threshold;
  fill_series(t, runs);
  for (auto& s : t.series)
    if (s.apart.empty()) s.steps = trend_steps(s.medians_s, threshold, hold);
  t.families = family_trends(t);
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

}  // namespace cudabench::reports

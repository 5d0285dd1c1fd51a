// Which runs a fleet's paths name: a results file, or a directory's newest nightly run with the verdict file
// written beside it; the devices of a --devices run as members of their own.
#include "reports/fleet.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <optional>

#include "analysis/run_store.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "reports/render.hpp"
#include "reports/verdict_file.hpp"

namespace cudabench::reports {
namespace {
namespace fs = std::filesystem;
using cudabench::input_error;
using cudabench::run_result;

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// The newest runs/nightly-*.json of `dir` (the stamps sort as times), or "".
std::string newest_nightly(const fs::path& dir) {
  std::error_code ec;
  std::string best;
  for (const auto& e : fs::directory_iterator(dir / run_store::runs_folder, ec))
    if (!run_store::run_stamp(e.path()).empty() && is_file(e.path()) && e.path().string() > best)
      best = e.path().string();
  return best;
}

/// A run's file, and the run itself where finding the file meant reading it.
struct found_run {
  std::string file;
  std::optional<cudabench::run_result> run;
};

/// The newest *.json of `dir` (by modification time) that reads as a run, read; or no file.
found_run newest_run_file(const fs::path& dir) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, std::string>> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && is_file(e.path()))
      files.emplace_back(fs::last_write_time(e.path(), ec), e.path().string());
  std::sort(files.begin(), files.end(),
            [](auto& a, auto& b) { return a.first != b.first ? a.first > b.first : a.second > b.second; });
  for (const auto& [when, f] : files) {
    try {
      return {f, cudabench::load_run(f)};
    } catch (const input_error&) {}
  }
  return {};
}

/// The run a directory stands for: its latest.json (the link ci/nightly.sh keeps; a copy of it stands for the
/// newest runs/nightly-*.json it copies), else the newest runs/nightly-*.json, else the newest run among its *.json.
found_run run_in_directory(const std::string& dir) {
  std::error_code ec;
  const fs::path latest = fs::path(dir) / run_store::latest_run;
  if (fs::is_symlink(latest, ec) && is_file(latest)) {
    fs::path target = fs::read_symlink(latest, ec);
    if (!ec && target.is_relative()) target = fs::path(dir) / target;
    return {(!ec && is_file(target) ? target.lexically_normal() : fs::canonical(latest, ec)).string(), {}};
  }
  if (std::string nightly = newest_nightly(dir); !nightly.empty()) return {nightly, {}};
  if (is_file(latest)) return {latest.string(), {}};
  if (found_run any = newest_run_file(dir); !any.file.empty()) return any;
  throw input_error(dir + ": holds no run (no latest.json, runs/nightly-*.json or results .json file)");
}

/// The verdict file compare wrote for the nightly run `run_file`: verdict-<stamp>.json beside it or beside its
/// runs/ directory; "" when there is none. Anything of that name counts (a directory, a FIFO, a dangling link),
/// so that one which cannot be read is refused, not passed over as no verdict.
std::string verdict_beside(const std::string& run_file) {
  const fs::path p(run_file);
  const std::string stamp = run_store::run_stamp(p);
  if (stamp.empty()) return {};
  const std::string name = run_store::verdict_name(stamp);
  for (const fs::path& dir : {p.parent_path(), p.parent_path().parent_path()}) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir / name, ec))) return (dir / name).string();
  }
  return {};
}

/// The verdicts a `compare --verdict` file holds, into `m`.
void read_verdicts(fleet_member& m, const std::string& path) {
  const verdict_file v = read_verdict_file(path);
  for (const auto& [name, verdict] : v.verdicts) m.verdicts[name] = verdict;
  m.failing = v.failing;
  m.verdict_summary = v.counts_text();
  if (!v.machine_differences.empty())
    m.notes.push_back(fmt::format("{}: its verdict compared runs of different machines ({} differ)",
                                  m.label.empty() ? path : m.label, fmt::join(v.machine_differences, ", ")));
  m.verdict_source = path;
}

std::string model_of(const run_result& r) { return r.device && !r.device->name.empty() ? r.device->name : "no GPU"; }

fleet_member member_of(run_result run, const std::string& source) {
  fleet_member m;
  m.model = model_of(run);
  cudabench::device_info named;
  named.name = m.model == "no GPU" ? "" : m.model;
  m.slug = named.model_slug();
  m.source = source;
  m.preset = run.settings.preset.empty() ? "-" : run.settings.preset;
  m.host = !run.settings.host_name.empty() ? run.settings.host_name : run.host.value("host_name", std::string("-"));
  m.revision = run.settings.git_revision.empty() ? "-" : run.settings.git_revision.substr(0, 12);
  m.run = std::move(run);
  return m;
}

/// The members of a run of several devices (--devices): one per device that left a result, its cases without
/// the dev<N>/ prefix, its verdicts those of its own cases.
std::vector<fleet_member> split_devices(const fleet_member& whole) {
  std::vector<fleet_member> out;
  std::vector<std::string> lost;  // the devices that left no result, said in the report rather than dropped unseen
  for (const auto& d : whole.run.devices) {
    // A device that left no result is listed with its problem; one without a GPU (CPU cases only) did run.
    if (!d.is_object() || !d.contains("ordinal") || !d["ordinal"].is_number_integer()) continue;
    if (d.contains("problem")) {
      lost.push_back(fmt::format("{}: device {} left no result ({})", whole.source, d["ordinal"].get<int>(),
                                 d["problem"].is_string() ? d["problem"].get<std::string>() : d["problem"].dump()));
      continue;
    }
    const int ordinal = d["ordinal"].get<int>();
    const std::string prefix = fmt::format("dev{}/", ordinal);
    run_result r;
    r.source = whole.run.source;
    r.host = whole.run.host;
    r.settings = whole.run.settings;
    r.families = whole.run.families;
    r.date = whole.run.date;
    r.device = cudabench::device_info_from_json(d, whole.source + ": context.devices");
    for (const cudabench::case_result& c : whole.run.cases) {
      if (c.device != ordinal) continue;
      r.cases.push_back(c);
      r.cases.back().name = c.name.substr(prefix.size());
      cudabench::split_case_name(r.cases.back());
    }
    r.index_cases();
    fleet_member m = member_of(std::move(r), whole.source);
    m.given = whole.given;
    m.device = ordinal;
    m.verdict_source = whole.verdict_source;
    m.verdict_summary = whole.verdict_summary;
    m.failing = whole.failing;
    for (const auto& [name, v] : whole.verdicts)
      if (name.rfind(prefix, 0) == 0) m.verdicts[name.substr(prefix.size())] = v;
    out.push_back(std::move(m));
  }
  if (!out.empty()) out.front().notes = std::move(lost);
  return out;
}
}  // namespace

std::vector<fleet_member> fleet_members(const std::vector<std::string>& paths) {
  if (paths.empty()) throw cudabench::usage_error("fleet needs at least one result file or directory");
  std::vector<fleet_member> members;
  // A named file is read a step ahead on a thread of its own, so that two large runs are read at once.
  auto start = [&](std::size_t i) {
    std::error_code ec;
    if (i >= paths.size() || fs::is_directory(paths[i], ec)) return std::future<cudabench::run_result>();
    return std::async(std::launch::async, [path = paths[i]] { return cudabench::load_run(path); });
  };
  std::future<cudabench::run_result> next = start(0);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const std::string& path = paths[i];
    std::future<cudabench::run_result> reading = std::move(next);
    next = start(i + 1);
    found_run found = reading.valid() ? found_run{path, reading.get()} : run_in_directory(path);
    const std::string& file = found.file;
    fleet_member m = member_of(found.run ? std::move(*found.run) : cudabench::load_run(file), file);
    m.given = path;
    if (const std::string v = verdict_beside(file); !v.empty()) read_verdicts(m, v);
    const bool several = m.run.devices.is_array() && std::any_of(m.run.cases.begin(), m.run.cases.end(),
                                                                 [](const auto& c) { return c.device >= 0; });
    if (!several) {
      members.push_back(std::move(m));
      continue;
    }
    std::vector<fleet_member> devices = split_devices(m);
    if (devices.empty()) throw input_error(file + ": a run of several devices, none of which left a result");
    for (fleet_member& d : devices) members.push_back(std::move(d));
  }
  return members;
}

}  // namespace cudabench::reports

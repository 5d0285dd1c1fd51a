// The run store: where baselines, gates, verdicts and runs sit, and how they are named.
#include "analysis/run_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "analysis/gates.hpp"
#include "cudabench/errors.hpp"
#include "io/format.hpp"

namespace cudabench::run_store {
namespace {
namespace fs = std::filesystem;

constexpr std::string_view json_ext = ".json", gates_ext = ".gates.json", run_head = "nightly-",
                           verdict_head = "verdict-";

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool ascii_alnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/// A name that is one folder or file of the store, as ci/history.sh's layout has them: letters, digits, '.', '_'
/// and '-', not starting with '.' (no ".", ".." or hidden name).
bool place_name(const std::string& name) {
  return !name.empty() && name[0] != '.' && std::all_of(name.begin(), name.end(), [](char c) {
    return ascii_alnum(c) || c == '.' || c == '_' || c == '-';
  });
}

/// A GPU model name whose folder (device_info::model_slug: each space an underscore) is its own: words of letters,
/// digits, '.' and '-' between single spaces, not starting with '.', and not "no-gpu" (the folder of runs with no
/// GPU). Any other name ("NVIDIA/H100", a tab, two spaces, an underscore) would share a folder with another.
bool model_name(const std::string& name) {
  if (name.empty() || name.front() == ' ' || name.back() == ' ' || name.front() == '.' || name == "no-gpu")
    return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!(ascii_alnum(c) || c == '.' || c == '-' || (c == ' ' && name[i + 1] != ' '))) return false;
  }
  return true;
}

/// The folder of d's GPU model ("no-gpu" for none); "" where its name has no folder of its own.
std::string model_folder(const device_info& d) {
  if (d.name.empty()) return d.model_slug();
  return model_name(d.name) ? d.model_slug() : std::string();
}

/// The <stamp> of a file named <head><stamp>.json; "" for any other name.
std::string stamp_after(const std::string& name, std::string_view head) {
  if (name.size() <= head.size() + json_ext.size() || name.rfind(head, 0) != 0 || !ends_with(name, json_ext)) return {};
  return name.substr(head.size(), name.size() - head.size() - json_ext.size());
}

/// A run's <stamp>: YYYYMMDDTHHMMSSZ.
bool stamp_name(const std::string& stamp) {
  if (stamp.size() != 16 || stamp[8] != 'T' || stamp[15] != 'Z') return false;
  for (std::size_t i = 0; i < 15; ++i)
    if (i != 8 && (stamp[i] < '0' || stamp[i] > '9')) return false;
  return true;
}

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}
}  // namespace

std::string baselines_dir() {
  const char* dir = std::getenv("CUDABENCH_BASELINE_DIR");
  return dir && *dir ? dir : std::string(default_baselines_dir);
}

std::string slot(const device_info& d, const std::string& preset) {
  const std::string model = model_folder(d);
  if (model.empty())
    throw input_error(
        fmt::format("the GPU model '{}' names no directory of its own (words of letters, digits, '.' and "
                    "'-' between single spaces)",
                    printable(d.name)));
  if (!place_name(preset)) throw input_error(fmt::format("the preset '{}' is not a preset name", printable(preset)));
  return model + "/" + preset;
}

std::string baseline_file(const std::string& dir, const device_info& d, const std::string& preset) {
  return fmt::format("{}/{}{}", dir, slot(d, preset), json_ext);
}

std::string gates_file_beside(const std::string& baseline) {
  if (!ends_with(baseline, json_ext)) return "";
  return baseline.substr(0, baseline.size() - json_ext.size()) + std::string(gates_ext);
}

bool is_gates_file(const fs::path& path) { return ends_with(path.filename().string(), gates_ext); }

std::string resolve_baseline(const std::string& spec, const device_info& d, const std::string& preset,
                             const std::string& dir) {
  if (spec != "auto") return spec;
  std::string path = baseline_file(dir, d, preset);
  if (!exists(path))
    throw input_error(fmt::format("{}: no stored baseline for {} / {} (store one with --save-baseline)", path,
                                  d.available ? d.name : "no GPU", preset));
  return path;
}

std::shared_ptr<const gate_table> gates_for(const compare_settings& s, const run_result& base, const run_result& cur) {
  if (s.gates || !s.gates_beside_baseline) return s.gates;
  if (const std::string path = gates_file_beside(base.source); !path.empty() && exists(path))
    return std::make_shared<const gate_table>(load_gates(path));
  if (!one_machine(base, cur) || !cur.device->available || model_folder(*cur.device).empty()) return nullptr;
  // A case's gate is that of its name: a preset without gates of its own takes the nightly's, learned over the
  // most runs (compare notes the other preset).
  for (const std::string& preset : {cur.settings.preset, std::string(nightly_preset)}) {
    if (!place_name(preset)) continue;
    const std::string stored = gates_file_beside(baseline_file(baselines_dir(), *cur.device, preset));
    if (exists(stored)) return std::make_shared<const gate_table>(load_gates(stored));
  }
  return nullptr;
}

std::string run_name(const std::string& stamp) { return fmt::format("{}{}{}", run_head, stamp, json_ext); }

std::string verdict_name(const std::string& stamp) { return fmt::format("{}{}{}", verdict_head, stamp, json_ext); }

std::string run_stamp(const fs::path& file) { return stamp_after(file.filename().string(), run_head); }

std::string history_folder(const std::string& store, const device_info& d, const std::string& preset) {
  return fmt::format("{}/{}", store, slot(d, preset));
}

std::string history_layout() {
  return fmt::format("<model>/<preset>/{}/{}<YYYYMMDDTHHMMSSZ>{}, <model>/<preset>/{}<time>{} or <model>/<preset>/{}",
                     runs_folder, run_head, json_ext, verdict_head, json_ext, learned_gates);
}

history_entry history_entry_of(const std::string& path) {
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t slash = path.find('/', at);
    parts.push_back(path.substr(at, slash == std::string::npos ? std::string::npos : slash - at));
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  if (!std::all_of(parts.begin(), parts.end(), place_name)) return {.kind = "outside"};
  if (parts.size() == 1) return {.kind = "model"};
  const std::string folder = parts[0] + "/" + parts[1];
  if (parts.size() == 2) return {.kind = "folder", .folder = folder};
  if (parts.size() == 3 && parts[2] == runs_folder) return {.kind = "runs", .folder = folder};
  if (parts.size() == 3 && parts[2] == learned_gates) return {.kind = "learned", .folder = folder};
  if (parts.size() == 3 && stamp_name(stamp_after(parts[2], verdict_head)))
    return {.kind = "verdict", .folder = folder, .stamp = stamp_after(parts[2], verdict_head)};
  if (parts.size() == 4 && parts[2] == runs_folder && stamp_name(run_stamp(parts[3])))
    return {.kind = "run", .folder = folder, .stamp = run_stamp(parts[3])};
  return {.kind = "outside"};
}

}  // namespace cudabench::run_store

// gates: learns each gated case's gate from its drift over several runs of one GPU model and preset.
#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <set>

#include "analysis/gates.hpp"
#include "app/commands.hpp"
#include "app/results_output.hpp"
#include "cli/program_name.hpp"
#include "io/format.hpp"
#include "io/output_sink.hpp"
#include "reports/trend.hpp"

namespace cudabench::app {
namespace {

/// The runs `gates` reads: each file as given (unreadable: input_error), and each directory's runs as trend reads
/// them (unreadable: named on standard error and left out). A file named twice (itself and in its directory,
/// or through a link) is read once: a run paired with itself would pull the drift down.
std::vector<run_result> gates_runs(const std::vector<std::string>& inputs, const std::string& out) {
  namespace fs = std::filesystem;
  std::vector<run_result> runs;
  std::vector<std::string> files;
  std::set<std::string> seen;
  auto first_time = [&](const std::string& f) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(f, ec);
    return seen.insert(ec ? f : canonical.string()).second;
  };
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      files.push_back(in);
      if (first_time(in)) runs.push_back(load_run(in));
      continue;
    }
    const std::vector<std::string> found = reports::trend_inputs(in);
    for (const std::string& f : found) {
      files.push_back(f);
      if (!first_time(f)) continue;
      try {
        runs.push_back(load_run(f));
      } catch (const input_error& e) {
        fmt::print(stderr, "{} gates: left out: {}\n", cli::program_name(), printable(e.what()));
      }
    }
    if (found.empty()) throw input_error(in + ": holds no .json results");
  }
  check_distinct_outputs({{"--out", out}}, files);
  return runs;
}

}  // namespace

/// `gates RUNS... --out FILE`: learns the gates and writes the file, then says what it learned.
int gates_handler(const cli::gates_request& r) {
  const file_command_guard guard(r.inputs, "gates");
  const cli::gates_options& o = r;
  if (!o.gates_out) throw usage_error("gates needs --out FILE: where the gates file is written");
  gate_table t;
  output_list outputs;
  outputs.add_text(
      "--out", o.gates_out, "gates JSON", [&t] { return gates_json(t); }, output_list::document_order);
  outputs.check_writable();
  gate_settings gs;
  if (o.gate_floor_pct) gs.floor = *o.gate_floor_pct / 100;
  if (o.gate_k) gs.k = *o.gate_k;
  if (o.gate_min_runs) gs.min_runs = std::size_t(*o.gate_min_runs);
  t = learn_gates(gates_runs(r.inputs, *o.gates_out), gs);
  std::optional<standard_output_aside> aside;
  if (outputs.uses_standard_output()) aside.emplace();
  outputs.end({});
  std::size_t own_drift = 0, host = 0;  // cases with enough pairs of one board for a drift of their own; host gates
  for (const auto& [name, g] : t.cases) {
    own_drift += g.same_board_gate > 0;
    host += g.host;
  }
  const std::size_t boards = t.boards().size();
  fmt::print(
      "gates: {}: {} case(s) learned from {} run(s) of {} on {} board(s) (preset {}; floor {:.1f}%, k {:g}, at least "
      "{} runs a "
      "case; {} with a drift of one board of their own{})\n",
      printable(*o.gates_out), t.cases.size(), t.runs.size(), printable(t.device),
      boards ? std::to_string(boards) : "unrecorded", printable(t.preset), 100 * gs.floor, gs.k, gs.min_runs, own_drift,
      host ? fmt::format(", {} of them host-bound cases, gated on one host", host) : "");
  return 0;
}

}  // namespace cudabench::app

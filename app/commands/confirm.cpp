// confirm: unconfirmed flags measured again with both revisions on this machine.
#include "app/confirm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include "analysis/run_store.hpp"
#include "app/bisect.hpp"
#include "app/comparison.hpp"
#include "app/git_repo.hpp"
#include "app/results_output.hpp"
#include "cli/program_name.hpp"
#include "io/atomic_file.hpp"
#include "io/format.hpp"
#include "io/interrupt.hpp"
#include "measure/energy.hpp"
#include "results/results.hpp"
#include "results/run_settings.hpp"

namespace cudabench::app {

namespace {
std::string regex_escaped(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    if (std::string_view("\\.^$|?*+()[]{}").find(ch) != std::string_view::npos) out += '\\';
    out += ch;
  }
  return out;
}

/// A stop signal that ended the measuring here: nothing was written.
struct measuring_stopped {
  int signal;
};

/// What the measurement on this machine makes of a held flag: the same flag confirms it; the opposite flag is
/// what the code did (reported as it is, never as confirmed); a case it could not judge (inconclusive, measured
/// throttled, not measured) stays unconfirmed; unchanged makes the flag the machine's.
enum class outcome { confirmed, opposite, unsettled, machine };

/// The outcome of a held flag from what this machine measured: a flag here (`flag_here`), of the held direction or
/// not (`same_direction`); else unchanged here or not (`unchanged_here`); and the note's opening that says so.
outcome outcome_of(bool flag_here, bool same_direction, bool unchanged_here, const std::string& measured,
                   const std::string& held, double change, std::string& note) {
  const outcome o = flag_here        ? (same_direction ? outcome::confirmed : outcome::opposite)
                    : unchanged_here ? outcome::machine
                                     : outcome::unsettled;
  switch (o) {
    case outcome::confirmed: note = fmt::format("confirmed: {}; {}", measured, note); break;
    case outcome::opposite:
      note = fmt::format("not confirmed, the opposite: {} where the runs of two machines said {} ({:+.1f}%); {}",
                         measured, held, 100 * change, note);
      break;
    case outcome::unsettled: note = fmt::format("not settled: {}; {}", measured, note); break;
    case outcome::machine: note = fmt::format("not confirmed: {}; {}", measured, note); break;
  }
  return o;
}

/// A held time flag settled by the verdict measured here (outcome_of).
outcome settle_one(case_comparison& r, const case_comparison* here) {
  const std::string measured =
      here && here->base_median_s > 0 && here->cur_median_s > 0
          ? fmt::format("{:+.1f}% on this machine ({}, {})", 100 * here->change, here->verdict_text(), here->method)
          : std::string("not measured on this machine");
  const bool flag_here = here && is_flag(here->v);
  const outcome o = outcome_of(flag_here, flag_here && r.held == here->v, here && here->v == verdict::unchanged,
                               measured, r.held ? to_string(*r.held) : "a flag", r.judged_change(), r.note);
  if (flag_here) r.v = here->v;
  if (o == outcome::machine) r.v = verdict::machine_differs;
  return o;
}

/// The same for a held energy flag, from the energy verdict of this machine's measurement. Where both runs of the
/// comparison are of one machine (`one_machine`), the flag was held for too few windows, not for the machine: unchanged
/// here makes it `energy unchanged`.
outcome settle_energy(energy_comparison& e, const energy_comparison* here, bool one_machine) {
  const std::string measured =
      here && here->base > 0 && here->cur > 0
          ? fmt::format("{:+.1f}% on this machine ({}, {})", 100 * here->change, to_string(here->v), here->method)
          : std::string("energy not measured on this machine");
  const bool flag_here = here && is_flag(here->v);
  const outcome o = outcome_of(flag_here, flag_here && e.held == here->v, here && here->v == energy_verdict::unchanged,
                               measured, e.held ? to_string(*e.held) : "an energy flag", e.change, e.note);
  if (flag_here) e.v = here->v;
  if (o == outcome::machine) e.v = one_machine ? energy_verdict::unchanged : energy_verdict::machine_differs;
  return o;
}

}  // namespace

void settle_flags(comparison& c, const comparison& here_all, const std::string& how) {
  std::map<std::string, const case_comparison*> by_name;
  for (const case_comparison& r : here_all.cases) by_name[r.name] = &r;
  std::map<outcome, std::size_t> n, energy;
  for (case_comparison& r : c.cases) {
    const auto it = by_name.find(r.name);
    const case_comparison* here = it == by_name.end() ? nullptr : it->second;
    if (r.v == verdict::unconfirmed) ++n[settle_one(r, here)];
    if (r.energy && r.energy->v == energy_verdict::unconfirmed && here)
      ++energy[settle_energy(*r.energy, here->energy ? &*here->energy : nullptr, c.same_machine)];
  }
  c.header_notes.push_back(fmt::format("{}: {} flag(s) confirmed, {} the opposite, {} the machine's, {} not settled",
                                       how, n[outcome::confirmed], n[outcome::opposite], n[outcome::machine],
                                       n[outcome::unsettled]));
  if (!energy.empty())
    c.header_notes.push_back(fmt::format("energy: {} flag(s) confirmed, {} the opposite, {} {}, {} not settled",
                                         energy[outcome::confirmed], energy[outcome::opposite],
                                         energy[outcome::machine], c.same_machine ? "unchanged" : "the machine's",
                                         energy[outcome::unsettled]));
}

namespace {

/// Each held flag the machine's, with nothing measured: both runs are of one clean revision.
void settle_as_machine(comparison& c, const std::string& how) {
  std::size_t n = 0;
  for (case_comparison& r : c.cases) {
    if (r.v == verdict::unconfirmed) {
      r.v = verdict::machine_differs;
      r.note = "not confirmed: not measured on this machine; " + r.note;
      ++n;
    }
    if (r.energy && r.energy->v == energy_verdict::unconfirmed) {
      r.energy->v = energy_verdict::machine_differs;
      r.energy->note = "not confirmed: not measured on this machine; " + r.energy->note;
      ++n;
    }
  }
  c.header_notes.push_back(fmt::format("{}: {} flag(s) the machine's", how, n));
}

/// The revision a results file records, where it can name one: a full commit hash (a symbolic name or a short
/// hash would name whatever it points at now); input_error otherwise.
const std::string& recorded_revision(const run_result& r, std::size_t flags) {
  const std::string& rev = r.settings.git_revision;
  if (rev.empty() || rev == unknown_revision)
    throw input_error(fmt::format("{}: records no git revision, so its {} unconfirmed flag(s) cannot be measured here",
                                  r.source, flags));
  if (!is_commit_hash(rev))
    throw input_error(
        fmt::format("{}: its git_revision '{}' is not a full commit hash, so its {} unconfirmed flag(s) "
                    "cannot be measured here",
                    r.source, printable(rev, 64), flags));
  return rev;
}

/// The revisions of both runs, each a commit of `repo` (input_error where one is not).
std::pair<std::string, std::string> recorded_commits(const run_result& base, const run_result& cur, std::size_t flags) {
  const std::string &good = recorded_revision(base, flags), &bad = recorded_revision(cur, flags);
  const git_repo repo(std::filesystem::current_path().string());
  for (const auto& [r, rev] : {std::pair{&base, &good}, std::pair{&cur, &bad}})
    if (!repo.has_commit(*rev))
      throw input_error(fmt::format("{}: its git_revision {} is not a commit of {}", r->source, *rev, repo.top()));
  return {good, bad};
}

/// An unconfirmed energy flag that `confirm` measures: only where energy gates the comparison (--gate-energy).
bool held_energy(const case_comparison& r, const compare_settings& s) {
  return s.energy.gating && r.energy && r.energy->v == energy_verdict::unconfirmed;
}

/// The cases `confirm` measures: those whose time flag is unconfirmed, and with --gate-energy those whose energy
/// flag is.
std::vector<std::string> held_flags(const comparison& c) {
  std::vector<std::string> names;
  for (const case_comparison& r : c.cases)
    if (r.v == verdict::unconfirmed || held_energy(r, c.settings)) names.push_back(r.name);
  return names;
}

/// The processes a revision: --processes, and where an energy flag is among those measured at least as many as
/// the energy's rank test needs to flag at alpha (a case gets one energy window a process): 5 at 0.01.
int processes_for(const comparison& c, int processes) {
  const bool energy =
      std::any_of(c.cases.begin(), c.cases.end(), [&](const case_comparison& r) { return held_energy(r, c.settings); });
  return energy ? std::max(processes, int(energy_windows_to_flag(c.settings.alpha))) : processes;
}

/// Builds and measures `names` at both revisions on this machine (bisect --ends), and compares the two.
comparison measure_here(const cli::confirm_request& o, const std::vector<std::string>& binary_args,
                        const std::string& good, const std::string& bad, const std::vector<std::string>& names,
                        const compare_settings& s, int processes) {
  const temp_directory ends("cudabench-confirm");
  const ends_request pair{.how = o,
                          .compare = o,
                          .good = good,
                          .bad = bad,
                          .cases = names,
                          .processes = processes,
                          .dir = ends.path(),
                          .binary_args = binary_args};
  if (const int status = bisect_ends(pair); status != 0) {
    if (const int sig = interrupt_signal().load()) throw measuring_stopped{sig};
    throw input_error(fmt::format("the two revisions could not be measured here (bisect exit {})", status));
  }
  const run_result a = load_run(ends.path() + "/good.json"), b2 = load_run(ends.path() + "/bad.json");
  compare_settings one = s;  // the gates of this machine's model and preset, whose drift within one machine applies
  one.gates = run_store::gates_for(s, a, b2);
  return compare_runs(a, b2, one);
}
}  // namespace

std::vector<std::string> process_arguments(const comparison& c, std::vector<std::string> args) {
  const bool time_held =
      std::any_of(c.cases.begin(), c.cases.end(), [](const case_comparison& r) { return r.v == verdict::unconfirmed; });
  const bool energy_held =
      std::any_of(c.cases.begin(), c.cases.end(), [&](const case_comparison& r) { return held_energy(r, c.settings); });
  const auto given = [&](const std::string& option) {
    return std::any_of(args.begin(), args.end(), [&](const std::string& a) { return a.rfind(option, 0) == 0; });
  };
  const bool rounds_set = given("--rounds"), window_set = given("--energy-window");
  if (energy_held && !time_held && !rounds_set) args.push_back("--rounds=1");
  if (energy_held && !window_set) args.push_back(fmt::format("--energy-window={:g}", confirm_energy_window_s));
  return args;
}

std::string exact_filter(const std::vector<std::string>& names) {
  std::map<std::string, std::vector<std::string>> by_prefix;
  for (const std::string& n : names) {
    const auto slash = n.rfind('/');
    by_prefix[slash == std::string::npos ? "" : n.substr(0, slash + 1)].push_back(
        slash == std::string::npos ? n : n.substr(slash + 1));
  }
  std::string out;
  for (const auto& [prefix, lasts] : by_prefix) {
    std::string alternatives;
    for (const std::string& l : lasts) alternatives += (alternatives.empty() ? "" : "|") + regex_escaped(l);
    out +=
        (out.empty() ? "" : "|") + regex_escaped(prefix) + (lasts.size() > 1 ? "(" + alternatives + ")" : alternatives);
  }
  return "^(" + out + ")$";
}

namespace {
int confirm_command(const cli::confirm_request& r);
}  // namespace

int confirm_handler(const cli::confirm_request& r) {
  try {
    return confirm_command(r);
  } catch (const measuring_stopped& s) {  // the outputs are written after the measuring, so none was replaced
    fmt::print(stderr, "{} confirm: interrupted by {}; no output was replaced\n", cli::program_name(),
               signal_name(s.signal));
    return 128 + s.signal;
  }
}

namespace {
/// confirm_handler's work, which a stop signal while measuring ends by measuring_stopped.
int confirm_command(const cli::confirm_request& o) {
  refuse_standard_input_twice(o.inputs);
  const output_list outputs = report_outputs(o, "--verdict");
  outputs.check(files_read(o, o.inputs, o.inputs[0]));
  const run_result base = load_run(o.inputs[0]);
  const run_result cur = load_run(o.inputs[1]);
  compare_settings s = compare_settings_from(o);
  s.gates = run_store::gates_for(s, base, cur);
  // The measurements here run the baseline's preset on the flagged cases only.
  std::vector<std::string> binary_args = o.binary_args;
  if (!base.settings.preset.empty()) binary_args.insert(binary_args.begin(), "--preset=" + base.settings.preset);
  return compare_and_report(base, cur, s, outputs, nullptr, [&](comparison& c) {
    const std::vector<std::string> names = held_flags(c);
    if (names.empty()) return;
    const auto [good, bad] = recorded_commits(base, cur, names.size());
    if (base.settings.git_dirty || cur.settings.git_dirty) {  // no commit holds the code a dirty tree ran
      c.header_notes.push_back(fmt::format(
          "{} unconfirmed flag(s) not measured: the {} run's tree was dirty, so no commit holds the code it ran",
          names.size(), base.settings.git_dirty ? "baseline" : "current"));
      return;
    }
    if (good == bad) {
      settle_as_machine(c,
                        fmt::format("both runs are of revision {} (clean): the code is the same", good.substr(0, 12)));
      return;
    }
    fmt::print(stderr, "confirm: {} unconfirmed flag(s); measuring revisions {} and {} on this machine\n", names.size(),
               good.substr(0, 12), bad.substr(0, 12));
    const auto start = std::chrono::steady_clock::now();
    const int processes = processes_for(c, o.processes);
    const comparison here = measure_here(o, process_arguments(c, binary_args), good, bad, names, s, processes);
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    settle_flags(c, here,
                 fmt::format("confirmed on this machine in {:.0f} s ({} and {}, {} alternating processes each)", spent,
                             good.substr(0, 12), bad.substr(0, 12), processes));
  });
}

}  // namespace

}  // namespace cudabench::app

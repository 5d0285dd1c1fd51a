// confirm: unconfirmed flags measured again with both revisions on this machine.
#include "app/confirm.hpp"

#include <fmt/format.h>

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
#include "results/results.hpp"
#include "results/run_info.hpp"

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

/// What measuring both revisions on this machine said of each flagged case.
struct settled {
  std::map<std::string, const case_comparison*> by_name;
  comparison here;
};

/// What the measurement on this machine makes of a held flag: the same flag confirms it; the opposite flag is
/// what the code did (reported as it is, never as confirmed); a case it could not judge (inconclusive, measured
/// throttled, not measured) stays unconfirmed; unchanged makes the flag the machine's.
enum class outcome { confirmed, opposite, unsettled, machine };

outcome settle_one(case_comparison& r, const case_comparison* here) {
  const std::string measured =
      here && here->base_median_s > 0 && here->cur_median_s > 0
          ? fmt::format("{:+.1f}% on this machine ({}, {})", 100 * here->change, here->verdict_text(), here->method)
          : std::string("not measured on this machine");
  const std::string held = r.held ? to_string(*r.held) : "a flag";
  if (here && is_flag(here->v) && r.held == here->v) {
    r.v = here->v;
    r.note = fmt::format("confirmed: {}; {}", measured, r.note);
    return outcome::confirmed;
  }
  if (here && is_flag(here->v)) {
    r.v = here->v;
    r.note = fmt::format("not confirmed, the opposite: {} where the runs of two machines said {} ({:+.1f}%); {}",
                         measured, held, 100 * r.judged_change(), r.note);
    return outcome::opposite;
  }
  if (!here || here->v != verdict::unchanged) {
    r.note = fmt::format("not settled: {}; {}", measured, r.note);
    return outcome::unsettled;
  }
  r.v = verdict::machine_differs;
  r.note = fmt::format("not confirmed: {}; {}", measured, r.note);
  return outcome::machine;
}

/// Each held flag settled by the same-machine comparison (settle_one).
void settle(comparison& c, const settled& s, const std::string& how) {
  std::map<outcome, std::size_t> n;
  for (case_comparison& r : c.cases) {
    if (r.v != verdict::unconfirmed) continue;
    const auto it = s.by_name.find(r.name);
    ++n[settle_one(r, it == s.by_name.end() ? nullptr : it->second)];
  }
  c.header_notes.push_back(fmt::format("{}: {} flag(s) confirmed, {} the opposite, {} the machine's, {} not settled",
                                       how, n[outcome::confirmed], n[outcome::opposite], n[outcome::machine],
                                       n[outcome::unsettled]));
}

/// Each held flag the machine's, with nothing measured: both runs are of one clean revision.
void settle_as_machine(comparison& c, const std::string& how) {
  std::size_t n = 0;
  for (case_comparison& r : c.cases)
    if (r.v == verdict::unconfirmed) {
      r.v = verdict::machine_differs;
      r.note = "not confirmed: not measured on this machine; " + r.note;
      ++n;
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

std::vector<std::string> held_flags(const comparison& c) {
  std::vector<std::string> names;
  for (const case_comparison& r : c.cases)
    if (r.v == verdict::unconfirmed) names.push_back(r.name);
  return names;
}

/// Builds and measures `names` at both revisions on this machine (bisect --ends), and compares the two.
settled measure_here(const command_options& o, const std::vector<std::string>& binary_args, const std::string& good,
                     const std::string& bad, const std::vector<std::string>& names, const compare_settings& s) {
  const temp_directory ends("cudabench-confirm");
  command_options b = o;
  b.good = good;
  b.bad = bad;
  b.filter = exact_filter(names);
  b.filter_given = true;
  b.ends_dir = ends.path();
  b.json_path.reset();
  b.md_path.reset();
  b.html_path.reset();
  b.csv_path.reset();
  b.verdict_path.reset();
  if (const int status = bisect_command(b, binary_args); status != 0) {
    if (const int sig = interrupt_signal().load()) throw measuring_stopped{sig};
    throw input_error(fmt::format("the two revisions could not be measured here (bisect exit {})", status));
  }
  settled out;
  const run_result a = load_run(ends.path() + "/good.json"), b2 = load_run(ends.path() + "/bad.json");
  compare_settings one = s;  // the gates of this machine's model and preset, whose drift within one machine applies
  one.gates = run_store::gates_for(s, a, b2);
  out.here = compare_runs(a, b2, one);
  for (const case_comparison& r : out.here.cases) out.by_name[r.name] = &r;
  return out;
}
}  // namespace

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
int confirm_command(const command_line& cl);
}  // namespace

int confirm_handler(const command_line& cl) {
  try {
    return confirm_command(cl);
  } catch (const measuring_stopped& s) {  // the outputs are written after the measuring, so none was replaced
    fmt::print(stderr, "{} confirm: interrupted by {}; no output was replaced\n", program_name(),
               signal_name(s.signal));
    return 128 + s.signal;
  }
}

namespace {
/// confirm_handler's work, which a stop signal while measuring ends by measuring_stopped.
int confirm_command(const command_line& cl) {
  refuse_standard_input_twice(cl.inputs);
  const command_options& o = cl.options;
  const output_list outputs = report_outputs(o, "--verdict");
  outputs.check(files_read(o, cl.inputs, cl.inputs[0]));
  const run_result base = load_run(cl.inputs[0]);
  const run_result cur = load_run(cl.inputs[1]);
  compare_settings s = compare_settings_from(o);
  s.gates = run_store::gates_for(s, base, cur);
  // The measurements here run the baseline's preset on the flagged cases only.
  std::vector<std::string> binary_args = cl.passed;
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
    const settled here = measure_here(o, binary_args, good, bad, names, s);
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    settle(c, here,
           fmt::format("confirmed on this machine in {:.0f} s ({} and {}, {} alternating processes each)", spent,
                       good.substr(0, 12), bad.substr(0, 12), o.processes));
  });
}

}  // namespace

}  // namespace cudabench::app

// Verdicts: Mann-Whitney U at alpha AND a median shift of at least the threshold; threshold alone with one sample.
#include "analysis/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "analysis/baseline_age.hpp"
#include "analysis/compare_steps.hpp"
#include "analysis/normalize.hpp"
#include "cudabench/limit_names.hpp"
#include "io/errors.hpp"
#include "results/build_info.hpp"
#include "results/stats.hpp"

namespace cudabench {
using namespace comparing;

const char* to_string(verdict v) {
  switch (v) {
    case verdict::regression: return "regression";
    case verdict::improvement: return "improvement";
    case verdict::unchanged: return "unchanged";
    case verdict::inconclusive: return "inconclusive";
    case verdict::not_gated: return "not gated";
    case verdict::unconfirmed: return "unconfirmed";
    case verdict::same_code: return "machine differs (same code)";
    case verdict::machine_differs: return "machine differs";
    case verdict::new_case: return "new";
    case verdict::missing: return "missing";
    case verdict::failed: return "failed";
    case verdict::skipped: return "skipped";
  }
  return "?";
}

std::string case_comparison::gate_origin() const {
  if (!(gate > 0) || std::isinf(gate)) return "";
  return gate_runs > 0 ? fmt::format("learned ({} runs)", gate_runs) : "default";
}

std::size_t comparison::lost() const {
  std::size_t n = 0;
  for (auto& c : cases) n += c.lost;
  return n;
}

std::size_t comparison::throttled() const {
  std::size_t n = 0;
  for (auto& c : cases) n += c.throttled;
  return n;
}

std::size_t comparison::count(verdict v) const {
  std::size_t n = 0;
  for (auto& c : cases) n += c.v == v;
  return n;
}

std::size_t comparison::count(energy_verdict v) const {
  std::size_t n = 0;
  for (auto& c : cases) n += c.energy && c.energy->v == v;
  return n;
}

namespace {

/// Tests a gated, testable case's change, setting its gate, p-value and method; returns the smallest change the
/// test would find. With rounds the samples are the rounds (fresh processes), which the method says.
double test_change(const case_result& b, const case_result& c, const learned_gate* learned, double class_threshold,
                   const compare_settings& s, case_comparison& r) {
  const auto unit = [](const case_result& side, std::size_t n) {
    return fmt::format("{} {}", n, side.rounds > 1 ? "rounds" : "repetitions");
  };
  const std::string units =
      b.rounds > 1 || c.rounds > 1 ? fmt::format(" ({} vs {})", unit(b, r.base_n), unit(c, r.cur_n)) : "";
  if (learned) {
    // A learned gate comes with the spread of the change between two runs' medians over the case's history
    // (processes, boards, nights): the medians are tested against that spread, widened where this pair's own
    // samples say their medians are less certain. One slow round of five moves neither, where it would hold
    // a rank test of five rounds a side above alpha.
    r.gate = learned->gate;
    const double spread =
        std::max(learned->drift, std::hypot(median_log_stderr(b.samples_s), median_log_stderr(c.samples_s)));
    r.p_value = spread > 0 ? normal_p_value(std::log1p(r.change) / spread) : (r.change == 0 ? 1.0 : 0.0);
    r.method = fmt::format("medians vs drift of {} runs{}", learned->runs, units);
    return std::expm1(normal_critical(s.alpha) * spread);
  }
  // The noise floor stands in for the spread between runs where none was learned.
  r.gate = std::max(class_threshold, s.noise_floor * std::max(robust_cv(b.samples_s), robust_cv(c.samples_s)));
  r.p_value = mann_whitney(b.samples_s, c.samples_s).p_value;
  r.method = "rank test" + units;
  return min_detectable_change(b.samples_s, c.samples_s, s.alpha);
}

/// Whether the runs a comparison pairs are of one machine, as a case's learned gate needs: one board (device
/// gates), and one host with it (host gates).
struct pair_machine {
  bool same_board = false, same_host = false;
  /// Either run spread its cases over rounds: a case it measured in one of them was kept there on purpose
  /// (host-bound, not gated: --rounds-for), so its repetitions show nothing of the drift between processes.
  bool rounds = false;
};

/// The learned gate of case `c` for this pair of runs: a device case's (its same-board gate for two runs of one
/// board), a host-bound case's same-machine gate where both runs are of its machine; none otherwise.
std::optional<learned_gate> gate_for(const case_result& c, bool host, const compare_settings& s, pair_machine m) {
  const learned_gate* found = s.gates ? s.gates->find(c.name) : nullptr;
  if (!found || found->host != host) return std::nullopt;
  if (host && !(m.same_host && found->same_board_gate > 0)) return std::nullopt;
  return found->for_pair(host || m.same_board);
}

/// Both sides' samples are medians of three or more fresh processes each (rounds), so the spread between
/// processes can be read from them.
bool samples_are_processes(const case_result& b, const case_result& c) {
  return b.rounds >= 2 && c.rounds >= 2 && b.samples_s.size() >= 3 && c.samples_s.size() >= 3 && !b.aggregates_only &&
         !c.aggregates_only;
}

/// The self-calibrated test of two sides measured on one machine, each sample a process's median, where no
/// learned gate applies: the change of the medians against their own robust standard error (the spread between
/// the processes, MAD-based), at Student's t for the processes measured, and the rank test beside it; both must
/// be significant. The gate is the practical floor. Returns the smallest change the pair could have flagged.
double self_calibrated_test(const case_result& b, const case_result& c, const compare_settings& s, case_comparison& r) {
  const double se = std::hypot(median_log_stderr(b.samples_s), median_log_stderr(c.samples_s));
  const double t = student_critical(s.alpha, double(b.samples_s.size() + c.samples_s.size() - 2));
  const double d = std::log1p(r.change);
  // The medians' p-value on the normal scale, stretched so that it reaches alpha where d reaches t x se.
  const double p_medians = se > 0 ? normal_p_value(d / se * normal_critical(s.alpha) / t) : (d == 0 ? 1.0 : 0.0);
  r.p_value = std::max(p_medians, mann_whitney(b.samples_s, c.samples_s).p_value);
  r.gate = s.practical_floor;
  r.self_calibrated = true;
  r.method = fmt::format("self-calibrated: medians of {} vs {} processes", b.samples_s.size(), c.samples_s.size());
  return std::max(std::expm1(t * se), min_detectable_change(b.samples_s, c.samples_s, s.alpha));
}

/// The verdict of a tested case from its change, its p-value, its gate and what its test could detect.
void decide(case_comparison& r, double class_threshold, double test_detects, double alpha) {
  r.detectable = std::max(r.gate, test_detects);
  const bool significant = *r.p_value < alpha;
  if (significant && r.change >= r.gate)
    r.v = verdict::regression;
  else if (significant && r.change <= -r.gate)
    r.v = verdict::improvement;
  else if (std::fabs(r.change) >= class_threshold || test_detects > class_threshold || r.gate > class_threshold) {
    // Either a large shift the test cannot confirm, or noise too high to resolve a change of the threshold.
    r.v = verdict::inconclusive;
    r.note = std::fabs(r.change) >= r.gate ? "shift above the gate but not significant"
             : r.gate > class_threshold
                 ? fmt::format("noise floor {:.1f}% above the {} gate", 100 * r.gate, pct(class_threshold))
                 : fmt::format("too noisy to detect a {} change", pct(class_threshold));
  } else
    r.v = verdict::unchanged;
}

/// A case reported apart, never tested: declared not gated, or host-bound where nothing gates it.
void not_gated(case_comparison& r, bool declared) {
  r.method = declared ? "not gated" : "host-bound: not gated";
  r.detectable = std::numeric_limits<double>::quiet_NaN();
  r.gate = std::numeric_limits<double>::infinity();
  r.v = verdict::not_gated;
  r.note = declared ? "the case is declared not gated"
                    : "host-bound case; --host-threshold gates it, as does a host gate learned for it where both "
                      "runs are of one host, or a comparison of two runs of one machine";
}

/// Fills in what both sides measured (medians, change, samples, spread); false where a side failed or was
/// skipped (the verdict says which).
bool measured_sides(const case_result& b, const case_result& c, case_comparison& r) {
  r.base_code = b.code ? b.code->digest : "";
  r.cur_code = c.code ? c.code->digest : "";
  if (c.status == case_status::failed || b.status == case_status::failed) {
    r.v = verdict::failed;
    r.note = c.status == case_status::failed ? "current: " + c.message : "baseline: " + b.message;
    r.lost = c.status == case_status::failed && b.status != case_status::failed;
    return false;
  }
  if (c.status == case_status::skipped || b.status == case_status::skipped) {
    r.v = verdict::skipped;
    r.note = c.status == case_status::skipped ? "current: " + c.message : "baseline: " + b.message;
    return false;
  }
  r.base_median_s = b.median_s;
  r.cur_median_s = c.median_s;
  r.change = c.median_s / b.median_s - 1;
  r.base_samples_s = b.samples_s;
  r.cur_samples_s = c.samples_s;
  r.base_n = b.samples_s.size();
  r.cur_n = c.samples_s.size();
  // The spread of the repetitions: undefined (shown as "-") with a single repetition a side.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  r.base_noise = r.base_n >= 2 ? summarize(b.samples_s).cv() : nan;
  r.cur_noise = r.cur_n >= 2 ? summarize(c.samples_s).cv() : nan;
  return true;
}

case_comparison compare_case(const case_result& b, const case_result& c, const compare_settings& s, pair_machine m) {
  case_comparison r;
  r.name = c.name;
  r.family = c.family;
  if (!measured_sides(b, c, r)) return r;
  const bool host = b.host_bound || c.host_bound;
  const bool testable = r.base_n >= 2 && r.cur_n >= 2 && !b.aggregates_only && !c.aggregates_only;
  // On one machine the spread between the case's own processes judges it (self-calibrated), unless a gate of one
  // board was learned for it: a gate learned across boards holds their offsets, which one machine has none of.
  const bool processes = m.same_host && c.family != limits_family && samples_are_processes(b, c);
  std::optional<learned_gate> pair_gate = gate_for(c, host, s, m);
  if (pair_gate && processes && !(m.same_board && pair_gate->same_board_gate > 0)) pair_gate.reset();
  const learned_gate* learned = pair_gate ? &*pair_gate : nullptr;
  // Reported, never gating: a case declared not gated (its time moves between processes with nothing changed),
  // or a host-bound one (host timings drift far beyond any threshold across machines) unless --host-threshold,
  // a same-machine gate learned for it, or both runs of one machine gate it (where a test can run: one sample a
  // side of a host case says nothing of its spread).
  // On one machine, one process a side judges a host case only in runs without rounds (an adopter's plain
  // benchmark); a run with rounds kept it to its first round, and host cases moved by up to 47% between processes.
  const bool one_machine_test = m.same_host && testable && (!m.rounds || samples_are_processes(b, c));
  const bool host_gated = s.host_threshold.has_value() || (host && learned) || one_machine_test;
  if (!judged_case(b, host_gated) || !judged_case(c, host_gated)) {
    not_gated(r, !b.gated || !c.gated);
    return r;
  }
  // The limits keep their gates: their change says whether the machine is the same one.
  const bool self = !learned && processes;
  const double host_class = s.host_threshold.value_or(s.one_machine_host_threshold);
  const double class_threshold = learned ? learned->gate : self ? s.practical_floor : host ? host_class : s.threshold;
  r.gate_runs = learned ? learned->runs : 0;
  if (!testable) {
    r.method = b.aggregates_only || c.aggregates_only ? "threshold only (aggregates only: no rank test)"
                                                      : "threshold only (1 sample a side)";
    r.detectable = std::numeric_limits<double>::quiet_NaN();
    r.gate = class_threshold;
    r.v = r.change >= r.gate ? verdict::regression : r.change <= -r.gate ? verdict::improvement : verdict::unchanged;
    if (host && class_threshold != s.threshold) r.note = fmt::format("host-bound: gate {}", pct(r.gate));
    return r;
  }
  const double test_detects =
      self ? self_calibrated_test(b, c, s, r) : test_change(b, c, learned, class_threshold, s, r);
  decide(r, class_threshold, test_detects, s.alpha);
  if (host && learned && r.note.empty())
    r.note = fmt::format("host-bound: the same-machine gate {}", pct(r.gate));
  else if (host && !self && class_threshold > s.threshold && r.note.empty())
    r.note = fmt::format("host-bound: gate {}", pct(r.gate));
  return r;
}

/// A cache state's sample overhead in both runs: the limits case that measured it, its median in each run.
struct sample_overhead {
  std::string name;
  double base_s = 0, cur_s = 0;
};

/// The rates of the limits that stand for each run's machine and the runs' sample overheads (normalize.hpp),
/// read once per comparison.
struct machine_controls {
  std::map<std::string, double> base, cur;
  pair_machine machine;
  std::map<std::string, sample_overhead> overheads;  ///< by cache state
};

/// Each cache state's sample overhead in both runs, where both measured it and the runs are of two machines:
/// on one machine the overhead is the same on both sides, and taking out two noisy medians would only add noise.
std::map<std::string, sample_overhead> overheads_of(const run_result& base, const run_result& cur, pair_machine m) {
  std::map<std::string, sample_overhead> out;
  if (m.same_board && m.same_host) return out;
  for (const char* cache : {"cold", "hot"}) {
    const auto b = sample_overhead_s(base, cache), c = sample_overhead_s(cur, cache);
    if (b && c) out[cache] = {sample_overhead_case(cache), *b, *c};
  }
  return out;
}

/// The sample overhead that applies to case `c`, timed as it was measured (else as declared): a device case of
/// another family, not host-bound, whose medians on both sides exceed their run's overhead.
std::optional<sample_overhead> overhead_for(const case_result& b, const case_result& c, const machine_controls& m) {
  if (!c.on_gpu || c.host_bound || c.family == limits_family) return std::nullopt;
  const auto it = m.overheads.find(c.cache.empty() ? c.declared_cache : c.cache);
  if (it == m.overheads.end() || !(b.median_s > it->second.base_s && c.median_s > it->second.cur_s))
    return std::nullopt;
  return it->second;
}

/// Compares a case on its control's scale where both runs measured the control: the current times are
/// multiplied by the control's rate change, so the test and the gate judge what the board does not explain;
/// the measured change is kept beside it. Elsewhere the case is compared as measured, and across boards a
/// change of a case that has a control is held back as `inconclusive`: its normalized gate leaves out the
/// boards' offsets, which its measured change still holds. The limits measure the machine: their change is
/// the board's, never the code's.
case_comparison compare_on_control(const case_result& b, const case_result& c, const compare_settings& s,
                                   const machine_controls& m) {
  const auto base_rate = control_rate(c, m.base), cur_rate = control_rate(c, m.cur);
  const bool both_ok = b.status == case_status::ok && c.status == case_status::ok && b.median_s > 0 && c.median_s > 0;
  const bool rates = base_rate && cur_rate;
  const auto overhead = both_ok ? overhead_for(b, c, m) : std::nullopt;
  if (!both_ok || (!rates && (!overhead || !control_limits(c).empty()))) {
    case_comparison r = compare_case(b, c, s, m.machine);
    const bool flagged = r.v == verdict::regression || r.v == verdict::improvement;
    if (c.family == limits_family && flagged) {
      r.v = verdict::machine_differs;
      r.note += (r.note.empty() ? "" : "; ") + std::string("a limit of the machine: reported, never failing");
    } else if (flagged && both_ok && !control_limits(c).empty() && !m.machine.same_board && r.gate_runs > 0 &&
               s.gates && s.gates->normalized) {
      r.v = verdict::inconclusive;
      r.note +=
          (r.note.empty() ? "" : "; ") +
          std::string(
              "its control was not measured in both runs: across boards its change cannot be told from the board's");
    }
    return r;
  }
  // On the baseline's scale: the current sample's own work (less its run's overhead) at the control's rate
  // change, plus the baseline's overhead.
  const double factor = rates ? *cur_rate / *base_rate : 1.0;
  const double base_overhead = overhead ? overhead->base_s : 0.0, cur_overhead = overhead ? overhead->cur_s : 0.0;
  auto on_base_scale = [&](double x) { return (x - cur_overhead) * factor + base_overhead; };
  case_result scaled = c;
  for (double& x : scaled.samples_s) x = on_base_scale(x);
  scaled.median_s = on_base_scale(scaled.median_s);
  case_comparison r = compare_case(b, scaled, s, m.machine);
  r.normalized_change = r.change;
  r.cur_median_s = c.median_s;
  r.cur_samples_s = c.samples_s;
  r.change = c.median_s / b.median_s - 1;
  r.control = rates ? control_name(c) : "";
  if (overhead) r.control += (r.control.empty() ? "" : "+") + overhead->name;
  r.control_change = factor - 1;
  std::string what;
  if (std::fabs(factor - 1) >= 0.0005) what = fmt::format("board: {} {:+.1f}%", control_name(c), 100 * (factor - 1));
  if (overhead && std::fabs(cur_overhead - base_overhead) >= 0.005e-6)
    what += fmt::format("{}sample overhead {:+.2f} us ({})", what.empty() ? "" : ", ",
                        1e6 * (cur_overhead - base_overhead), overhead->name);
  if (!what.empty())
    r.note += fmt::format("{}{}; normalized {:+.1f}%", r.note.empty() ? "" : "; ", what, 100 * *r.normalized_change);
  return r;
}
}  // namespace

namespace {
/// The case's energy verdict; and a time regression or improvement held back as inconclusive where most of
/// either side's samples were taken throttled.
void judge_energy_and_throttling(const case_result& b, const case_result& c, const compare_settings& s,
                                 case_comparison& r) {
  r.energy = compare_energy(b, c, s.energy, s.noise_floor, s.alpha);
  if (r.v == verdict::not_gated && r.energy) not_gated_energy(*r.energy);
  if (r.v != verdict::regression && r.v != verdict::improvement) return;
  const double share = std::max(throttled_share(b), throttled_share(c));
  if (share <= s.energy.throttled_share) return;
  r.v = verdict::inconclusive;
  r.throttled = true;
  r.note += fmt::format("{}{:.0f}% of a side's samples were taken while the GPU was throttled",
                        r.note.empty() ? "" : "; ", 100 * share);
}

/// Says how many timed samples of each run were taken throttled, where any were.
void note_throttling(const run_result& base, const run_result& cur, comparison& out) {
  for (const auto& [side, run] : {std::pair{"baseline", &base}, std::pair{"current", &cur}}) {
    std::size_t flagged = 0, kept = 0, mostly = 0;
    for (const case_result& c : run->cases) {
      std::size_t f = 0, k = 0;
      mostly += throttled_share(c, &f, &k) > out.settings.energy.throttled_share;
      flagged += f;
      kept += k;
    }
    if (flagged)
      out.header_notes.push_back(
          fmt::format("{}: {} of {} timed samples were taken while the GPU was throttled ({} case(s) mostly)", side,
                      flagged, kept, mostly));
  }
}
}  // namespace

bool timeline_change::notable() const {
  if (metric.size() > 9 && metric.compare(metric.size() - 9, 9, "_fraction") == 0) return std::fabs(cur - base) >= 0.1;
  if (metric == "copy_compute_overlap") return std::fabs(cur - base) >= 0.1;
  if (metric == "kernel_launches" || metric == "device_ops") return cur != base;
  const double scale = std::max(std::fabs(base), std::fabs(cur)), moved = std::fabs(cur - base);
  const bool us = metric.size() > 3 && metric.compare(metric.size() - 3, 3, "_us") == 0;
  return scale > 0 && moved >= 0.1 * scale && (!us || moved >= 5);  // a few microseconds of gap is jitter
}

std::string preset_mismatch(const std::string& base, const std::string& cur) {
  if (base.empty() || cur.empty() || base == cur) return {};
  return fmt::format("different presets ('{}' vs '{}': their sizes and repetitions differ)", base, cur);
}

bool judged_case(const case_meta& c, bool host_gated) { return c.gated && (!c.host_bound || host_gated); }

namespace {
/// No machine fact recorded by both runs differs.
bool machine_facts_agree(const run_result& base, const run_result& cur) {
  return !base.device || !cur.device || !base.device->machine || !cur.device->machine ||
         machine_differences(*base.device->machine, *cur.device->machine).empty();
}
}  // namespace

bool one_host(const run_result& base, const run_result& cur) {
  const std::string bu = base.device ? base.device->uuid : "", cu = cur.device ? cur.device->uuid : "";
  if (base.settings.host_name.empty() || base.settings.host_name != cur.settings.host_name || bu != cu) return false;
  return machine_facts_agree(base, cur);
}

bool one_machine(const run_result& base, const run_result& cur) {
  if (!base.device || !cur.device || base.device->uuid.empty() || base.device->uuid != cur.device->uuid) return false;
  if (!machine_facts_agree(base, cur)) return false;
  return base.settings.host_name.empty() || cur.settings.host_name.empty() ||
         base.settings.host_name == cur.settings.host_name;
}

namespace {
/// A case of the current run that the baseline does not hold.
case_comparison new_case(const case_result& c) {
  case_comparison r;
  r.name = c.name;
  r.family = c.family;
  r.v = verdict::new_case;
  r.cur_median_s = c.median_s;
  return r;
}

/// Where a case's inputs differ from the baseline's (its bytes, its L2 state), it is another case: new, and the
/// baseline's missing. Says whether they differ.
bool new_inputs(const case_result& b, const case_result& c, comparison& out) {
  const bool bytes_differ = b.bytes > 0 && c.bytes > 0 && b.bytes != c.bytes;
  const bool cache_differs = !b.cache.empty() && !c.cache.empty() && b.cache != c.cache;
  if (!bytes_differ && !cache_differs) return false;
  case_comparison r = new_case(c);
  r.note = bytes_differ ? fmt::format("inputs differ from the baseline ({:.0f} vs {:.0f} bytes)", c.bytes, b.bytes)
                        : fmt::format("L2 state differs from the baseline ({} vs {})", c.cache, b.cache);
  out.cases.push_back(r);
  r.v = verdict::missing;
  r.base_median_s = b.median_s;
  r.cur_median_s = 0;
  out.cases.push_back(r);
  return true;
}

/// A case of the baseline that the current run lacks: missing, and lost where the current run selected it and it
/// passed in the baseline.
case_comparison missing_case(const case_result& b, const run_result& cur) {
  case_comparison r;
  r.name = b.name;
  r.family = b.family;
  r.v = verdict::missing;
  r.base_median_s = b.median_s;
  const bool excluded = cur.lists_selection && !cur.selected.count(b.name);
  r.lost = !excluded && b.status == case_status::ok;
  r.note = excluded ? "not selected by the current run" : "no result in the current run";
  return r;
}

/// The header's notes of the cases that could not be judged (throttled) and of those lost.
void note_unjudged_and_lost(comparison& out) {
  if (const std::size_t n = out.throttled())
    out.header_notes.push_back(fmt::format(
        "{} case(s) could not be judged: most samples of a side were taken while the GPU was throttled (exit status "
        "{} unless something fails; measure them again with the GPU cool)",
        n, exit_unconfirmed));
  if (const std::size_t n = out.lost())
    out.header_notes.push_back(fmt::format(
        "{} case(s) lost: failed their check now, or missing although selected (this fails the comparison)", n));
}
}  // namespace

comparison compare_runs(const run_result& base, const run_result& cur, const compare_settings& s) {
  comparison out;
  out.base_source = base.source;
  out.cur_source = cur.source;
  out.base_device = device_label(base);
  out.cur_device = device_label(cur);
  out.settings = s;
  check_devices(base, cur, out, s.allow_device_mismatch);
  check_machines(base, cur, out);
  check_mismatch(build_mismatch(base, cur), base, cur, out, s.allow_build_mismatch, "--allow-build-mismatch");
  check_mismatch(preset_mismatch(base.settings.preset, cur.settings.preset), base, cur, out, s.allow_preset_mismatch,
                 "--allow-preset-mismatch");
  if (s.gates) check_gates(*s.gates, cur, out, s.allow_device_mismatch);
  const pair_machine machine{out.same_board, one_host(base, cur), base.settings.rounds > 1 || cur.settings.rounds > 1};
  machine_controls controls{control_rates(base), control_rates(cur), machine, overheads_of(base, cur, machine)};
  note_run_settings(base, cur, out);

  std::map<std::string, std::vector<double>> log_ratios, log_ratios_not_gated;
  for (const case_result& c : cur.cases) {
    const case_result* b = base.find(c.name);
    if (!b) {
      out.cases.push_back(new_case(c));
      continue;
    }
    if (new_inputs(*b, c, out)) continue;
    case_comparison r = compare_on_control(*b, c, s, controls);
    if (r.code_changed())
      r.note += (r.note.empty() ? "" : "; ") + fmt::format("device code changed ({} -> {})", r.base_code, r.cur_code);
    judge_energy_and_throttling(*b, c, s, r);
    if (!b->label.empty() && !c.label.empty() && b->label != c.label)
      r.note += (r.note.empty() ? "" : "; ") + fmt::format("label changed: '{}' -> '{}'", b->label, c.label);
    if (r.base_median_s > 0 && r.cur_median_s > 0)
      (r.v == verdict::not_gated ? log_ratios_not_gated : log_ratios)[r.family].push_back(
          std::log(r.cur_median_s / r.base_median_s));
    for (const auto& [metric, value] : c.timeline_metrics)
      if (auto it = b->timeline_metrics.find(metric); it != b->timeline_metrics.end())
        r.timeline.push_back({metric, it->second, value});
    out.cases.push_back(std::move(r));
  }
  for (const case_result& b : base.cases)
    if (!cur.find(b.name)) out.cases.push_back(missing_case(b, cur));
  note_unnormalized(cur, out);
  hold_chance_flags(out);
  hold_flags_of_other_machines(out);
  note_throttling(base, cur, out);
  note_unjudged_and_lost(out);
  for (const auto& [ratios, into] :
       {std::pair{&log_ratios, &out.family_geomean}, std::pair{&log_ratios_not_gated, &out.family_geomean_not_gated}})
    for (auto& [family, logs] : *ratios) {
      double sum = 0;
      for (double l : logs) sum += l;
      (*into)[family] = std::exp(sum / double(logs.size()));
    }
  return out;
}

}  // namespace cudabench

// Tests of analysis/compare: verdicts on synthetic pairs whose answer is known.
#include "analysis/compare.hpp"
#include "analysis/baseline_age.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "io/errors.hpp"
#include "results/results.hpp"
#include "results/stats.hpp"

using namespace cudabench;

namespace {
run_result load_fixture(const std::string& name) { return load_run(std::string(CUDABENCH_FIXTURES) + "/" + name); }
const case_comparison& find(const comparison& c, const std::string& name) {
  for (auto& r : c.cases)
    if (r.name == name) return r;
  throw std::runtime_error("no case " + name);
}
}  // namespace

TEST(Compare, IdenticalDistributionsFlagNothing) {
  comparison c = compare_runs(load_fixture("synthetic_base.json"), load_fixture("synthetic_same.json"), {});
  EXPECT_FALSE(c.has_regression());
  EXPECT_EQ(c.count(verdict::unchanged), c.cases.size());
  for (auto& r : c.cases) EXPECT_EQ(r.method, "rank test");
}

TEST(Compare, ExactlyTheSlowedCaseIsFlagged) {
  comparison c = compare_runs(load_fixture("synthetic_base.json"), load_fixture("synthetic_slowed.json"), {});
  EXPECT_EQ(c.count(verdict::regression), 1u);
  const case_comparison r = find(c, "conv2d/tiled/4096");
  EXPECT_EQ(r.v, verdict::regression);
  EXPECT_NEAR(r.change, 0.10, 0.02);
  ASSERT_TRUE(r.p_value);
  EXPECT_LT(*r.p_value, 0.001);
  EXPECT_DOUBLE_EQ(r.detectable, r.gate);  // the gate, not the rank test, limits what would be flagged here
  EXPECT_EQ(r.gate_origin(), "default");
  EXPECT_LT(c.family_geomean.at("conv2d"), 1.15);
  EXPECT_GT(c.family_geomean.at("conv2d"), 1.05);
}

TEST(Compare, ImprovementsAreReportedAndNeverFail) {
  comparison c = compare_runs(load_fixture("synthetic_base.json"), load_fixture("synthetic_faster.json"), {});
  EXPECT_EQ(find(c, "image/sync").v, verdict::improvement);
  EXPECT_FALSE(c.has_regression());
}

TEST(Compare, NoisyCaseIsInconclusive) {
  comparison c = compare_runs(load_fixture("synthetic_noisy_base.json"), load_fixture("synthetic_noisy.json"), {});
  EXPECT_EQ(find(c, "histogram/cub/1048576").v, verdict::inconclusive);
  EXPECT_FALSE(c.has_regression());
}

TEST(Compare, ThresholdAloneWithOneSampleASide) {
  run_result base = load_fixture("gbench17_single.json");
  run_result cur = base;
  for (auto& c : cur.cases)
    if (c.name == "image/sync") {
      c.samples_s[0] *= 1.2;
      c.median_s *= 1.2;
    }
  comparison c = compare_runs(base, cur, {.allow_device_mismatch = true});  // foreign output: no device description
  const case_comparison r = find(c, "image/sync");
  EXPECT_EQ(r.v, verdict::regression);
  EXPECT_EQ(r.method, "threshold only (1 sample a side)");
  // One repetition a side: no spread and no detectable change to report (shown as "-", never "0.0%").
  EXPECT_TRUE(std::isnan(r.base_noise));
  EXPECT_TRUE(std::isnan(r.cur_noise));
  EXPECT_TRUE(std::isnan(r.detectable));
  EXPECT_FALSE(r.p_value) << "no test ran";
  EXPECT_EQ(r.gate_origin(), "default");
  EXPECT_EQ(find(c, "BM_Broken").v, verdict::failed);
  EXPECT_EQ(find(c, "BM_Broken").gate_origin(), "");
}

TEST(Compare, HostBoundCasesWithOneRepetitionReportNoSpread) {
  comparison c = compare_runs(load_fixture("h100/quick_board_a.json"), load_fixture("h100/quick_board_b.json"), {});
  int host = 0;
  for (auto& r : c.cases) {
    if (r.method != "host-bound: not gated") continue;
    ++host;
    EXPECT_TRUE(std::isnan(r.detectable)) << r.name;
    EXPECT_TRUE(std::isnan(r.base_noise)) << r.name;
    EXPECT_FALSE(r.p_value) << r.name;
    EXPECT_EQ(r.v, verdict::not_gated) << r.name;
  }
  EXPECT_GT(host, 0);
}

// Files written in other units (older runs chose a unit per case from its median) compare by time, not by
// the number: the same run with every row in another unit is unchanged case by case.
TEST(Compare, RowsInMixedUnitsCompareByTheirTime) {
  std::ifstream in(std::string(CUDABENCH_FIXTURES) + "/synthetic_base.json");
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text.str());
  const std::map<std::string, double> seconds_per = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
  const char* units[] = {"ns", "ms", "s"};
  std::size_t i = 0;
  for (auto& row : doc["benchmarks"]) {
    if (!row.contains("time_unit") || row.value("aggregate_unit", "time") != "time") continue;
    const char* to = units[i++ % 3];  // a different unit from row to row, within a case too
    const double scale = seconds_per.at(row["time_unit"].get<std::string>()) / seconds_per.at(to);
    for (const char* key : {"real_time", "cpu_time"})
      if (row.contains(key)) row[key] = row[key].get<double>() * scale;
    row["time_unit"] = to;
  }
  ASSERT_GT(i, 3u);
  comparison c = compare_runs(load_fixture("synthetic_base.json"), parse_run(doc, "mixed units"), {});
  EXPECT_EQ(c.count(verdict::unchanged), c.cases.size());
  for (auto& r : c.cases) EXPECT_NEAR(r.change, 0, 1e-9) << r.name;
}

// CPU cases (host-bound) are reported with their change but gate nothing unless --host-threshold is given, as
// docs/reference.md says; with it, the same slowdown is a regression.
TEST(Compare, HostBoundCasesGateOnlyWithAHostThreshold) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  for (run_result* r : {&base, &cur})
    for (auto& c : r->cases) c.host_bound = true;
  for (auto& c : cur.cases) {
    for (double& t : c.samples_s) t *= 1.5;
    c.median_s *= 1.5;
  }
  comparison by_default = compare_runs(base, cur, {});
  EXPECT_FALSE(by_default.has_regression());
  EXPECT_EQ(find(by_default, "image/sync").v, verdict::not_gated);
  EXPECT_EQ(find(by_default, "image/sync").method, "host-bound: not gated");
  comparison gated = compare_runs(base, cur, {.host_threshold = 0.05});
  EXPECT_EQ(find(gated, "image/sync").v, verdict::regression);
  EXPECT_DOUBLE_EQ(find(gated, "image/sync").gate, 0.05);
}

// A host-bound case with a learned same-machine gate is judged by it where both runs are of one host (the same
// host name and board), by default; on two hosts, or with no host name recorded, it is not gated as before.
TEST(Compare, AHostBoundCaseIsGatedOnOneMachineByItsLearnedGate) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  for (run_result* r : {&base, &cur}) {
    r->settings.host_name = "runner-1";
    for (auto& c : r->cases) c.host_bound = true;
  }
  for (auto& c : cur.cases) {
    for (double& t : c.samples_s) t *= 1.04;
    c.median_s *= 1.04;
  }
  ASSERT_TRUE(one_host(base, cur));
  auto gates = std::make_shared<gate_table>();
  gates->device = base.device->name;
  gates->preset = base.settings.preset;
  learned_gate g{0.30, 0.05, 12};
  g.host = true;
  g.same_board_gate = 0.02;
  g.same_board_drift = 0.002;
  gates->cases["image/sync"] = g;
  compare_settings s;
  s.gates = gates;
  const comparison one = compare_runs(base, cur, s);
  const case_comparison& same = find(one, "image/sync");
  EXPECT_EQ(same.v, verdict::regression);
  EXPECT_DOUBLE_EQ(same.gate, 0.02);
  EXPECT_EQ(same.note, "host-bound: the same-machine gate 2%");
  // No gate learned for it: on one machine it is judged as a device case is (one process a side: at 10%).
  EXPECT_EQ(find(one, "conv2d/tiled/4096").v, verdict::unchanged);
  EXPECT_DOUBLE_EQ(find(one, "conv2d/tiled/4096").gate, 0.10);

  cur.settings.host_name = "runner-2";
  EXPECT_FALSE(one_host(base, cur));
  EXPECT_EQ(find(compare_runs(base, cur, s), "image/sync").v, verdict::not_gated);
  cur.settings.host_name = base.settings.host_name = "";
  EXPECT_EQ(find(compare_runs(base, cur, s), "image/sync").v, verdict::not_gated);
  // A device gate of the same name does not gate the case where it runs host-bound.
  base.settings.host_name = cur.settings.host_name = "runner-1";
  gates->cases["image/sync"].host = false;
  const case_comparison& device_gate = find(compare_runs(base, cur, s), "image/sync");
  EXPECT_EQ(device_gate.gate_runs, 0u) << "judged on one machine, not by the device gate";
  EXPECT_EQ(device_gate.v, verdict::unchanged);
}

// A case declared not gated is compared and shown, but a clear slowdown of it is no regression; the same
// slowdown of a gated case is.
TEST(Compare, UngatedCasesNeverRegress) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  for (auto& c : cur.cases) {
    for (double& t : c.samples_s) t *= 1.5;
    c.median_s *= 1.5;
  }
  EXPECT_TRUE(compare_runs(base, cur, {}).has_regression());
  for (auto& c : cur.cases) c.gated = false;
  comparison c = compare_runs(base, cur, {});
  EXPECT_FALSE(c.has_regression());
  for (auto& r : c.cases) {
    if (r.v == verdict::skipped || r.v == verdict::failed) continue;
    EXPECT_EQ(r.method, "not gated") << r.name;
    EXPECT_EQ(r.v, verdict::not_gated) << r.name;
    EXPECT_NEAR(r.change, 0.5, 0.01) << "the change is still shown: " << r.name;
    EXPECT_FALSE(r.p_value) << "never tested: " << r.name;
    EXPECT_TRUE(std::isnan(r.detectable)) << r.name;
    EXPECT_EQ(r.gate_origin(), "") << r.name;
  }
  EXPECT_EQ(c.count(verdict::inconclusive), 0u);
  EXPECT_FALSE(c.failing());
}

// Many repetitions make the rank test sensitive far below the gate: `detectable` says what would actually be
// flagged, the larger of the two.
TEST(Compare, DetectableIsTheLargerOfTheGateAndTheTest) {
  comparison c =
      compare_runs(load_fixture("synthetic_base.json"), load_fixture("synthetic_same.json"), {.threshold = 0.02});
  for (auto& r : c.cases) {
    if (!r.p_value) continue;
    EXPECT_GE(r.detectable, r.gate) << r.name;
    EXPECT_GE(r.detectable, 0.02) << r.name;
  }
}

namespace {
/// Gates of the synthetic fixtures' GPU: `name` learned at `gate` from 9 runs.
std::shared_ptr<const gate_table> gates_of(const run_result& like, const std::string& name, double gate) {
  auto t = std::make_shared<gate_table>();
  t->source = "synthetic.gates.json";
  t->device = like.device->name;
  t->preset = like.settings.preset;
  t->cases[name] = {gate, gate / 4, 9};
  return t;
}
}  // namespace

// A learned gate replaces the flat threshold for its case alone: a 10% slowdown under a learned 15% gate is
// not a regression; under a learned 2% gate a 3% slowdown is.
TEST(Compare, ALearnedGateReplacesTheThresholdForItsCase) {
  const run_result base = load_fixture("synthetic_base.json"), slowed = load_fixture("synthetic_slowed.json");
  compare_settings s;
  s.gates = gates_of(base, "conv2d/tiled/4096", 0.15);
  comparison c = compare_runs(base, slowed, s);
  const case_comparison& r = find(c, "conv2d/tiled/4096");
  EXPECT_NE(r.v, verdict::regression);
  EXPECT_DOUBLE_EQ(r.gate, 0.15);
  EXPECT_EQ(r.gate_origin(), "learned (9 runs)");
  EXPECT_EQ(find(c, "image/sync").gate_origin(), "default");

  run_result cur = load_fixture("synthetic_same.json");
  for (auto& k : cur.cases)
    if (k.name == "conv2d/tiled/4096") {
      for (double& t : k.samples_s) t *= 1.03;
      k.median_s *= 1.03;
    }
  EXPECT_FALSE(compare_runs(base, cur, {}).has_regression()) << "3% is under the default 5%";
  s.gates = gates_of(base, "conv2d/tiled/4096", 0.02);
  EXPECT_EQ(find(compare_runs(base, cur, s), "conv2d/tiled/4096").v, verdict::regression);
}

namespace {
/// A case of five rounds at `scale` x these relative times, on the synthetic fixtures' GPU.
run_result with_rounds(const run_result& like, const std::string& name, const std::vector<double>& rounds,
                       double scale) {
  run_result r = like;
  for (auto& k : r.cases)
    if (k.name == name) {
      k.samples_s.clear();
      for (double t : rounds) k.samples_s.push_back(t * scale * 1e-4);
      k.median_s = median(k.samples_s);
      k.rounds = rounds.size();
    }
  return r;
}
}  // namespace

// With a learned gate the medians are tested against the case's drift between runs: one slow round of five,
// which holds a rank test of five rounds a side above alpha, does not hide a 3% slowdown from a 2% gate; a
// pair whose own rounds are spread wider than the gate is inconclusive.
TEST(Compare, ALearnedGateTestsTheMediansAgainstTheDrift) {
  const std::string name = "conv2d/tiled/4096";
  const run_result like = load_fixture("synthetic_base.json");
  const run_result base = with_rounds(like, name, {1.0, 1.001, 0.999, 1.17, 1.0005}, 1.0);
  const run_result cur = with_rounds(like, name, {1.0, 1.001, 0.999, 1.0002, 1.0005}, 1.03);
  compare_settings s;
  s.noise_floor = 0;
  s.threshold = 0.02;
  const case_comparison ranked = find(compare_runs(base, cur, s), name);
  EXPECT_EQ(ranked.v, verdict::inconclusive) << "the rank test of 5 rounds a side with one slow round";
  EXPECT_GT(*ranked.p_value, 0.01);

  auto gates = std::make_shared<gate_table>(*gates_of(like, name, 0.02));
  gates->cases[name].drift = 0.003;
  s.gates = gates;
  const case_comparison r = find(compare_runs(base, cur, s), name);
  EXPECT_EQ(r.v, verdict::regression);
  EXPECT_EQ(r.method, "medians vs drift of 9 runs (5 rounds vs 5 rounds)");
  ASSERT_TRUE(r.p_value);
  EXPECT_LT(*r.p_value, 1e-6);
  EXPECT_DOUBLE_EQ(r.detectable, 0.02) << "2.58 x the drift is under the gate";

  const run_result noisy = with_rounds(like, name, {0.93, 1.0, 1.08, 0.96, 1.05}, 1.03);
  const case_comparison n = find(compare_runs(base, noisy, s), name);
  EXPECT_EQ(n.v, verdict::inconclusive);
  EXPECT_GT(n.detectable, 0.03);

  // Within the drift: no verdict, however quiet the rounds.
  const run_result near = with_rounds(like, name, {1.0, 1.001, 0.999, 1.0002, 1.0005}, 1.004);
  EXPECT_EQ(find(compare_runs(base, near, s), name).v, verdict::unchanged);
}

TEST(Compare, GatesOfAnotherGpuModelAreRefused) {
  const run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  auto other = std::make_shared<gate_table>(*gates_of(base, "conv2d/tiled/4096", 0.02));
  other->device = "NVIDIA H200";
  compare_settings s;
  s.gates = other;
  try {
    compare_runs(base, cur, s);
    FAIL() << "expected a refusal";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("synthetic.gates.json: gates learned on NVIDIA H200"), std::string::npos)
        << e.what();
  }
  s.allow_device_mismatch = true;
  EXPECT_NO_THROW(compare_runs(base, cur, s));
}

TEST(Compare, AggregatesOnlySaysNoTestRan) {
  comparison c = compare_runs(load_fixture("gbench18_aggregates.json"), load_fixture("gbench18_aggregates.json"),
                              {.allow_device_mismatch = true});
  EXPECT_EQ(find(c, "image/sync").method, "threshold only (aggregates only: no rank test)");
  EXPECT_EQ(find(c, "BM_NeedsGPU").v, verdict::skipped);
}

TEST(Compare, NewAndMissingCases) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  cur.cases.erase(cur.cases.begin());            // image/sync gone
  cur.cases[0].name = "image/pinned_streams/8";  // a case that changed its parameters
  comparison c = compare_runs(base, cur, {});
  EXPECT_EQ(find(c, "image/sync").v, verdict::missing);
  EXPECT_EQ(find(c, "image/pinned_streams/4").v, verdict::missing);
  EXPECT_EQ(find(c, "image/pinned_streams/8").v, verdict::new_case);
}

TEST(Compare, DifferentGpuModelsAreRefusedUnlessAllowed) {
  run_result base = load_fixture("synthetic_base.json"), other = load_fixture("synthetic_other_gpu.json");
  try {
    compare_runs(base, other, {});
    FAIL() << "expected a refusal";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("different GPU models"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("--allow-device-mismatch"), std::string::npos);
  }
  compare_settings s;
  s.allow_device_mismatch = true;
  comparison c = compare_runs(base, other, s);
  ASSERT_FALSE(c.header_notes.empty());
}

TEST(Compare, DriverChangeIsShownInTheHeader) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  cur.device->driver_version = 13010;
  comparison c = compare_runs(base, cur, {});
  ASSERT_EQ(c.header_notes.size(), 1u);
  EXPECT_NE(c.header_notes[0].find("driver changed: 13.0 -> 13.1"), std::string::npos);
}

TEST(Compare, ClockDifferenceIsRefused) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  cur.device->sm_clock_khz = 1500000;
  EXPECT_THROW(compare_runs(base, cur, {}), input_error);
}

TEST(Compare, RealH100RunsFromTwoBoards) {
  // Recorded on two H100 boards (quick preset, one repetition: threshold only).
  run_result a = load_fixture("h100/quick_board_a.json"), b = load_fixture("h100/quick_board_b.json");
  ASSERT_TRUE(a.device && b.device);
  EXPECT_EQ(a.device->name, "NVIDIA H100 80GB HBM3");
  EXPECT_NE(a.device->uuid, b.device->uuid);
  EXPECT_EQ(a.cases.size(), 61u);
  comparison c = compare_runs(a, b, {});
  EXPECT_EQ(c.cases.size(), 61u);
  EXPECT_EQ(c.count(verdict::new_case) + c.count(verdict::missing) + c.count(verdict::failed), 0u);
  for (auto& r : c.cases) {
    if (!r.method.empty() && r.method != "host-bound: not gated") {
      EXPECT_EQ(r.method, "threshold only (1 sample a side)") << r.name;
    }
  }
  EXPECT_FALSE(c.has_regression()) << "two quiet quick runs of the same binary";
}

TEST(Compare, StoredH100BaselineLoads) {
  run_result r = load_run(std::string(CUDABENCH_SOURCE) + "/reports/baselines/NVIDIA_H100_80GB_HBM3/nightly.json");
  EXPECT_EQ(r.settings.preset, "nightly");
  EXPECT_EQ(r.cases.size(), 132u);
  EXPECT_EQ(r.settings.rounds, 5);
  for (auto& c : r.cases) EXPECT_EQ(c.samples_s.size(), 5u) << c.name;  // its five rounds' medians
  // A run without the limits cases takes its limits from here.
  for (const char* name : {"limits/copy_d2d", "limits/read", "limits/bidir_pinned", "limits/fma"}) {
    ASSERT_TRUE(r.limits.count(name)) << name;
    EXPECT_GT(r.limits.at(name).rate, 0) << name;
  }
}

// Loss cannot hide: a case failing its check now, or missing though selected, fails the comparison; a
// case the current run did not select does not; a run without a device description is refused.
TEST(Compare, LostCasesFailTheComparison) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  cur.cases[0].status = case_status::failed;
  cur.cases[0].message = "wrong result: element 3";
  comparison c = compare_runs(base, cur, {});
  EXPECT_TRUE(c.failing());
  EXPECT_FALSE(c.has_regression());
  EXPECT_EQ(c.lost(), 1u);

  cur = load_fixture("synthetic_same.json");
  const std::string gone = cur.cases.back().name;
  cur.cases.pop_back();
  cur.by_name.clear();
  cur.lists_selection = true;
  cur.selected.erase(gone);  // the current run's filter excluded it
  EXPECT_FALSE(compare_runs(base, cur, {}).failing());
  cur.selected.insert(gone);  // selected, but no result
  EXPECT_TRUE(compare_runs(base, cur, {}).failing());

  run_result foreign = load_fixture("synthetic_same.json");
  foreign.device.reset();
  EXPECT_THROW(compare_runs(base, foreign, {}), input_error);
  EXPECT_NO_THROW(compare_runs(base, foreign, {.allow_device_mismatch = true}));
}

// A host-bound case that moved far (as conv2d/cpu_seq/1024 moved +61.5% on an H100 VM) does not move its
// family's geomean: that counts the gated cases, within whose changes it stays; the host-bound one is apart.
TEST(Compare, FamilyGeomeanCountsTheGatedCasesOnly) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  case_result host = *base.find("conv2d/tiled/4096");
  host.name = "conv2d/cpu_seq/1024";
  host.variant = "cpu_seq";
  host.host_bound = true;
  base.cases.push_back(host);
  for (double& t : host.samples_s) t *= 1.615;
  host.median_s *= 1.615;
  cur.cases.push_back(host);
  base.index_cases();
  cur.index_cases();
  const comparison c = compare_runs(base, cur, {});
  ASSERT_EQ(c.count(verdict::regression), 0u);
  const case_comparison& gated = find(c, "conv2d/tiled/4096");
  ASSERT_NE(gated.v, verdict::not_gated);
  EXPECT_NEAR(c.family_geomean.at("conv2d"), 1 + gated.change, 1e-12) << "the one gated case of the family";
  EXPECT_NEAR(c.family_geomean_not_gated.at("conv2d"), 1.615, 0.01);
  EXPECT_EQ(c.family_geomean_not_gated.count("image"), 0u);
}

// A baseline days older than the run, of another revision and recorded by an earlier version (no code identity,
// no machine fingerprint, no energy): one note, first, with its age, both revisions and what it lacks.
TEST(Compare, AnOldBaselineIsNotedWithItsAgeRevisionAndWhatItLacks) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  EXPECT_TRUE(compare_runs(base, cur, {}).header_notes.empty());  // one day, one version: nothing to say
  base.date = "2026-11-18T02:14:00+00:00";
  base.settings.git_revision = "0123456789abcdef0123456789abcdef01234567";
  cur.settings.started_utc = "2026-11-22T02:14:00Z";
  cur.settings.git_revision = "89abcdef0123456789abcdef0123456789abcdef";
  cur.device->machine = machine_facts{};
  cur.cases.front().code = code_identity{};
  auto& rep = cur.cases.front().repetitions.front();
  if (!rep.record) rep.record.emplace();
  rep.record->energy = energy_record{};
  const comparison c = compare_runs(base, cur, {});
  ASSERT_FALSE(c.header_notes.empty());
  const std::string& note = c.header_notes.front();
  EXPECT_NE(note.find("the baseline is 4.0 days older than the current run (recorded 2026-11-18T02:14:00+00:00, "
                      "revision 0123456789ab; the current run 2026-11-22T02:14:00Z, revision 89abcdef0123)"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("it lacks what the current run records: code identity"), std::string::npos) << note;
  EXPECT_NE(note.find("the machine's fingerprint"), std::string::npos) << note;
  EXPECT_NE(note.find(", energy"), std::string::npos) << note;
  EXPECT_EQ(iso_seconds("2026-11-22T02:14:00+01:00").value() + 3600, iso_seconds("2026-11-22T02:14:00Z").value());
  EXPECT_EQ(iso_seconds("1970-01-02T00:00:00.5Z").value(), 86400);
  EXPECT_FALSE(iso_seconds("yesterday").has_value());
  EXPECT_FALSE(iso_seconds("2026-11-22T02:14:00 and more").has_value());
}

TEST(Compare, DifferentPresetsAreRefusedUnlessAllowed) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  base.settings.preset = "quick";
  try {
    compare_runs(base, cur, {});
    FAIL() << "expected a refusal";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("different presets ('quick' vs 'nightly'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--allow-preset-mismatch"), std::string::npos);
  }
  compare_settings s;
  s.allow_preset_mismatch = true;
  const comparison c = compare_runs(base, cur, s);
  ASSERT_FALSE(c.header_notes.empty());
  EXPECT_NE(c.header_notes.back().find("(--allow-preset-mismatch)"), std::string::npos);
  base.settings.preset.clear();  // a foreign run says no preset: nothing to check
  EXPECT_NO_THROW(compare_runs(base, cur, {}));
}

namespace {
/// A case measured in `times.size()` fresh processes, one sample each (rounds), or in one process whose
/// repetitions are `times` where `one_process`.
case_result measured_case(const std::string& name, const std::vector<double>& times, bool host,
                          bool one_process = false) {
  case_result c;
  c.name = name;
  split_case_name(c);
  c.described = true;
  c.on_gpu = !host;
  c.host_bound = host;
  for (std::size_t i = 0; i < times.size(); ++i) {
    repetition r;
    r.real_time_s = times[i];
    r.record = run_record{};
    r.record->round = one_process ? 1 : int(i) + 1;
    c.repetitions.push_back(r);
  }
  summarize_case(c);
  return c;
}

/// `n` process medians around `median_s`, spread `noise` (relative, normal), from `seed`.
std::vector<double> processes(double median_s, double noise, std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::normal_distribution<double> z(0, noise);
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(median_s * (1 + z(g)));
  return out;
}

/// A run of one machine (board GPU-1, host h1) holding `cases`; `board` names another board.
run_result one_machine_run(std::vector<case_result> cases, const std::string& board = "GPU-1") {
  run_result r;
  r.source = board + ".json";
  r.device = device_info{};
  r.device->available = true;
  r.device->name = "Test GPU";
  r.device->uuid = board;
  r.settings.host_name = "h1";
  r.cases = std::move(cases);
  r.index_cases();
  return r;
}
}  // namespace

TEST(SelfCalibrated, AOnePointFiveShiftWithLowNoiseFlagsAcrossFiveAndFiveProcesses) {
  const run_result base =
      one_machine_run({measured_case("histogram/fast/16777216", processes(1e-3, 0.003, 5, 1), false)});
  const run_result cur =
      one_machine_run({measured_case("histogram/fast/16777216", processes(1.015e-3, 0.003, 5, 2), false)});
  const comparison c = compare_runs(base, cur, {});
  const case_comparison& r = find(c, "histogram/fast/16777216");
  EXPECT_EQ(r.v, verdict::regression) << r.method << " " << r.note;
  EXPECT_TRUE(r.self_calibrated);
  EXPECT_EQ(r.method, "self-calibrated: medians of 5 vs 5 processes");
  EXPECT_DOUBLE_EQ(r.gate, 0.01);
  EXPECT_LT(r.detectable, 0.015) << "the power: the smallest change the pair could flag";
  EXPECT_EQ(c.exit_status(), 1);
  // The same pair on two boards is judged as before: within the 5% default, and the default gate.
  const comparison across = compare_runs(base, one_machine_run(cur.cases, "GPU-2"), {});
  EXPECT_FALSE(find(across, "histogram/fast/16777216").self_calibrated);
  EXPECT_NE(find(across, "histogram/fast/16777216").v, verdict::regression);
}

TEST(SelfCalibrated, AnAaPairFlagsNothing) {
  std::size_t flags = 0;
  for (unsigned seed = 0; seed < 200; seed += 2) {
    const run_result base = one_machine_run({measured_case("a/b/1", processes(1e-3, 0.003, 5, seed), false)});
    const run_result cur = one_machine_run({measured_case("a/b/1", processes(1e-3, 0.003, 5, seed + 1), false)});
    flags += is_flag(find(compare_runs(base, cur, {}), "a/b/1").v);
  }
  EXPECT_EQ(flags, 0u);
}

namespace {
/// `n` process medians of a short case (7.6 us, 0.5% between processes) as the GPU's event timer reads them: in
/// steps of 32 ns, so that most processes of a side often read the same value.
std::vector<double> short_processes(double factor, std::size_t n, unsigned seed) {
  std::vector<double> out = processes(factor * 7.6e-6, 0.005, n, seed);
  for (double& x : out) x = std::round(x / 32e-9) * 32e-9;
  return out;
}

/// A comparison of one machine's two runs of `n` short cases, `changed` of them `factor` slower in `cur`, each
/// measured in `procs` processes a side, from `seed`.
comparison many_cases(std::size_t n, std::size_t changed, double factor, std::size_t procs, unsigned seed) {
  std::vector<case_result> b, c;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = "f/v" + std::to_string(i) + "/1";
    b.push_back(measured_case(name, short_processes(1, procs, seed + 2 * unsigned(i)), false));
    c.push_back(
        measured_case(name, short_processes(i < changed ? factor : 1, procs, seed + 2 * unsigned(i) + 1), false));
  }
  return compare_runs(one_machine_run(b), one_machine_run(c), {});
}
}  // namespace

TEST(SelfCalibrated, ManyUnchangedCasesFlagNoneByChance) {
  // 18 short cases a comparison, as the pull-request flow's reduce and matmul: each at alpha alone, one comparison
  // in several flags a case by chance; at a false discovery rate of alpha, at most about alpha of them do.
  std::size_t flagged = 0, held = 0;
  for (unsigned run = 0; run < 300; ++run) {
    const comparison c = many_cases(18, 0, 1, 5, 1000 * run);
    flagged += c.count(verdict::regression) + c.count(verdict::improvement) > 0;
    held += c.count(verdict::unconfirmed) > 0;
  }
  EXPECT_LE(flagged, 1u) << "of 300 comparisons with nothing changed (each case at alpha alone: 2)";
  EXPECT_GT(held, 0u) << "what chance flags alone is held for more processes, not dropped";
}

TEST(SelfCalibrated, AChanceSeparationAmongManyCasesIsHeldNotFlagged) {
  // As measured on an H200 with nothing changed: all five processes of one side below the other's, -2.1%.
  const run_result base =
      one_machine_run({measured_case("r/w/1", {7.616e-6, 7.648e-6, 7.616e-6, 7.68e-6, 7.616e-6}, false),
                       measured_case("r/x/1", processes(1e-3, 0.003, 5, 3), false),
                       measured_case("r/y/1", processes(1e-3, 0.003, 5, 5), false)});
  const run_result now =
      one_machine_run({measured_case("r/w/1", {7.456e-6, 7.456e-6, 7.488e-6, 7.424e-6, 7.456e-6}, false),
                       measured_case("r/x/1", processes(1e-3, 0.003, 5, 4), false),
                       measured_case("r/y/1", processes(1e-3, 0.003, 5, 6), false)});
  const comparison c = compare_runs(base, now, {});
  const case_comparison& r = find(c, "r/w/1");
  EXPECT_EQ(r.v, verdict::unconfirmed) << r.note;
  ASSERT_TRUE(r.held.has_value());
  EXPECT_EQ(*r.held, verdict::improvement);
  EXPECT_NE(r.note.find("false discovery rate"), std::string::npos) << r.note;
  EXPECT_EQ(c.exit_status(), exit_unconfirmed);
  // Alone in its comparison the same pair is a flag, as before.
  const case_comparison& alone =
      find(compare_runs(one_machine_run({base.cases[0]}), one_machine_run({now.cases[0]}), {}), "r/w/1");
  EXPECT_EQ(alone.v, verdict::improvement);
}

TEST(SelfCalibrated, ARealChangeOfManyCasesStandsOnceMoreProcessesAreMeasured) {
  // 14 of 18 cases 2.5% slower: at 5 processes a side each p-value is the rank test's smallest, 2/252, just above
  // what the rate allows (or not significant: inconclusive); at 8 a side (bisect's extra pairs) every one is a
  // regression, and nothing else flags.
  const comparison five = many_cases(18, 14, 1.025, 5, 50);
  EXPECT_EQ(five.count(verdict::regression), 0u);
  for (std::size_t i = 0; i < 14; ++i) {
    const verdict v = find(five, "f/v" + std::to_string(i) + "/1").v;
    EXPECT_TRUE(v == verdict::unconfirmed || v == verdict::inconclusive) << "held for more processes: " << i;
  }
  const comparison eight = many_cases(18, 14, 1.025, 8, 50);
  EXPECT_EQ(eight.count(verdict::regression), 14u);
  EXPECT_EQ(eight.count(verdict::improvement) + eight.count(verdict::unconfirmed), 0u);
}

TEST(SelfCalibrated, AGateLearnedAcrossBoardsGivesWayToTheProcessesOfOneMachine) {
  // A 2.5% change in 8 processes a side of one machine, under a 10% gate learned from runs of several boards: the
  // boards' offsets are not this machine's, so its processes judge it; a gate learned on one board applies.
  const run_result base = one_machine_run({measured_case("a/b/1", processes(1e-3, 0.003, 8, 41), false)});
  const run_result cur = one_machine_run({measured_case("a/b/1", processes(1.025e-3, 0.003, 8, 42), false)});
  compare_settings s;
  s.gates = gates_of(base, "a/b/1", 0.10);
  const case_comparison& r = find(compare_runs(base, cur, s), "a/b/1");
  EXPECT_EQ(r.v, verdict::regression) << r.method << " " << r.note;
  EXPECT_TRUE(r.self_calibrated);
  auto one_board = std::make_shared<gate_table>(*s.gates);
  one_board->cases["a/b/1"].same_board_gate = 0.05;
  one_board->cases["a/b/1"].same_board_drift = 0.005;
  s.gates = one_board;
  const case_comparison& learned = find(compare_runs(base, cur, s), "a/b/1");
  EXPECT_FALSE(learned.self_calibrated);
  EXPECT_DOUBLE_EQ(learned.gate, 0.05);
  EXPECT_NE(learned.v, verdict::regression);
}

TEST(SelfCalibrated, MoreProcessesOnlyWhereTheyCouldSettleAShift) {
  // 3% noise between processes: a shift beyond the gate is inconclusive and worth more processes; the same spread with
  // no shift is inconclusive too, but more processes would only show a change within the gate, so none are spent on it.
  const comparison c1 =
      compare_runs(one_machine_run({measured_case("a/b/1", processes(1e-3, 0.03, 5, 11), false)}),
                   one_machine_run({measured_case("a/b/1", processes(1.015e-3, 0.03, 5, 12), false)}), {});
  const comparison c2 = compare_runs(
      one_machine_run({measured_case("a/c/1", {1.00e-3, 1.03e-3, 0.97e-3, 1.02e-3, 0.98e-3}, false)}),
      one_machine_run({measured_case("a/c/1", {1.001e-3, 1.029e-3, 0.971e-3, 1.021e-3, 0.979e-3}, false)}), {});
  const case_comparison& shifted = find(c1, "a/b/1");
  const case_comparison& flat = find(c2, "a/c/1");
  ASSERT_EQ(shifted.v, verdict::inconclusive) << shifted.change;
  ASSERT_EQ(flat.v, verdict::inconclusive) << flat.change;
  ASSERT_LT(std::fabs(flat.change), flat.gate) << flat.change;
  EXPECT_TRUE(worth_more_processes(shifted));
  EXPECT_FALSE(worth_more_processes(flat));
  case_comparison held = shifted;
  held.v = verdict::unconfirmed;
  held.change = 0.001;
  EXPECT_TRUE(worth_more_processes(held)) << "a held flag is always measured again";
}

TEST(SelfCalibrated, TooFewOrTooNoisyProcessesAreInconclusiveNotUnchanged) {
  // 3% noise between processes: a 1.5% change cannot be told from it in 5 + 5 processes.
  const run_result base = one_machine_run({measured_case("a/b/1", processes(1e-3, 0.03, 5, 11), false)});
  const run_result cur = one_machine_run({measured_case("a/b/1", processes(1.015e-3, 0.03, 5, 12), false)});
  const case_comparison& r = find(compare_runs(base, cur, {}), "a/b/1");
  EXPECT_EQ(r.v, verdict::inconclusive);
  EXPECT_GT(r.detectable, 0.01);
}

TEST(SelfCalibrated, OneDisturbedProcessNeitherHidesNorMakesAChange) {
  std::vector<double> b = processes(1e-3, 0.003, 5, 21);
  b[2] *= 1.6;  // one process of the baseline disturbed
  const run_result base = one_machine_run({measured_case("a/b/1", b, false)});
  // A 2% change: not passed as unchanged; more processes (bisect --ends, confirm) decide it.
  const run_result cur = one_machine_run({measured_case("a/b/1", processes(1.02e-3, 0.003, 5, 22), false)});
  EXPECT_EQ(find(compare_runs(base, cur, {}), "a/b/1").v, verdict::inconclusive);
  std::vector<double> more_b = b, more_c = processes(1.02e-3, 0.003, 10, 22);
  for (double x : processes(1e-3, 0.003, 5, 23)) more_b.push_back(x);
  EXPECT_EQ(find(compare_runs(one_machine_run({measured_case("a/b/1", more_b, false)}),
                              one_machine_run({measured_case("a/b/1", more_c, false)}), {}),
                 "a/b/1")
                .v,
            verdict::regression);
  // Nothing changed: the disturbed process makes no flag.
  const run_result same = one_machine_run({measured_case("a/b/1", processes(1e-3, 0.003, 5, 24), false)});
  EXPECT_FALSE(is_flag(find(compare_runs(base, same, {}), "a/b/1").v));
}

TEST(RobustNoiseFloor, OneDisturbedRepetitionDoesNotWidenIt) {
  // An adopter's CPU case, one process a side of 10 repetitions, one baseline repetition of 531 us among ~330 us:
  // 40% more work is a regression, with --host-threshold=10 and on one machine without it.
  std::vector<double> b, c;
  for (int i = 0; i < 10; ++i) {
    b.push_back(330e-6 * (1 + 0.003 * (i % 5 - 2)));
    c.push_back(1.4 * 330e-6 * (1 + 0.003 * ((i + 2) % 5 - 2)));
  }
  b[4] = 531e-6;
  const run_result base = one_machine_run({measured_case("cpu/work/1", b, true, true)});
  const run_result cur = one_machine_run({measured_case("cpu/work/1", c, true, true)});
  const case_comparison& with = find(compare_runs(base, cur, {.host_threshold = 0.10}), "cpu/work/1");
  EXPECT_EQ(with.v, verdict::regression) << with.note;
  EXPECT_LT(with.gate, 0.2) << "the floor comes from the bulk of the repetitions, not the one disturbed";
  const comparison one = compare_runs(base, cur, {});
  EXPECT_EQ(find(one, "cpu/work/1").v, verdict::regression) << find(one, "cpu/work/1").note;
  EXPECT_EQ(one.exit_status(), 1);
  // Across machines a host-bound case stays reported apart, never failing.
  EXPECT_EQ(find(compare_runs(base, one_machine_run(cur.cases, "GPU-2"), {}), "cpu/work/1").v, verdict::not_gated);
}

TEST(SelfCalibrated, AHostCaseARunWithRoundsKeptToOneProcessIsReportedNotGated) {
  // A nightly's CPU case (its repetitions in the first round only, --rounds-for=gated) that moved 44% between two
  // runs of one machine with nothing changed, as reduce/cpu/16777216 did on an H200 host: one process a side shows
  // nothing of the drift between processes, so it is reported, not gated; without rounds (an adopter's plain
  // benchmark) the same pair is judged at the one-machine host gate.
  std::vector<double> b, c;
  for (int i = 0; i < 10; ++i) {
    b.push_back(12.8e-3 * (1 + 0.003 * (i % 5 - 2)));
    c.push_back(18.6e-3 * (1 + 0.003 * ((i + 2) % 5 - 2)));
  }
  run_result base = one_machine_run({measured_case("reduce/cpu/16777216", b, true, true)});
  run_result cur = one_machine_run({measured_case("reduce/cpu/16777216", c, true, true)});
  EXPECT_EQ(find(compare_runs(base, cur, {}), "reduce/cpu/16777216").v, verdict::regression);
  base.settings.rounds = cur.settings.rounds = 5;
  const comparison nightly = compare_runs(base, cur, {});
  EXPECT_EQ(find(nightly, "reduce/cpu/16777216").v, verdict::not_gated);
  EXPECT_EQ(nightly.exit_status(), 0);
  EXPECT_EQ(find(compare_runs(base, cur, {.host_threshold = 0.10}), "reduce/cpu/16777216").v, verdict::regression)
      << "--host-threshold still gates it";
}

TEST(SelfCalibrated, AHostCaseOfFreshProcessesIsJudgedTheSameWay) {
  const run_result base = one_machine_run({measured_case("cpu/work/1", processes(330e-6, 0.01, 5, 31), true)});
  const run_result cur = one_machine_run({measured_case("cpu/work/1", processes(1.4 * 330e-6, 0.01, 5, 32), true)});
  const case_comparison& r = find(compare_runs(base, cur, {}), "cpu/work/1");
  EXPECT_EQ(r.v, verdict::regression);
  EXPECT_TRUE(r.self_calibrated);
}

TEST(Stats, StudentCriticalIsCloseToTheTable) {
  EXPECT_NEAR(student_critical(0.01, 8), 3.355, 0.01);
  EXPECT_NEAR(student_critical(0.01, 18), 2.878, 0.01);
  EXPECT_NEAR(student_critical(0.01, 4), 4.604, 0.1);
  EXPECT_NEAR(robust_cv({1, 1, 1, 1, 10}), 0.0, 1e-12);
}

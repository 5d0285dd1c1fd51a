// Tests of harness/compare: verdicts on synthetic pairs whose answer is known.
#include "harness/compare.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "harness/errors.hpp"

using namespace cudabench;

namespace {
run_result load_fixture(const std::string& name) { return load_run(std::string(CUDABENCH_FIXTURES) + "/" + name); }
const case_comparison& find(const comparison& c, const std::string& name) {
  for (auto& r : c.cases) if (r.name == name) return r;
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
  EXPECT_LT(r.p_value, 0.001);
  EXPECT_LT(r.detectable, 0.05);
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
    if (c.name == "image/sync") { c.samples_s[0] *= 1.2; c.median_s *= 1.2; }
  comparison c = compare_runs(base, cur, {.allow_device_mismatch = true});  // foreign output: no device description
  const case_comparison r = find(c, "image/sync");
  EXPECT_EQ(r.v, verdict::regression);
  EXPECT_EQ(r.method, "threshold only (1 sample a side)");
  // One repetition a side: no spread and no detectable change to report (shown as "-", never "0.0%").
  EXPECT_TRUE(std::isnan(r.base_noise));
  EXPECT_TRUE(std::isnan(r.cur_noise));
  EXPECT_TRUE(std::isnan(r.detectable));
  EXPECT_EQ(find(c, "BM_Broken").v, verdict::failed);
}

TEST(Compare, HostBoundCasesWithOneRepetitionReportNoSpread) {
  comparison c = compare_runs(load_fixture("h100/quick_board_a.json"), load_fixture("h100/quick_board_b.json"), {});
  int host = 0;
  for (auto& r : c.cases) {
    if (r.method != "host-bound: not gated") continue;
    ++host;
    EXPECT_TRUE(std::isnan(r.detectable)) << r.name;
    EXPECT_TRUE(std::isnan(r.base_noise)) << r.name;
  }
  EXPECT_GT(host, 0);
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
    EXPECT_EQ(r.v, verdict::inconclusive) << r.name;
  }
}

TEST(Compare, AggregatesOnlySaysNoTestRan) {
  comparison c = compare_runs(load_fixture("gbench18_aggregates.json"), load_fixture("gbench18_aggregates.json"),
                              {.allow_device_mismatch = true});
  EXPECT_EQ(find(c, "image/sync").method, "threshold only (aggregates only: no rank test)");
  EXPECT_EQ(find(c, "BM_NeedsGPU").v, verdict::skipped);
}

TEST(Compare, NewAndMissingCases) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  cur.cases.erase(cur.cases.begin());  // image/sync gone
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
  for (auto& c : r.cases) EXPECT_EQ(c.samples_s.size(), 6u) << c.name;
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

// Tests of harness/results_json: the in-memory results written as Google Benchmark JSON and read back.
#include <gtest/gtest.h>

#include "harness/results.hpp"
#include "harness/results_json.hpp"

using namespace cudabench;

namespace {
repetition rep(double seconds) {
  repetition r;
  r.real_time_s = seconds;
  r.cpu_time_s = seconds / 2;
  r.counters["bytes_per_second"] = 1e6 / seconds;
  r.counters["samples"] = 100;
  r.label = "hot";
  r.record.cache = "hot";
  r.record.stop = "noise";
  return r;
}

struct fixture_run {
  suite s;
  std::vector<const case_def*> selected;
  std::map<std::string, measured_case> results;
  nlohmann::ordered_json doc;
  explicit fixture_run(std::optional<std::string> unit = std::nullopt) {
    s.families.push_back({"fam", "a family", "exact", {{"cpu", {"cpu"}}}});
    for (const char* v : {"fast", "cpu", "gone", "broken"}) s.cases.push_back({.family = "fam", .variant = v, .params = "64", .size = 64});
    for (const auto& c : s.cases) selected.push_back(&c);
    results["fam/fast/64"].repetitions = {rep(2e-6), rep(3e-6), rep(4e-6)};
    results["fam/cpu/64"].repetitions = {rep(1e-3)};
    results["fam/gone/64"] = {case_outcome::skipped, "needs 2 GiB", {}};
    results["fam/broken/64"] = {case_outcome::failed, "wrong result: element 3", {}};
    run_description run;
    run.info.preset = "quick";
    run.info.repetitions = 3;
    run.time_unit = unit;
    doc = results_document({{"host_name", "test"}}, device_info{}, run, s, selected, results);
  }
};
}  // namespace

TEST(ResultsJson, RowsAndAggregatesAsGoogleBenchmarkWritesThem) {
  fixture_run f;
  const auto& rows = f.doc["benchmarks"];
  // 3 repetitions + 4 aggregates, 1 repetition (no aggregates), 1 skipped row, 1 failed row.
  ASSERT_EQ(rows.size(), 3u + 4u + 1u + 1u + 1u);
  EXPECT_EQ(rows[0]["name"], "fam/fast/64");
  EXPECT_EQ(rows[0]["run_type"], "iteration");
  // A case of a few microseconds is written in ns, so three significant digits survive whole-unit printing.
  EXPECT_EQ(rows[0]["time_unit"], "ns");
  EXPECT_DOUBLE_EQ(rows[0]["real_time"].get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(rows[0]["cpu_time"].get<double>(), 1000.0);
  EXPECT_EQ(rows[4]["name"], "fam/fast/64_median");
  EXPECT_EQ(rows[4]["aggregate_name"], "median");
  EXPECT_EQ(rows[4]["time_unit"], "ns");
  EXPECT_DOUBLE_EQ(rows[4]["real_time"].get<double>(), 3000.0);
  EXPECT_EQ(rows[7]["name"], "fam/cpu/64");  // 1 ms: us
  EXPECT_EQ(rows[7]["time_unit"], "us");
  EXPECT_DOUBLE_EQ(rows[7]["real_time"].get<double>(), 1000.0);
  EXPECT_EQ(rows[6]["aggregate_unit"], "percentage");
  EXPECT_TRUE(rows[8]["skipped"].get<bool>());
  EXPECT_EQ(rows[8]["skip_message"], "needs 2 GiB");
  EXPECT_TRUE(rows[9]["error_occurred"].get<bool>());
  EXPECT_EQ(f.doc["context"]["host_name"], "test");
  EXPECT_EQ(f.doc["context"]["cudabench"]["families"]["fam"]["references"]["cpu"][0], "cpu");
}

TEST(ResultsJson, ATimeUnitForcedForEveryRow) {
  fixture_run f("ms");
  for (const auto& row : f.doc["benchmarks"]) EXPECT_EQ(row["time_unit"], "ms") << row["name"];
  EXPECT_DOUBLE_EQ(f.doc["benchmarks"][0]["real_time"].get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(parse_run(nlohmann::json(f.doc), "x").find("fam/fast/64")->median_s, 3e-6);
}

TEST(ResultsJson, ReadsBackIntoTheSameCases) {
  fixture_run f;
  const run_result r = parse_run(nlohmann::json(f.doc), "memory");
  ASSERT_EQ(r.cases.size(), 4u);
  const case_result* fast = r.find("fam/fast/64");
  ASSERT_NE(fast, nullptr);
  EXPECT_EQ(fast->samples_s.size(), 3u);
  EXPECT_NEAR(fast->median_s, 3e-6, 1e-15);
  EXPECT_EQ(r.find("fam/gone/64")->status, case_status::skipped);
  EXPECT_EQ(r.find("fam/broken/64")->status, case_status::failed);
  EXPECT_EQ(r.preset, "quick");
}

TEST(ResultsJson, MedianRepetitionTakesEachCountersMedian) {
  fixture_run f;
  const repetition m = median_repetition(f.results["fam/fast/64"]);
  EXPECT_DOUBLE_EQ(m.real_time_s, 3e-6);
  EXPECT_DOUBLE_EQ(m.counters.at("bytes_per_second"), 1e6 / 3e-6);
}

// % of limit: the limits a run measured, recorded in its document and applied to the cases that name them.
TEST(ResultsJson, LimitsMeasuredInTheRunBoundTheCasesThatNameThem) {
  suite s;
  s.families.push_back({"limits", "", "", {}});
  s.families.push_back({"hist", "", "", {}});
  s.cases.push_back({.family = "limits", .variant = "read", .work = {.bytes_read = 4e9}, .size = 1});
  s.cases.push_back({.family = "limits", .variant = "fma", .work = {.flops = 2e12}, .size = 1});
  s.cases.push_back({.family = "limits", .variant = "launch", .work = {.items = 1000}, .size = 1});
  s.cases.push_back({.family = "hist", .variant = "fast", .params = "64", .work = {.bytes_read = 1e9}, .size = 64, .limit = "limits/read"});
  s.cases.push_back({.family = "hist", .variant = "gone", .params = "64", .work = {.bytes_read = 1e9}, .size = 64, .limit = "limits/fma"});
  std::vector<const case_def*> selected;
  for (const auto& c : s.cases) selected.push_back(&c);
  auto measured = [](double seconds, double bytes, double flops, double items) {
    measured_case m;
    repetition r;
    r.real_time_s = seconds;
    if (bytes > 0) r.counters["bytes_per_second"] = bytes / seconds;
    if (flops > 0) r.counters["flops_per_second"] = flops / seconds;
    if (items > 0) r.counters["items_per_second"] = items / seconds;
    m.repetitions = {r, r, r};
    return m;
  };
  std::map<std::string, measured_case> results{{"limits/read", measured(2e-3, 4e9, 0, 0)},    // 2 TB/s
                                               {"limits/fma", measured(0.1, 0, 2e12, 0)},     // 20 TFLOP/s
                                               {"limits/launch", measured(2e-3, 0, 0, 1000)}, // 2 us a launch
                                               {"hist/fast/64", measured(1e-3, 1e9, 0, 0)}};  // 1 TB/s: half the read limit
  results["hist/gone/64"] = {case_outcome::failed, "broken", {}};
  nlohmann::ordered_json doc = results_document(nlohmann::ordered_json::object(), device_info{}, run_description{}, s, selected, results);
  const auto limits = measured_limits(doc);
  ASSERT_EQ(limits.size(), 3u);
  EXPECT_DOUBLE_EQ(limits.at("limits/read").rate, 2e12);
  EXPECT_EQ(limits.at("limits/read").unit, "B/s");
  EXPECT_DOUBLE_EQ(limits.at("limits/fma").rate, 2e13);
  EXPECT_EQ(limits.at("limits/fma").unit, "FLOP/s");
  EXPECT_EQ(limits.at("limits/launch").unit, "1/s");
  apply_limits(doc, limits, "this run");
  EXPECT_EQ(doc["context"]["cudabench"]["cases"]["hist/fast/64"]["limit"], "limits/read");
  int with_fraction = 0;
  for (const auto& row : doc["benchmarks"]) {
    if (row["run_name"] != "hist/fast/64" || row.value("aggregate_name", "") == "cv") continue;
    if (row.value("aggregate_name", "") == "stddev") continue;
    EXPECT_NEAR(row["limit_fraction"].get<double>(), 0.5, 1e-12) << row.dump();
    ++with_fraction;
  }
  EXPECT_EQ(with_fraction, 5);  // three repetitions, the mean and the median
  const run_result back = parse_run(nlohmann::json(doc), "limits.json");
  ASSERT_EQ(back.limits.size(), 3u);
  EXPECT_EQ(back.limits.at("limits/read").from, "this run");
  EXPECT_NEAR(back.find("hist/fast/64")->counters.at("limit_fraction"), 0.5, 1e-12);
  EXPECT_EQ(back.find("hist/gone/64")->counters.count("limit_fraction"), 0u);
}

TEST(ResultsJson, NoLimitsLeaveTheDocumentAsItWas) {
  suite s;
  s.families.push_back({"hist", "", "", {}});
  s.cases.push_back({.family = "hist", .variant = "fast", .work = {.bytes_read = 1e9}, .size = 64, .limit = "limits/read"});
  std::vector<const case_def*> selected{&s.cases[0]};
  measured_case m;
  m.repetitions.push_back(rep(1e-3));
  nlohmann::ordered_json doc = results_document(nlohmann::ordered_json::object(), device_info{}, run_description{}, s, selected, {{"hist/fast", m}});
  const std::string before = doc.dump();
  EXPECT_TRUE(measured_limits(doc).empty());
  apply_limits(doc, {}, "this run");
  EXPECT_EQ(doc.dump(), before);
}

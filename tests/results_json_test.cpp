// Tests of results/results_json: the in-memory results written as Google Benchmark JSON and read back.
#include <gtest/gtest.h>

#include <cmath>

#include "app/declared_cases.hpp"
#include "io/atomic_file.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"
#include "results/results_schema.hpp"

using namespace cudabench;
using cudabench::app::make_run_result;  // over the registry's suite, as the runner makes a run

namespace {
repetition rep(double seconds) {
  repetition r;
  r.real_time_s = seconds;
  r.cpu_time_s = seconds / 2;
  r.counters["bytes_per_second"] = 1e6 / seconds;
  r.counters["samples"] = 100;
  r.label = "hot";
  r.record.emplace();
  r.record->cache = "hot";
  r.record->stop = "noise";
  r.record->samples = 100;
  r.record->batch = 4;
  return r;
}

case_result ended(case_status status, const std::string& why) {
  case_result c;
  c.status = status;
  c.message = why;
  return c;
}

struct fixture_run {
  suite s;
  std::vector<const case_def*> selected;
  std::map<std::string, case_result> results;
  nlohmann::ordered_json doc;
  explicit fixture_run(std::optional<std::string> unit = std::nullopt) {
    s.families.push_back({"fam", "a family", "exact", {{"cpu", {"cpu"}}}});
    for (const char* v : {"fast", "cpu", "gone", "broken"})
      s.cases.push_back({.family = "fam", .variant = v, .params = "64", .size = 64});
    for (const auto& c : s.cases) selected.push_back(&c);
    results["fam/fast/64"].repetitions = {rep(2e-6), rep(3e-6), rep(4e-6)};
    results["fam/cpu/64"].repetitions = {rep(1e-3)};
    results["fam/gone/64"] = ended(case_status::skipped, "needs 2 GiB");
    results["fam/broken/64"] = ended(case_status::failed, "wrong result: element 3");
    run_settings run;
    run.preset = "quick";
    run.repetitions = 3;
    doc = to_json(make_run_result({{"host_name", "test"}}, device_info{}, run, s, selected, results), unit);
  }
};
}  // namespace

TEST(ResultsJson, ARecordedRunIsSummarizedOnceByItsAssembly) {
  fixture_run f;
  const nlohmann::ordered_json host{{"host_name", "test"}};
  const run_result recorded = app::recorded_run(host, device_info{}, run_settings{}, f.s, f.selected, f.results);
  const case_result* fast = recorded.find("fam/fast/64");
  ASSERT_TRUE(fast);
  EXPECT_TRUE(fast->samples_s.empty());  // as recorded: no summary yet
  EXPECT_EQ(fast->median_s, 0);
  const run_result made = make_run_result(host, device_info{}, run_settings{}, f.s, f.selected, f.results);
  ASSERT_TRUE(made.find("fam/fast/64"));
  EXPECT_DOUBLE_EQ(made.find("fam/fast/64")->median_s, 3e-6);
  EXPECT_EQ(made.find("fam/fast/64")->samples_s.size(), 3u);
  // The writer reads the repetitions, not the summary: a worker's record is the assembled run's document.
  EXPECT_EQ(to_json(recorded), to_json(made));
  // Read for an assembly the cases stay as recorded; read whole, each is summarized.
  const std::string text = to_json(recorded).dump();
  EXPECT_EQ(parse_run_text(text, "memory", summaries::left_to_assembly).find("fam/fast/64")->median_s, 0);
  EXPECT_DOUBLE_EQ(parse_run_text(text, "memory").find("fam/fast/64")->median_s, 3e-6);
}

TEST(ResultsJson, RowsAndAggregatesAsGoogleBenchmarkWritesThem) {
  fixture_run f;
  const auto& rows = f.doc["benchmarks"];
  // 3 repetitions + 4 aggregates, 1 repetition (no aggregates), 1 skipped row, 1 failed row.
  ASSERT_EQ(rows.size(), 3u + 4u + 1u + 1u + 1u);
  EXPECT_EQ(rows[0]["name"], "fam/fast/64");
  EXPECT_EQ(rows[0]["run_type"], "iteration");
  // Every case in ns, whatever its median, so a tool pairing rows by name and unit pairs it in any run.
  EXPECT_EQ(rows[0]["time_unit"], "ns");
  EXPECT_EQ(rows[0]["iterations"], 400) << "the runs the row covers: 100 samples of a batch of 4";
  EXPECT_DOUBLE_EQ(rows[0]["real_time"].get<double>(), 2000.0);
  EXPECT_DOUBLE_EQ(rows[0]["cpu_time"].get<double>(), 1000.0);
  EXPECT_EQ(rows[4]["name"], "fam/fast/64_median");
  EXPECT_EQ(rows[4]["aggregate_name"], "median");
  EXPECT_EQ(rows[4]["time_unit"], "ns");
  EXPECT_DOUBLE_EQ(rows[4]["real_time"].get<double>(), 3000.0);
  EXPECT_EQ(rows[4]["iterations"], 3) << "an aggregate covers the repetitions";
  EXPECT_EQ(rows[7]["name"], "fam/cpu/64");  // 1 ms: still ns
  EXPECT_EQ(rows[7]["time_unit"], "ns");
  EXPECT_DOUBLE_EQ(rows[7]["real_time"].get<double>(), 1e6);
  EXPECT_EQ(rows[6]["aggregate_unit"], "percentage");
  // A skipped case: an aggregate-like row of its own name and no times, which compare.py neither pairs nor
  // takes into its geomean.
  EXPECT_EQ(rows[8]["name"], "fam/gone/64_skipped");
  EXPECT_EQ(rows[8]["run_name"], "fam/gone/64");
  EXPECT_EQ(rows[8]["run_type"], "aggregate");
  EXPECT_TRUE(rows[8]["skipped"].get<bool>());
  EXPECT_EQ(rows[8]["skip_message"], "needs 2 GiB");
  EXPECT_FALSE(rows[8].contains("real_time") || rows[8].contains("cpu_time") || rows[8].contains("time_unit"));
  EXPECT_TRUE(rows[9]["error_occurred"].get<bool>());
  EXPECT_EQ(rows[9]["name"], "fam/broken/64");
  EXPECT_EQ(f.doc["context"]["host_name"], "test");
  EXPECT_EQ(f.doc["context"]["cudabench"]["families"]["fam"]["references"]["cpu"][0], "cpu");
}

TEST(ResultsJson, ATimeUnitForcedForEveryRow) {
  fixture_run f("ms");
  for (const auto& row : f.doc["benchmarks"])
    if (!row.value("skipped", false)) EXPECT_EQ(row["time_unit"], "ms") << row["name"];  // a skipped row has no times
  EXPECT_DOUBLE_EQ(f.doc["benchmarks"][0]["real_time"].get<double>(), 0.002);
  EXPECT_DOUBLE_EQ(parse_run(nlohmann::json(f.doc), "x").find("fam/fast/64")->median_s, 3e-6);
}

TEST(ResultsJson, AggregatesOnlyLeaveOutTheRepetitionsWhereThereAreAggregates) {
  fixture_run f;
  const auto rows = to_json(parse_run(nlohmann::json(f.doc), "memory"), std::nullopt, true)["benchmarks"];
  std::vector<std::string> names;
  for (const auto& row : rows) names.push_back(row["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"fam/fast/64_mean", "fam/fast/64_median", "fam/fast/64_stddev",
                                             "fam/fast/64_cv", "fam/cpu/64", "fam/gone/64_skipped", "fam/broken/64"}));
  const run_result back =
      parse_run(nlohmann::json(to_json(parse_run(nlohmann::json(f.doc), "memory"), std::nullopt, true)), "again");
  EXPECT_TRUE(back.find("fam/fast/64")->aggregates_only);
  EXPECT_NEAR(back.find("fam/fast/64")->median_s, 3e-6, 1e-15);
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
  EXPECT_EQ(r.settings.preset, "quick");
}

// A row Google Benchmark measured (a BENCHMARK() function, a foreign binary's row) keeps the iterations it ran,
// written and read back.
TEST(ResultsJson, GoogleBenchmarkRowsKeepTheIterationsTheyRan) {
  fixture_run f;
  repetition timed;
  timed.real_time_s = 2e-8;
  timed.iterations = 100000;
  f.results["fam/cpu/64"].repetitions = {timed};
  run_settings run;
  const auto doc =
      to_json(make_run_result({{"host_name", "test"}}, device_info{}, run, f.s, f.selected, f.results), std::nullopt);
  const auto& row = doc["benchmarks"][7];
  ASSERT_EQ(row["name"], "fam/cpu/64");
  EXPECT_EQ(row["iterations"], 100000);
  const auto again = to_json(parse_run(nlohmann::json(doc), "memory"), std::nullopt)["benchmarks"][7];
  EXPECT_EQ(again["iterations"], 100000);
  EXPECT_DOUBLE_EQ(again["real_time"].get<double>(), 20.0);
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
  for (const auto& [variant, limit] : {std::pair("fast", "limits/read"), std::pair("gone", "limits/fma")})
    s.cases.push_back({.family = "hist",
                       .variant = variant,
                       .params = "64",
                       .work = {.bytes_read = 1e9},
                       .size = 64,
                       .limit = limit});
  std::vector<const case_def*> selected;
  for (const auto& c : s.cases) selected.push_back(&c);
  auto measured = [](double seconds, double bytes, double flops, double items) {
    case_result m;
    repetition r;
    r.real_time_s = seconds;
    if (bytes > 0) r.counters["bytes_per_second"] = bytes / seconds;
    if (flops > 0) r.counters["flops_per_second"] = flops / seconds;
    if (items > 0) r.counters["items_per_second"] = items / seconds;
    m.repetitions = {r, r, r};
    return m;
  };
  std::map<std::string, case_result> results{
      {"limits/read", measured(2e-3, 4e9, 0, 0)},     // 2 TB/s
      {"limits/fma", measured(0.1, 0, 2e12, 0)},      // 20 TFLOP/s
      {"limits/launch", measured(2e-3, 0, 0, 1000)},  // 2 us a launch
      {"hist/fast/64", measured(1e-3, 1e9, 0, 0)}};   // 1 TB/s: half the read limit
  results["hist/gone/64"] = ended(case_status::failed, "broken");
  run_result run =
      make_run_result(nlohmann::ordered_json::object(), device_info{}, run_settings{}, s, selected, results);
  const auto limits = measured_limits(run);
  ASSERT_EQ(limits.size(), 3u);
  EXPECT_DOUBLE_EQ(limits.at("limits/read").rate, 2e12);
  EXPECT_EQ(limits.at("limits/read").unit, "B/s");
  EXPECT_DOUBLE_EQ(limits.at("limits/fma").rate, 2e13);
  EXPECT_EQ(limits.at("limits/fma").unit, "FLOP/s");
  EXPECT_EQ(limits.at("limits/launch").unit, "1/s");
  apply_limits(run, limits, "this run");
  EXPECT_NEAR(run.find("hist/fast/64")->counters.at("limit_fraction"), 0.5, 1e-12);  // the summary follows
  const nlohmann::ordered_json doc = to_json(run);
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
  s.cases.push_back(
      {.family = "hist", .variant = "fast", .work = {.bytes_read = 1e9}, .size = 64, .limit = "limits/read"});
  std::vector<const case_def*> selected{&s.cases[0]};
  case_result m;
  m.repetitions.push_back(rep(1e-3));
  run_result run =
      make_run_result(nlohmann::ordered_json::object(), device_info{}, run_settings{}, s, selected, {{"hist/fast", m}});
  const std::string before = to_json(run).dump();
  EXPECT_TRUE(measured_limits(run).empty());
  apply_limits(run, {}, "this run");
  EXPECT_EQ(to_json(run).dump(), before);
}

// One writer and one reader of the schema: real H100 runs (with timelines, and merged over two devices) read
// and written again give the same rows (times compared in seconds: the unit rule may differ from the one
// that wrote them) and the same context; the written document reads back into the same document.
namespace {
/// The first place two documents differ ("" when they agree), key order aside and numbers compared to a
/// relative 1e-9 (an aggregate of fractions may be written as the fraction of an aggregate).
std::string first_difference(const nlohmann::json& a, const nlohmann::json& b, const std::string& at = "") {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y)) + 1e-9
               ? ""
               : at + ": " + a.dump() + " vs " + b.dump();
  }
  if (a.type() != b.type() || a.size() != b.size())
    return at + ": " + a.dump().substr(0, 200) + " vs " + b.dump().substr(0, 200);
  if (a.is_object()) {
    for (auto& [key, v] : a.items())
      if (!b.contains(key))
        return at + "." + key + ": missing";
      else if (auto d = first_difference(v, b[key], at + "." + key); !d.empty())
        return d;
    return "";
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (auto d = first_difference(a[i], b[i], at + "[" + std::to_string(i) + "]"); !d.empty()) return d;
    return "";
  }
  return a == b ? "" : at + ": " + a.dump() + " vs " + b.dump();
}

double seconds_of(const nlohmann::ordered_json& row, const char* key) {
  const std::string unit = row["time_unit"];
  const double scale = unit == "ns" ? 1e-9 : unit == "us" ? 1e-6 : unit == "ms" ? 1e-3 : 1;
  return row[key].get<double>() * scale;
}
}  // namespace

TEST(ResultsJson, TheReaderAndTheWriterRoundTripRealRuns) {
  for (const std::string name : {"reports/baselines/NVIDIA_H100_80GB_HBM3/nightly.json"}) {
    const std::string path = std::string(CUDABENCH_SOURCE) + "/" + name;
    nlohmann::ordered_json original = nlohmann::ordered_json::parse(read_file(path));
    const nlohmann::ordered_json written = to_json(load_run(path));
    ASSERT_EQ(written["benchmarks"].size(), original["benchmarks"].size()) << name;
    for (std::size_t i = 0; i < original["benchmarks"].size(); ++i) {
      nlohmann::ordered_json want = original["benchmarks"][i], got = written["benchmarks"][i];
      for (const char* key : {"real_time", "cpu_time"}) {
        if (!want.contains(key)) continue;
        EXPECT_NEAR(seconds_of(got, key), seconds_of(want, key), 1e-12 * std::max(1.0, seconds_of(want, key)) + 1e-18)
            << name << " row " << i;
        want.erase(key);
        got.erase(key);
      }
      want.erase("time_unit");
      got.erase("time_unit");
      // % of limit is a counter of each repetition now, so its cv is written too (earlier files lack it).
      if (got.value("aggregate_name", "") == "cv" && !want.contains("limit_fraction")) got.erase("limit_fraction");
      // A repetition's iterations count the runs it covers now (earlier files say 1).
      if (got.value("run_type", "") == "iteration" && want.value("iterations", 0) == 1) {
        EXPECT_EQ(got["iterations"],
                  got["cudabench"]["samples"].get<std::size_t>() * got["cudabench"]["batch"].get<std::size_t>());
        got.erase("iterations");
        want.erase("iterations");
      }
      EXPECT_EQ(first_difference(got, want), "") << name << " row " << i;
    }
    // A file of an earlier schema version is written as the current one.
    if (original["context"]["cudabench"].contains("schema_version"))
      original["context"]["cudabench"]["schema_version"] = schema::version;
    EXPECT_EQ(first_difference(written["context"], original["context"]), "") << name;
    EXPECT_EQ(first_difference(to_json(parse_run(written, "again")), written), "") << name;
  }
}

// A stored timeline reads back to the nanosecond: written again, every traced row's timeline is the same.
TEST(ResultsJson, TimelinesRoundTrip) {
  const std::string path = std::string(CUDABENCH_FIXTURES) + "/h100_timeline.json";
  const nlohmann::ordered_json original = nlohmann::ordered_json::parse(read_file(path));
  const nlohmann::ordered_json written = to_json(load_run(path));
  ASSERT_EQ(written["benchmarks"].size(), original["benchmarks"].size());
  int traced = 0;
  for (std::size_t i = 0; i < original["benchmarks"].size(); ++i) {
    const auto& want = original["benchmarks"][i];
    if (!want.contains("cudabench") || !want["cudabench"].contains("timeline")) continue;
    ++traced;
    EXPECT_EQ(first_difference(written["benchmarks"][i]["cudabench"]["timeline"], want["cudabench"]["timeline"]), "")
        << "row " << i;
  }
  EXPECT_GT(traced, 5);
}

// A supervisor whose workers finished nothing has no host description: the run is still whole.
TEST(ResultsJson, ARunWithoutAHostDescription) {
  suite s;
  const run_result r = make_run_result(nullptr, device_info{}, run_settings{}, s, {}, {});
  EXPECT_TRUE(r.host.is_object());
  EXPECT_TRUE(to_json(r)["context"].is_object());
}

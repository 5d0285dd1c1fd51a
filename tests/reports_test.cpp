// Tests of reports/: the Markdown golden file, speedup tables, verdict JSON, HTML and trend shifts.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include "harness/atomic_file.hpp"
#include "harness/compare.hpp"
#include "harness/errors.hpp"
#include "reports/csv.hpp"
#include "reports/exports.hpp"
#include "reports/speedup.hpp"
#include "reports/trend.hpp"
#include "reports/render.hpp"
#include "reports/writer.hpp"

using namespace cudabench;

namespace {
const std::string dir = CUDABENCH_FIXTURES;
run_result load_fixture(const std::string& name) { return load_run(dir + "/" + name); }
}  // namespace

TEST(Markdown, MatchesTheGoldenFile) {
  // Sources are given relative to the fixtures so the golden file does not depend on the checkout path.
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_slowed.json");
  base.source = "synthetic_base.json";
  cur.source = "synthetic_slowed.json";
  const std::string got = cudabench::reports::comparison_markdown(compare_runs(base, cur, {}));
  if (std::getenv("CUDABENCH_UPDATE_GOLDEN")) write_file_atomically(dir + "/golden_compare.md", got);
  EXPECT_EQ(got, read_file(dir + "/golden_compare.md"));
}

TEST(Markdown, RegressionsComeFirstAndEverythingIsFolded) {
  const std::string md = cudabench::reports::comparison_markdown(compare_runs(load_fixture("synthetic_base.json"), load_fixture("synthetic_slowed.json"), {}));
  const auto reg = md.find("### Regressions"), details = md.find("<details>");
  ASSERT_NE(reg, std::string::npos);
  ASSERT_NE(details, std::string::npos);
  EXPECT_LT(reg, details);
  EXPECT_EQ(md.find("### Improvements"), std::string::npos);
}

TEST(VerdictJson, IsMachineReadable) {
  auto j = nlohmann::json::parse(cudabench::reports::verdict_json(compare_runs(load_fixture("synthetic_base.json"), load_fixture("synthetic_slowed.json"), {})));
  EXPECT_TRUE(j["regression"].get<bool>());
  EXPECT_EQ(j["counts"]["regression"], 1);
  EXPECT_EQ(j["cases"].size(), 4u);
}

// The verdict file is written a case at a time; its text is still the whole document's, indented as one dump.
TEST(VerdictJson, TheTextOfTheWholeDocument) {
  const run_result timed = load_fixture("h100_timeline.json");
  for (const auto& [base, cur] : {std::pair{load_fixture("synthetic_base.json"), load_fixture("synthetic_slowed.json")},
                                  std::pair{timed, timed}, std::pair{load_fixture("synthetic_base.json"), load_fixture("synthetic_base.json")}}) {
    comparison c = compare_runs(base, cur, {});
    c.cases.front().note = "a note\nof two lines, \"quoted\"";
    const std::string text = cudabench::reports::verdict_json(c);
    EXPECT_EQ(text, nlohmann::ordered_json::parse(text).dump(2) + "\n");
    c.cases.clear();
    const std::string none = cudabench::reports::verdict_json(c);
    EXPECT_EQ(none, nlohmann::ordered_json::parse(none).dump(2) + "\n");
    EXPECT_NE(none.find("\"cases\": []"), std::string::npos);
  }
}

TEST(Html, IsSelfContained) {
  const std::string html = cudabench::reports::comparison_html(compare_runs(load_fixture("synthetic_base.json"), load_fixture("synthetic_slowed.json"), {}));
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // the SVG namespace is the only URL
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(Speedups, UseTheFamilyReferences) {
  run_result r;
  r.source = "synthetic";
  r.families["image"].references = {{"cpu", {"cpu"}}, {"sync", {"rgb_sync", "sync"}}};
  auto add = [&](std::string name, std::string variant, std::string params, double t) {
    case_result c;
    c.name = name; c.family = "image"; c.variant = variant; c.params = params; c.size = 8294400; c.median_s = t;
    c.samples_s = {t};
    r.cases.push_back(c);
  };
  add("image/cpu", "cpu", "", 2e-3);
  add("image/sync", "sync", "", 8e-3);
  add("image/pinned_streams/4", "pinned_streams", "4", 0.5e-3);
  auto tables = cudabench::reports::speedup_tables(r);
  ASSERT_EQ(tables.size(), 1u);
  const auto& rows = tables[0].rows;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].variant, "pinned_streams/4");
  EXPECT_DOUBLE_EQ(rows[2].speedup.at("sync"), 16.0);
  EXPECT_DOUBLE_EQ(rows[2].speedup.at("cpu"), 4.0);
  EXPECT_DOUBLE_EQ(rows[1].speedup.at("sync"), 1.0);
}

TEST(Speedup, DeclaredTablesFollowTheFamilysDeclaration) {
  run_result r;
  r.families["fam"].tables = {{"fam's table", {"seq", "par"}, {"gpu"}}};
  auto add = [&](std::string variant, int n, double t) {
    case_result c;
    c.name = "fam/" + variant + "/" + std::to_string(n); c.family = "fam"; c.variant = variant;
    c.params = std::to_string(n); c.size = n; c.median_s = t; c.samples_s = {t};
    r.cases.push_back(c);
  };
  add("seq", 64, 8e-3);
  add("gpu", 64, 1e-3);
  add("par", 128, 4e-3);   // no sequential case at 128: the parallel one stands in, and is named
  add("gpu", 128, 2e-3);
  add("gpu", 256, 2e-3);   // no base at 256: no row
  const auto tables = cudabench::reports::declared_tables(r);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].title, "fam's table");
  EXPECT_NE(tables[0].markdown.find("| size | seq (ms) | gpu (ms) | gpu speedup |"), std::string::npos) << tables[0].markdown;
  EXPECT_NE(tables[0].markdown.find("| 64 | 8.00 | 1.000 | 8x |"), std::string::npos) << tables[0].markdown;
  EXPECT_NE(tables[0].markdown.find("| 128 | 4.00 (par) | 2.000 | 2x |"), std::string::npos) << tables[0].markdown;
  EXPECT_EQ(tables[0].markdown.find("| 256 |"), std::string::npos);
  r.families["fam"].tables.clear();
  EXPECT_TRUE(cudabench::reports::declared_tables(r).empty()) << "no declaration, no table";
}

TEST(Trend, OneNoisyPointIsNotAShift) {
  std::vector<double> v{1, 1.01, 0.99, 1, 1.5, 1, 1.01, 0.99, 1};
  EXPECT_TRUE(cudabench::reports::sustained_shifts(v, 0.05, 3).empty());
}

TEST(Trend, ASustainedStepIsFlaggedOnce) {
  std::vector<double> v{1, 1.01, 0.99, 1, 1.2, 1.21, 1.19, 1.2, 1.2};
  std::vector<double> sizes;
  auto shifts = cudabench::reports::sustained_shifts(v, 0.05, 3, &sizes);
  ASSERT_EQ(shifts.size(), 1u);
  EXPECT_EQ(shifts[0], 4u);
  EXPECT_NEAR(sizes[0], 0.2, 0.02);
}

TEST(Trend, DirectoryOfRuns) {
  auto t = cudabench::reports::build_trend(dir + "/trend", 0.05, 3);
  EXPECT_EQ(t.runs.size(), 8u);
  std::size_t flagged = 0;
  for (auto& s : t.series) flagged += !s.shifts.empty();
  EXPECT_EQ(flagged, 1u);
  EXPECT_THROW(cudabench::reports::build_trend(dir + "/no_such_dir", 0.05, 3), input_error);
}

// The report draws each traced case's timeline from the H100 run of the image family: the four-stream
// pipeline overlaps, the one-stream one does not; malformed timelines are drawn from what can be read.
TEST(Html, DrawsTracedTimelinesAndSurvivesMalformedOnes) {
  run_result r = load_fixture("h100_timeline.json");
  const auto* one = r.find("image/pinned_streams/1");
  const auto* four = r.find("image/pinned_streams/4");
  ASSERT_TRUE(one && four);
  EXPECT_LT(one->timeline_metrics.at("copy_compute_overlap"), 0.05);
  EXPECT_GT(four->timeline_metrics.at("copy_compute_overlap"), 0.5);
  const std::string page = cudabench::reports::speedups_html(r, cudabench::reports::speedup_tables(r));
  EXPECT_NE(page.find("Timelines of one traced sample"), std::string::npos);
  EXPECT_NE(page.find("image/pinned_streams/4 (copy/compute overlap 100.0%)"), std::string::npos);
  EXPECT_NE(page.find("class=\"op h2d\""), std::string::npos);
  EXPECT_NE(page.find("class=\"op kernel\""), std::string::npos);
  EXPECT_NE(page.find("class=\"op d2h\""), std::string::npos);
  // A malformed stored timeline is read as far as it goes, never an exception.
  nlohmann::json bad = {{"ops", {{{"kind", 7}, {"start_us", "x"}}, "not an op", nullptr}}, {"phases", 3}, {"sample_us", "long"}};
  for (auto& c : r.cases)
    if (c.timeline) c.timeline = cudabench::timeline_from_json(bad);
  EXPECT_EQ(cudabench::timeline_from_json(bad).ops.size(), 1u);
  EXPECT_NO_THROW(cudabench::reports::speedups_html(r, cudabench::reports::speedup_tables(r)));
}

TEST(Csv, QuotesFieldsAndCarriesVerdicts) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_slowed.json");
  cur.cases[0].status = case_status::skipped;
  cur.cases[0].message = "needs 3 GiB, \"only\" 2, free";
  const comparison c = compare_runs(base, cur, {});
  const std::string csv = cudabench::reports::results_csv(cur, &c);
  EXPECT_NE(csv.find(",skipped,,"), std::string::npos);
  EXPECT_NE(csv.find("\"needs 3 GiB, \"\"only\"\" 2, free\""), std::string::npos) << csv;
  EXPECT_NE(csv.find("conv2d/tiled/4096,ok,"), std::string::npos);
  EXPECT_NE(csv.find(",regression,"), std::string::npos);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), std::ptrdiff_t(cur.cases.size() + 1));
}

TEST(Limits, ShownAsPeopleQuoteThemWithWhereTheyCameFrom) {
  cudabench::run_result run;
  run.limits["limits/read"] = {3.03e12, "B/s", "this run"};
  run.limits["limits/fma"] = {5.12e13, "FLOP/s", "reports/baselines/GPU/nightly.json"};
  run.limits["limits/launch"] = {5e5, "1/s", "this run"};
  const std::string md = cudabench::reports::limits_markdown(run);
  EXPECT_NE(md.find("| `limits/read` | 3030.0 GB/s | this run |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `limits/fma` | 51.20 TFLOP/s | reports/baselines/GPU/nightly.json |"), std::string::npos) << md;
  EXPECT_NE(md.find("| `limits/launch` | 2.00 us per launch | this run |"), std::string::npos) << md;
  EXPECT_EQ(cudabench::reports::limits_markdown(cudabench::run_result{}), "");
}

namespace {
/// A run of `variants` variants of one family at one size, `roles` reference roles (role<i> -> v<i>).
run_result many_variants(int variants, int roles) {
  run_result run;
  run.source = "many.json";
  family_refs& fam = run.families["fam"];
  for (int r = 0; r < roles; ++r) fam.references["role" + std::to_string(r)] = {"v" + std::to_string(r % variants)};
  for (int v = 0; v < variants; ++v) {
    case_result c;
    c.name = "fam/v" + std::to_string(v) + "/1024";
    split_case_name(c);
    c.size = 1024;
    c.median_s = 1e-3 * (1 + v % 7);
    c.samples_s = {c.median_s, 1.1 * c.median_s};
    c.counters["items_per_second"] = 1e9;
    run.cases.push_back(std::move(c));
  }
  run.index_cases();
  return run;
}
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

// 2,000 variants and 2,000 declared roles made a 671 MB page: every row against every role.
TEST(Speedups, OverAtMostSixteenRolesSoTheReportFollowsItsInput) {
  const run_result run = many_variants(2000, 2000);
  const auto tables = cudabench::reports::speedup_tables(run);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].references.size(), cudabench::reports::max_speedup_roles);
  EXPECT_EQ(tables[0].roles_left_out, 2000 - cudabench::reports::max_speedup_roles);
  EXPECT_EQ(tables[0].rows[5].speedup.size(), cudabench::reports::max_speedup_roles);
  const std::string html = cudabench::reports::run_html(run);
  EXPECT_LT(html.size(), 20u << 20) << "a page of " << html.size() << " bytes for 2,000 cases";
  EXPECT_NE(html.find("1984 more not shown"), std::string::npos);
  EXPECT_NE(cudabench::reports::run_markdown(run).find("1984 more not shown"), std::string::npos);
  EXPECT_NE(cudabench::reports::run_terminal(run).find("1984 more not shown"), std::string::npos);
}

TEST(Speedups, FewRolesAreAllShown) {
  const auto tables = cudabench::reports::speedup_tables(many_variants(10, 3));
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].references.size(), 3u);
  EXPECT_EQ(tables[0].roles_left_out, 0u);
  EXPECT_EQ(cudabench::reports::run_markdown(many_variants(10, 3)).find("more not shown"), std::string::npos);
}

// The BMF export looked each case up among the members written so far: 100,000 rows took 25 s.
TEST(Exports, BmfIsLinearInTheCases) {
  const run_result run = many_variants(100000, 1);
  const auto start = std::chrono::steady_clock::now();
  const nlohmann::ordered_json bmf = cudabench::reports::bmf_export(run);
  EXPECT_LT(seconds_since(start), 5) << "BMF export of 100,000 cases";
  ASSERT_EQ(bmf.size(), 100000u);
  EXPECT_EQ(bmf.begin().key(), "fam/v0/1024");
  EXPECT_DOUBLE_EQ(bmf["fam/v99999/1024"]["latency"]["value"].get<double>(), 1e-3 * (1 + 99999 % 7) * 1e9);
  EXPECT_TRUE(bmf["fam/v3/1024"].contains("throughput"));
}

TEST(Exports, BmfKeepsOneMemberPerName) {
  run_result run = many_variants(3, 1);
  run.cases.push_back(run.cases[1]);
  run.cases.back().median_s = 42;
  const nlohmann::ordered_json bmf = cudabench::reports::bmf_export(run);
  EXPECT_EQ(bmf.size(), 3u);
  EXPECT_DOUBLE_EQ(bmf["fam/v1/1024"]["latency"]["value"].get<double>(), 42e9);
}

// Tests of reports/: the Markdown golden file, speedup tables, verdict JSON, HTML and trend shifts.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <filesystem>
#include <regex>
#include <sstream>

#include "io/atomic_file.hpp"
#include "analysis/compare.hpp"
#include "io/errors.hpp"
#include "reports/csv.hpp"
#include "reports/exports.hpp"
#include "reports/speedup.hpp"
#include "reports/svg.hpp"
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

// A comparison holding each verdict kind: the headline starts with its one word and names every kind; the kinds
// that need a look (unconfirmed, machine differs, a not-gated case that moved) have sections of their own, "not
// gated" explained with what gates it.
TEST(Markdown, NamesEveryVerdictKindWithItsSections) {
  comparison c;
  for (verdict v : all_verdicts) {
    case_comparison r;
    r.name = std::string("kind/") + to_string(v);
    r.v = v;
    r.base_median_s = 1e-3;
    r.cur_median_s = 1.4e-3;
    r.change = 0.4;
    c.cases.push_back(r);
  }
  std::string md = cudabench::reports::comparison_markdown(c);
  const std::string headline = md.substr(0, md.find("\n- baseline"));
  EXPECT_NE(headline.find("**fail: 1 regression, 1 improvement"), std::string::npos) << headline;
  for (verdict v : all_verdicts)
    EXPECT_NE(headline.find(fmt::format("1 {}", to_string(v))), std::string::npos)
        << to_string(v) << " in " << headline;
  const std::string before_all = md.substr(0, md.find("<details>"));
  for (const char* section : {"### Regressions", "### Improvements", "### Unconfirmed", "### Machine differs",
                              "### Not gated, moved by 5.0% or more"})
    EXPECT_NE(before_all.find(section), std::string::npos) << section;
  for (const char* row :
       {"`kind/unconfirmed`", "`kind/machine differs`", "`kind/machine differs (same code)`", "`kind/not gated`"})
    EXPECT_NE(before_all.find(row), std::string::npos) << row;
  EXPECT_NE(before_all.find("gated only by --host-threshold or by a learned host gate"), std::string::npos);
  c.cases.erase(c.cases.begin());  // no regression: unconfirmed, then pass
  md = cudabench::reports::comparison_markdown(c);
  EXPECT_NE(md.find("**unconfirmed: 1 improvement"), std::string::npos);
  std::erase_if(c.cases, [](const case_comparison& r) { return r.v == verdict::unconfirmed; });
  md = cudabench::reports::comparison_markdown(c);
  EXPECT_NE(md.find("**pass: 1 improvement, 1 unchanged"), std::string::npos);
  EXPECT_EQ(md.substr(0, md.find("\n- baseline")).find(" 0 "), std::string::npos);  // no count that is zero
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

// A step whose latest runs are back near the level before it was an excursion, not a shift: shown as
// returned, never counted (conv2d/cpu_seq/2048 stepped +46.8% and its last run was back below the old level).
TEST(Trend, AStepThatReturnedIsNotSustained) {
  const std::vector<double> excursion{1, 1.01, 0.99, 1, 1.5, 1.51, 1.49, 1, 1.01, 0.99};
  EXPECT_TRUE(cudabench::reports::sustained_shifts(excursion, 0.05, 3).empty());
  const auto steps = cudabench::reports::trend_steps(excursion, 0.05, 3);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_TRUE(steps[0].returned && steps[1].returned);
  const std::vector<double> overshoot{1, 1, 1, 1.47, 1.47, 1.47, 0.88, 0.88, 0.88};
  const auto over = cudabench::reports::trend_steps(overshoot, 0.05, 3);
  ASSERT_EQ(over.size(), 2u);
  EXPECT_TRUE(over[0].returned) << "the latest runs are below the level the +47% step left";
  EXPECT_FALSE(over[1].returned) << "they are 12% below the first level: that step holds";
  const std::vector<double> held{1, 1, 1, 1.2, 1.2, 1.2, 1.19, 1.21};
  const auto kept = cudabench::reports::trend_steps(held, 0.05, 3);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_FALSE(kept[0].returned);
}

namespace {
/// The trend fixture copied into a fresh directory, each case's metadata set by `meta` (name -> its
/// context.cudabench.cases entry).
std::string trend_copy(const std::string& name, const nlohmann::json& meta) {
  const std::string out = ::testing::TempDir() + "/" + name;
  std::filesystem::remove_all(out);
  std::filesystem::create_directories(out);
  for (int night = 0; night < 8; ++night) {
    const std::string file = "/nightly-" + std::to_string(night) + ".json";
    nlohmann::json doc = nlohmann::json::parse(read_file(dir + "/trend" + file));
    doc["context"]["cudabench"]["cases"] = meta;
    write_file_atomically(out + file, doc.dump());
  }
  return out;
}
}  // namespace

// The fixture's conv2d/tiled/4096 steps +15% from the fifth night: declared host-bound, or not gated, it is
// kept apart with no step looked for, as compare never gates it; the family geomean leaves it out.
TEST(Trend, HostBoundAndNotGatedCasesAreKeptApart) {
  const auto gated = cudabench::reports::build_trend(trend_copy("trend_gated", nlohmann::json::object()), 0.05, 3);
  EXPECT_EQ(gated.sustained(), 1u);
  for (const nlohmann::json& meta : {nlohmann::json{{"bound", "host"}}, nlohmann::json{{"bound", "device"}, {"gated", false}}}) {
    const auto t = cudabench::reports::build_trend(trend_copy("trend_apart", {{"conv2d/tiled/4096", meta}}), 0.05, 3);
    EXPECT_EQ(t.sustained(), 0u) << meta.dump();
    const auto s = std::find_if(t.series.begin(), t.series.end(), [](auto& x) { return x.name == "conv2d/tiled/4096"; });
    ASSERT_NE(s, t.series.end());
    EXPECT_EQ(s->apart, meta.contains("gated") ? "not gated" : "host-bound");
    EXPECT_TRUE(s->steps.empty());
    EXPECT_TRUE(std::none_of(t.families.begin(), t.families.end(), [](auto& f) { return f.family == "conv2d"; }));
    const std::string text = cudabench::reports::trend_terminal(t);
    EXPECT_NE(text.find("kept apart: host-bound or not gated"), std::string::npos) << text;
    EXPECT_EQ(text.find("step +"), std::string::npos) << text;
    EXPECT_NE(text.find("\n0 case(s) with a sustained shift"), std::string::npos) << text;
  }
}

// Per family, per run: the geomean of its gated cases' medians over their first; image holds image/sync,
// whose one +40% night does not move the level it ends at.
TEST(Trend, FamilyGeomeansOverTheRuns) {
  const auto t = cudabench::reports::build_trend(dir + "/trend", 0.05, 3);
  ASSERT_EQ(t.dates.size(), 8u);
  EXPECT_EQ(t.dates.front().substr(0, 10), "2026-11-10");
  const auto conv = std::find_if(t.families.begin(), t.families.end(), [](auto& f) { return f.family == "conv2d"; });
  ASSERT_NE(conv, t.families.end());
  EXPECT_EQ(conv->cases, 1u);
  ASSERT_EQ(conv->geomean.size(), 8u);
  EXPECT_DOUBLE_EQ(conv->geomean[0], 1);
  EXPECT_NEAR(conv->geomean[7], 1.15, 0.03);
  EXPECT_NE(cudabench::reports::trend_terminal(t).find("geomean conv2d"), std::string::npos);
}

// The page: a folded section per family, each chart in % of its first run with dates on its x axis; light at
// 500 cases of 60 runs.
TEST(Trend, PageFoldsFamiliesAndStaysLight) {
  const std::string one = cudabench::reports::trend_html(cudabench::reports::build_trend(dir + "/trend", 0.05, 3));
  EXPECT_NE(one.find("<details open><summary>conv2d"), std::string::npos) << "a family with a sustained shift is open";
  EXPECT_NE(one.find("<details><summary>image"), std::string::npos) << "one without is folded";
  EXPECT_NE(one.find(">2026-11-10<"), std::string::npos) << "dates on the x axis";
  EXPECT_NE(one.find(">0%<"), std::string::npos) << "the y axis in percent of the first run";
  EXPECT_EQ(one.find("<script"), std::string::npos);
  cudabench::reports::trend big;
  for (int r = 0; r < 60; ++r) {
    big.runs.push_back("nightly-" + std::to_string(r) + ".json");
    big.dates.push_back(fmt::format("2026-{:02}-{:02}T02:00:00+00:00", 1 + r / 28, 1 + r % 28));
  }
  for (int c = 0; c < 500; ++c) {
    cudabench::reports::trend_series s{fmt::format("fam{}/v{}/1024", c % 10, c), fmt::format("fam{}", c % 10), {}, c % 3 ? "" : "host-bound", {}};
    for (int r = 0; r < 60; ++r) s.medians_s.push_back(1e-3 * (1 + 0.001 * ((r * 7 + c) % 11)));
    big.series.push_back(std::move(s));
  }
  const std::string page = cudabench::reports::trend_html(big);
  EXPECT_LT(page.size(), 1500u * 1024) << "a page of " << page.size() << " bytes for 500 cases of 60 runs";
  std::size_t sections = 0;
  for (std::size_t at = page.find("<details"); at != std::string::npos; at = page.find("<details", at + 1)) ++sections;
  EXPECT_EQ(sections, 10u);
}

// The comparison's page: a folded section per family, open where a case has a verdict to look at; light at
// 500 cases of ten repetitions a side.
TEST(Html, ComparisonFoldsFamiliesAndStaysLight) {
  run_result base = load_fixture("synthetic_base.json");
  base.cases.clear();
  run_result cur = base;
  for (int c = 0; c < 500; ++c) {
    case_result r;
    r.name = fmt::format("fam{}/v{}/1024", c % 10, c);
    split_case_name(r);
    r.host_bound = c % 7 == 0;
    for (int i = 0; i < 10; ++i) r.samples_s.push_back(1e-3 * (1 + 0.001 * i));
    r.median_s = 1e-3 * 1.0045;
    base.cases.push_back(r);
    if (c == 3) {  // fam3 regresses
      for (double& t : r.samples_s) t *= 1.2;
      r.median_s *= 1.2;
    }
    cur.cases.push_back(r);
  }
  base.index_cases();
  cur.index_cases();
  const comparison c = compare_runs(base, cur, {});
  ASSERT_EQ(c.count(verdict::regression), 1u);
  const std::string page = cudabench::reports::comparison_html(c);
  EXPECT_LT(page.size(), 600u * 1024) << "a page of " << page.size() << " bytes for 500 cases";
  EXPECT_NE(page.find("<details open><summary>fam3: 1 regression"), std::string::npos);
  EXPECT_NE(page.find("<details><summary>fam1: "), std::string::npos);
  std::size_t sections = 0;
  for (std::size_t at = page.find("<details"); at != std::string::npos; at = page.find("<details", at + 1)) ++sections;
  EXPECT_EQ(sections, 10u);
}

TEST(Trend, DirectoryOfRuns) {
  auto t = cudabench::reports::build_trend(dir + "/trend", 0.05, 3);
  EXPECT_EQ(t.runs.size(), 8u);
  std::size_t flagged = 0;
  for (auto& s : t.series) flagged += s.sustained();
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

// Ten repetitions in five rounds: the statistics compare the five rounds' medians, and the exports say ten.
TEST(Exports, CountRepetitionsNotRounds) {
  run_result run = many_variants(1, 1);
  case_result& c = run.cases.front();
  c.repetitions.clear();
  for (int i = 0; i < 10; ++i) {
    repetition r;
    r.real_time_s = 1e-3 * (1 + 0.01 * i);
    r.record = run_record{};
    r.record->round = 1 + i / 2;
    c.repetitions.push_back(r);
  }
  summarize_case(c);
  ASSERT_EQ(c.rounds, 5u);
  ASSERT_EQ(c.samples_s.size(), 5u);
  EXPECT_EQ(cudabench::reports::repetition_count(c), 10u);
  const nlohmann::ordered_json gab = cudabench::reports::gab_export(run);
  EXPECT_EQ(gab[0]["extra"], "10 repetition(s) in 5 rounds");
  std::istringstream csv(cudabench::reports::results_csv(run));
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  auto column = [](const std::string& line, int n) {
    std::size_t from = 0;
    for (int k = 0; k < n; ++k) from = line.find(',', from) + 1;
    return line.substr(from, line.find(',', from) - from);
  };
  ASSERT_EQ(column(header, 3), "repetitions");
  EXPECT_EQ(column(row, 3), "10") << row;
}

namespace {
/// The bars (x, width) of an SVG chart: its rects but the background.
std::vector<std::pair<double, double>> svg_bars(const std::string& svg) {
  std::vector<std::pair<double, double>> out;
  const std::regex bar(R"re(<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it)
    out.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  return out;
}
}  // namespace

// The comparison's geomean bars start at 1, on a scale where a 2% change is a bar of its own (a bar from 0 to
// 1.02 would differ from one to 1.00 by 2% of its length).
TEST(Svg, RatioBarsAreDrawnAroundOne) {
  namespace svg = cudabench::reports::svg;
  const auto bars = svg_bars(svg::ratio_bars("geomeans", {{"slower", 1.02}, {"faster", 0.98}, {"same", 1.0}}));
  ASSERT_EQ(bars.size(), 3u);
  const double one = bars[2].first;  // the unchanged family's bar is a hairline at 1
  EXPECT_LT(bars[2].second, 1);
  EXPECT_NEAR(bars[0].first, one, 0.1);                     // from 1 to the right
  EXPECT_NEAR(bars[1].first + bars[1].second, one, 0.2);    // from 1 to the left
  EXPECT_GT(bars[0].second, 60);
  EXPECT_NEAR(bars[0].second, bars[1].second, 0.2);
  // A change far beyond the least span widens the axis: the bars still start at 1 and the small one stays seen.
  const auto wide = svg_bars(svg::ratio_bars("geomeans", {{"a", 1.02}, {"b", 1.5}}));
  ASSERT_EQ(wide.size(), 2u);
  EXPECT_NEAR(wide[0].first, wide[1].first, 0.1);
  EXPECT_GT(wide[0].second, 10);
  // The comparison page draws its geomeans so: synthetic_slowed's conv2d family is 1.098x, its others within 1%.
  const std::string html = cudabench::reports::comparison_html(compare_runs(load_fixture("synthetic_base.json"), load_fixture("synthetic_slowed.json"), {}));
  const std::size_t chart = html.find("Geometric mean current/baseline per family");
  ASSERT_NE(chart, std::string::npos);
  const auto page = svg_bars(html.substr(chart, html.find("</svg>", chart) - chart));
  ASSERT_GE(page.size(), 2u);
  for (const auto& [x, w] : page) EXPECT_GT(x, 230 + 50) << "a bar starts at 1, not at 0 (the axis' left end)";
}

// A label too long for its place loses its middle: two models' columns "... (nightly-h100b-1.json)" and
// "... (nightly-h100g-1.json)" stay told apart; UTF-8 is never cut inside a character.
TEST(Svg, LabelsTooLongLoseTheirMiddle) {
  namespace svg = cudabench::reports::svg;
  EXPECT_EQ(svg::fit("conv2d/tiled/4096", 300), "conv2d/tiled/4096");
  const std::string b = svg::fit("NVIDIA H100 80GB HBM3 (nightly-h100b-1.json)", 130), g = svg::fit("NVIDIA H100 80GB HBM3 (nightly-h100g-1.json)", 130);
  EXPECT_NE(b, g);
  EXPECT_EQ(b.rfind("NVIDIA", 0), 0u);
  EXPECT_NE(b.find("\u2026"), std::string::npos);
  EXPECT_EQ(b.substr(b.size() - 6), ".json)");
  const std::string wide = svg::fit(std::string(40, 'a') + "\u00e9\u00e9\u00e9\u00e9" + std::string(40, 'b'), 100);
  EXPECT_EQ(nlohmann::json(wide).dump().find("\\u"), std::string::npos) << "valid UTF-8";
}

// Tests of reports/fleet.*: runs of two GPU models side by side (ratio, % of limit, missing, verdicts), how a
// directory names its run and verdict file, the devices of a --devices run, and each rendering.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "reports/fleet.hpp"
#include "reports/render.hpp"
#include "reports/verdict_file.hpp"

using namespace cudabench;
using namespace cudabench::reports;
using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {
struct synthetic_case {
  double median_us;
  std::optional<double> limit_fraction;
};

/// A run of `model` (Google Benchmark's schema with our context): three repetitions a case around its median.
json run_of(const std::string& model, const std::string& preset, const std::string& host,
            const std::map<std::string, synthetic_case>& cases) {
  json benchmarks = json::array();
  for (const auto& [name, c] : cases)
    for (int i = 0; i < 3; ++i) {
      json row = {{"name", name}, {"run_name", name}, {"run_type", "iteration"}, {"repetitions", 3}, {"repetition_index", i},
                  {"threads", 1}, {"iterations", 1}, {"real_time", c.median_us * (1 + 0.01 * (i - 1))},
                  {"cpu_time", c.median_us}, {"time_unit", "us"}};
      if (c.limit_fraction) row["limit_fraction"] = *c.limit_fraction * (1 - 0.01 * (i - 1));
      benchmarks.push_back(row);
    }
  return {{"context",
           {{"date", "2026-11-22T00:00:00+00:00"}, {"host_name", host},
            {"device", {{"available", true}, {"name", model}, {"compute_capability", "9.0"}}},
            {"cudabench", {{"schema_version", 1}, {"preset", preset}, {"repetitions", 3}, {"git_revision", "abc"}, {"host_name", host}}}}},
          {"benchmarks", benchmarks}};
}

json verdicts_of(bool failing, const std::map<std::string, std::string>& v) {
  json cases = json::array();
  for (const auto& [name, verdict] : v) cases.push_back({{"name", name}, {"verdict", verdict}});
  return {{"schema_version", 2}, {"failing", failing}, {"counts", {{"regression", failing ? 1 : 0}}}, {"cases", cases}};
}

class FleetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() / ("fleet_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root);
  }
  void TearDown() override { fs::remove_all(root); }
  std::string write(const std::string& rel, const json& j) {
    const fs::path p = root / rel;
    fs::create_directories(p.parent_path());
    write_file_atomically(p.string(), j.dump(1));
    return p.string();
  }
  /// Model A: fast/1 20 us at 50% of its limit, slow/1 100 us; model B: fast/1 10 us at 80%, no slow/1, extra/1.
  std::vector<std::string> two_models() {
    return {write("a.json", run_of("Model A", "nightly", "host-a", {{"fam/fast/1", {20, 0.5}}, {"fam/slow/1", {100, std::nullopt}}})),
            write("b.json", run_of("Model B", "nightly", "host-b", {{"fam/fast/1", {10, 0.8}}, {"other/extra/1", {5, std::nullopt}}}))};
  }
  fs::path root;
};

const fleet_row& row(const fleet& f, const std::string& name) {
  for (const fleet_row& r : f.rows)
    if (r.name == name) return r;
  throw std::runtime_error("no row " + name);
}
}  // namespace

TEST_F(FleetTest, RatioLimitAndMissingPerModel) {
  const fleet f = build_fleet(fleet_members(two_models()));
  ASSERT_EQ(f.members.size(), 2u);
  EXPECT_EQ(f.members[0].label, "Model A");
  EXPECT_EQ(f.reference, 0u);
  const fleet_row& fast = row(f, "fam/fast/1");
  EXPECT_NEAR(fast.cells[0].median_s, 20e-6, 1e-12);
  EXPECT_NEAR(fast.cells[0].ratio, 1.0, 1e-9);
  EXPECT_NEAR(fast.cells[1].ratio, 0.5, 1e-9);               // B takes half A's time
  EXPECT_NEAR(fast.cells[0].limit_fraction, 0.5, 1e-9);      // each against its own limit
  EXPECT_NEAR(fast.cells[1].limit_fraction, 0.8, 1e-9);
  EXPECT_GT(fast.cells[0].noise, 0);
  EXPECT_EQ(row(f, "fam/slow/1").cells[1].status_name(), "missing");
  EXPECT_LT(row(f, "fam/slow/1").cells[1].ratio, 0);
  EXPECT_LT(row(f, "fam/slow/1").cells[0].limit_fraction, 0);  // names no limit
  EXPECT_EQ(row(f, "other/extra/1").cells[0].status_name(), "missing");
  EXPECT_EQ(f.rows.size(), 3u);
  EXPECT_NEAR(f.family_ratios().at("fam")[1], 0.5, 1e-9);
  EXPECT_FALSE(f.failing());
}

TEST_F(FleetTest, ReferenceByNameOrSlugAndUnknownRefused) {
  const fleet by_slug = build_fleet(fleet_members(two_models()), "Model_B");
  EXPECT_EQ(by_slug.reference, 1u);
  EXPECT_NEAR(row(by_slug, "fam/fast/1").cells[0].ratio, 2.0, 1e-9);
  EXPECT_EQ(build_fleet(fleet_members(two_models()), "model b").reference, 1u);
  EXPECT_THROW(build_fleet(fleet_members(two_models()), "Model C"), usage_error);
}

TEST_F(FleetTest, DirectoryGivesItsNewestNightlyAndItsVerdicts) {
  write("a/runs/nightly-20261101T000000Z.json", run_of("Model A", "nightly", "h", {{"fam/fast/1", {99, 0.1}}}));
  write("a/runs/nightly-20261102T000000Z.json", run_of("Model A", "nightly", "h", {{"fam/fast/1", {20, 0.5}}, {"fam/slow/1", {100, std::nullopt}}}));
  write("a/verdict-20261102T000000Z.json", verdicts_of(true, {{"fam/fast/1", "regression"}, {"fam/slow/1", "unchanged"}}));
  write("b/runs/nightly-20261102T000000Z.json", run_of("Model B", "quick", "h", {{"fam/fast/1", {10, 0.8}}}));
  const fleet f = build_fleet(fleet_members({(root / "a").string(), (root / "b").string()}));
  EXPECT_NEAR(row(f, "fam/fast/1").cells[0].median_s, 20e-6, 1e-12);  // the newer night
  EXPECT_EQ(row(f, "fam/fast/1").cells[0].verdict, "regression");
  EXPECT_EQ(row(f, "fam/slow/1").cells[0].verdict, "unchanged");
  EXPECT_EQ(row(f, "fam/fast/1").cells[1].verdict, "");  // B has no verdict file
  EXPECT_TRUE(f.members[0].failing);
  EXPECT_TRUE(f.failing());
  ASSERT_EQ(f.notes.size(), 1u);  // the presets differ
  EXPECT_NE(f.notes[0].find("different presets"), std::string::npos);
}

TEST_F(FleetTest, LatestLinkIsFollowedToItsStamp) {
  write("a/runs/nightly-20261101T000000Z.json", run_of("Model A", "nightly", "h", {{"fam/fast/1", {20, 0.5}}}));
  write("a/runs/nightly-20261102T000000Z.json", run_of("Model A", "nightly", "h", {{"fam/fast/1", {30, 0.5}}}));
  write("a/verdict-20261101T000000Z.json", verdicts_of(false, {{"fam/fast/1", "improvement"}}));
  fs::create_symlink("runs/nightly-20261101T000000Z.json", root / "a" / "latest.json");
  const fleet f = build_fleet(fleet_members({(root / "a").string()}));
  EXPECT_NEAR(row(f, "fam/fast/1").cells[0].median_s, 20e-6, 1e-12);
  EXPECT_EQ(row(f, "fam/fast/1").cells[0].verdict, "improvement");
}

TEST_F(FleetTest, TwoRunsOfOneModelAreBothKept) {
  const std::string a1 = write("a1.json", run_of("Model A", "nightly", "host-1", {{"fam/fast/1", {20, 0.5}}}));
  const std::string a2 = write("a2.json", run_of("Model A", "nightly", "host-2", {{"fam/fast/1", {22, 0.45}}}));
  const fleet f = build_fleet(fleet_members({a1, a2}));
  ASSERT_EQ(f.members.size(), 2u);
  EXPECT_EQ(f.members[0].label, "Model A (host-1)");
  EXPECT_EQ(f.members[1].label, "Model A (host-2)");
  const fleet same_host = build_fleet(fleet_members({a1, a1}));
  EXPECT_NE(same_host.members[0].label, same_host.members[1].label);
}

TEST_F(FleetTest, RunOfSeveralDevicesGivesAColumnEach) {
  json merged = run_of("Model A", "nightly", "h", {{"dev0/fam/fast/1", {20, 0.5}}, {"dev1/fam/fast/1", {10, 0.9}}});
  json dev0 = merged["context"]["device"], dev1 = {{"available", true}, {"name", "Model B"}, {"compute_capability", "9.0"}};
  dev0["ordinal"] = 0;
  dev1["ordinal"] = 1;
  const json lost = {{"ordinal", 2}, {"available", false}, {"problem", "exit status 1"}};
  merged["context"]["devices"] = json::array({dev0, dev1, lost});
  const fleet f = build_fleet(fleet_members({write("m.json", merged)}));
  ASSERT_EQ(f.members.size(), 2u);
  EXPECT_EQ(f.members[1].model, "Model B");
  EXPECT_EQ(f.members[1].device, 1);
  EXPECT_NEAR(row(f, "fam/fast/1").cells[1].ratio, 0.5, 1e-9);
  EXPECT_NEAR(row(f, "fam/fast/1").cells[1].limit_fraction, 0.9, 1e-9);
}

TEST_F(FleetTest, BadInputIsAnInputError) {
  EXPECT_THROW(fleet_members({}), usage_error);
  fs::create_directories(root / "empty");
  EXPECT_THROW(fleet_members({(root / "empty").string()}), input_error);
  EXPECT_THROW(fleet_members({write("v.json", verdicts_of(false, {}))}), input_error);
  EXPECT_THROW(fleet_members({(root / "nothing.json").string()}), input_error);
  write("a/runs/nightly-20261102T000000Z.json", run_of("Model A", "nightly", "h", {{"fam/fast/1", {20, 0.5}}}));
  write("a/verdict-20261102T000000Z.json", json{{"cases", 3}});
  EXPECT_THROW(fleet_members({(root / "a").string()}), input_error);
}

TEST_F(FleetTest, EveryFormatShowsTheModelsSideBySide) {
  const std::vector<std::string> files = two_models();
  write("runs/nightly-20261102T000000Z.json", run_of("Model B", "nightly", "host-b", {{"fam/fast/1", {10, 0.8}}}));
  write("verdict-20261102T000000Z.json", verdicts_of(false, {{"fam/fast/1", "unchanged"}}));
  const fleet f = build_fleet(fleet_members({files[0], (root / "runs/nightly-20261102T000000Z.json").string()}));
  const std::string term = fleet_terminal(f), md = fleet_markdown(f), html = fleet_html(f), csv = fleet_csv(f);
  for (const std::string* text : {&term, &md, &html}) {
    EXPECT_NE(text->find("Model A"), std::string::npos);
    EXPECT_NE(text->find("Model B"), std::string::npos);
    EXPECT_NE(text->find("0.500x"), std::string::npos);
    EXPECT_NE(text->find("80.0%"), std::string::npos);
    EXPECT_NE(text->find("missing"), std::string::npos);
    EXPECT_NE(text->find("unchanged"), std::string::npos);
  }
  EXPECT_NE(md.find("| Model B median | noise | % of limit | ratio | verdict |"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(csv.find("fam/fast/1,fam,Model B,Model B,no,ok,10,"), std::string::npos);
  EXPECT_NE(csv.find(",80,0.5,unchanged,,\n"), std::string::npos);
  EXPECT_NE(csv.find("fam/slow/1,fam,Model B,Model B,no,missing,,,,,missing,,\n"), std::string::npos);
  const auto j = nlohmann::json::parse(fleet_json(f));
  EXPECT_EQ(j["kind"], "cudabench fleet");
  EXPECT_EQ(j["reference"], "Model A");
  EXPECT_NEAR(j["cases"][0]["results"][1]["ratio"].get<double>(), 0.5, 1e-9);
  EXPECT_NEAR(j["family_geomean_ratio"]["fam"]["Model B"].get<double>(), 0.5, 1e-9);
}

TEST_F(FleetTest, FamilyGeomeansAreOfTheGatedDeviceCasesAsCompareTakesThem) {
  // fam/fast/1 a device case twice as fast on B; fam/host/1 host-bound and fam/drifts/1 declared not gated, both
  // slower on B: their ratios are shown, and left out of the family's geomean.
  const std::map<std::string, synthetic_case> a_cases = {{"fam/fast/1", {20, std::nullopt}}, {"fam/host/1", {10, std::nullopt}},
                                                         {"fam/drifts/1", {10, std::nullopt}}};
  const std::map<std::string, synthetic_case> b_cases = {{"fam/fast/1", {10, std::nullopt}}, {"fam/host/1", {30, std::nullopt}},
                                                         {"fam/drifts/1", {40, std::nullopt}}};
  const json declared = {{"fam/fast/1", {{"on", "gpu"}, {"bound", "device"}}},
                         {"fam/host/1", {{"on", "gpu"}, {"bound", "host"}}},
                         {"fam/drifts/1", {{"on", "gpu"}, {"bound", "device"}, {"gated", false}}}};
  json a = run_of("Model A", "nightly", "host-a", a_cases), b = run_of("Model B", "nightly", "host-b", b_cases);
  a["context"]["cudabench"]["cases"] = declared;
  b["context"]["cudabench"]["cases"] = declared;
  const fleet f = build_fleet(fleet_members({write("a.json", a), write("b.json", b)}));
  EXPECT_NEAR(row(f, "fam/host/1").cells[1].ratio, 3, 1e-9);
  EXPECT_NEAR(f.family_ratios().at("fam")[1], 0.5, 1e-9);
  EXPECT_NEAR(nlohmann::json::parse(fleet_json(f))["family_geomean_ratio"]["fam"]["Model B"].get<double>(), 0.5, 1e-9);
}

TEST_F(FleetTest, BoardsAndAVerdictAcrossMachinesAreSaid) {
  json a = run_of("Model A", "nightly", "host-a", {{"fam/fast/1", {20, 0.5}}});
  a["context"]["device"]["uuid"] = "GPU-6bf87cc9-3f6e-fa39-5e88-6d6fe8b7080c";
  json b = run_of("Model B", "nightly", "host-b", {{"fam/fast/1", {10, 0.8}}});
  b["context"]["device"]["uuid"] = "GPU-9c0d83c5-f6b0-2746-c834-0f3ebafccacc";
  write("a/runs/nightly-20261102T000000Z.json", a);
  json v = verdicts_of(false, {{"fam/fast/1", "unchanged"}});
  v["machine"] = {{"same_board", false}, {"differences", {{{"fact", "board"}, {"baseline", "GPU-b2c4773f"}, {"current", "GPU-6bf87cc9"}}}}};
  write("a/verdict-20261102T000000Z.json", v);
  write("b/runs/nightly-20261102T000000Z.json", b);
  const fleet f = build_fleet(fleet_members({(root / "a").string(), (root / "b").string()}));
  std::string notes;
  for (const auto& n : f.notes) notes += n + "\n";
  EXPECT_NE(notes.find("boards: Model A GPU-6bf87cc9 on host-a, Model B GPU-9c0d83c5 on host-b"), std::string::npos) << notes;
  EXPECT_NE(notes.find("compared runs of different machines (board differ)"), std::string::npos) << notes;
}

// Runs of different revisions: a ratio between them may be the code's, which the notes say, naming each
// run's revision (a dirty tree as its own); runs of one revision say nothing of it.
TEST_F(FleetTest, DifferentRevisionsAreSaid) {
  auto revision_note = [](const fleet& f) {
    for (const std::string& n : f.notes)
      if (n.find("different revisions") != std::string::npos) return n;
    return std::string();
  };
  EXPECT_EQ(revision_note(build_fleet(fleet_members(two_models()))), "");
  json a = run_of("Model A", "nightly", "host-a", {{"fam/fast/1", {20, 0.5}}});
  json b = run_of("Model B", "nightly", "host-b", {{"fam/fast/1", {10, 0.8}}});
  a["context"]["cudabench"]["git_revision"] = "1111111111111111111111111111111111111111";
  b["context"]["cudabench"]["git_revision"] = "2222222222222222222222222222222222222222";
  const std::string note = revision_note(build_fleet(fleet_members({write("ra.json", a), write("rb.json", b)})));
  EXPECT_NE(note.find("runs of 2 different revisions (Model A 111111111111, Model B 222222222222)"), std::string::npos) << note;
  b["context"]["cudabench"]["git_revision"] = a["context"]["cudabench"]["git_revision"];
  b["context"]["cudabench"]["git_dirty"] = true;
  const std::string dirty = revision_note(build_fleet(fleet_members({write("da.json", a), write("db.json", b)})));
  EXPECT_NE(dirty.find("Model B 111111111111 (dirty)"), std::string::npos) << dirty;
  EXPECT_NE(fleet_terminal(build_fleet(fleet_members({write("ta.json", a), write("tb.json", b)}))).find("different revisions"), std::string::npos);
}

TEST_F(FleetTest, VerdictFileReadIntoItsStruct) {
  const json doc = {{"schema_version", 3},
                    {"failing", true},
                    {"counts", {{"regression", 1}, {"unchanged", 2}, {"improvement", 0}}},
                    {"machine", {{"same_board", false}, {"differences", {{{"fact", "GPU clock"}, {"baseline", "a"}, {"current", "b"}}}}}},
                    {"cases", {{{"name", "fam/fast/1"}, {"verdict", "regression"}}, {{"name", "fam/slow/1"}, {"verdict", "unchanged"}}}}};
  const verdict_file v = read_verdict_file(write("verdict.json", doc));
  EXPECT_EQ(v.schema_version, 3);
  EXPECT_TRUE(v.failing);
  ASSERT_EQ(v.verdicts.size(), 2u);
  EXPECT_EQ(v.verdicts[0], (std::pair<std::string, std::string>{"fam/fast/1", "regression"}));
  EXPECT_EQ(v.counts, (std::vector<std::pair<std::string, std::size_t>>{{"regression", 1}, {"unchanged", 2}}));
  EXPECT_EQ(v.machine_differences, std::vector<std::string>{"GPU clock"});
  json newer = doc;
  newer["schema_version"] = reports::verdict_schema_version + 1;
  EXPECT_THROW(read_verdict_file(write("newer.json", newer)), input_error);
  json no_cases = doc;
  no_cases.erase("cases");
  EXPECT_THROW(read_verdict_file(write("no_cases.json", no_cases)), input_error);
}

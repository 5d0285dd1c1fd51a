// Tests of harness/results: reading Google Benchmark JSON (ours, 1.7, 1.8, foreign) and rejecting bad input.
#include "harness/results.hpp"

#include <gtest/gtest.h>

#include "harness/errors.hpp"

using namespace cudabench;

namespace {
std::string fixture_path(const std::string& name) { return std::string(CUDABENCH_FIXTURES) + "/" + name; }

/// The input_error's message for a bad file ("" when it loads).
std::string load_error(const std::string& name) {
  try {
    load_run(fixture_path(name));
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Results, CanonicalNamesDropGoogleBenchmarkSuffixes) {
  EXPECT_EQ(canonical_case_name("image/sync/iterations:1/repeats:10/manual_time"), "image/sync");
  EXPECT_EQ(canonical_case_name("conv2d/tiled/4096/min_time:0.500/real_time"), "conv2d/tiled/4096");
  EXPECT_EQ(canonical_case_name("BM_Foo/8"), "BM_Foo/8");
}

TEST(Results, ReadsRepetitionsAndTheDevice) {
  run_result r = load_run(fixture_path("synthetic_base.json"));
  ASSERT_TRUE(r.device);
  EXPECT_EQ(r.device->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.settings.preset, "nightly");
  const case_result* c = r.find("conv2d/tiled/4096");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->family, "conv2d");
  EXPECT_EQ(c->variant, "tiled");
  EXPECT_EQ(c->params, "4096");
  EXPECT_EQ(c->samples_s.size(), 10u);
  EXPECT_NEAR(c->median_s, 144e-6, 3e-6);
  EXPECT_FALSE(c->aggregates_only);
}

TEST(Results, GoogleBenchmark17ErrorRow) {
  run_result r = load_run(fixture_path("gbench17_single.json"));
  EXPECT_FALSE(r.device);
  const case_result* broken = r.find("BM_Broken");
  ASSERT_NE(broken, nullptr);
  EXPECT_EQ(broken->status, case_status::failed);
  EXPECT_EQ(broken->message, "it broke");
  EXPECT_EQ(r.find("image/sync")->samples_s.size(), 1u);
}

TEST(Results, GoogleBenchmark18SkipsAndAggregatesOnly) {
  run_result r = load_run(fixture_path("gbench18_aggregates.json"));
  const case_result* skipped = r.find("BM_NeedsGPU");
  ASSERT_NE(skipped, nullptr);
  EXPECT_EQ(skipped->status, case_status::skipped);
  EXPECT_EQ(skipped->message, "no GPU");
  const case_result* c = r.find("image/sync");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->aggregates_only);
  EXPECT_GT(c->median_s, 0);
}

TEST(Results, BadInputsNameTheFileAndTheProblem) {
  EXPECT_NE(load_error("does_not_exist.json").find("no such file"), std::string::npos);
  EXPECT_NE(load_error("bad_invalid.json").find("invalid JSON"), std::string::npos);
  EXPECT_NE(load_error("bad_nan_time.json").find("not a positive number (NaN"), std::string::npos);
  EXPECT_NE(load_error("bad_not_benchmark.json").find("not Google Benchmark output"), std::string::npos);
  EXPECT_NE(load_error("bad_empty.json").find("no results"), std::string::npos);
  EXPECT_NE(load_error("bad_negative_time.json").find("not a positive number"), std::string::npos);
  EXPECT_NE(load_error("bad_zero_time.json").find("not a positive number"), std::string::npos);
  EXPECT_NE(load_error("bad_unknown_unit.json").find("unknown time_unit 'fortnights'"), std::string::npos);
  EXPECT_NE(load_error("bad_duplicate.json").find("duplicate case name 'a/b'"), std::string::npos);
  for (const char* f : {"bad_invalid.json", "bad_empty.json", "bad_duplicate.json"})
    EXPECT_NE(load_error(f).find(f), std::string::npos) << "message names the file";
}

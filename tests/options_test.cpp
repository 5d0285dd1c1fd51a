// Tests of harness/options and presets: the runner's command line.
#include "app/options.hpp"

#include <gtest/gtest.h>

#include "cudabench/presets.hpp"

using namespace cudabench;
using namespace cudabench::app;

TEST(Options, Defaults) {
  run_options o = parse_run_options({});
  EXPECT_EQ(o.filter, ".");
  EXPECT_EQ(o.preset, "quick");
  EXPECT_FALSE(o.json_path);
  EXPECT_FALSE(o.list);
}

TEST(Options, BothSpellingsOfValues) {
  run_options o = parse_run_options({"--filter=conv", "--json", "out.json", "--preset", "nightly", "--repetitions=3", "--list"});
  EXPECT_EQ(o.filter, "conv");
  EXPECT_EQ(*o.json_path, "out.json");
  EXPECT_EQ(o.preset, "nightly");
  EXPECT_EQ(*o.repetitions, 3);
  EXPECT_TRUE(o.list);
}

TEST(Options, GoogleBenchmarkFlagsKeepTheirMeaningOrAreRefused) {
  run_options o = parse_run_options({"--benchmark_filter=conv", "--benchmark_repetitions=4", "--benchmark_min_time=0.5s",
                                     "--benchmark_min_warmup_time=0.1", "--benchmark_time_unit=ms", "--benchmark_out=r.json"});
  EXPECT_EQ(o.filter, "conv");
  EXPECT_EQ(*o.repetitions, 4);
  EXPECT_DOUBLE_EQ(*o.min_time_s, 0.5);
  EXPECT_DOUBLE_EQ(*o.warmup_s, 0.1);
  EXPECT_EQ(*o.time_unit, "ms");
  EXPECT_EQ(*o.json_path, "r.json");
  o = parse_run_options({"--benchmark_out=r.csv", "--benchmark_out_format=csv"});
  EXPECT_EQ(*o.csv_path, "r.csv");
  EXPECT_FALSE(o.json_path);
  EXPECT_EQ(*parse_run_options({"--benchmark_format=json"}).json_path, "-");
  EXPECT_EQ(*parse_run_options({"--benchmark_format=csv"}).csv_path, "-");
  o = parse_run_options({"--benchmark_list_tests"});
  EXPECT_TRUE(o.list && o.list_names_only);
  EXPECT_FALSE(parse_run_options({"--benchmark_list_tests=false"}).list);
  for (const char* bad : {"--benchmark_color=false", "--benchmark_enable_random_interleaving=true", "--benchmark_min_time=100x",
                          "--benchmark_out_format=console", "--benchmark_format=tabular", "--benchmark_time_unit=min",
                          "--benchmark_out_format=json", "--benchmark_repetitions=0"})
    EXPECT_THROW(parse_run_options({bad}), usage_error) << bad;
  EXPECT_THROW(parse_run_options({"--json=-", "--csv=-"}), usage_error);
}

TEST(Options, CompareSettings) {
  run_options o = parse_run_options({"--compare-to=auto", "--threshold=3", "--alpha=0.05", "--allow-device-mismatch", "--save-baseline"});
  EXPECT_EQ(*o.compare_to, "auto");
  EXPECT_DOUBLE_EQ(*o.threshold_pct, 3);
  EXPECT_DOUBLE_EQ(*o.alpha, 0.05);
  EXPECT_TRUE(o.allow_device_mismatch);
  EXPECT_TRUE(o.save_baseline);
}

TEST(Options, BadInputIsAUsageError) {
  EXPECT_THROW(parse_run_options({"--frobnicate"}), usage_error);
  EXPECT_THROW(parse_run_options({"--preset=huge"}), usage_error);
  EXPECT_THROW(parse_run_options({"--repetitions=0"}), usage_error);
  EXPECT_THROW(parse_run_options({"--repetitions=ten"}), usage_error);
  EXPECT_THROW(parse_run_options({"--json"}), usage_error);
  EXPECT_THROW(parse_run_options({"--filter="}), usage_error);
  EXPECT_THROW(parse_run_options({"--alpha=2"}), usage_error);
  EXPECT_THROW(parse_run_options({"--threshold=-1"}), usage_error);
}

TEST(Options, InjectSlowdownAndCache) {
  run_options o = parse_run_options({"--inject-slowdown=conv2d/tiled/4096:5", "--cache=hot"});
  EXPECT_EQ(*o.inject_regex, "conv2d/tiled/4096");
  EXPECT_DOUBLE_EQ(o.inject_pct, 5);
  EXPECT_EQ(o.cache, "hot");
  EXPECT_EQ(*parse_run_options({"--inject-slowdown=a:b:10"}).inject_regex, "a:b");  // the last colon splits
  EXPECT_THROW(parse_run_options({"--inject-slowdown=conv2d("}), usage_error);       // no percentage
  EXPECT_THROW(parse_run_options({"--inject-slowdown=conv2d(:5"}), usage_error);     // bad regex
  EXPECT_THROW(parse_run_options({"--inject-slowdown=conv2d:1001"}), usage_error);   // outside 0-1000
  EXPECT_THROW(parse_run_options({"--inject-slowdown=conv2d:-1"}), usage_error);
  EXPECT_THROW(parse_run_options({"--inject-slowdown=:5"}), usage_error);
  EXPECT_THROW(parse_run_options({"--cache=warm"}), usage_error);
}

TEST(Options, BlockingKernelIsOnUnlessTurnedOff) {
  EXPECT_FALSE(parse_run_options({}).no_blocking_kernel);
  EXPECT_TRUE(parse_run_options({"--no-blocking-kernel"}).no_blocking_kernel);
  EXPECT_THROW(parse_run_options({"--no-blocking-kernel=1"}), usage_error);
}

TEST(Options, TraceNeedsAFile) {
  EXPECT_EQ(*parse_run_options({"--trace=t.json"}).trace_path, "t.json");
  EXPECT_EQ(*parse_run_options({"--trace", "t.json"}).trace_path, "t.json");
  EXPECT_FALSE(parse_run_options({}).trace_path);
  EXPECT_THROW(parse_run_options({"--trace="}), usage_error);
  EXPECT_THROW(parse_run_options({"--trace"}), usage_error);
}

TEST(Options, UsageNamesEveryOption) {
  const std::string u = run_usage();
  for (const char* opt : {"--filter", "--json", "--trace", "--list", "--preset", "--repetitions", "--compare-to", "--save-baseline", "--no-blocking-kernel", "--profile", "--benchmark_"})
    EXPECT_NE(u.find(opt), std::string::npos) << opt;
}

TEST(Presets, QuickIsSmallerThanNightly) {
  preset q = preset_by_name("quick"), n = preset_by_name("nightly"), f = preset_by_name("full");
  EXPECT_EQ(q.repetitions, 1);
  EXPECT_GE(n.repetitions, 5);  // enough for the rank test
  EXPECT_LE(q.sampling.max_time_s * q.repetitions, n.sampling.max_time_s * n.repetitions);
  EXPECT_EQ(f.name, "full");  // the key of an axis's values for this preset
  EXPECT_THROW(preset_by_name("slow"), usage_error);
}

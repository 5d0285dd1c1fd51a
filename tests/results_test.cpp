// Tests of results/results: reading Google Benchmark JSON (ours, 1.7, 1.8, foreign) and rejecting bad input.
#include "results/results.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"

using namespace cudabench;

namespace {
std::string fixture_path(const std::string& name) { return std::string(CUDABENCH_FIXTURES) + "/" + name; }

/// The input_error's message for a bad file ("" when it loads).
std::string path_error(const std::string& path) {
  try {
    load_run(path);
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}
std::string load_error(const std::string& name) { return path_error(fixture_path(name)); }
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

namespace {
/// A small valid result document; tests change one field of it.
nlohmann::ordered_json small_run() {
  return nlohmann::ordered_json::parse(R"({"context": {"date": "2026-01-01T00:00:00",
      "device": {"available": true, "name": "G", "compute_capability": "9.0", "sm_count": 132, "sm_clock_mhz": 1980.0,
                 "l2_bytes": 52428800, "driver_version": "13.0", "runtime_version": "13.0"},
      "cudabench": {"schema_version": 1, "preset": "quick"}},
    "benchmarks": [{"name": "a/b/1", "run_name": "a/b/1", "run_type": "iteration", "repetition_index": 0, "threads": 1,
                    "real_time": 1.5, "cpu_time": 1.5, "time_unit": "ms"}]})");
}

/// The input_error's message for a document ("" when it parses).
std::string text_error(const std::string& text) {
  try {
    parse_run_text(text, "t.json");
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}
std::string doc_error(const nlohmann::ordered_json& j) { return text_error(j.dump()); }

/// A private directory for files a test makes, removed with them.
struct scratch_dir {
  std::string path = make_temp_directory("results-test");
  ~scratch_dir() { std::filesystem::remove_all(path); }
};
}  // namespace

TEST(Results, SchemaVersionsOtherThanOneAndTwoAreRefused) {
  EXPECT_EQ(doc_error(small_run()), "");
  for (const char* v : {"3", "0", "-1", "\"1\"", "null", "1.0", "1e+300"}) {
    nlohmann::ordered_json j = small_run();
    j["context"]["cudabench"]["schema_version"] = nlohmann::ordered_json::parse(v);
    const std::string e = doc_error(j);
    EXPECT_NE(e.find("t.json: field 'context.cudabench.schema_version' is " + std::string(v)), std::string::npos) << v << ": " << e;
    EXPECT_NE(e.find("reads versions 1 to 2"), std::string::npos) << e;
  }
  nlohmann::ordered_json plain = small_run();  // Google Benchmark's own output has no version: read as it is
  plain["context"].erase("cudabench");
  EXPECT_EQ(doc_error(plain), "");
}

TEST(Results, DuplicateKeysAreRefusedNamingTheRowAndKey) {
  std::string text = small_run().dump();
  std::string row_dup = text;
  row_dup.replace(row_dup.find("\"real_time\":1.5"), 15, "\"real_time\":1.5,\"real_time\":2.5");
  EXPECT_EQ(text_error(row_dup), "t.json: row 1: key 'real_time' appears twice in one object (refused: which one is meant?)");
  std::string context_dup = text;
  context_dup.replace(context_dup.find("\"date\""), 6, "\"date\":\"x\",\"date\"");
  EXPECT_NE(text_error(context_dup).find("t.json: key 'context.date' appears twice"), std::string::npos) << text_error(context_dup);
  std::string device_dup = text;
  device_dup.replace(device_dup.find("\"sm_count\""), 10, "\"sm_count\":1,\"sm_count\"");
  EXPECT_NE(text_error(device_dup).find("key 'context.device.sm_count' appears twice"), std::string::npos) << text_error(device_dup);
  // The same key in two objects is no duplicate.
  nlohmann::ordered_json two = small_run();
  two["benchmarks"].push_back(two["benchmarks"][0]);
  two["benchmarks"][1]["name"] = two["benchmarks"][1]["run_name"] = "a/c/1";
  EXPECT_EQ(doc_error(two), "");
}

TEST(Results, TimeBoundsArePrintedAsCompared) {
  nlohmann::ordered_json j = small_run();
  j["benchmarks"][0]["real_time"] = 86400.000001;
  j["benchmarks"][0]["time_unit"] = "s";
  EXPECT_EQ(doc_error(j), "t.json: row 1 ('a/b/1'): a time of 86400.000001 s, outside 1e-12 s to 86400 s");
  j["benchmarks"][0]["real_time"] = 86400;
  EXPECT_EQ(doc_error(j), "");
}

TEST(Results, ContextFieldsOfTheWrongTypeAreNamed) {
  auto error_with = [](auto change) {
    nlohmann::ordered_json j = small_run();
    change(j);
    return doc_error(j);
  };
  EXPECT_EQ(error_with([](auto& j) { j["context"] = 5; }), "t.json: field 'context' is a number where an object is expected");
  EXPECT_EQ(error_with([](auto& j) { j["context"]["cudabench"]["preset"] = 5; }),
            "t.json: field 'context.cudabench.preset' is a number where a string is expected");
  EXPECT_EQ(error_with([](auto& j) { j["context"]["cudabench"]["families"] = 5; }),
            "t.json: field 'context.cudabench.families' is a number where an object is expected");
  EXPECT_EQ(error_with([](auto& j) { j["context"]["date"] = 5; }), "t.json: field 'context.date' is a number where a string is expected");
  EXPECT_EQ(error_with([](auto& j) { j["context"]["device"]["sm_count"] = "many"; }),
            "t.json: field 'context.device.sm_count' is a string where a number is expected");
  EXPECT_EQ(error_with([](auto& j) { j["context"]["device"]["name"] = 5; }),
            "t.json: field 'context.device.name' is a number where a string is expected");
}

TEST(Results, NumbersOutOfRangeAreRefusedBeforeConversion) {
  auto error_with = [](const char* key, nlohmann::ordered_json v) {
    nlohmann::ordered_json j = small_run();
    j["context"]["device"][key] = v;
    return doc_error(j);
  };
  EXPECT_EQ(error_with("sm_clock_mhz", 1e300), "t.json: field 'context.device.sm_clock_mhz' is 1e+300, outside 0 to 1000000");
  EXPECT_EQ(error_with("sm_count", 1e300), "t.json: field 'context.device.sm_count' is 1e+300, outside 0 to 1000000");
  EXPECT_EQ(error_with("sm_count", -1), "t.json: field 'context.device.sm_count' is -1, outside 0 to 1000000");
  EXPECT_NE(error_with("l2_bytes", 1e300).find("field 'context.device.l2_bytes' is 1e+300, outside 0 to"), std::string::npos);
  EXPECT_EQ(error_with("driver_version", "99999999999.9"),
            "t.json: field 'context.device.driver_version' is '99999999999.9', not a version such as 12.4");
  // Counts in rows are read as numbers, never converted to a narrower type: any finite value parses.
  nlohmann::ordered_json j = small_run();
  j["benchmarks"][0]["threads"] = 1e300;
  j["benchmarks"][0]["repetition_index"] = 1e300;
  EXPECT_EQ(doc_error(j), "");
}

TEST(Results, OnlyRegularFilesAreRead) {
  EXPECT_EQ(path_error("/dev/zero"), "/dev/zero: is a character device, not a regular file: refused");
  EXPECT_EQ(path_error("/dev/urandom"), "/dev/urandom: is a character device, not a regular file: refused");
  scratch_dir dir;
  const std::string fifo = dir.path + "/fifo.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // At once, no writer waited for.
  EXPECT_EQ(path_error(fifo), fifo + ": is a FIFO (named pipe), not a regular file: refused (a pipe's output is read as -, "
                                     "standard input)");
  const std::string loop = dir.path + "/loop.json";
  std::filesystem::create_symlink("loop.json", loop);
  EXPECT_EQ(path_error(loop), loop + ": a loop of symbolic links (too many levels)");
  const std::string dangling = dir.path + "/dangling.json";
  std::filesystem::create_symlink("missing.json", dangling);
  EXPECT_EQ(path_error(dangling), dangling + ": a symbolic link to a file that does not exist");
}

TEST(Results, InputsOverTheSizeLimitAreRefused) {
  const std::string path = fixture_path("synthetic_base.json");  // about 20 KB
  ASSERT_EQ(::setenv("CUDABENCH_MAX_INPUT_SIZE", "1K", 1), 0);
  const std::string over = load_error("synthetic_base.json");
  EXPECT_EQ(over, path + ": " + std::to_string(std::filesystem::file_size(path)) +
                      " bytes, over the limit of 1024 bytes on a result file (CUDABENCH_MAX_INPUT_SIZE raises it)");
  ASSERT_EQ(::setenv("CUDABENCH_MAX_INPUT_SIZE", "64K", 1), 0);
  EXPECT_EQ(load_error("synthetic_base.json"), "");
  ASSERT_EQ(::setenv("CUDABENCH_MAX_INPUT_SIZE", "lots", 1), 0);
  EXPECT_EQ(load_error("synthetic_base.json"), "CUDABENCH_MAX_INPUT_SIZE=lots: expected a byte count such as 4G, 512M, 64K or 1000000");
  ASSERT_EQ(::unsetenv("CUDABENCH_MAX_INPUT_SIZE"), 0);
  EXPECT_EQ(max_input_size(), std::uint64_t(4) << 30);
}

// A repetition's counters: in name order as a map iterates, each name once, a name's handle the same from any
// thread (compare reads its two files at once).
TEST(CounterMap, ActsAsAMapInNameOrder) {
  counter_map m = counter_map::from_unsorted({{"zeta", 1}, {"bytes_per_second", 2}, {"alpha", 3}, {"zeta", 4}});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.to_map(), (std::map<std::string, double>{{"alpha", 3}, {"bytes_per_second", 2}, {"zeta", 4}}));
  EXPECT_EQ(m.at("zeta"), 4) << "of a name given twice, the last value";
  EXPECT_EQ(m.count("beta"), 0u);
  EXPECT_EQ(m.find("beta"), m.end());
  EXPECT_THROW(m.at("beta"), std::out_of_range);
  m["beta"] = 5;
  m["alpha"] += 1;
  std::vector<std::string> names;
  for (const auto& [name, v] : m) names.push_back(name.str());
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "beta", "bytes_per_second", "zeta"}));
  EXPECT_EQ(m.at("alpha"), 4);
  EXPECT_EQ(counter_map(m.to_map()), m);
  counter_name here("a counter named in two threads");
  std::thread([&] { EXPECT_TRUE(counter_name("a counter named in two threads") == here); }).join();
  EXPECT_EQ(&here.str(), &counter_name(std::string("a counter named in two threads")).str());
}

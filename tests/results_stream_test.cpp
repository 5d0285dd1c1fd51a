// Tests of the streaming pass of harness/results (parse_run_text): the same model as a parsed tree, and
// large objects read in linear time.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "harness/atomic_file.hpp"
#include "harness/errors.hpp"
#include "harness/results.hpp"
#include "harness/results_json.hpp"

using namespace cudabench;

namespace {
const std::string dir = CUDABENCH_FIXTURES;
std::string fmt_case(int i) {
  return "\"f/v" + std::to_string(i) + "/1\": {\"family\": \"f\", \"on\": \"gpu\", \"size\": 1}";
}
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

TEST(StreamingReader, SameModelAsAParsedTree) {
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".json" || name.rfind("bad_", 0) == 0 || name == "trace_golden.json") continue;
    const std::string text = read_file(e.path().string());
    const run_result streamed = parse_run_text(text, name);
    const run_result tree = parse_run(nlohmann::ordered_json::parse(sanitize_gbench_json(text)), name);
    EXPECT_EQ(to_json(streamed).dump(), to_json(tree).dump()) << name;
    EXPECT_EQ(streamed.selection.size(), tree.selection.size()) << name;
    ++files;
  }
  EXPECT_GE(files, 8);
}

TEST(StreamingReader, ProblemsNamedAsBefore) {
  // A bad row is reported after the document's shape and context are known good, and a syntax error
  // anywhere before any row's problem.
  const std::string bad_row = R"({"context": {}, "benchmarks": [{"name": "a/b", "real_time": -1, "time_unit": "ns"}]})";
  EXPECT_THROW(parse_run_text(bad_row, "f.json"), input_error);
  try {
    parse_run_text(R"({"context": {}, "benchmarks": [{"name": "a/b", "real_time": -1, "time_unit": "ns"}], })", "f.json");
    FAIL();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("invalid JSON"), std::string::npos) << e.what();
  }
  try {
    parse_run_text(R"({"context": {}, "benchmarks": {"name": "a/b"}})", "f.json");
    FAIL();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("no 'benchmarks' array"), std::string::npos) << e.what();
  }
  try {
    parse_run_text(R"({"benchmarks": [], "context": {}})", "f.json");
    FAIL();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("holds no results"), std::string::npos) << e.what();
  }
}

// ordered_json searched an object's keys one by one for each new key: 100,000 described cases or context
// keys made reading quadratic.
TEST(StreamingReader, LargeObjectsInLinearTime) {
  const int n = 200000;
  std::string text = R"({"context": {"cudabench": {"schema_version": 1, "cases": {)";
  for (int i = 0; i < n; ++i) text += (i ? "," : "") + fmt_case(i);
  text += R"(}})";
  for (int i = 0; i < n; ++i) text += ",\"k" + std::to_string(i) + "\": " + std::to_string(i);
  text += R"(}, "benchmarks": [{"name": "f/v/1", "real_time": 1, "time_unit": "us"}]})";
  const auto start = std::chrono::steady_clock::now();
  const run_result r = parse_run_text(text, "large.json");
  EXPECT_LT(seconds_since(start), 10) << "200,000 described cases and 200,000 context keys";
  ASSERT_EQ(r.selection.size(), std::size_t(n));
  EXPECT_EQ(r.selection[12345].name, "f/v12345/1");
  EXPECT_TRUE(r.selection[12345].described);
  EXPECT_EQ(r.host.size(), std::size_t(n));
  EXPECT_EQ(r.host["k199999"], 199999);
}

// Tests of the streaming pass of results/results (parse_run_text, and load_run reading a file in pieces): the
// same model as a parsed tree, and large objects read in linear time.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/json_input.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"

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

// A file is read in pieces as it is parsed (its text never whole in memory): the same model as its text read
// whole, every bad file refused with the same message, and a file with Google Benchmark's bare NaN read whole
// and rewritten as before.
TEST(StreamingReader, FileReadInPiecesGivesTheSameModelAndMessages) {
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    const std::string path = e.path().string();
    std::string whole, pieces;
    try {
      whole = to_json(parse_run_text(read_file(path), path)).dump();
    } catch (const input_error& x) {
      whole = x.what();
    }
    try {
      pieces = to_json(load_run(path)).dump();
    } catch (const input_error& x) {
      pieces = x.what();
    }
    EXPECT_EQ(pieces, whole) << path;
    ++files;
  }
  EXPECT_GE(files, 16);
}

// A row is read from its events where it is an object of scalars and objects; one that holds more (an array, a
// key twice, many members) is handed to a tree part way: the model and the messages are those of a tree.
TEST(StreamingReader, RowsBeyondTheEventsReadAsATree) {
  std::string many = R"({"name": "f/many/1", "real_time": 3, "time_unit": "ns")";
  for (int i = 0; i < 60; ++i) many += ", \"c" + std::to_string(i) + "\": " + std::to_string(i);
  many += "}";
  auto doc = [](const std::string& rows) {
    return R"({"context": {"cudabench": {"cases": {"f/plain/1": {"family": "f", "on": "gpu", "size": 1}}}}, "benchmarks": [)" + rows + "]}";
  };
  const std::string text = doc(R"({"name": "f/plain/1", "real_time": 1.5, "time_unit": "us", "bytes_per_second": 2e9,
    "label": "hot", "cudabench": {"cache": "hot", "samples": 7, "correct": true, "extra": {"deep": {"x": 1}}}},
    {"name": "f/array/1", "real_time": 2, "time_unit": "ms", "tags": [1, {"a": [2]}], "items_per_second": 5,
     "cudabench": {"note": "n", "round": 1}}, )" + many);
  const std::string path = ::testing::TempDir() + "/beyond_events.json";
  write_file_atomically(path, text);
  const std::string tree = to_json(parse_run(nlohmann::ordered_json::parse(text), path)).dump();
  EXPECT_EQ(to_json(parse_run_text(text, path)).dump(), tree);
  EXPECT_EQ(to_json(load_run(path)).dump(), tree);
  auto problem = [&](const std::string& rows) {
    write_file_atomically(path, doc(rows));
    try {
      load_run(path);
    } catch (const input_error& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_EQ(problem(R"({"name": "a/b/1", "real_time": 1, "time_unit": "ns", "cudabench": {"cache": "hot", "cache": "cold"}})"),
            path + ": row 1: key 'cudabench.cache' appears twice in one object (refused: which one is meant?)");
  EXPECT_EQ(problem(R"({"name": "a/b/1", "real_time": 1, "time_unit": "ns", "cudabench": {"round": 1.5}})"),
            path + ": row 1: field 'cudabench.round' is 1.5 where a round number (1 to the run's rounds) is expected");
  EXPECT_EQ(problem(R"({"name": "a/b/1", "run_type": null, "real_time": 1, "time_unit": "ns"})"),
            path + ": not benchmark output we can read ([json.exception.type_error.302] type must be string, but is null)");
  EXPECT_EQ(problem(R"({"name": "a/b/1", "real_time": "1", "time_unit": "ns"})"),
            path + ": row 1 ('a/b/1'): field 'real_time' is a string where a number is expected");
  std::remove(path.c_str());
}

TEST(StreamingReader, ChecksOfTheTextAcrossPieces) {
  const std::string text = R"({"a": [[{"b": "NaN inf [[[[\"]]"}]], "c": null, "d": -1.5e+3, "e": true, "f": false})";
  json_text_scan whole;
  whole.feed(text);
  EXPECT_EQ(whole.deepest(), 4u);
  EXPECT_FALSE(whole.bare_words()) << "words inside strings, null, true, false and exponents are JSON";
  EXPECT_FALSE(whole.nul());
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {  // the same wherever a piece ends
    json_text_scan two;
    two.feed(std::string_view(text).substr(0, cut));
    two.feed(std::string_view(text).substr(cut));
    EXPECT_EQ(two.deepest(), 4u) << cut;
    EXPECT_FALSE(two.bare_words()) << cut;
  }
  for (const std::string word : {"NaN", "-nan", "inf", "-Infinity", "Inf"}) {
    const std::string bare = R"({"x": )" + word + "}";
    for (std::size_t cut = 0; cut <= bare.size(); ++cut) {
      json_text_scan scan;
      scan.feed(std::string_view(bare).substr(0, cut));
      scan.feed(std::string_view(bare).substr(cut));
      EXPECT_TRUE(scan.bare_words()) << bare << " cut at " << cut;
    }
  }
  const char with_nul[] = "{\"a\": \"x\0y\"}";
  json_text_scan nul;
  nul.feed(std::string_view(with_nul, sizeof with_nul - 1));
  EXPECT_TRUE(nul.nul());
}

namespace {
/// Every SAX event as a line of text, to compare two parsers' events.
struct event_log {
  std::string events;
  bool null() { return add("null"); }
  bool boolean(bool v) { return add(v ? "true" : "false"); }
  bool number_integer(std::int64_t v) { return add("int " + std::to_string(v)); }
  bool number_unsigned(std::uint64_t v) { return add("unsigned " + std::to_string(v)); }
  bool number_float(double v, const std::string&) { return add("float " + nlohmann::json(v).dump()); }
  bool string(std::string& v) { return add("string " + v); }
  bool binary(nlohmann::json::binary_t&) { return add("binary"); }
  bool start_object(std::size_t) { return add("{"); }
  bool key(std::string& k) { return add("key " + k); }
  bool end_object() { return add("}"); }
  bool start_array(std::size_t) { return add("["); }
  bool end_array() { return add("]"); }
  template <typename Exception>
  bool parse_error(std::size_t, const std::string&, const Exception&) { return !add("error"); }
  bool add(const std::string& e) {
    events += e + "\n";
    return true;
  }
};
}  // namespace

// The plain reader hands its handler what nlohmann's parser does, or leaves the text to it (false): never
// other events, never a text nlohmann refuses.
TEST(PlainJsonParser, TheEventsOfNlohmannsParserOrNone) {
  const std::string plain[] = {
      R"({"a": [1, -2, 0, -0, 3.5, -1.25e-3, 1E+2, 18446744073709551615, 18446744073709551616, -9223372036854775809],)"
      R"( "b": {"c": null, "d": true, "e": false, "f": "x y", "": ""}, "g": [], "h": {}, "i": [[{}]]})",
      "  [1e-300 , 2.2250738585072014e-308,0.1,123456789012345678901234567890]\r\n\t", "\"text\"", "7", "null",
      R"({"a": 1, "a": 2})"};
  const std::string left[] = {
      "", " ", "{", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\": 1,}", "{1: 2}", "01", "-", "1.", ".5", "1e", "1e+", "+1", "- 1",
      "tru", "nul", "truex", "[true false]", "1e400", "-1e400", "\"a\\nb\"", "\"caf\xc3\xa9\"", "\"a\tb\"", "\"open",
      "[1] 2", "[1]x", "\xef\xbb\xbf[1]", "NaN", "[1, NaN]", "{\"a\": 1}}", "// c\n1", "[\"\x7f\"]", "1e-400"};
  const std::string file = ::testing::TempDir() + "plain.json";
  auto read = [&](const std::string& text, event_log& log) {
    {
      std::ofstream(file, std::ios::binary) << text;
    }
    const int fd = ::open(file.c_str(), O_RDONLY);
    file_pieces in(fd, file, text.size());
    const bool read = plain_json_parser(in, log).parse();
    ::close(fd);
    return read;
  };
  for (const std::string& text : plain) {
    event_log fast, full;
    EXPECT_TRUE(read(text, fast)) << text;
    EXPECT_TRUE(nlohmann::json::sax_parse(text, &full)) << text;
    EXPECT_EQ(fast.events, full.events) << text;
  }
  for (const std::string& text : left) {
    event_log fast, full;
    EXPECT_FALSE(read(text, fast)) << text;
    // What it handed on before it stopped is what nlohmann's parser hands on first.
    nlohmann::json::sax_parse(text, &full, nlohmann::json::input_format_t::json, true);
    EXPECT_EQ(full.events.substr(0, fast.events.size()), fast.events) << text;
  }
  std::remove(file.c_str());
}

// A file larger than a piece (1 MiB), read through the iterator the parser uses.
TEST(StreamingReader, LargeFileReadInPieces) {
  const int n = 20000;
  std::string text = R"({"context": {"cudabench": {"schema_version": 1}}, "benchmarks": [)";
  for (int i = 0; i < n; ++i)
    text += std::string(i ? "," : "") + R"({"name": "f/v/)" + std::to_string(i) + R"(", "real_time": )" + std::to_string(i + 1) +
            R"(, "time_unit": "us", "bytes_per_second": 1e9, "label": ")" + std::string(100, 'x') + "\"}";
  text += "]}";
  ASSERT_GT(text.size(), std::size_t(2) << 20);
  const std::string path = (std::filesystem::temp_directory_path() / ("cudabench_pieces_" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(path) << text;
  const run_result r = load_run(path);
  std::remove(path.c_str());
  ASSERT_EQ(r.cases.size(), std::size_t(n));
  EXPECT_EQ(to_json(r).dump(), to_json(parse_run_text(text, path)).dump());
  EXPECT_DOUBLE_EQ(r.find("f/v/19999")->median_s, 20000e-6);
  EXPECT_EQ(r.find("f/v/7")->counters.at("bytes_per_second"), 1e9);
}

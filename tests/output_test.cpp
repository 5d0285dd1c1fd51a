// Tests of the output path: io/output_sink (files, links, special files, standard output, distinct
// outputs), reports/escape and the writers' multiplexer.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "app/commands.hpp"
#include "app/outputs.hpp"
#include "cli/option_table.hpp"
#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/format.hpp"
#include "io/output_sink.hpp"
#include "reports/energy_report.hpp"
#include "reports/escape.hpp"
#include "reports/render.hpp"
#include "reports/writer.hpp"

using namespace cudabench;
namespace fs = std::filesystem;

namespace {
const std::string fixtures = CUDABENCH_FIXTURES;

/// A private directory, removed with everything in it.
struct scratch {
  std::string dir = make_temp_directory("cudabench-output-test");
  ~scratch() { fs::remove_all(dir); }
  std::string operator/(const std::string& name) const { return dir + "/" + name; }
};

/// Points descriptor `fd` at `file` while alive.
struct redirect {
  int fd, saved;
  redirect(int which, const std::string& file) : fd(which), saved(::dup(which)) {
    std::fflush(stdout);
    const int f = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(f, fd);
    ::close(f);
  }
  ~redirect() {
    std::fflush(stdout);
    ::dup2(saved, fd);
    ::close(saved);
  }
};

/// The current run with one case renamed.
comparison compared_with_name(const std::string& name) {
  run_result run = load_run(fixtures + "/synthetic_base.json");
  run.cases[0].name = name;
  return compare_runs(run, run, {});
}

/// The row of `text` that mentions `needle`.
std::string line_with(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return {};
  const auto start = text.rfind('\n', at) + 1;
  return text.substr(start, text.find('\n', at) - start);
}

/// The number of `|` that end a cell: those not escaped by a backslash.
std::size_t cell_bars(const std::string& row) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < row.size(); ++i) n += row[i] == '|' && (i == 0 || row[i - 1] != '\\');
  return n;
}

/// The live output whose option is `option` (its row in reports::live_formats), or nullptr.
const reports::live_format* live_format_named(std::string_view option) {
  for (const reports::live_format& f : reports::live_formats())
    if (f.option == option) return &f;
  return nullptr;
}
}  // namespace

TEST(OutputSink, ADanglingSymbolicLinkGetsItsTargetWritten) {
  scratch s;
  fs::create_symlink(s / "target.md", s / "link.md");
  output_sink(s / "link.md").write("hello\n");
  EXPECT_TRUE(fs::is_symlink(s / "link.md"));
  EXPECT_EQ(read_file(s / "target.md"), "hello\n");
  output_sink(s / "link.md").write("again\n");  // now the target exists: replaced whole, the link kept
  EXPECT_TRUE(fs::is_symlink(s / "link.md"));
  EXPECT_EQ(read_file(s / "target.md"), "again\n");
}

TEST(OutputSink, ALoopOfLinksIsOneError) {
  scratch s;
  fs::create_symlink(s / "b", s / "a");
  fs::create_symlink(s / "a", s / "b");
  EXPECT_THROW(output_sink(s / "a").write("x"), input_error);
}

TEST(OutputSink, AFullDiskIsAnInputErrorNamingTheFileAndLeavesNothing) {
  try {
    output_sink("/dev/full").write("x");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line";
  }
  scratch s;
  EXPECT_THROW(output_sink(s / "missing-dir/x.md").write("x"), input_error);
  EXPECT_THROW(output_sink(s / "missing-dir/x.md").check(), input_error);
  EXPECT_TRUE(fs::is_empty(s.dir));
}

TEST(OutputSink, DashIsTheRealStandardOutputEvenWhileItIsSetAside) {
  scratch s;
  {
    redirect out(STDOUT_FILENO, s / "stdout"), err(STDERR_FILENO, s / "stderr");
    standard_output_aside aside;
    std::printf("chatter\n");
    output_sink::console().write("terminal\n");
    output_sink("-").write("document\n");
  }
  EXPECT_EQ(read_file(s / "stdout"), "document\n");
  EXPECT_EQ(read_file(s / "stderr"), "chatter\nterminal\n");
  EXPECT_FALSE(fs::exists("-"));
}

TEST(OutputBatch, ReplacesNothingUntilCommitThenEverything) {
  scratch s;
  output_sink(s / "a.md").write("old a\n");
  output_sink(s / "b.csv").write("old b\n");
  {
    output_batch batch;
    output_sink(s / "a.md").write("new a\n");
    output_sink(s / "b.csv").write("new b\n");
    EXPECT_EQ(read_file(s / "a.md"), "old a\n") << "nothing replaced before commit";
    EXPECT_EQ(read_file(s / "b.csv"), "old b\n");
    batch.commit();
  }
  EXPECT_EQ(read_file(s / "a.md"), "new a\n");
  EXPECT_EQ(read_file(s / "b.csv"), "new b\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), fs::directory_iterator()), 2) << "no temporary left";
}

TEST(OutputBatch, WithoutCommitEveryOutputStaysAsItWasAndNoTemporaryIsLeft) {
  scratch s;
  output_sink(s / "a.md").write("old a\n");
  {
    output_batch batch;
    output_sink(s / "a.md").write("new a\n");
    output_sink(s / "c.html").write("new c\n");
  }
  EXPECT_EQ(read_file(s / "a.md"), "old a\n");
  EXPECT_FALSE(fs::exists(s / "c.html"));
  EXPECT_EQ(std::distance(fs::directory_iterator(s.dir), fs::directory_iterator()), 1);
  output_sink(s / "a.md").write("after\n");  // the batch is gone: written at once again
  EXPECT_EQ(read_file(s / "a.md"), "after\n");
}

TEST(OutputBatch, AWriteErrorSaysNoOutputWasReplaced) {
  scratch s;
  output_sink(s / "a.md").write("old a\n");
  output_batch batch;
  output_sink(s / "a.md").write("new a\n");
  try {
    output_sink(s / "missing-dir/v.json").write("x");
    FAIL() << "no error";
  } catch (const input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("missing-dir/v.json: cannot write"), std::string::npos) << what;
    EXPECT_NE(what.find("; no output was replaced"), std::string::npos) << what;
  }
}

TEST(OutputBatch, SpecialFilesAreWrittenInPlaceAndLinksKept) {
  scratch s;
  fs::create_symlink(s / "target.md", s / "link.md");
  output_batch batch;
  output_sink("/dev/null").write("to the device\n");
  output_sink(s / "link.md").write("through the link\n");
  {
    output_batch inner;  // joins the open one: its commit is the outer one's
    output_sink(s / "inner.csv").write("inner\n");
    inner.commit();
  }
  EXPECT_FALSE(fs::exists(s / "inner.csv"));
  batch.commit();
  EXPECT_TRUE(fs::is_symlink(s / "link.md"));
  EXPECT_EQ(read_file(s / "target.md"), "through the link\n");
  EXPECT_EQ(read_file(s / "inner.csv"), "inner\n");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(DistinctOutputs, AnOutputOntoAnInputOrAnotherOutputIsRefused) {
  scratch s;
  write_file_atomically(s / "in.json", "{}");
  fs::create_symlink(s / "in.json", s / "alias.json");
  fs::create_symlink(s / "new.md", s / "to-new.md");
  EXPECT_THROW(check_distinct_outputs({{"--md", s / "in.json"}}, {s / "in.json"}), usage_error);
  EXPECT_THROW(check_distinct_outputs({{"--md", s / "alias.json"}}, {s / "in.json"}), usage_error);
  EXPECT_THROW(check_distinct_outputs({{"--md", s / "new.md"}, {"--html", s / "to-new.md"}}, {}), usage_error);
  EXPECT_THROW(check_distinct_outputs({{"--md", "-"}, {"--csv", "-"}}, {}), usage_error);
  EXPECT_NO_THROW(check_distinct_outputs({{"--md", "/dev/null"}, {"--html", "/dev/null"}}, {"/dev/null"}));
  EXPECT_NO_THROW(
      check_distinct_outputs({{"--md", s / "a.md"}, {"--html", s / "a.html"}, {"--csv", "-"}}, {s / "in.json"}));
}

TEST(Escape, MarkdownCodeSpansAndCellsHoldAnyName) {
  EXPECT_EQ(reports::markdown_code("matmul/tiled/1024"), "`matmul/tiled/1024`");
  EXPECT_EQ(reports::markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(reports::markdown_code("a``b`"), "``` a``b` ```");
  EXPECT_EQ(reports::markdown_code_cell("x|y"), "`x\\|y`");
  EXPECT_EQ(reports::markdown_code("line\nbreak"), "`line\\x0abreak`");
  EXPECT_EQ(reports::markdown_text("*bold* _it_ [link](x) <b> a|b"), "\\*bold\\* \\_it\\_ \\[link\\](x) \\<b\\> a\\|b");
}

TEST(Escape, PrintableShowsControlCharactersEscaped) {
  EXPECT_EQ(printable("a\x1b]0;pwned\x07z"), "a\\x1b]0;pwned\\x07z");
  EXPECT_EQ(printable("csi\xc2\x9b"
                      "2J"),
            "csi\\xc2\\x9b2J");
  EXPECT_EQ(printable("size — 1024 µs"), "size — 1024 µs");
  // A byte of no well-formed UTF-8 character (a lone C1 byte such as 0x9b is a CSI on an 8-bit terminal).
  EXPECT_EQ(printable("raw\x9b"
                      "2J \xff \xe2\x80"),
            "raw\\x9b2J \\xff \\xe2\\x80");
  EXPECT_EQ(printable("overlong \xc0\xaf, surrogate \xed\xa0\x80"), "overlong \\xc0\\xaf, surrogate \\xed\\xa0\\x80");
  EXPECT_EQ(printable("emoji \xf0\x9f\x9a\x80"), "emoji \xf0\x9f\x9a\x80");
  EXPECT_EQ(printable("abcdef", 3), "abc...");
  // Every format starts from it: Markdown and HTML show the same bytes escaped.
  EXPECT_EQ(reports::markdown_text("a\x9b*"), "a\\x9b\\*");
  EXPECT_EQ(reports::markdown_code("a\xc2\x85"), "`a\\xc2\\x85`");
  EXPECT_EQ(reports::html_text("a\xff<"), "a\\xff&lt;");
  // The bidirectional controls (U+202E and the others) would reorder what is shown around them: escaped too.
  EXPECT_EQ(printable("name\xe2\x80\xae"
                      "fdp.exe"),
            "name\\xe2\\x80\\xaefdp.exe");
  EXPECT_EQ(printable("a\xe2\x81\xa6"
                      "b\xe2\x81\xa9"
                      "c\xd8\x9c"
                      "d\xe2\x80\x8f"),
            "a\\xe2\\x81\\xa6b\\xe2\\x81\\xa9c\\xd8\\x9cd\\xe2\\x80\\x8f");
  EXPECT_EQ(reports::markdown_text("x\xe2\x80\xaey"), "x\\xe2\\x80\\xaey");
  EXPECT_EQ(printable("en\xe2\x80\x93"
                      "dash"),
            "en\xe2\x80\x93"
            "dash");  // a neighbour of the controls, kept
}

TEST(Escape, MarkdownTextHasNoLiveMention) {
  EXPECT_EQ(reports::markdown_text("ask @admin"),
            "ask \\@\xe2\x80\x8b"
            "admin");
  // The energy table's reasons (text from the results file) are escaped as the other cells.
  run_result run;
  run.source = "r.json";
  case_result c;
  c.name = "energy/case";
  c.status = case_status::ok;
  c.median_s = 1e-3;
  repetition rep;
  rep.real_time_s = 1e-3;
  rep.record.emplace();
  rep.record->energy.emplace();
  rep.record->energy->absent = "ping @everyone <b>";
  c.repetitions.push_back(rep);
  run.cases.push_back(c);
  run.finish_cases();
  const std::string table = reports::run_energy_table(run, reports::markdown_text);
  EXPECT_EQ(table.find("@everyone"), std::string::npos) << table;
  EXPECT_NE(table.find("ping \\@\xe2\x80\x8b"
                       "everyone \\<b\\>"),
            std::string::npos)
      << table;
}

TEST(Escape, HtmlAndCsvAsBefore) {
  EXPECT_EQ(reports::html_text("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
  EXPECT_EQ(reports::csv_field("plain"), "plain");
  EXPECT_EQ(reports::csv_field("a,\"b\""), "\"a,\"\"b\"\"\"");
}

TEST(Markdown, ACaseNameCannotBreakOutOfItsCodeSpanOrCell) {
  const std::string md = reports::comparison_markdown(compared_with_name("fam/x`y|z/1"));
  const std::string row = line_with(md, "fam/x");
  EXPECT_NE(row.find("| ``fam/x`y\\|z/1`` |"), std::string::npos) << row;
  EXPECT_EQ(cell_bars(row), 11u) << row;  // ten columns
}

TEST(Terminal, ACaseNameCannotRetitleTheTerminal) {
  const std::string text = reports::comparison_terminal(compared_with_name("fam/\x1b]0;pwned\x07/1"), false);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
  EXPECT_NE(text.find("fam/\\x1b]0;pwned\\x07/1"), std::string::npos);
}

TEST(Speedups, NamesAndTitlesAreEscapedInMarkdown) {
  run_result r;
  r.source = "runs/night_1.json";
  r.families["fam"].references = {{"ref|role", {"base"}}};
  r.families["fam"].tables = {{"a *title*", {"base"}, {"x|y"}}};
  for (const std::string variant : {"base", "x|y"}) {
    case_result c;
    c.name = "fam/" + variant + "/8";
    c.family = "fam";
    c.variant = variant;
    c.params = "8";
    c.size = 8;
    c.median_s = 1e-3;
    c.samples_s = {1e-3};
    r.cases.push_back(c);
  }
  const std::string md = reports::run_markdown(r);
  EXPECT_NE(md.find("## Speedups: runs/night\\_1.json"), std::string::npos) << md;
  EXPECT_NE(md.find("speedup vs ref\\|role (`fam/base/8`)"), std::string::npos) << md;
  EXPECT_NE(md.find("| `x\\|y` |"), std::string::npos) << md;
  EXPECT_NE(md.find("### a \\*title\\*"), std::string::npos) << md;
  EXPECT_NE(md.find("| size | base (ms) | x\\|y (ms) | x\\|y speedup |"), std::string::npos) << md;
}

TEST(WriterMultiplex, SendsOneReportToEveryOutput) {
  scratch s;
  reports::writer_multiplex mux;
  // A format made of one rendering, a run as one line, and nothing else.
  mux.add(reports::make_writer("probe", {.run = [](const run_result& run) { return "run " + run.source + "\n"; }}),
          output_sink(s / "a.txt"));
  mux.add(reports::csv_writer(), output_sink(s / "b.csv"));
  mux.check();
  run_result run = load_run(fixtures + "/synthetic_base.json");
  run.source = "r";
  mux.end({.run = &run});
  EXPECT_EQ(read_file(s / "a.txt"), "run r\n");
  EXPECT_EQ(read_file(s / "b.csv").rfind("name,status,median_us", 0), 0u);
  const reports::trend t{};
  EXPECT_THROW(mux.end({.trend_of = &t}), std::logic_error) << "the probe has no trend";
}

/// A writer that says each event: "begin", each case's name, "end".
class event_writer final : public reports::writer {
 public:
  const char* format() const override { return "events"; }
  std::string begin(const reports::run_header& h) override { return "begin " + h.preset + "\n"; }
  std::string case_finished(const reports::finished_case& c) override { return c.result.name + "\n"; }
  std::optional<std::string> end(const reports::report&) const override { return std::string("end\n"); }
};

TEST(WriterMultiplex, AStreamHasEachEventAsItComesAFileTheWholeAtTheEnd) {
  scratch s;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const unique_fd read_end(fds[0]), write_end(fds[1]);
  reports::writer_multiplex mux;
  mux.add(std::make_unique<event_writer>(), output_sink(s / "events.txt"));
  mux.add(std::make_unique<event_writer>(), output_sink("/dev/fd/" + std::to_string(fds[1])));
  auto available = [&] {
    std::string got(4096, '\0');
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    const ssize_t n = ::read(fds[0], got.data(), got.size());
    return n > 0 ? got.substr(0, std::size_t(n)) : std::string();
  };
  mux.begin({.preset = "quick", .cases = 2});
  case_result c;
  c.name = "fam/a/1";
  mux.case_finished({c, 1, 1, 2});
  EXPECT_EQ(available(), "begin quick\nfam/a/1\n") << "the stream has each event as it comes";
  EXPECT_FALSE(fs::exists(s / "events.txt")) << "a file is written whole at the end";
  c.name = "fam/b/2";
  mux.case_finished({c, 1, 2, 2});
  mux.end({});
  EXPECT_EQ(available(), "fam/b/2\nend\n");
  EXPECT_EQ(read_file(s / "events.txt"), "begin quick\nfam/a/1\nfam/b/2\nend\n");
}

TEST(WriterMultiplex, WritesByOrderSaysEachOrderOnceWrittenAndAStoppedRunItsOwnOutputs) {
  scratch s;
  reports::writer_multiplex mux;
  std::vector<std::string> said;
  auto text = [](std::string t) { return reports::make_writer("text", {.text = [t] { return t; }}); };
  auto written = [&](const std::string& name) {
    return [&, name] { said.push_back(name + (fs::exists(s / name) ? " there" : " missing")); };
  };
  mux.add(text("late"), output_sink(s / "late"), {.order = 2, .at_interrupt = true, .after = written("late")});
  mux.add(text("early"), output_sink(s / "early"), {.order = 1, .after = written("early")});
  mux.add(text("early too"), output_sink(s / "early2"), {.order = 1, .after = written("early2")});
  mux.end({});
  EXPECT_EQ(said, (std::vector<std::string>{"early there", "early2 there", "late there"}))
      << "each order said once all of its outputs are written, the lower first";
  for (const char* f : {"late", "early", "early2"}) fs::remove(s / f);
  said.clear();
  mux.end({}, true);
  EXPECT_TRUE(fs::exists(s / "late")) << "written for a stopped run";
  EXPECT_FALSE(fs::exists(s / "early")) << "not written for a stopped run";
  EXPECT_TRUE(said.empty()) << "nothing said of a stopped run's outputs";
}

TEST(JsonLinesWriter, OneObjectALineBeginEachCaseAndEnd) {
  const reports::live_format* row = live_format_named("--json-lines");
  ASSERT_NE(row, nullptr) << "--json-lines is a live output";
  auto w = row->make();
  std::string text = w->begin({.preset = "quick", .cases = 2, .rounds = 1});
  run_result run = load_run(fixtures + "/synthetic_base.json");
  ASSERT_GE(run.cases.size(), 2u);
  run.cases[1].status = case_status::failed;
  run.cases[1].message = "a \"quoted\" fault";
  for (std::size_t i = 0; i < 2; ++i) text += w->case_finished({run.cases[i], 1, i + 1, 2});
  text += *w->end({.run = &run});
  std::vector<nlohmann::json> lines;
  for (std::size_t from = 0, nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
    lines.push_back(nlohmann::json::parse(text.substr(from, nl - from)));
  ASSERT_EQ(lines.size(), 4u) << text;
  EXPECT_EQ(lines[0]["event"], "begin");
  EXPECT_EQ(lines[0]["cases"], 2);
  EXPECT_EQ(lines[1]["event"], "case");
  EXPECT_EQ(lines[1]["name"], run.cases[0].name);
  EXPECT_EQ(lines[1]["status"], "ok");
  EXPECT_EQ(lines[1]["done"], 1);
  EXPECT_DOUBLE_EQ(lines[1]["median_s"].get<double>(), median_repetition(run.cases[0]).real_time_s);
  EXPECT_EQ(lines[2]["status"], "failed");
  EXPECT_EQ(lines[2]["message"], "a \"quoted\" fault");
  EXPECT_EQ(lines[3]["event"], "end");
  EXPECT_EQ(lines[3]["failed"], 1);
  EXPECT_EQ(lines[3]["cases"], run.cases.size());
  EXPECT_FALSE(w->end({}).has_value()) << "a run's writer: nothing to say without a run";
}

TEST(UniqueFd, ClosesOnceWhenItsLastOwnerGoes) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[1]);
  {
    unique_fd a(fds[0]);
    unique_fd b(std::move(a));
    EXPECT_EQ(a.get(), -1);
    EXPECT_EQ(b.get(), fds[0]);
    EXPECT_NE(::fcntl(fds[0], F_GETFD), -1) << "still open while b owns it";
  }
  EXPECT_EQ(::fcntl(fds[0], F_GETFD), -1) << "closed with b";
}

TEST(ReportFormats, EachIsAnOutputOptionOfTheTableAndWritten) {
  cli::command_options o;
  std::size_t given = 0;
  for (const reports::report_format& f : reports::report_formats()) {
    ASSERT_NE(cli::find_option(f.option), nullptr) << f.option << " has no row in the option table";
    EXPECT_NE(cli::find_option(f.option)->output, nullptr) << f.option << " fills no path";
    o.*cli::find_option(f.option)->output = "r" + std::to_string(given++);
  }
  app::output_list out;
  app::add_report_files(out, o);
  EXPECT_EQ(out.size(), given) << "every report format given a file is written";
}

TEST(LiveFormats, EachIsAnOptionOfTheRun) {
  ASSERT_FALSE(reports::live_formats().empty());
  std::vector<std::string> args;
  for (const reports::live_format& f : reports::live_formats()) {
    const cli::option_spec* spec = cli::find_option(f.option);
    ASSERT_NE(spec, nullptr) << f.option << " has no row in the option table";
    EXPECT_TRUE(cli::takes(*spec, "run")) << f.option << " is no option of the run";
    EXPECT_TRUE(spec->live) << f.option << " is no output";
    EXPECT_EQ(spec->placeholder, "FILE") << f.option;
    EXPECT_EQ(spec->child, cli::in_child::suffix) << f.option << ": no file of its own for each device";
    EXPECT_EQ(spec->help, f.help) << f.option << "'s help is not its row's";
    args.push_back(std::string(f.option) + "=live" + std::to_string(args.size()));
  }
  cli::command_options o;
  static_cast<cli::run_options&>(o) = app::parse_run_options(args);
  for (const reports::live_format& f : reports::live_formats())
    EXPECT_NE(cli::output_path(o, *cli::find_option(f.option)), nullptr) << f.option << "'s file is not kept";
  app::output_list out;
  app::add_run_documents(out, o, std::nullopt);
  EXPECT_EQ(out.size(), args.size()) << "every live output given a file is written";
  const std::string on_stdout = std::string(reports::live_formats()[0].option) + "=-";
  EXPECT_THROW(app::parse_run_options({on_stdout, "--json=-"}), usage_error) << "one output on standard output";
}

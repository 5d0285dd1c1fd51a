// Tests of app/options and app/option_table (the command lines of every command) and of the presets.
#include "cli/options.hpp"
#include "app/commands.hpp"
#include "cli/option_table.hpp"
#include "cli/requests.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <set>

#include "analysis/gates.hpp"
#include "cudabench/presets.hpp"

#include <fmt/format.h>

using namespace cudabench;
using namespace cudabench::app;
using namespace cudabench::cli;

TEST(Options, Defaults) {
  run_options o = parse_run_options({});
  EXPECT_EQ(o.filter.text(), ".");
  EXPECT_EQ(o.preset, "quick");
  EXPECT_FALSE(o.json_path);
  EXPECT_FALSE(o.list);
}

TEST(Options, BothSpellingsOfValues) {
  run_options o = parse_run_options({"--filter=conv", "--json", "out.json", "--preset", "nightly", "--repetitions=3", "--list"});
  EXPECT_EQ(o.filter.text(), "conv");
  EXPECT_EQ(*o.json_path, "out.json");
  EXPECT_EQ(o.preset, "nightly");
  EXPECT_EQ(*o.repetitions, 3);
  EXPECT_TRUE(o.list);
}

TEST(Options, GoogleBenchmarkFlagsKeepTheirMeaningOrAreRefused) {
  run_options o = parse_run_options({"--benchmark_filter=conv", "--benchmark_repetitions=4", "--benchmark_min_time=0.5s",
                                     "--benchmark_min_warmup_time=0.1", "--benchmark_time_unit=ms", "--benchmark_out=r.json"});
  EXPECT_EQ(o.filter.text(), "conv");
  EXPECT_EQ(*o.repetitions, 4);
  EXPECT_DOUBLE_EQ(*o.min_time_s, 0.5);
  EXPECT_DOUBLE_EQ(*o.warmup_s, 0.1);
  EXPECT_EQ(*o.time_unit, "ms");
  EXPECT_EQ(*o.json_path, "r.json");
  // Google Benchmark's CSV is its own schema, apart from --csv's table.
  o = parse_run_options({"--benchmark_out=r.csv", "--benchmark_out_format=csv"});
  EXPECT_EQ(*o.benchmark_csv_path, "r.csv");
  EXPECT_FALSE(o.csv_path);
  EXPECT_FALSE(o.json_path);
  EXPECT_EQ(*parse_run_options({"--benchmark_format=json"}).json_path, "-");
  EXPECT_EQ(*parse_run_options({"--benchmark_format=csv"}).benchmark_csv_path, "-");
  EXPECT_FALSE(parse_run_options({"--benchmark_format=csv"}).csv_path);
  EXPECT_THROW(parse_run_options({"--benchmark_format=csv", "--json=-"}), usage_error);
  o = parse_run_options({"--benchmark_report_aggregates_only=true", "--benchmark_display_aggregates_only", "--benchmark_counters_tabular=yes"});
  EXPECT_TRUE(o.report_aggregates_only && o.display_aggregates_only && o.counters_tabular);
  o = parse_run_options({"--benchmark_report_aggregates_only=false", "--benchmark_counters_tabular=0"});
  EXPECT_FALSE(o.report_aggregates_only || o.counters_tabular);
  EXPECT_THROW(parse_run_options({"--benchmark_counters_tabular=sometimes"}), usage_error);
  EXPECT_TRUE(parse_run_options({"--verbose"}).verbose);
  o = parse_run_options({"--benchmark_list_tests"});
  EXPECT_TRUE(o.list && o.list_names_only);
  EXPECT_FALSE(parse_run_options({"--benchmark_list_tests=false"}).list);
  EXPECT_TRUE(*parse_run_options({"--benchmark_enable_random_interleaving"}).random_interleaving);
  EXPECT_FALSE(*parse_run_options({"--benchmark_enable_random_interleaving=false"}).random_interleaving);
  for (const char* bad : {"--benchmark_color=maybe", "--benchmark_enable_random_interleaving=maybe", "--benchmark_min_time=100x",
                          "--benchmark_out_format=console", "--benchmark_format=tabular", "--benchmark_time_unit=min",
                          "--benchmark_out_format=json", "--benchmark_repetitions=0"})
    EXPECT_THROW(parse_run_options({bad}), usage_error) << bad;
  EXPECT_THROW(parse_run_options({"--json=-", "--csv=-"}), usage_error);
}

TEST(Options, GoogleBenchmarkContextColourAndOutputs) {
  run_options o = parse_run_options({"--benchmark_context=ci_run=17", "--benchmark_context=clocks=locked=1410"});
  EXPECT_EQ(o.context, (std::vector<std::pair<std::string, std::string>>{{"ci_run", "17"}, {"clocks", "locked=1410"}}));
  for (const char* bad : {"--benchmark_context=novalue", "--benchmark_context==x", "--benchmark_context", "--benchmark_context=num_cpus=4",
                          "--benchmark_context=cudabench=x"})
    EXPECT_THROW(parse_run_options({bad}), usage_error) << bad;
  EXPECT_THROW(parse_run_options({"--benchmark_context=a=1", "--benchmark_context=a=2"}), usage_error);
  // --benchmark_format=json with a JSON --benchmark_out: both, as Google Benchmark writes them.
  o = parse_run_options({"--benchmark_format=json", "--benchmark_out=r.json"});
  EXPECT_EQ(*o.json_path, "r.json");
  EXPECT_EQ(*o.json_copy_path, "-");
  EXPECT_THROW(parse_run_options({"--benchmark_format=json", "--benchmark_out=r.json", "--md=-"}), usage_error);
  EXPECT_FALSE(parse_run_options({"--benchmark_out=r.json"}).json_copy_path);
  // --benchmark_out beside --json: the JSON in both files (Google Benchmark's CSV stays in one place).
  o = parse_run_options({"--json=ours.json", "--benchmark_out=gb.json"});
  EXPECT_EQ(*o.json_path, "ours.json");
  EXPECT_EQ(*o.json_copy_path, "gb.json");
  EXPECT_FALSE(parse_run_options({"--json=r.json", "--benchmark_out=r.json"}).json_copy_path);
  o = parse_run_options({"--json=ours.json", "--benchmark_out=-"});
  EXPECT_EQ(*o.json_copy_path, "-");
  EXPECT_THROW(parse_run_options({"--json=ours.json", "--benchmark_out=-", "--md=-"}), usage_error);
  EXPECT_THROW(parse_run_options({"--benchmark_format=csv", "--benchmark_out=gb.csv", "--benchmark_out_format=csv"}), usage_error);
  o = parse_run_options({"--benchmark_out=t.txt", "--benchmark_out_format=console"});
  EXPECT_EQ(*o.console_out_path, "t.txt");
  EXPECT_FALSE(o.json_path || o.benchmark_csv_path);
  EXPECT_THROW(parse_run_options({"--benchmark_out=-", "--benchmark_out_format=console"}), usage_error);
  EXPECT_FALSE(parse_run_options({}).color);
  EXPECT_FALSE(parse_run_options({"--benchmark_color=auto"}).color);
  EXPECT_TRUE(*parse_run_options({"--benchmark_color"}).color);
  EXPECT_FALSE(*parse_run_options({"--benchmark_color=false"}).color);
}

TEST(Options, CompareSettings) {
  run_options o = parse_run_options({"--compare-to=auto", "--threshold=3", "--alpha=0.05", "--allow-device-mismatch", "--save-baseline"});
  EXPECT_EQ(*o.compare_to, "auto");
  EXPECT_DOUBLE_EQ(*o.threshold_pct, 3);
  EXPECT_DOUBLE_EQ(*o.alpha, 0.05);
  EXPECT_TRUE(o.allow_device_mismatch);
  EXPECT_TRUE(o.save_baseline);
}

TEST(Options, TheFilterIsCompiledWithItsNegation) {
  const name_filter all = parse_run_options({}).filter;
  EXPECT_TRUE(all.is_everything());
  EXPECT_TRUE(all.selects("conv2d/tiled/1024"));
  const name_filter conv = parse_run_options({"--filter=conv2d/"}).filter;
  EXPECT_TRUE(conv.selects("conv2d/tiled/1024"));
  EXPECT_FALSE(conv.selects("reduce/warp/1024"));
  const name_filter negated = parse_run_options({"--benchmark_filter=-conv2d/"}).filter;
  EXPECT_EQ(negated.text(), "-conv2d/");  // passed on as written
  EXPECT_FALSE(negated.selects("conv2d/tiled/1024"));
  EXPECT_TRUE(negated.selects("reduce/warp/1024"));
  EXPECT_FALSE(negated.is_everything());
  EXPECT_FALSE(name_filter("-").selects("conv2d/tiled/1024"));  // the negation of the empty pattern selects nothing
  EXPECT_THROW(name_filter(""), usage_error);
}

TEST(Options, TheGatesAreAChoiceOfNoneAFileOrThoseBesideTheBaseline) {
  const gates_choice beside = parse_run_options({"--compare-to=auto"}).gates;
  EXPECT_EQ(beside.from, gates_choice::source::beside_baseline);
  EXPECT_FALSE(beside.given());
  EXPECT_FALSE(beside.named_file());
  const gates_choice none = parse_run_options({"--compare-to=auto", "--gates=none"}).gates;
  EXPECT_EQ(none.from, gates_choice::source::none);
  EXPECT_TRUE(none.given());
  EXPECT_FALSE(none.named_file());
  const gates_choice file = parse_run_options({"--compare-to=auto", "--gates=g.gates.json"}).gates;
  EXPECT_EQ(file.from, gates_choice::source::file);
  EXPECT_EQ(*file.named_file(), "g.gates.json");
  EXPECT_THROW(parse_run_options({"--compare-to=auto", "--gates="}), usage_error);
  EXPECT_THROW(parse_run_options({"--gates=none"}), usage_error);  // the gates of a comparison
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

TEST(Options, PatternsMatchInLinearTime) {
  // Each of these backtracks exponentially (or for hours) in a backtracking engine on a name that fails.
  const std::string name(200, 'a');
  for (const char* p : {"(.*)+zzz", "(.*)*zzz", ".*.*.*.*.*.*.*zzz", "(a|a)*b", "(a+)+b", "(x+x+)+y"}) {
    const auto started = std::chrono::steady_clock::now();
    EXPECT_FALSE(user_regex(p, "--filter").found_in(name)) << p;
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(1)) << p;
  }
  EXPECT_TRUE(user_regex("conv2d/(tiled|fast)", "--filter").found_in("conv2d/fast/1024"));
  EXPECT_TRUE(user_regex("tiled", "--filter").found_in("conv2d/tiled/1024"));  // anywhere in the name
  EXPECT_FALSE(user_regex("^tiled", "--filter").found_in("conv2d/tiled/1024"));
}

TEST(Options, AnInvalidPatternIsRefusedNamingTheOption) {
  auto message = [](const std::vector<std::string>& args) -> std::string {
    try {
      parse_run_options(args);
    } catch (const usage_error& e) {
      return e.what();
    }
    return "accepted";
  };
  // A back-reference and a look-ahead: RE2 has neither (they are what makes matching exponential).
  EXPECT_EQ(message({"--filter=(a)\\1"}).rfind("--filter: invalid regular expression", 0), 0u) << message({"--filter=(a)\\1"});
  EXPECT_EQ(message({"--benchmark_filter=x(?=y)"}).rfind("--benchmark_filter: invalid regular expression", 0), 0u);
  EXPECT_EQ(message({"--inject-slowdown=a(:5"}).rfind("--inject-slowdown: invalid regular expression", 0), 0u);
  EXPECT_EQ(message({"--filter=-(b"}).rfind("--filter: invalid regular expression", 0), 0u);  // after the negating -
  EXPECT_EQ(message({"--filter=a{1001}"}).rfind("--filter: invalid regular expression", 0), 0u);
  EXPECT_EQ(message({"--filter=" + std::string(1001, 'a')}).rfind("--filter: a regular expression of over 1000", 0), 0u);
  EXPECT_EQ(message({"--filter=" + std::string(1000, 'a')}), "accepted");
  EXPECT_EQ(message({"--filter=-conv2d"}), "accepted");  // Google Benchmark's negation
  for (const std::string& m : {message({"--filter=(a)\\1"}), message({"--filter=a{1001}"})}) EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(Options, SizesAreWholeNumbersOf64Bits) {
  EXPECT_EQ(parse_run_options({"--sizes=conv2d=99999999999,4294967296"}).sizes.at("conv2d"),
            (std::vector<std::int64_t>{99999999999, 4294967296}));
  EXPECT_EQ(parse_run_options({"--axis=dot.streams=9223372036854775807"}).axes.at("dot.streams"),
            std::vector<std::int64_t>{9223372036854775807});
  for (const char* bad : {"--sizes=conv2d=9223372036854775808", "--sizes=conv2d=0", "--sizes=conv2d=-1", "--sizes=conv2d=1e9",
                          "--axis=dot.streams=99999999999999999999"}) {
    try {
      parse_run_options({bad});
      ADD_FAILURE() << bad << " was taken";
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("is not a positive whole number (1 to 9223372036854775807)"), std::string::npos) << e.what();
    }
  }
}

TEST(Options, NumbersOutOfRangeAreRefusedNamingTheOptionAndTheRange) {
  for (const auto& [arg, range] : std::vector<std::pair<std::string, std::string>>{
           {"--repetitions=4294967297", "--repetitions expects a whole number from 1 to 1000"},
           {"--device=99999999999999999999", "--device expects a whole number from 0 to 1023"},
           {"--threshold=1e309", "--threshold expects a number from 0 to 1000"},
           {"--watchdog=-5", "--watchdog (seconds, or off) expects a number from 1 to 86400"}}) {
    try {
      parse_run_options({arg});
      ADD_FAILURE() << arg << " was taken";
    } catch (const usage_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(range, 0), 0u) << e.what();
    }
  }
}

TEST(Options, ANumberIsPlainDecimalDigitsAndNothingAroundThem) {
  for (const std::string bad : {"--repetitions= 5", "--repetitions=5 ", "--repetitions=+5", "--repetitions=0x10", "--repetitions=5.0",
                                "--threshold= 5", "--threshold=0x10", "--threshold=5%", "--alpha=1e-400", "--sizes=dot= 64",
                                "--sizes=dot=0x40", "--benchmark_min_time= 1s"}) {
    try {
      parse_run_options({bad});
      ADD_FAILURE() << bad << " was taken";
    } catch (const usage_error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(*parse_run_options({"--repetitions=5"}).repetitions, 5);
  EXPECT_EQ(*parse_run_options({"--threshold=2.5"}).threshold_pct, 2.5);
  EXPECT_EQ(*parse_run_options({"--alpha=1e-3"}).alpha, 1e-3);
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

namespace {
constexpr std::string_view every_command[] = {"run", "compare", "report", "trend", "bisect"};
/// The positional arguments a command needs, so that its options can be tried alone.
std::vector<std::string> line_of(std::string_view c, std::vector<std::string> options) {
  std::vector<std::string> inputs = c == "compare" ? std::vector<std::string>{"a.json", "b.json"}
                                  : c == "run"     ? std::vector<std::string>{}
                                                          : std::vector<std::string>{"a.json"};
  inputs.insert(inputs.end(), options.begin(), options.end());
  return inputs;
}
std::string usage_message(std::string_view c, std::vector<std::string> options) {
  try {
    parse_command_line(c, line_of(c, std::move(options)));
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(OptionTable, EveryOptionIsInTheHelpOfEachCommandThatTakesItAndNoOther) {
  for (std::string_view c : every_command) {
    const std::string help = command_help(c);
    for (const option_spec& o : option_table()) {
      const bool listed = help.find("\n  " + std::string(o.name)) != std::string::npos ||
                          (!o.alias.empty() && help.find("\n  " + std::string(o.alias) + ", " + std::string(o.name)) != std::string::npos);
      EXPECT_EQ(listed, takes(o, c) && !o.hidden) << o.name << " in " << command_title(command_named(c)) << " --help";
    }
  }
  // Options that --help of these commands once left out.
  EXPECT_NE(command_help("trend").find("--threshold=PCT"), std::string::npos);
  EXPECT_NE(command_help("trend").find("--hold=N"), std::string::npos);
  EXPECT_NE(command_help("report").find("--csv=FILE"), std::string::npos);
  EXPECT_NE(command_help("report").find("--format=text|gab|bmf"), std::string::npos);
}

TEST(OptionTable, BisectTakesItsEndsTheCompareSettingsAndADuration) {
  const command_options o = parse_command_line("bisect", {"--good=v1", "--bad", "HEAD", "--filter=^reduce/", "--host-threshold=10",
                                                             "--time-limit=20m", "--processes=3", "--build=make -j2"}).options;
  EXPECT_EQ(*o.good, "v1");
  EXPECT_EQ(*o.bad, "HEAD");
  EXPECT_TRUE(o.filter_given);
  EXPECT_EQ(o.filter.text(), "^reduce/");
  EXPECT_EQ(*o.host_threshold_pct, 10);
  EXPECT_EQ(*o.time_limit_s, 1200);
  EXPECT_EQ(o.processes, 3);
  EXPECT_EQ(*o.build_command, "make -j2");
  EXPECT_FALSE(parse_command_line("bisect", {"--good=a", "--bad=b"}).options.filter_given);
  EXPECT_EQ(*parse_command_line("bisect", {"--time-limit=90"}).options.time_limit_s, 90);
  EXPECT_EQ(*parse_command_line("bisect", {"--time-limit=1.5h"}).options.time_limit_s, 5400);
  for (const char* bad : {"--time-limit=soon", "--time-limit=-1m", "--processes=0", "--good=", "--preset=nightly", "stray"})
    EXPECT_THROW(parse_command_line("bisect", {bad}), usage_error) << bad;
}

TEST(OptionTable, EachOptionOnceWithItsHelpAndAction) {
  std::set<std::string> names;
  for (const option_spec& o : option_table()) {
    EXPECT_TRUE(names.insert(std::string(o.name)).second) << o.name << " twice";
    EXPECT_FALSE(o.help.empty()) << o.name;
    EXPECT_NE(o.apply, nullptr) << o.name;
    EXPECT_FALSE(o.commands.empty()) << o.name;
    EXPECT_EQ(o.kind == arity::flag, o.placeholder.empty()) << o.name;
    EXPECT_EQ(o.kind == arity::benchmark, o.name.rfind("--benchmark_", 0) == 0) << o.name;
  }
}

TEST(OptionTable, InternalOptionsAreAcceptedButNotListed) {
  EXPECT_TRUE(find_option("--profile-plan")->hidden);
  EXPECT_TRUE(parse_run_options({"--profile-plan"}).profile_plan);
  EXPECT_EQ(command_help("run").find("--profile-plan"), std::string::npos);
  EXPECT_EQ(options_reference_markdown().find("--profile-plan"), std::string::npos);
  EXPECT_EQ(options_summary_markdown().find("--profile-plan"), std::string::npos);
}

TEST(OptionTable, HelpShowsTheDefaultsTheCodeUses) {
  auto help_of = [](std::string_view name) { return find_option(name)->help; };
  auto shows = [](const std::string& help, const std::string& what) { return help.find(what) != std::string::npos; };
  EXPECT_TRUE(shows(help_of("--threshold"), fmt::format("(default {:g})", 100 * compare_settings{}.threshold)));
  EXPECT_TRUE(shows(help_of("--noise-floor"), fmt::format("(default {:g})", compare_settings{}.noise_floor)));
  EXPECT_TRUE(shows(help_of("--alpha"), fmt::format("(default {:g})", compare_settings{}.alpha)));
  EXPECT_TRUE(shows(help_of("--k"), fmt::format("(default {:g};", gate_settings{}.k)));
  EXPECT_TRUE(shows(help_of("--floor"), fmt::format("(default {:g})", 100 * gate_settings{}.floor)));
  EXPECT_TRUE(shows(help_of("--min-runs"), fmt::format("(default {})", gate_settings{}.min_runs)));
  EXPECT_TRUE(shows(help_of("--hold"), fmt::format("(default {})", trend_options{}.hold)));
  EXPECT_TRUE(shows(help_of("--processes"), fmt::format("(default {})", bisect_options{}.processes)));
  EXPECT_TRUE(shows(help_of("--watchdog"), fmt::format("(default {:g})", run_options{}.watchdog_s)));
  const preset nightly = preset_by_name("nightly");
  EXPECT_TRUE(shows(help_of("--repetitions"), fmt::format("nightly {}", nightly.repetitions * nightly.rounds)));
  EXPECT_TRUE(shows(help_of("--rounds"), fmt::format("nightly {}", nightly.rounds)));
  EXPECT_TRUE(shows(command_named("bisect").about, fmt::format("--preset={}", bisect_options::suite_preset)));
}

TEST(CommandTable, EachCommandOnceWithAHandlerAndEveryOptionNamesOnlyCommands) {
  std::set<std::string_view> names;
  for (const command_spec* c : command_table()) {
    EXPECT_TRUE(names.insert(c->name).second) << c->name;
    EXPECT_NE(c->handler, nullptr) << c->name;
    EXPECT_EQ(command_by_name(c->name), c->named ? c : nullptr) << c->name;
  }
  for (const option_spec& o : option_table())
    for (std::string_view list = o.commands; !list.empty();) {
      const std::string_view name = list.substr(0, list.find(' '));
      EXPECT_TRUE(names.count(name) || o.commands == "*") << o.name << " names '" << name << "', which is no command";
      list = list.size() > name.size() ? list.substr(name.size() + 1) : std::string_view();
    }
  EXPECT_EQ(command_by_name("run"), nullptr);  // the runner is the binary's own command line, not a command name
}

TEST(OptionTable, ValuesInBothFormsFlagsWithout) {
  for (const option_spec& o : option_table()) {
    const std::string_view c = takes(o, "run") ? "run" : takes(o, "trend") ? "trend" : "report";
    const std::string name(o.name);
    if (o.kind == arity::flag && name != "--help") {
      EXPECT_NE(usage_message(c, {name + "=1"}).find("takes no value"), std::string::npos) << name;
    } else if (o.kind == arity::value) {
      EXPECT_NE(usage_message(c, {name}).find(name + " needs a value"), std::string::npos) << name;
    } else if (o.kind == arity::benchmark) {  // Google Benchmark's form only: the next argument is not its value
      EXPECT_THROW(parse_command_line("run", {name, "x"}), usage_error) << name;
    }
  }
  EXPECT_EQ(*parse_command_line("compare", {"a", "b", "--verdict", "v.json"}).options.verdict_path, "v.json");
  EXPECT_EQ(*parse_command_line("compare", {"a", "b", "--verdict=v.json"}).options.verdict_path, "v.json");
  EXPECT_EQ(parse_command_line("trend", {"d", "--hold", "4", "--threshold=7"}).options.hold, 4u);
  EXPECT_EQ(parse_command_line("report", {"--format", "bmf", "r.json"}).options.format, "bmf");
}

TEST(OptionTable, OneMeaningPerName) {
  // --json is a run's results file; the verdict file of a comparison is --verdict in the run and in compare.
  const std::string m = usage_message("compare", {"--json", "v.json"});
  EXPECT_NE(m.find("--json is not an option of compare"), std::string::npos) << m;
  EXPECT_NE(m.find("--verdict FILE"), std::string::npos) << m;
  EXPECT_EQ(*parse_run_options({"--compare-to=b.json", "--verdict=v.json"}).verdict_path, "v.json");
  EXPECT_NE(usage_message("trend", {"--md=x.md"}).find("--md is not an option of trend"), std::string::npos);
  EXPECT_NE(usage_message("report", {"--hold=3"}).find("--hold is not an option of report"), std::string::npos);
  EXPECT_NE(usage_message("compare", {"--frobnicate"}).find("unknown option '--frobnicate'"), std::string::npos);
  try {
    parse_command_line("compare", {"a.json"});
    ADD_FAILURE() << "compare with one file";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("compare expects 2 file argument(s)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_command_line("report", {"a.json", "b.json"}), usage_error);
  EXPECT_TRUE(parse_command_line("trend", {"--frobnicate", "--help"}).options.help);  // --help wins
}

TEST(OptionTable, AMistypedNameGetsItsLikelyMeaning) {
  const std::vector<std::string_view> names = {"--filter", "--json", "--repetitions", "--compare-to"};
  EXPECT_EQ(closest_name("--filtr", names), "--filter");             // a letter dropped
  EXPECT_EQ(closest_name("--jsno", names), "--json");                // two swapped
  EXPECT_EQ(closest_name("--repettions", names), "--repetitions");  // dropped, in a longer name
  EXPECT_EQ(closest_name("--compare_to", names), "--compare-to");    // changed
  EXPECT_EQ(closest_name("--frobnicate", names), "");
  EXPECT_EQ(closest_name("--", names), "");
  EXPECT_EQ(closest_name(std::string(5000, 'x'), names), "");
  EXPECT_EQ(closest_command(command_table(), "compre"), "compare");
  EXPECT_EQ(closest_command(command_table(), "trnd"), "trend");
  EXPECT_EQ(closest_command(command_table(), "frobnicate"), "");
  EXPECT_NE(usage_message("run", {"--filtr=conv2d"}).find("unknown option '--filtr': did you mean --filter?"), std::string::npos);
  EXPECT_NE(usage_message("compare", {"--treshold=3"}).find("did you mean --threshold?"), std::string::npos);
  EXPECT_NE(usage_message("run", {"--benchmark_filtr=x"}).find("did you mean --benchmark_filter?"), std::string::npos);
  EXPECT_NE(usage_message("run", {"compre"}).find("unknown command 'compre': did you mean compare?"), std::string::npos);
  // Only the command's own options are offered: trend has no --verdict.
  EXPECT_EQ(usage_message("trend", {"--verdcit=x"}).find("did you mean"), std::string::npos);
}

TEST(OptionTable, DashIsStandardOutputForOneOutputOfEachCommand) {
  EXPECT_EQ(*parse_command_line("compare", {"a", "b", "--md", "-"}).options.md_path, "-");
  EXPECT_EQ(*parse_command_line("report", {"a", "--csv=-"}).options.csv_path, "-");
  EXPECT_EQ(*parse_command_line("trend", {"d", "--html=-"}).options.html_path, "-");
  EXPECT_EQ(*parse_run_options({"--md=-"}).md_path, "-");
  const std::string m = usage_message("compare", {"--md=-", "--verdict=-"});
  EXPECT_NE(m.find("--md - and --verdict - cannot both use standard output"), std::string::npos) << m;
  EXPECT_THROW(parse_run_options({"--trace=-", "--html=-"}), usage_error);
  EXPECT_THROW(parse_run_options({"--benchmark_format=json", "--md=-"}), usage_error);
  EXPECT_THROW(parse_command_line("report", {"a", "--format=gab", "--csv=-"}), usage_error);
  EXPECT_THROW(parse_command_line("compare", {"a", "b", "--md="}), usage_error);
}

TEST(OptionTable, ChildArgumentsFollowTheTable) {
  const auto child = child_arguments({"--csv", "r.csv", "--verdict=v.json", "--benchmark_out=r.json", "--html=-",
                                      "--compare-to", "b.json", "--quiet"}, 2, "/tmp/d2.json");
  EXPECT_EQ(child, (std::vector<std::string>{"--csv=r.dev2.csv", "--verdict=v.dev2.json", "--html=-", "--compare-to", "b.json",
                                             "--quiet", "--device=2", "--json=/tmp/d2.json"}));
  EXPECT_EQ(*parse_run_options(child).json_path, "/tmp/d2.json");
  // A device hands every row to the merge, which alone keeps only the aggregates.
  EXPECT_EQ(child_arguments({"--benchmark_report_aggregates_only=true", "--benchmark_counters_tabular"}, 0, "d.json"),
            (std::vector<std::string>{"--benchmark_counters_tabular", "--device=0", "--json=d.json"}));
}

namespace {
std::string plan_of(const std::vector<std::string>& args) { return profile_plan(parse_run_options(args), args); }
}  // namespace

TEST(OptionTable, ProfilePlanForTheWrapper) {
  auto fields = [](const std::string& plan) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t nul; (nul = plan.find('\0', start)) != std::string::npos; start = nul + 1) out.push_back(plan.substr(start, nul - start));
    return out;
  };
  EXPECT_EQ(fields(plan_of({"--profile-plan", "--ncu", "--preset", "nightly", "--filter=conv", "--json", "r.json", "--quiet",
                                 "--compare-to=auto", "--md=r.md", "--sizes=conv2d=64"})),
            (std::vector<std::string>{"ncu", "nightly", "r.json",
                                      "9", "--preset", "nightly", "--filter=conv", "--json", "r.json", "--quiet", "--compare-to=auto", "--md=r.md", "--sizes=conv2d=64",
                                      "4", "--preset", "nightly", "--quiet", "--sizes=conv2d=64"}));
  EXPECT_EQ(fields(plan_of({"--profile-plan", "--benchmark_out=o.json"}))[2], "o.json");
  EXPECT_EQ(fields(plan_of({"--profile-plan"})), (std::vector<std::string>{"none", "quick", "", "0", "0"}));
  EXPECT_THROW(parse_run_options({"--nsys"}), usage_error);  // the wrapper starts the profiler, not the binary
  EXPECT_THROW(parse_run_options({"--profile-plan", "--nsys", "--ncu"}), usage_error);
}

TEST(OptionTable, UnsupportedGoogleBenchmarkFlagsNameTheSupportedOnes) {
  const std::string m = usage_message("run", {"--benchmark_perf_counters=CYCLES"});
  EXPECT_NE(m.find("--benchmark_perf_counters is not supported"), std::string::npos) << m;
  EXPECT_NE(m.find("--benchmark_time_unit"), std::string::npos) << m;
}

TEST(OptionTable, ReferenceListsEveryOptionOfEveryCommand) {
  const std::string reference = options_reference_markdown(), summary = options_summary_markdown();
  for (const option_spec& o : option_table()) {
    if (o.hidden) continue;  // the program's own: InternalOptionsAreAcceptedButNotListed
    const std::string name = (o.alias.empty() ? "`" : "`" + std::string(o.alias) + ", ") + std::string(o.name);
    EXPECT_NE(reference.find(name), std::string::npos) << o.name;
    EXPECT_NE(summary.find(name), std::string::npos) << o.name;
  }
  EXPECT_NE(reference.find("`--cache=declared\\|hot\\|cold`"), std::string::npos);  // | escaped in table cells
}

TEST(Presets, QuickIsSmallerThanNightly) {
  preset q = preset_by_name("quick"), n = preset_by_name("nightly"), f = preset_by_name("full");
  EXPECT_EQ(q.repetitions, 1);
  EXPECT_EQ(q.rounds, 1);
  EXPECT_GE(n.rounds, 5);  // the rank test compares rounds: 5 a side can reach p < 0.01
  EXPECT_LE(q.sampling.max_time_s * q.repetitions, n.sampling.max_time_s * n.repetitions * n.rounds);
  EXPECT_EQ(f.name, "full");  // the key of an axis's values for this preset
  EXPECT_THROW(preset_by_name("slow"), usage_error);
}

TEST(Requests, EachCommandGetsItsOwnPartsOfTheCommandLine) {
  const compare_request c = compare_request_of(
      parse_command_line("compare", {"a.json", "b.json", "--threshold=4", "--gates=none", "--md=r.md"}));
  EXPECT_EQ(c.inputs, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_DOUBLE_EQ(*c.threshold_pct, 4);
  EXPECT_EQ(c.gates.from, gates_choice::source::none);
  EXPECT_EQ(*report_path(c, "--md"), "r.md");  // output paths travel in the request
  EXPECT_FALSE(report_path(c, "--html"));
  EXPECT_THROW(report_path(c, "--trace"), std::logic_error);  // no report file
  command_line bl =
      parse_command_line("bisect", {"--good=v1", "--bad=v2", "--filter=-conv2d/", "--processes=3", "--json=o.json"});
  bl.passed = {"--sizes=conv2d=64"};
  const bisect_request b = bisect_request_of(bl);
  EXPECT_EQ(b.filter, "-conv2d/");  // as written: each revision's binary reads it
  EXPECT_TRUE(b.filter_given);
  EXPECT_EQ(b.processes, 3);
  EXPECT_EQ(*b.good, "v1");
  EXPECT_EQ(*b.json_path, "o.json");
  EXPECT_EQ(b.binary_args, bl.passed);
  const store_request s = store_request_of(parse_command_line("store", {"baseline", "r.json", "--baseline-dir=bd"}));
  EXPECT_EQ(s.baseline_dir, "bd");
  const gates_request g =
      gates_request_of(parse_command_line("gates", {"r1.json", "r2.json", "--out=g.json", "--k=2"}));
  EXPECT_EQ(*g.gates_out, "g.json");
  EXPECT_EQ(g.inputs.size(), 2u);
  const run_request r = run_request_of(parse_command_line("run", {"--filter=conv", "--json=r.json"}));
  EXPECT_TRUE(r.filter.selects("conv2d/tiled/64"));
  EXPECT_EQ(*r.json_path, "r.json");
}

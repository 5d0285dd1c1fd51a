// Tests of results/build_info: the build the registering code noted, how it is written and read back, the
// warning of an unoptimized build, and the comparison's refusal of runs built differently.
#include "results/build_info.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cudabench/registry.hpp"
#include "analysis/compare.hpp"
#include "io/errors.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"

using namespace cudabench;

namespace {
run_result stored(const std::string& name) { return load_run(std::string(CUDABENCH_FIXTURES) + "/" + name); }
run_result built(run_result r, std::string type, bool optimized, bool assertions) {
  r.settings.build = code_build{std::move(type), optimized, assertions};
  return r;
}
}  // namespace

TEST(BuildInfo, TheRegisteringUnitsOfThisBinaryAreNoted) {
  // This file includes cudabench/registry.hpp, so it is one of them (built as the others of this binary are);
  // the library's own units are not.
  const std::optional<code_build> b = registered_build();
  ASSERT_TRUE(b);
#if defined(__OPTIMIZE__)
  EXPECT_TRUE(b->optimized);
#else
  EXPECT_FALSE(b->optimized);
#endif
#if defined(NDEBUG)
  EXPECT_FALSE(b->assertions);
#else
  EXPECT_TRUE(b->assertions);
#endif
  EXPECT_EQ(b->build_type, CUDABENCH_USER_BUILD_TYPE);  // the configuration the package's targets name
  EXPECT_FALSE(b->build_type.empty());
}

TEST(BuildInfo, WrittenAndReadBackAndOldFilesStayReadable) {
  const run_result old = stored("synthetic_base.json");  // written before builds were recorded
  EXPECT_FALSE(old.settings.build);
  const run_result debug = built(old, "Debug", false, true);
  const run_result back = parse_run(to_json(debug), "back.json");
  ASSERT_TRUE(back.settings.build);
  EXPECT_EQ(back.settings.build->build_type, "Debug");
  EXPECT_FALSE(back.settings.build->optimized);
  EXPECT_TRUE(back.settings.build->assertions);
  nlohmann::ordered_json bad = to_json(debug);
  bad["context"]["cudabench"]["build"]["optimized"] = "yes";
  try {
    parse_run(bad, "bad.json");
    FAIL() << "a build whose 'optimized' is a string was read";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("context.cudabench.build.optimized"), std::string::npos) << e.what();
  }
}

TEST(BuildInfo, UnoptimizedBuildsAreWarnedAbout) {
  EXPECT_EQ(unoptimized_warning(code_build{"Release", true, false}, "release"), "");
  EXPECT_EQ(unoptimized_warning(std::nullopt, "release"), "");
  const std::string w = unoptimized_warning(code_build{"Debug", false, true}, "release");
  EXPECT_EQ(w, "warning: its cases were built without optimization (build type Debug, not optimized, assertions on): "
               "timings are not those of an optimized build (build with CMAKE_BUILD_TYPE=Release)");
  EXPECT_NE(unoptimized_warning(code_build{"Release", true, false}, "debug").find("cudabench's library was built for debugging"),
            std::string::npos);
}

TEST(BuildInfo, TheProjectsLibrariesAreRecordedAndAnUnoptimizedOneWarned) {
  code_build b{"Release", false, false, "-O3 -DNDEBUG", {{"kern", false, true}, {"util", true, false}}};
  EXPECT_EQ(unoptimized_warning(b, "release"),
            "warning: the project's library kern was built without optimization: timings are not those of an optimized build "
            "(build with CMAKE_BUILD_TYPE=Release)");
  const run_result back = parse_run(to_json(built(stored("synthetic_base.json"), "", false, false)), "x.json");
  run_result r = stored("synthetic_base.json");
  r.settings.build = b;
  const run_result again = parse_run(to_json(r), "back.json");
  ASSERT_TRUE(again.settings.build);
  EXPECT_EQ(again.settings.build->flags, "-O3 -DNDEBUG");
  ASSERT_EQ(again.settings.build->libraries.size(), 2u);
  EXPECT_EQ(again.settings.build->libraries[0].target, "kern");
  EXPECT_FALSE(again.settings.build->libraries[0].optimized);
  EXPECT_TRUE(again.settings.build->libraries[0].assertions);
  EXPECT_TRUE(back.settings.build->libraries.empty());
  nlohmann::ordered_json bad = to_json(r);
  bad["context"]["cudabench"]["build"]["libraries"][1] = 7;
  try {
    parse_run(bad, "bad.json");
    FAIL() << "a library that is a number was read";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("context.cudabench.build.libraries"), std::string::npos) << e.what();
  }
}

TEST(BuildInfo, CompareRefusesRunsBuiltDifferentlyUnlessAllowed) {
  const run_result base = built(stored("synthetic_base.json"), "Release", true, false);
  const run_result cur = built(stored("synthetic_same.json"), "Debug", false, true);
  EXPECT_EQ(build_mismatch(base, base), "");
  try {
    compare_runs(base, cur, {});
    FAIL() << "a Release baseline was compared with a Debug run";
  } catch (const input_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("build type Release, optimized, assertions off vs build type Debug, not optimized, assertions on"),
              std::string::npos) << m;
    EXPECT_NE(m.find("--allow-build-mismatch"), std::string::npos) << m;
  }
  compare_settings allow;
  allow.allow_build_mismatch = true;
  const comparison c = compare_runs(base, cur, allow);
  ASSERT_FALSE(c.header_notes.empty());
  EXPECT_NE(c.header_notes.back().find("(--allow-build-mismatch)"), std::string::npos);
  // A run that does not say how it was built (an earlier version's) compares with any build.
  EXPECT_NO_THROW(compare_runs(stored("synthetic_base.json"), cur, {}));
  EXPECT_NO_THROW(compare_runs(base, stored("synthetic_same.json"), {}));
}

// Tests of the registry and the axes: cases at points of named axes take their names and sizes from them,
// presets pick axis values by name, --sizes and --axis replace them, and families run in their order.
#include <gtest/gtest.h>

#include "cudabench/errors.hpp"
#include "cudabench/registry.hpp"

using namespace cudabench;

namespace {
class nothing final : public fixture {
 public:
  void run(cudaStream_t) override {}
  std::string verify() override { return {}; }
};
std::unique_ptr<fixture> make_nothing() { return std::make_unique<nothing>(); }

const axis n_axis = size_axis("n", {{"quick", {1}}, {"nightly", {2, 3}}, {"full", {4, 5, 6}}});
/// A size axis whose cases can take sizes beyond 32 bits.
const axis wide_axis = size_axis("n", every_preset({1}), std::int64_t(1) << 40);

void register_sized(family_builder& f) {
  f.describe("a family with a size axis");
  for (const point& at : f.points(n_axis)) f.add(at, {.variant = "v", .on = where::cpu, .make = make_nothing});
}
void register_fixed(family_builder& f) { f.add({.variant = "only", .on = where::cpu, .make = make_nothing}); }
void register_streams(family_builder& f) {
  const axis streams = int_axis("streams", every_preset({2, 4}));
  for (const point& at : f.points({n_axis, streams})) f.add(at, {.variant = "s", .on = where::cpu, .make = make_nothing});
}
// Registered in the opposite order of their keys, and of their names: the keys decide.
CB_REGISTER_FAMILY(test_a_second, register_fixed, -10);
CB_REGISTER_FAMILY(test_z_first, register_fixed, -20);
// Equal keys (the default): by name, whatever the order of registration.
CB_REGISTER_FAMILY(test_sized, register_sized);
CB_REGISTER_FAMILY(test_fixed, register_fixed);
CB_REGISTER_FAMILY(test_streams, register_streams);
void register_wide(family_builder& f) {
  for (const point& at : f.points(wide_axis)) f.add(at, {.variant = "v", .on = where::cpu, .make = make_nothing});
}
CB_REGISTER_FAMILY(test_wide, register_wide);
void register_with_cpu(family_builder& f) {
  f.add({.variant = "gpu", .on = where::cpu, .make = make_nothing}).add({.variant = "cpu", .on = where::cpu, .make = make_nothing});
}
CB_REGISTER_FAMILY(test_cpu_default, register_with_cpu);
void register_other_cpu(family_builder& f) {
  f.reference("cpu", "serial");
  f.add({.variant = "serial", .on = where::cpu, .make = make_nothing}).add({.variant = "cpu", .on = where::cpu, .make = make_nothing});
}
CB_REGISTER_FAMILY(test_cpu_named, register_other_cpu);

std::vector<std::string> names_of(const suite& s, const std::string& family) {
  std::vector<std::string> out;
  for (const auto& c : s.cases)
    if (c.family == family) out.push_back(c.name());
  return out;
}

/// A builder of one family "t" for `p`, outside the registry.
struct scratch_family {
  family_def def{.name = "t"};
  std::vector<case_def> cases;
  preset p;
  family_builder b;
  explicit scratch_family(const std::string& preset_name) : p(preset_by_name(preset_name)), b(def, cases, p) {}
};
}  // namespace

TEST(Axes, APointNamesItsCaseAndGivesItsSize) {
  scratch_family t("nightly");
  const axis streams = int_axis("streams", {{"quick", {1}}, {"nightly", {2, 4}}, {"full", {8}}});
  const std::vector<point> at = t.b.points({n_axis, streams});
  ASSERT_EQ(at.size(), 4u);  // n outermost: 2/2, 2/4, 3/2, 3/4
  EXPECT_EQ(at[1].params(), "2/4");
  EXPECT_EQ(at[2]["n"], 3);
  EXPECT_EQ(at[2].get<int>("streams"), 2);
  EXPECT_THROW(at[0]["threads"], std::out_of_range);
  for (const point& p : at) t.b.add(p, {.variant = "v", .work = {.items = 1}, .make = make_nothing});
  EXPECT_EQ(t.cases[3].name(), "t/v/3/4");
  EXPECT_EQ(t.cases[3].params, "3/4");
  EXPECT_EQ(t.cases[3].size, 3);  // the size axis's value, stated nowhere else
  EXPECT_EQ(t.cases[3].family, "t");
  EXPECT_TRUE(t.def.takes_sizes);
  EXPECT_EQ(t.def.axes, (std::vector<std::string>{"n", "streams"}));
}

TEST(Axes, AnInnerLoopExtendsAnOuterPoint) {
  scratch_family t("full");
  const std::vector<point> outer = t.b.points(n_axis);
  ASSERT_EQ(outer.size(), 3u);
  const std::vector<point> inner = t.b.points(outer[1], {int_axis("streams", every_preset({2, 4}))});
  ASSERT_EQ(inner.size(), 2u);
  EXPECT_EQ(inner[1].params(), "5/4");
  EXPECT_EQ(inner[1].size(), 5);
}

TEST(Axes, WithoutASizeAxisTheCaseGivesItsSize) {
  scratch_family t("quick");
  const std::vector<point> at = t.b.points(int_axis("chunks", every_preset({6})));
  EXPECT_FALSE(at[0].has_size());
  t.b.add(at[0], {.variant = "v", .size = 8e6, .make = make_nothing});
  t.b.add({.variant = "fixed", .size = 4, .make = make_nothing});
  EXPECT_EQ(t.cases[0].name(), "t/v/6");
  EXPECT_EQ(t.cases[0].size, 8e6);
  EXPECT_EQ(t.cases[1].name(), "t/fixed");
  EXPECT_FALSE(t.def.takes_sizes);
}

TEST(Axes, AFactStatedTwiceIsRefused) {
  scratch_family t("quick");
  const point at = t.b.points(n_axis)[0];
  EXPECT_THROW(t.b.add(at, {.variant = "v", .params = "1", .make = make_nothing}), std::logic_error);  // params by hand
  EXPECT_THROW(t.b.add(at, {.variant = "v", .size = 1, .make = make_nothing}), std::logic_error);      // size by hand
  t.b.add(at, {.variant = "v", .make = make_nothing});
  EXPECT_THROW(t.b.add(at, {.variant = "v", .make = make_nothing}), std::logic_error);  // the same name twice
  EXPECT_THROW(at.with(n_axis, 2), std::logic_error);                                   // one axis twice in a point
  EXPECT_THROW(at.with(size_axis("m", every_preset({1})), 2), std::logic_error);         // two size axes
}

TEST(Axes, AnAxisWithoutValuesForThePresetIsAMistake) {
  scratch_family t("full");
  EXPECT_THROW(t.b.points(int_axis("streams", {{"quick", {1}}, {"nightly", {2}}})), std::logic_error);
}

TEST(Registry, PresetPicksTheValuesByName) {
  EXPECT_EQ(names_of(build_suite(preset_by_name("quick")), "test_sized"), std::vector<std::string>{"test_sized/v/1"});
  EXPECT_EQ(names_of(build_suite(preset_by_name("nightly")), "test_sized"), (std::vector<std::string>{"test_sized/v/2", "test_sized/v/3"}));
  EXPECT_EQ(names_of(build_suite(preset_by_name("full")), "test_sized").size(), 3u);
  EXPECT_EQ(names_of(build_suite(preset_by_name("quick")), "test_fixed"), std::vector<std::string>{"test_fixed/only"});
}

TEST(Registry, CommandLineSizesReplaceThePresets) {
  preset p = preset_by_name("quick");
  p.sizes["test_sized"] = {7, 9};
  const suite s = build_suite(p);
  EXPECT_EQ(names_of(s, "test_sized"), (std::vector<std::string>{"test_sized/v/7", "test_sized/v/9"}));
  for (const case_def& c : s.cases)
    if (c.family == "test_sized") { EXPECT_EQ(c.name(), "test_sized/v/" + std::to_string(int(c.size))); }
}

TEST(Registry, CommandLineAxisValuesReplaceThePresets) {
  preset p = preset_by_name("quick");
  p.axes["test_streams.streams"] = {8};
  p.sizes["test_streams"] = {5};
  EXPECT_EQ(names_of(build_suite(p), "test_streams"), std::vector<std::string>{"test_streams/s/5/8"});
  p.sizes.clear();
  p.axes["test_streams.n"] = {6, 7};  // --axis sets a size axis too
  EXPECT_EQ(names_of(build_suite(p), "test_streams"), (std::vector<std::string>{"test_streams/s/6/8", "test_streams/s/7/8"}));
}

TEST(Registry, CommandLineAxesThatDoNotExistAreRefused) {
  preset p = preset_by_name("quick");
  p.sizes["test_fixed"] = {7};
  EXPECT_THROW(build_suite(p), usage_error);  // a family without a size axis
  p.sizes.clear();
  p.sizes["no_such_family"] = {7};
  EXPECT_THROW(build_suite(p), usage_error);
  p.sizes.clear();
  p.axes["test_streams.threads"] = {2};
  EXPECT_THROW(build_suite(p), usage_error);  // no such axis
  p.axes.clear();
  p.axes["no_such_family.n"] = {2};
  EXPECT_THROW(build_suite(p), usage_error);
  p.axes.clear();
  p.axes["test_sized.n"] = {2};
  p.sizes["test_sized"] = {3};
  EXPECT_THROW(build_suite(p), usage_error);  // the size axis set twice
}

TEST(Registry, FamiliesRunByTheirOrderKeyThenByNameNotByRegistration) {
  std::vector<std::string> families;
  for (const family_def& f : build_suite(preset_by_name("quick")).families)
    if (f.name.rfind("test_", 0) == 0) families.push_back(f.name);
  EXPECT_EQ(families, (std::vector<std::string>{"test_z_first", "test_a_second", "test_cpu_default", "test_cpu_named", "test_fixed", "test_sized", "test_streams", "test_wide"}));
}

TEST(Registry, AVariantNamedCpuIsTheCpuReferenceUnlessTheFamilyNamesAnother) {
  const suite s = build_suite(preset_by_name("quick"));
  const auto references_of = [&](const std::string& name) {
    for (const family_def& f : s.families)
      if (f.name == name) return f.references;
    return decltype(family_def::references){};
  };
  EXPECT_EQ(references_of("test_cpu_default").at("cpu"), std::vector<std::string>{"cpu"});
  EXPECT_EQ(references_of("test_cpu_named").at("cpu"), std::vector<std::string>{"serial"});
  EXPECT_EQ(references_of("test_fixed").count("cpu"), 0u);
}

TEST(Axes, AValueIsNeverNarrowed) {
  scratch_family t("quick");
  t.p.sizes["t"] = {4294967296, 2147483648, 99999999999};
  const std::vector<point> at = t.b.points(wide_axis);
  ASSERT_EQ(at.size(), 3u);
  EXPECT_EQ(at[0].params(), "4294967296");
  EXPECT_EQ(at[0].get<std::size_t>("n"), 4294967296u);
  EXPECT_THROW(at[0].get<int>("n"), std::out_of_range);  // would be 0
  EXPECT_THROW(at[1].get<int>("n"), std::out_of_range);  // would be -2147483648
  EXPECT_THROW(at[2].get<unsigned>("n"), std::out_of_range);
  EXPECT_EQ(at[2].get<std::int64_t>("n"), 99999999999);
}

TEST(Registry, CommandLineValuesOverAnAxisMaximumAreRefusedNamingTheOption) {
  preset p = preset_by_name("quick");
  p.sizes["test_sized"] = {2147483647};  // the default maximum: what an int holds
  EXPECT_EQ(names_of(build_suite(p), "test_sized"), std::vector<std::string>{"test_sized/v/2147483647"});
  p.sizes["test_sized"] = {1, 2147483648};
  try {
    build_suite(p);
    ADD_FAILURE() << "a size over the axis's maximum was taken";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("--sizes=test_sized: 2147483648 is over the largest n"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(2147483647)"), std::string::npos) << e.what();
  }
  p.sizes.clear();
  p.axes["test_streams.streams"] = {4294967296};
  try {
    build_suite(p);
    ADD_FAILURE() << "an axis value over the axis's maximum was taken";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("--axis=test_streams.streams: 4294967296"), std::string::npos) << e.what();
  }
  p.axes.clear();
  p.sizes["test_wide"] = {99999999999};
  EXPECT_EQ(names_of(build_suite(p), "test_wide"), std::vector<std::string>{"test_wide/v/99999999999"});
  p.sizes["test_wide"] = {(std::int64_t(1) << 40) + 1};
  EXPECT_THROW(build_suite(p), usage_error);
}

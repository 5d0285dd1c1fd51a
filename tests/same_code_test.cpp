// Tests of analysis/same_code: the identities file's reader, and which cases two revisions' identities leave to
// measure (skipping only on proven-equal identity).
#include "analysis/same_code.hpp"

#include <gtest/gtest.h>

#include "io/errors.hpp"

using namespace cudabench;

namespace {
const std::string a = "00000000000000aa", b = "00000000000000bb";

case_identities ids(std::vector<identified_case> cases) { return {"", std::move(cases)}; }

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

TEST(SameCode, OneKernelChangedMeasuresItsCasesAndTheControls) {
  const case_identities good = ids({{"conv2d/naive/64", "conv2d", a, ""},
                                    {"conv2d/tiled/64", "conv2d", a, ""},
                                    {"reduce/sum/64", "reduce", b, ""},
                                    {"limits/empty_hot", "limits", a, ""},
                                    {"limits/copy_d2d", "limits", b, ""}});
  case_identities bad = good;
  bad.cases[1].digest = b;  // conv2d/tiled's kernel changed
  const measure_plan p = plan_measurement(good, bad);
  EXPECT_EQ(sorted(p.measured), sorted({"conv2d/tiled/64", "limits/empty_hot", "limits/copy_d2d"}));
  EXPECT_EQ(sorted(p.same_code), sorted({"conv2d/naive/64", "reduce/sum/64"}));
  EXPECT_EQ(p.changed, 1u);
  EXPECT_EQ(p.controls, 2u);
  EXPECT_FALSE(p.everything);
}

TEST(SameCode, AnUnknownIdentityOnEitherSideIsMeasured) {
  const case_identities good = ids({{"vector/add/1", "vector", a, ""},
                                    {"host/copy", "host", "", "a CPU case"},
                                    {"vector/add/2", "vector", "", "no CUPTI"},
                                    {"vector/add/3", "vector", a, ""},
                                    {"gone/x", "gone", a, ""}});
  const case_identities bad = ids({{"vector/add/1", "vector", a, ""},
                                   {"host/copy", "host", "", "a CPU case"},
                                   {"vector/add/2", "vector", a, ""},
                                   {"vector/add/3", "vector", "", "its kernel's SASS was not seen"},
                                   {"new/y", "new", a, ""}});
  const measure_plan p = plan_measurement(good, bad);
  EXPECT_EQ(sorted(p.measured), sorted({"host/copy", "vector/add/2", "vector/add/3", "new/y", "gone/x"}));
  EXPECT_EQ(p.same_code, std::vector<std::string>{"vector/add/1"});
  EXPECT_EQ(p.unknown, 5u);
}

TEST(SameCode, NothingLeftThatASideRunsMeasuresEverything) {
  const case_identities good = ids({{"vector/add/1", "vector", a, ""}});
  const case_identities bad = ids({{"vector/add/1", "vector", a, ""}, {"new/y", "new", a, ""}});
  const measure_plan p = plan_measurement(good, bad);  // the base's process would select no case
  EXPECT_TRUE(p.everything);
  EXPECT_TRUE(p.same_code.empty());
  EXPECT_EQ(sorted(p.measured), sorted({"vector/add/1", "new/y"}));
}

TEST(SameCode, IdentitiesFileRoundTripsAndRefusesBadInput) {
  const case_identities in = ids({{"vector/add/1", "vector", a, ""}, {"host/copy", "host", "", "a CPU case"}});
  const case_identities out = parse_identities(to_json(in).dump(), "x.json");
  ASSERT_EQ(out.cases.size(), 2u);
  EXPECT_EQ(out.cases[0].digest, a);
  EXPECT_EQ(out.cases[1].why, "a CPU case");
  auto refused = [](const std::string& text) { EXPECT_THROW(parse_identities(text, "x.json"), input_error) << text; };
  refused("");
  refused("{");
  refused(R"({"kind": "cudabench gates", "schema_version": 1, "cases": []})");
  refused(R"({"kind": "cudabench code identities", "schema_version": 9, "cases": []})");
  refused(R"({"kind": "cudabench code identities", "schema_version": 1, "cases": {}})");
  refused(R"({"kind": "cudabench code identities", "schema_version": 1, "cases": [{"name": "x", "digest": "zz"}]})");
  refused(R"({"kind": "cudabench code identities", "schema_version": 1, "cases": [{"name": 5}]})");
  refused(R"({"kind": "cudabench code identities", "schema_version": 1, "cases": [{"name": "x"}, {"name": "x"}]})");
  refused(R"({"kind": "cudabench code identities", "schema_version": 1, "cases": [[[[[1]]]]]})");
}

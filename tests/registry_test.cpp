// Tests of the registry: families build their cases for a preset, and --sizes replaces a family's sizes.
#include <gtest/gtest.h>

#include "cudabench/registry.hpp"
#include "harness/errors.hpp"

using namespace cudabench;

namespace {
class nothing final : public fixture {
 public:
  void run(cudaStream_t) override {}
  std::string verify() override { return {}; }
};

void register_sized(family_builder& f, const preset&) {
  f.describe("a family that takes sizes");
  for (long n : f.sizes<long>({1}, {2, 3}, {4, 5, 6}))
    f.add({.variant = "v", .params = std::to_string(n), .on = where::cpu, .make = [] { return std::make_unique<nothing>(); }});
}
void register_fixed(family_builder& f, const preset&) {
  f.add({.variant = "only", .on = where::cpu, .make = [] { return std::make_unique<nothing>(); }});
}
CB_REGISTER_FAMILY(test_sized, register_sized);
CB_REGISTER_FAMILY(test_fixed, register_fixed);

std::vector<std::string> names_of(const suite& s, const std::string& family) {
  std::vector<std::string> out;
  for (const auto& c : s.cases)
    if (c.family == family) out.push_back(c.name());
  return out;
}
}  // namespace

TEST(Registry, PresetPicksTheSizes) {
  EXPECT_EQ(names_of(build_suite(preset_by_name("quick")), "test_sized"), std::vector<std::string>{"test_sized/v/1"});
  EXPECT_EQ(names_of(build_suite(preset_by_name("full")), "test_sized").size(), 3u);
  EXPECT_EQ(names_of(build_suite(preset_by_name("quick")), "test_fixed"), std::vector<std::string>{"test_fixed/only"});
}

TEST(Registry, CommandLineSizesReplaceThePresets) {
  preset p = preset_by_name("quick");
  p.sizes["test_sized"] = {7, 9};
  EXPECT_EQ(names_of(build_suite(p), "test_sized"), (std::vector<std::string>{"test_sized/v/7", "test_sized/v/9"}));
}

TEST(Registry, SizesForAFamilyThatTakesNoneAreRefused) {
  preset p = preset_by_name("quick");
  p.sizes["test_fixed"] = {7};
  EXPECT_THROW(build_suite(p), usage_error);
  p.sizes.clear();
  p.sizes["no_such_family"] = {7};
  EXPECT_THROW(build_suite(p), usage_error);
}

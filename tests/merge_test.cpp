// Tests of the --devices merge (results/results_model) with results recorded on two H100 boards.
#include "results/results_model.hpp"

#include <gtest/gtest.h>

#include "io/atomic_file.hpp"
#include "analysis/compare.hpp"
#include "cli/options.hpp"
#include "io/errors.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"
#include "reports/speedup.hpp"

using namespace cudabench;
using namespace cudabench::cli;

namespace {
nlohmann::ordered_json recorded(const std::string& name) {
  return nlohmann::ordered_json::parse(read_file(std::string(CUDABENCH_FIXTURES) + "/h100/" + name));
}
}  // namespace

TEST(Merge, TwoDevicesKeepTheirOwnResults) {
  auto a = recorded("quick_board_a.json"), b = recorded("quick_board_b.json");
  const std::size_t rows_a = a["benchmarks"].size(), rows_b = b["benchmarks"].size();
  // Device 1 fails one case; its other results and all of device 0's stay.
  for (auto& row : b["benchmarks"])
    if (row["name"] == "conv2d/naive/4096") {
      row.erase("real_time");
      row["error_occurred"] = true;
      row["error_message"] = "wrong result: synthetic failure";
    }
  std::vector<device_run> runs(2);
  runs[0] = {0, parse_run(nlohmann::json(a), "a"), ""};
  runs[1] = {1, parse_run(nlohmann::json(b), "b"), ""};
  const nlohmann::ordered_json merged = to_json(merge_device_runs(std::move(runs)));
  ASSERT_EQ(merged["benchmarks"].size(), rows_a + rows_b);
  ASSERT_EQ(merged["context"]["devices"].size(), 2u);
  EXPECT_EQ(merged["context"]["devices"][1]["ordinal"], 1);
  EXPECT_EQ(merged["context"]["devices"][1]["uuid"], b["context"]["device"]["uuid"]);

  run_result r = parse_run(nlohmann::json::parse(merged.dump()), "merged");
  const case_result* ok = r.find("dev0/conv2d/naive/4096");
  const case_result* bad = r.find("dev1/conv2d/naive/4096");
  ASSERT_NE(ok, nullptr);
  ASSERT_NE(bad, nullptr);
  EXPECT_EQ(ok->status, case_status::ok);
  EXPECT_EQ(ok->device, 0);
  EXPECT_EQ(ok->family, "conv2d");
  EXPECT_EQ(ok->variant, "naive");
  EXPECT_EQ(bad->status, case_status::failed);
  EXPECT_EQ(r.find("dev1/conv2d/tiled/4096")->status, case_status::ok);
  EXPECT_GT(ok->bytes, 0);  // case metadata followed the renamed rows

  // Speedup tables stay per device.
  for (const auto& t : cudabench::reports::speedup_tables(r)) EXPECT_TRUE(t.device == 0 || t.device == 1);

  // Merged against merged: cases pair up per device.
  comparison c = compare_runs(r, r, {});
  EXPECT_FALSE(c.has_regression());
  EXPECT_EQ(c.count(verdict::new_case) + c.count(verdict::missing), 0u);
}

TEST(Merge, ADeviceWithoutAResultIsListed) {
  std::vector<device_run> runs(2);
  runs[0] = {0, parse_run(nlohmann::json(recorded("quick_board_a.json")), "a"), ""};
  runs[1] = {1, std::nullopt, "the process was killed"};
  const nlohmann::ordered_json merged = to_json(merge_device_runs(std::move(runs)));
  EXPECT_EQ(merged["context"]["devices"][1]["problem"], "the process was killed");
  std::vector<device_run> none(1);
  none[0] = {0, std::nullopt, "exit status 2"};
  EXPECT_THROW(merge_device_runs(std::move(none)), input_error);
}

TEST(Merge, DevicePrefix) {
  EXPECT_EQ(split_device_prefix("dev12/image/sync"), std::make_pair(12, std::string("image/sync")));
  EXPECT_EQ(split_device_prefix("image/sync"), std::make_pair(-1, std::string("image/sync")));
}

TEST(Options, DeviceLists) {
  EXPECT_EQ(parse_device_list("all", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parse_device_list("0,2", 3), (std::vector<int>{0, 2}));
  EXPECT_THROW(parse_device_list("3", 3), usage_error);
  EXPECT_THROW(parse_device_list("0,0", 3), usage_error);
  EXPECT_THROW(parse_device_list("all", 0), usage_error);
  EXPECT_THROW(parse_device_list("1,,2", 3), usage_error);
  auto child = child_arguments({"--devices=all", "--filter", "conv", "--json", "out.json", "--md=r.md", "--trace", "t.json", "--device=3"}, 1, "/tmp/d1.json");
  EXPECT_EQ(child, (std::vector<std::string>{"--filter", "conv", "--md=r.dev1.md", "--trace=t.dev1.json", "--device=1", "--json=/tmp/d1.json"}));
}

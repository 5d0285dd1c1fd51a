// Tests of analysis/gates: the drift estimator on synthetic histories of known drift, the gates it sets, the file.
#include "analysis/gates.hpp"
#include "analysis/run_store.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "io/errors.hpp"
#include "results/stats.hpp"

using namespace cudabench;

namespace {
/// Standard normal values from a portable generator (std::normal_distribution differs between libraries).
class normal_source {
 public:
  explicit normal_source(unsigned seed) : engine_(seed) {}
  double next() {
    const double u1 = (double(engine_()) + 1) / 4294967297.0, u2 = double(engine_()) / 4294967296.0;
    return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
  }

 private:
  std::mt19937 engine_;
};

/// `n` medians of a case whose log median moves between runs with standard deviation `sigma_run`.
std::vector<double> lognormal_history(std::size_t n, double sigma_run, unsigned seed) {
  normal_source z(seed);
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(10e-6 * std::exp(sigma_run * z.next()));
  return out;
}

case_result make_case(const std::string& name, double median_s) {
  case_result c;
  c.name = name;
  split_case_name(c);
  c.median_s = median_s;
  c.samples_s = {median_s};
  return c;
}

run_result make_run(std::size_t i, const std::vector<case_result>& cases, const std::string& gpu = "NVIDIA H100 80GB HBM3",
                    const std::string& preset = "nightly") {
  run_result r;
  r.source = "trend/run" + std::to_string(i) + ".json";
  r.device = device_info{};
  r.device->available = true;
  r.device->name = gpu;
  r.settings.preset = preset;
  r.settings.git_revision = "rev" + std::to_string(i);
  r.settings.started_utc = fmt::format("2026-11-01T02:{:02}:00Z", i);
  r.cases = cases;
  r.index_cases();
  return r;
}

/// Runs in which case "a/b/1" has the given medians.
std::vector<run_result> history_of(const std::vector<double>& medians) {
  std::vector<run_result> runs;
  for (std::size_t i = 0; i < medians.size(); ++i) runs.push_back(make_run(i, {make_case("a/b/1", medians[i])}));
  return runs;
}
}  // namespace

TEST(Gates, DriftOfALognormalHistoryIsRecoveredFrom40Runs) {
  // The drift of the change between two runs is sqrt(2) x the per-run spread. Over 200 histories of 40 runs
  // the estimate's median is within 6% of it and 90% of the estimates are within 35% (the MAD's own spread).
  const double sigma_run = 0.012, truth = std::sqrt(2.0) * sigma_run;
  std::vector<double> ratios;
  for (unsigned seed = 1; seed <= 200; ++seed) ratios.push_back(between_run_drift(lognormal_history(40, sigma_run, seed)) / truth);
  EXPECT_NEAR(median(ratios), 1.0, 0.06);
  const auto close = std::count_if(ratios.begin(), ratios.end(), [](double r) { return std::fabs(r - 1) < 0.35; });
  EXPECT_GE(close, 180);
}

TEST(Gates, TheSmallSampleCorrectionKeepsFiveRunsUnbiased) {
  const double sigma_run = 0.01, truth = std::sqrt(2.0) * sigma_run;
  double sum = 0;
  const int histories = 4000;
  for (int seed = 1; seed <= histories; ++seed) sum += between_run_drift(lognormal_history(5, sigma_run, unsigned(seed))) / truth;
  EXPECT_NEAR(sum / histories, 1.0, 0.05);
}

TEST(Gates, OneBadRunBarelyMovesTheGate) {
  for (std::size_t n : {15u, 30u}) {
    std::vector<double> medians = lognormal_history(n, 0.01, 7);
    const gate_table clean = learn_gates(history_of(medians), {});
    medians[n / 2] *= 1.25;  // one bad night: 25% slow
    const gate_table bad = learn_gates(history_of(medians), {});
    ASSERT_TRUE(clean.find("a/b/1") && bad.find("a/b/1"));
    EXPECT_NEAR(bad.find("a/b/1")->drift / clean.find("a/b/1")->drift, 1.0, n == 15 ? 0.5 : 0.25) << n << " runs";
  }
  // With the least history it may grow (never shrink), but the bad night does not become the drift.
  std::vector<double> medians = lognormal_history(5, 0.01, 7);
  const double clean = between_run_drift(medians);
  medians[2] *= 1.25;
  EXPECT_GE(between_run_drift(medians), clean);
  EXPECT_LT(between_run_drift(medians), 0.05);
}

TEST(Gates, ARealStepInTheHistoryDoesNotInflateTheGate) {
  std::vector<double> medians = lognormal_history(30, 0.005, 11);
  const double before = learn_gates(history_of(medians), {}).find("a/b/1")->drift;
  for (std::size_t i = 15; i < medians.size(); ++i) medians[i] *= 1.03;  // a real 3% change halfway
  const double after = learn_gates(history_of(medians), {}).find("a/b/1")->drift;
  EXPECT_NEAR(after / before, 1.0, 0.15);  // a spread about the history's centre grows to near the step itself
}

TEST(Gates, GateIsKTimesTheDriftAboveTheFloor) {
  const std::vector<double> medians = lognormal_history(12, 0.02, 3);
  const gate_table t = learn_gates(history_of(medians), {.floor = 0.015, .k = 4, .min_runs = 5});
  const learned_gate* g = t.find("a/b/1");
  ASSERT_TRUE(g);
  EXPECT_DOUBLE_EQ(g->drift, between_run_drift(medians));
  EXPECT_DOUBLE_EQ(g->gate, std::max(0.015, 4 * g->drift));
  EXPECT_GT(g->gate, 0.015);
  EXPECT_EQ(g->runs, 12u);
}

TEST(Gates, TheFloorAppliesToAQuietCase) {
  const gate_table t = learn_gates(history_of(std::vector<double>(8, 5e-6)), {});
  ASSERT_TRUE(t.find("a/b/1"));
  EXPECT_EQ(t.find("a/b/1")->drift, 0);
  EXPECT_DOUBLE_EQ(t.find("a/b/1")->gate, gate_settings{}.floor);
  const gate_table higher = learn_gates(history_of(lognormal_history(8, 0.0005, 5)), {.floor = 0.03});
  EXPECT_DOUBLE_EQ(higher.find("a/b/1")->gate, 0.03);
}

TEST(Gates, TooLittleHistoryKeepsTheDefault) {
  EXPECT_FALSE(learn_gates(history_of(lognormal_history(4, 0.01, 1)), {}).find("a/b/1"));
  EXPECT_TRUE(learn_gates(history_of(lognormal_history(5, 0.01, 1)), {}).find("a/b/1"));
  EXPECT_FALSE(learn_gates(history_of(lognormal_history(5, 0.01, 1)), {.min_runs = 6}).find("a/b/1"));
  // A case with a result in 4 of 6 runs (failed in one, absent from another) learns nothing either.
  std::vector<run_result> runs = history_of(lognormal_history(6, 0.01, 2));
  runs[1].cases[0].status = case_status::failed;
  runs[4].cases.clear();
  runs[4].index_cases();
  EXPECT_FALSE(learn_gates(runs, {}).find("a/b/1"));
}

TEST(Gates, HostBoundAndNotGatedCasesGetNone) {
  std::vector<run_result> runs;
  for (std::size_t i = 0; i < 6; ++i) {
    case_result host = make_case("dot/cpu/1", 1e-3 * (1 + 0.01 * double(i)));
    host.host_bound = true;
    case_result free = make_case("image/pinned/1", 1e-3);
    free.gated = i != 3;  // declared not gated in one run: never learned
    runs.push_back(make_run(i, {host, free, make_case("a/b/1", 1e-5)}));
  }
  const gate_table t = learn_gates(runs, {});
  EXPECT_FALSE(t.find("dot/cpu/1"));
  EXPECT_FALSE(t.find("image/pinned/1"));
  EXPECT_TRUE(t.find("a/b/1"));
  EXPECT_EQ(t.cases.size(), 1u);
}

// A host-bound case learns from pairs of runs of one machine (host name and board): its gate is marked host, and
// only its same-machine gate is learned from those pairs; a case host-bound in some runs only learns nothing.
TEST(Gates, AHostBoundCaseLearnsAGateOfOneMachine) {
  std::vector<run_result> runs;
  const std::vector<double> medians = lognormal_history(12, 0.01, 5);
  for (std::size_t i = 0; i < medians.size(); ++i) {
    case_result host = make_case("dot/cpu/1", 1e-3 * medians[i] / 10e-6);
    host.host_bound = true;
    case_result sometimes = make_case("image/sync/1", 1e-3);
    sometimes.host_bound = i % 2 == 0;
    runs.push_back(make_run(i, {host, sometimes, make_case("a/b/1", medians[i])}));
    runs.back().settings.host_name = i < 6 ? "runner-1" : "runner-2";
  }
  const gate_table t = learn_gates(runs, {});
  ASSERT_TRUE(t.find("dot/cpu/1"));
  EXPECT_TRUE(t.find("dot/cpu/1")->host);
  EXPECT_GT(t.find("dot/cpu/1")->same_board_gate, 0);
  EXPECT_FALSE(t.find("a/b/1")->host);
  EXPECT_FALSE(t.find("image/sync/1"));
  const gate_table back = parse_gates(gates_json(t), "g.gates.json");
  EXPECT_TRUE(back.find("dot/cpu/1")->host);
  EXPECT_FALSE(back.find("a/b/1")->host);
  EXPECT_EQ(back.runs[7].host, "runner-2");
  // The same runs with no host name: no pairs of one machine, no gate.
  for (run_result& r : runs) r.settings.host_name.clear();
  EXPECT_FALSE(learn_gates(runs, {}).find("dot/cpu/1"));
}

// A history wilder than any benchmark's (two machines a million times apart) is held at the file's limits: the
// gates file written is one its reader takes.
TEST(Gates, AWildHistoryStillWritesAFileItsReaderTakes) {
  std::vector<run_result> runs;
  for (std::size_t i = 0; i < 12; ++i) {
    case_result host = make_case("dot/cpu/1", i % 2 ? 1.0 : 1e-6 * (1 + 0.01 * double(i)));
    host.host_bound = true;
    runs.push_back(make_run(i, {host, make_case("a/b/1", i % 2 ? 1.0 : 1e-6)}));
    runs.back().settings.host_name = i % 2 ? "runner-1" : "runner-2";
  }
  const gate_table t = learn_gates(runs, {});
  ASSERT_TRUE(t.find("a/b/1"));
  EXPECT_LE(t.find("a/b/1")->drift, max_gate_drift);
  EXPECT_NO_THROW(parse_gates(gates_json(t), "wild.gates.json"));
}

TEST(Gates, RunsOfAnotherGpuOrPresetOrNoDeviceAreRefused) {
  std::vector<run_result> runs = history_of(lognormal_history(5, 0.01, 1));
  runs.push_back(make_run(9, {make_case("a/b/1", 1e-5)}, "NVIDIA H200"));
  EXPECT_THROW(learn_gates(runs, {}), input_error);
  runs.back() = make_run(9, {make_case("a/b/1", 1e-5)}, "NVIDIA H100 80GB HBM3", "quick");
  EXPECT_THROW(learn_gates(runs, {}), input_error);
  runs.back().device.reset();
  EXPECT_THROW(learn_gates(runs, {}), input_error);
  EXPECT_THROW(learn_gates({}, {}), input_error);
}

TEST(Gates, RunsAreTakenOldestFirst) {
  // Alternating medians in date order have a large two-run change; the same runs given in another order
  // must give the same drift.
  std::vector<run_result> runs = history_of({1e-5, 1.1e-5, 1e-5, 1.1e-5, 1e-5, 1.1e-5});
  const double drift = learn_gates(runs, {}).find("a/b/1")->drift;
  EXPECT_GT(drift, 0.09);
  std::swap(runs[0], runs[3]);
  std::swap(runs[1], runs[4]);
  const gate_table t = learn_gates(runs, {});
  EXPECT_DOUBLE_EQ(t.find("a/b/1")->drift, drift);
  EXPECT_EQ(t.runs.front().file, "run0.json");
}

TEST(Gates, TheFileRoundTripsWithItsSources) {
  const gate_table t = learn_gates(history_of(lognormal_history(7, 0.01, 4)), {.floor = 0.02, .k = 3.5, .min_runs = 6});
  const gate_table back = parse_gates(gates_json(t), "g.gates.json");
  EXPECT_EQ(back.source, "g.gates.json");
  EXPECT_EQ(back.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(back.preset, "nightly");
  EXPECT_EQ(back.settings.floor, 0.02);
  EXPECT_EQ(back.settings.k, 3.5);
  EXPECT_EQ(back.settings.min_runs, 6u);
  ASSERT_EQ(back.runs.size(), 7u);
  EXPECT_EQ(back.runs[2].file, "run2.json");
  EXPECT_EQ(back.runs[2].revision, "rev2");
  EXPECT_EQ(back.runs[2].date, "2026-11-01T02:02:00Z");
  ASSERT_TRUE(back.find("a/b/1"));
  EXPECT_EQ(back.find("a/b/1")->gate, t.find("a/b/1")->gate);
  EXPECT_EQ(back.find("a/b/1")->drift, t.find("a/b/1")->drift);
  EXPECT_EQ(back.find("a/b/1")->runs, 7u);
}

TEST(Gates, TheReaderRefusesBadInputNamingTheProblem) {
  const std::string good = gates_json(learn_gates(history_of(lognormal_history(5, 0.01, 4)), {}));
  auto problem = [](const std::string& text) -> std::string {
    try {
      parse_gates(text, "x.gates.json");
    } catch (const input_error& e) {
      return e.what();
    }
    return "";
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  EXPECT_NE(problem("{").find("invalid JSON"), std::string::npos);
  EXPECT_NE(problem("{\"benchmarks\": []}").find("not a gates file"), std::string::npos);
  EXPECT_NE(problem(replaced("\"schema_version\": 3", "\"schema_version\": 4")).find("version"), std::string::npos);
  EXPECT_NE(problem(replaced("\"device\"", "\"gpu\"")).find("'device' is missing"), std::string::npos);
  EXPECT_NE(problem(replaced("\"gate\": ", "\"gate\": -")).find("'gate'"), std::string::npos);
  EXPECT_NE(problem(replaced("\"runs\": 5", "\"runs\": \"5\"")).find("'runs'"), std::string::npos);
  EXPECT_NE(problem(std::string(20, '[') + std::string(20, ']')).find("nested"), std::string::npos);
  EXPECT_NE(problem(replaced("\"preset\": \"nightly\"", "\"preset\": \"nightly\", \"preset\": \"quick\"")).find("key 'preset' appears twice"),
            std::string::npos);
  // Values that mean nothing where they are used: each refused naming its field.
  for (const auto& [from, to, key] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"\"gate\": ", "\"gate\": 1e308, \"x\": ", "'gate'"},
           {"\"drift\": ", "\"drift\": 1e308, \"x\": ", "'drift'"},
           {"\"floor\": 0.015", "\"floor\": 1e308", "'floor'"},
           {"\"k\": 6.0", "\"k\": 0", "'k'"},
           {"\"k\": 6.0", "\"k\": 1e308", "'k'"},
           {"\"min_runs\": 5", "\"min_runs\": 0", "'min_runs'"},
           {"\"runs\": 5", "\"runs\": 0", "'runs'"},
           {"\"preset\": \"nightly\"", "\"preset\": \"\"", "'preset'"}}) {
    const std::string msg = problem(replaced(from, to));
    EXPECT_NE(msg.find(key), std::string::npos) << to << ": " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
  EXPECT_NE(problem(replaced("\"gate\": ", "\"gate\": 0, \"x\": ")).find("'gate' is 0 where a number above 0"), std::string::npos);
  for (const std::string& msg : {problem("{"), problem(replaced("\"k\": 6.0", "\"k\": null"))}) {
    EXPECT_EQ(msg.rfind("x.gates.json: ", 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

TEST(Gates, TheFileBesideABaseline) {
  EXPECT_EQ(run_store::gates_file_beside("reports/baselines/nvidia-h100/nightly.json"), "reports/baselines/nvidia-h100/nightly.gates.json");
  EXPECT_EQ(run_store::gates_file_beside("-"), "");
  EXPECT_EQ(run_store::gates_file_beside("base.txt"), "");
}

TEST(RunStore, NamesEachPlaceOnce) {
  device_info h100;
  h100.available = true;
  h100.name = "NVIDIA H100 80GB HBM3";
  EXPECT_EQ(run_store::slot(h100, "quick"), "NVIDIA_H100_80GB_HBM3/quick");
  EXPECT_EQ(run_store::slot(device_info{}, "nightly"), "no-gpu/nightly");
  EXPECT_EQ(run_store::baseline_file("b", h100, "nightly"), "b/NVIDIA_H100_80GB_HBM3/nightly.json");
  EXPECT_EQ(run_store::history_folder("s", h100, "nightly"), "s/NVIDIA_H100_80GB_HBM3/nightly");
  device_info odd;
  odd.name = "/?/";
  EXPECT_THROW(run_store::slot(odd, "nightly"), input_error);  // a model that names no directory
  EXPECT_THROW(run_store::slot(h100, ".."), input_error);
  EXPECT_THROW(run_store::slot(h100, "a/b"), input_error);
  EXPECT_TRUE(run_store::is_gates_file("d/nightly.gates.json"));
  EXPECT_FALSE(run_store::is_gates_file("d/nightly.json"));
  EXPECT_EQ(run_store::run_stamp("runs/nightly-20261123T020000Z.json"), "20261123T020000Z");
  EXPECT_EQ(run_store::run_stamp("runs/latest.json"), "");
  EXPECT_EQ(run_store::verdict_name("20261123T020000Z"), "verdict-20261123T020000Z.json");
  EXPECT_EQ(run_store::run_name("20261123T020000Z"), "nightly-20261123T020000Z.json");
}

TEST(RunStore, PlacesEachPathOfAHistoryStore) {
  auto kind = [](const std::string& path) { return run_store::history_entry_of(path).kind; };
  EXPECT_EQ(kind("NVIDIA_H100"), "model");
  EXPECT_EQ(kind("NVIDIA_H100/nightly"), "folder");
  EXPECT_EQ(kind("NVIDIA_H100/nightly/runs"), "runs");
  EXPECT_EQ(kind("NVIDIA_H100/nightly/gates.json"), "learned");
  const run_store::history_entry run =
      run_store::history_entry_of("NVIDIA_H100/nightly/runs/nightly-20261123T020000Z.json");
  EXPECT_EQ(run.kind, "run");
  EXPECT_EQ(run.folder, "NVIDIA_H100/nightly");
  EXPECT_EQ(run.stamp, "20261123T020000Z");
  const run_store::history_entry verdict = run_store::history_entry_of("m/p/verdict-20261123T020000Z.json");
  EXPECT_EQ(verdict.kind, "verdict");
  EXPECT_EQ(verdict.stamp, "20261123T020000Z");
  for (const char* outside : {"zzz.json/a/b/c/d", "m/p/runs/latest.json", "m/p/runs/nightly-2026.json", "m/p/x.json",
                              "m/p/verdict-20261123T020000.json", ".hidden", "m//p", "m/p/", "", "m/../p",
                              "m/p/runs/nightly-20261123T020000Z.json/x"})
    EXPECT_EQ(kind(outside), "outside") << outside;
}

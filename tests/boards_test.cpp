// Tests of verdicts across boards: the machine facts a run records (read from fixtures and from a stand-in
// NVML), normalization by a case's control on synthetic pairs, the limits reported as the machine, and gates
// learned from a history of several boards.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "analysis/compare.hpp"
#include "analysis/gates.hpp"
#include "analysis/normalize.hpp"
#include "cudabench/limit_names.hpp"
#include "io/errors.hpp"
#include "reports/render.hpp"
#include "reports/trend.hpp"
#include "results/code_identity.hpp"
#include "results/machine.hpp"

using namespace cudabench;

namespace {
constexpr const char* model = "NVIDIA H100 80GB HBM3";
constexpr double read_bytes = 1e9;  ///< what limits/read and the reduce case move per run

/// A case of `rounds` repetitions, one a round, around `median_s` with a relative spread `noise`; a rate counter
/// (bytes per second) where it moves bytes.
case_result make_case(const std::string& name, double median_s, double noise, unsigned seed,
                      const std::string& limit = "") {
  case_result c;
  c.name = name;
  split_case_name(c);
  c.described = true;
  c.on_gpu = true;
  c.bytes = read_bytes;
  c.limit = limit;
  std::mt19937 g(seed);
  std::normal_distribution<double> z(0, noise);
  for (int i = 0; i < 5; ++i) {
    repetition r;
    r.real_time_s = median_s * (1 + z(g));
    r.counters["bytes_per_second"] = read_bytes / r.real_time_s;
    r.record = run_record{};
    r.record->round = i + 1;
    c.repetitions.push_back(r);
  }
  summarize_case(c);
  return c;
}

/// A run on board `uuid` whose read limit takes `read_s` and whose reduce case takes `reduce_s`.
run_result make_run(const std::string& uuid, double read_s, double reduce_s, unsigned seed,
                    const std::string& date = "2026-11-01T02:00:00Z") {
  run_result r;
  r.source = "run-" + uuid + "-" + std::to_string(seed) + ".json";
  r.device = device_info{};
  r.device->available = true;
  r.device->name = model;
  r.device->uuid = uuid;
  r.settings.preset = "nightly";
  r.settings.rounds = 5;
  r.settings.started_utc = date;
  r.cases.push_back(make_case("limits/read", read_s, 0.001, seed));
  r.cases.push_back(make_case("reduce/fast/268435456", reduce_s, 0.002, seed + 1, "limits/read"));
  r.cases.push_back(make_case("conv2d/naive/4096", 1e-3, 0.002, seed + 2));  // no control: judged as measured
  r.index_cases();
  return r;
}

const case_comparison& find(const comparison& c, const std::string& name) {
  for (auto& r : c.cases)
    if (r.name == name) return r;
  throw std::runtime_error("no case " + name);
}

/// Scoped environment variable.
class scoped_env {
 public:
  scoped_env(const char* name, const std::string& value) : name_(name) { setenv(name, value.c_str(), 1); }
  ~scoped_env() { unsetenv(name_); }

 private:
  const char* name_;
};
}  // namespace

TEST(MachineFacts, ReadFromAResultsFixtureAndBack) {
  const nlohmann::json j = nlohmann::json::parse(R"({"board": {"uuid": "GPU-edd4076f-d201-22bf-fd94-43e2519c35c2",
      "serial": "1650123", "vbios": "96.00.99.00.01", "driver": "580.95.05", "power_limit_w": 700, "app_sm_clock_mhz": 1755,
      "max_sm_clock_mhz": 1980, "max_memory_clock_mhz": 2619, "ecc": "on", "mig": "off", "persistence": "on", "pcie_gen": 5,
      "pcie_width": 16, "clocks_locked": "no"}, "host": {"cpu_model": "Intel(R) Xeon(R) Platinum 8480+", "logical_cpus": 16, "mps": "off"}})");
  const machine_facts m = machine_facts_from_json(j);
  ASSERT_TRUE(m.board);
  EXPECT_EQ(m.board->serial, "1650123");
  EXPECT_EQ(m.board->power_limit_w, 700);
  EXPECT_EQ(m.board->app_sm_clock_mhz, 1755);
  EXPECT_EQ(m.board->pcie_width, 16);
  EXPECT_EQ(m.board->clocks_locked, "no");
  EXPECT_EQ(m.host.cpu_model, "Intel(R) Xeon(R) Platinum 8480+");
  EXPECT_EQ(m.host.logical_cpus, 16);
  const machine_facts back = machine_facts_from_json(nlohmann::json::parse(to_json(m).dump()));
  EXPECT_TRUE(machine_differences(m, back).empty());
  EXPECT_EQ(board_label(m.board->uuid), "GPU-edd4076f");
}

TEST(MachineFacts, AWrongFieldIsOneLineNamingIt) {
  auto problem = [](const char* text) -> std::string {
    try {
      machine_facts_from_json(nlohmann::json::parse(text));
    } catch (const input_error& e) { return e.what(); }
    return "";
  };
  EXPECT_NE(problem(R"({"board": {"power_limit_w": "700"}})").find("device.machine.board.power_limit_w"),
            std::string::npos);
  EXPECT_NE(problem(R"({"board": {"pcie_gen": -1}})").find("pcie_gen"), std::string::npos);
  EXPECT_NE(problem(R"({"board": []})").find("device.machine.board"), std::string::npos);
  EXPECT_NE(problem(R"({"host": {"cpu_model": 3}})").find("device.machine.host.cpu_model"), std::string::npos);
}

TEST(MachineFacts, OldResultsWithoutThemStayReadable) {
  const device_info d =
      device_info_from_json(nlohmann::json::parse(R"({"available": true, "name": "NVIDIA H100 80GB HBM3",
      "compute_capability": "9.0", "uuid": "GPU-b2c4773f-9f5b-844e-0f78-3cc2c7c05de1"})"));
  EXPECT_FALSE(d.machine);
  EXPECT_EQ(d.uuid, "GPU-b2c4773f-9f5b-844e-0f78-3cc2c7c05de1");
}

TEST(MachineFacts, HostFromProcCpuinfo) {
  const std::string cpuinfo =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9654 96-Core Processor  \n"
      "processor\t: 1\nmodel name\t: AMD EPYC 9654 96-Core Processor\n";
  const host_facts h = host_facts_from(cpuinfo, 16);
  EXPECT_EQ(h.cpu_model, "AMD EPYC 9654 96-Core Processor");
  EXPECT_EQ(h.logical_cpus, 16);
  EXPECT_EQ(host_facts_from("processor : 0\n", 0).cpu_model, "");
}

TEST(MachineFacts, DifferencesNameTheFactsThatDiffer) {
  machine_facts a, b;
  a.board = board_facts{};
  a.board->uuid = "GPU-edd4076f-d201-22bf-fd94-43e2519c35c2";
  a.board->power_limit_w = 700;
  a.board->vbios = "96.00.99.00.01";
  b.board = a.board;
  b.board->uuid = "GPU-41a5bd9b-b0c2-2c3d-1e06-f8060ae91094";
  b.board->power_limit_w = 650;
  b.board->vbios = "";  // not recorded: no difference
  a.host.cpu_model = b.host.cpu_model = "EPYC";
  const auto d = machine_differences(a, b);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].fact, "board");
  EXPECT_EQ(describe(d), "board GPU-edd4076f vs GPU-41a5bd9b; power limit 700 W vs 650 W");
}

TEST(MachineFacts, TheBoardIsReadThroughNvml) {
  const scoped_env lib(nvml_library_environment, CUDABENCH_FAKE_NVML);
  const machine_facts m = query_machine("GPU-12345678-aaaa-bbbb-cccc-0123456789ab", "");
  ASSERT_TRUE(m.board) << m.board_problem;
  EXPECT_EQ(m.board->serial, "1650123456789");
  EXPECT_EQ(m.board->vbios, "96.00.99.00.01");
  EXPECT_EQ(m.board->driver, "580.95.05");
  EXPECT_EQ(m.board->power_limit_w, 700);
  EXPECT_EQ(m.board->app_sm_clock_mhz, 1755);
  EXPECT_EQ(m.board->max_sm_clock_mhz, 1980);
  EXPECT_EQ(m.board->max_memory_clock_mhz, 2619);
  EXPECT_EQ(m.board->ecc, "on");
  EXPECT_EQ(m.board->mig, "off");
  EXPECT_EQ(m.board->persistence, "on");
  EXPECT_EQ(m.board->pcie_gen, 5);
  EXPECT_EQ(m.board->pcie_width, 16);
  EXPECT_EQ(m.board->clocks_locked, "no");
  EXPECT_GT(m.host.logical_cpus, 0);
  // By PCI bus id where the uuid is unknown to NVML; a board NVML does not know has its reason.
  EXPECT_TRUE(query_machine("GPU-00000000-0000-0000-0000-000000000000", "00000000:1B:00.0").board);
  const machine_facts unknown = query_machine("GPU-00000000-0000-0000-0000-000000000000", "");
  EXPECT_FALSE(unknown.board);
  EXPECT_NE(unknown.board_problem.find("NVML does not know"), std::string::npos);
}

TEST(MachineFacts, NoNvmlLeavesTheReason) {
  const scoped_env lib(nvml_library_environment, "/nonexistent/libnvidia-ml.so.1");
  const machine_facts m = query_machine("GPU-12345678-aaaa-bbbb-cccc-0123456789ab", "");
  EXPECT_FALSE(m.board);
  EXPECT_NE(m.board_problem.find("NVML not loaded"), std::string::npos);
}

TEST(Normalize, ControlsOfACase) {
  case_meta c;
  c.family = "image";
  c.limit = "limits/bidir_pinned";
  EXPECT_EQ(control_name(c), "limits/h2d_pinned+limits/d2h_pinned");
  c.control = "limits/h2d_pinned";
  EXPECT_EQ(control_name(c), "limits/h2d_pinned");
  c.family = "limits";
  EXPECT_TRUE(control_limits(c).empty()) << "the limits are the machine";
  const std::map<std::string, double> rates{{"limits/h2d_pinned", 50e9}, {"limits/d2h_pinned", 200e9}};
  case_meta pipe;
  pipe.family = "image";
  pipe.limit = "limits/bidir_pinned";
  EXPECT_NEAR(*control_rate(pipe, rates), 100e9, 1e3);  // the geometric mean
  pipe.limit = "limits/copy_d2d";
  EXPECT_FALSE(control_rate(pipe, rates));
}

TEST(Normalize, ABoardSlowerOnItsReadLimitIsNotARegression) {
  // Board B reads 2% slower: its read limit and the read-bound case both take 2% longer.
  const run_result base = make_run("GPU-aaaaaaaa-0000-0000-0000-000000000000", 1e-3, 2e-3, 1);
  const run_result cur = make_run("GPU-bbbbbbbb-0000-0000-0000-000000000000", 1.02e-3, 2.04e-3, 11);
  const comparison c = compare_runs(base, cur, {.threshold = 0.015});
  const case_comparison& r = find(c, "reduce/fast/268435456");
  EXPECT_EQ(r.v, verdict::unchanged);
  EXPECT_NEAR(r.change, 0.02, 0.004);
  ASSERT_TRUE(r.normalized_change);
  EXPECT_NEAR(*r.normalized_change, 0.0, 0.004);
  EXPECT_NEAR(*r.control_change, -0.0196, 0.003);
  EXPECT_EQ(r.control, "limits/read");
  EXPECT_NE(r.note.find("board: limits/read -2."), std::string::npos) << r.note;
  EXPECT_NE(r.note.find("normalized"), std::string::npos) << r.note;
  EXPECT_EQ(find(c, "limits/read").v, verdict::machine_differs);
  EXPECT_FALSE(c.failing());
  EXPECT_FALSE(c.same_board);
  ASSERT_FALSE(c.machine_differences.empty());
  EXPECT_EQ(c.machine_differences.front().fact, "board");
  // Every output shows both changes.
  EXPECT_NE(reports::comparison_terminal(c, false).find("normalized +0."), std::string::npos);
  EXPECT_NE(reports::comparison_terminal(c, false).find("the runs come from different machines"), std::string::npos);
  const std::string verdict = reports::verdict_json(c);
  EXPECT_NE(verdict.find("\"normalized_change\""), std::string::npos);
  EXPECT_NE(verdict.find("\"same_board\": false"), std::string::npos);
  EXPECT_NE(reports::comparison_markdown(c).find("board: limits/read"), std::string::npos);
}

TEST(Normalize, ARealChangeSurvivesNormalization) {
  // The same slower board, and the code 3% slower on top.
  const run_result base = make_run("GPU-aaaaaaaa-0000-0000-0000-000000000000", 1e-3, 2e-3, 1);
  const run_result cur = make_run("GPU-bbbbbbbb-0000-0000-0000-000000000000", 1.02e-3, 2.04e-3 * 1.03, 21);
  const comparison c = compare_runs(base, cur, {.threshold = 0.015});
  const case_comparison& r = find(c, "reduce/fast/268435456");
  // Beyond the gate on its control's scale, but measured on another board: held until one machine confirms it.
  EXPECT_EQ(r.v, verdict::unconfirmed);
  EXPECT_NEAR(*r.normalized_change, 0.03, 0.004);
  EXPECT_FALSE(c.failing());
  EXPECT_EQ(c.exit_status(), exit_unconfirmed);
}

TEST(Normalize, AFasterBoardDoesNotHideASlowerCase) {
  // Board B reads 3% faster; the code got 3% slower: as measured nothing moved.
  const run_result base = make_run("GPU-aaaaaaaa-0000-0000-0000-000000000000", 1e-3, 2e-3, 1);
  const run_result cur = make_run("GPU-bbbbbbbb-0000-0000-0000-000000000000", 1e-3 / 1.03, 2e-3, 31);
  const comparison c = compare_runs(base, cur, {.threshold = 0.015});
  const case_comparison& r = find(c, "reduce/fast/268435456");
  EXPECT_NEAR(r.change, 0.0, 0.004);
  EXPECT_EQ(r.v, verdict::unconfirmed);
}

/// Sets both runs' digest of a case's device code.
void set_code(run_result& r, const std::string& name, const std::string& digest) {
  for (case_result& c : r.cases)
    if (c.name == name) c.code = code_identity{.digest = digest};
}

TEST(OneMachine, AFlagStandsOnlyOnOneMachine) {
  const std::string a = "GPU-aaaaaaaa-0000-0000-0000-000000000000", b = "GPU-bbbbbbbb-0000-0000-0000-000000000000";
  // conv2d/naive has no control: 3% slower as measured is a regression on one machine...
  const comparison same = compare_runs(make_run(a, 1e-3, 2e-3, 1), make_run(a, 1e-3, 2e-3, 51), {.threshold = 0.015});
  run_result slower = make_run(a, 1e-3, 2e-3, 52);
  for (case_result& c : slower.cases)
    if (c.name == "conv2d/naive/4096") {
      for (repetition& rep : c.repetitions) rep.real_time_s *= 1.03;
      summarize_case(c);
    }
  const comparison one = compare_runs(make_run(a, 1e-3, 2e-3, 1), slower, {.threshold = 0.015});
  EXPECT_TRUE(one.same_machine);
  EXPECT_EQ(find(one, "conv2d/naive/4096").v, verdict::regression);
  EXPECT_EQ(one.exit_status(), 1);
  EXPECT_TRUE(same.same_machine);
  EXPECT_EQ(same.exit_status(), 0);
  // ... and unconfirmed between two boards, saying which facts differ; exit status 3, never 1.
  run_result other = slower;
  other.device->uuid = b;
  const comparison two = compare_runs(make_run(a, 1e-3, 2e-3, 1), other, {.threshold = 0.015});
  EXPECT_FALSE(two.same_machine);
  const case_comparison& r = find(two, "conv2d/naive/4096");
  EXPECT_EQ(r.v, verdict::unconfirmed);
  EXPECT_NE(r.note.find("regression on another machine (board GPU-aaaaaaaa vs GPU-bbbbbbbb)"), std::string::npos)
      << r.note;
  EXPECT_EQ(two.exit_status(), exit_unconfirmed);
  EXPECT_NE(reports::verdict_counts(two).find("1 unconfirmed"), std::string::npos);
  const std::string verdict = reports::verdict_json(two);
  EXPECT_NE(verdict.find("\"same_machine\": false"), std::string::npos);
  EXPECT_NE(verdict.find("\"verdict\": \"unconfirmed\""), std::string::npos);
  EXPECT_NE(reports::comparison_markdown(two).find("unconfirmed"), std::string::npos);
  EXPECT_NE(reports::comparison_terminal(two, false).find("flag(s) held"), std::string::npos);
}

namespace {
/// Makes one case of `run` `factor` times slower in every repetition.
void slow_down(run_result& run, const std::string& name, double factor) {
  for (case_result& c : run.cases)
    if (c.name == name) {
      for (repetition& rep : c.repetitions) rep.real_time_s *= factor;
      summarize_case(c);
    }
}
}  // namespace

TEST(OneMachine, ALimitBeyondItsGateMakesTheMachineAnother) {
  // One board whose host copies or read rate moved (a busy host): its flags wait for confirmation too.
  const std::string a = "GPU-aaaaaaaa-0000-0000-0000-000000000000";
  run_result cur = make_run(a, 1.2e-3, 2e-3, 61);
  slow_down(cur, "conv2d/naive/4096", 1.1);
  const comparison c = compare_runs(make_run(a, 1e-3, 2e-3, 1), cur, {});
  EXPECT_TRUE(c.same_board);
  EXPECT_FALSE(c.same_machine);
  EXPECT_NE(c.machine_change.find("limits/read +20."), std::string::npos) << c.machine_change;
  EXPECT_EQ(find(c, "conv2d/naive/4096").v, verdict::unconfirmed);
}

TEST(OneMachine, TheSameCodeOnAnotherMachineIsTheMachine) {
  const std::string a = "GPU-aaaaaaaa-0000-0000-0000-000000000000", b = "GPU-bbbbbbbb-0000-0000-0000-000000000000";
  run_result base = make_run(a, 1e-3, 2e-3, 1), cur = make_run(b, 1e-3, 2e-3, 71);
  slow_down(cur, "conv2d/naive/4096", 1.1);
  set_code(base, "conv2d/naive/4096", "0123456789abcdef");
  set_code(cur, "conv2d/naive/4096", "0123456789abcdef");
  comparison c = compare_runs(base, cur, {});
  EXPECT_EQ(find(c, "conv2d/naive/4096").v, verdict::same_code);
  EXPECT_EQ(c.exit_status(), 0);
  EXPECT_NE(reports::verdict_json(c).find("\"code\": \"same\""), std::string::npos);
  // Its code changed: unconfirmed, and every output says the code changed.
  set_code(cur, "conv2d/naive/4096", "fedcba9876543210");
  c = compare_runs(base, cur, {});
  const case_comparison& r = find(c, "conv2d/naive/4096");
  EXPECT_EQ(r.v, verdict::unconfirmed);
  EXPECT_NE(r.note.find("device code changed (0123456789abcdef -> fedcba9876543210)"), std::string::npos) << r.note;
  EXPECT_NE(reports::verdict_json(c).find("\"code\": \"changed\""), std::string::npos);
  EXPECT_NE(reports::comparison_markdown(c).find("device code changed"), std::string::npos);
}

TEST(OneMachine, AChangedCodesSignificantChangeIsConfirmedEvenWithinTheGate) {
  // 2.5% slower on another board, within the 5% default: with changed device code it waits for one machine to
  // measure it; with the same code it stays unchanged; with no code recorded it is judged as before.
  const std::string a = "GPU-aaaaaaaa-0000-0000-0000-000000000000", b = "GPU-bbbbbbbb-0000-0000-0000-000000000000";
  run_result base = make_run(a, 1e-3, 2e-3, 1), cur = make_run(b, 1e-3, 2e-3, 75);
  slow_down(cur, "conv2d/naive/4096", 1.025);
  EXPECT_EQ(find(compare_runs(base, cur, {}), "conv2d/naive/4096").v, verdict::unchanged);
  set_code(base, "conv2d/naive/4096", "0123456789abcdef");
  set_code(cur, "conv2d/naive/4096", "0123456789abcdef");
  EXPECT_EQ(find(compare_runs(base, cur, {}), "conv2d/naive/4096").v, verdict::unchanged);
  set_code(cur, "conv2d/naive/4096", "fedcba9876543210");
  const comparison c = compare_runs(base, cur, {});
  const case_comparison& r = find(c, "conv2d/naive/4096");
  EXPECT_EQ(r.v, verdict::unconfirmed);
  ASSERT_TRUE(r.held.has_value());
  EXPECT_EQ(*r.held, verdict::regression);
  EXPECT_NE(r.note.find("with changed device code"), std::string::npos) << r.note;
  EXPECT_EQ(c.exit_status(), exit_unconfirmed);
  EXPECT_NE(reports::verdict_json(c).find("\"held\": \"regression\""), std::string::npos);
  // On one machine the same change stays within the gate: nothing to confirm there.
  run_result here = cur;
  here.device->uuid = a;
  EXPECT_NE(find(compare_runs(base, here, {}), "conv2d/naive/4096").v, verdict::unconfirmed);
}

TEST(OneMachine, ADigestKeptOverChangedLaunchesIsNotTheSameCode) {
  // Every launch of the current run changed but its file kept the baseline's digest: read back, its identity is
  // unknown, so a run 20% slower on another board is unconfirmed, never the machine's.
  const std::string a = "GPU-aaaaaaaa-0000-0000-0000-000000000000", b = "GPU-bbbbbbbb-0000-0000-0000-000000000000";
  run_result base = make_run(a, 1e-3, 2e-3, 1), cur = make_run(b, 1e-3, 2e-3, 73);
  const code_identity id{.digest = launches_digest({"kernel k sass=00000000000000aa grid=1x1x1 block=1x1x1"}, 1),
                         .launches = {"kernel k sass=00000000000000aa grid=1x1x1 block=1x1x1"},
                         .streams = 1};
  nlohmann::json stale = to_json(id);
  stale["launches"][0] = "kernel k sass=00000000000000ab grid=2x1x1 block=1x1x1";
  for (case_result& c : cur.cases)
    if (c.name == "conv2d/naive/4096") {
      for (repetition& rep : c.repetitions) rep.real_time_s *= 1.2;
      summarize_case(c);
      c.code = code_identity_from_json(stale, "cur.json");
    }
  for (case_result& c : base.cases)
    if (c.name == "conv2d/naive/4096") c.code = code_identity_from_json(to_json(id), "base.json");
  const comparison c = compare_runs(base, cur, {});
  EXPECT_EQ(find(c, "conv2d/naive/4096").v, verdict::unconfirmed);
  EXPECT_EQ(c.count(verdict::same_code), 0u);
  EXPECT_EQ(c.exit_status(), exit_unconfirmed);
}

namespace {
/// A run on board `uuid` of host `host` with a short cold case of `short_s` and, where `overhead_s` > 0, the
/// empty cold sample of `overhead_s`.
run_result short_run(const std::string& uuid, const std::string& host, double short_s, double overhead_s,
                     unsigned seed) {
  run_result r = make_run(uuid, 1e-3, 2e-3, seed);
  r.settings.host_name = host;
  std::vector<case_result> extra{make_case("histogram/fast/1048576", short_s, 0.002, seed + 7)};
  if (overhead_s > 0) {
    extra.push_back(make_case(sample_overhead_cold, overhead_s, 0.002, seed + 8));
    extra.back().gated = false;
  }
  for (case_result& c : extra) {
    c.cache = c.declared_cache = "cold";
    r.cases.push_back(std::move(c));
  }
  r.index_cases();
  return r;
}
}  // namespace

TEST(Normalize, TheHostsSampleOverheadIsTakenOutOfAShortCase) {
  const std::string a = "GPU-aaaaaaaa-0000-0000-0000-000000000000", b = "GPU-bbbbbbbb-0000-0000-0000-000000000000";
  // A host that adds 2.5 us to every sample: the short case is 35% slower as measured, the same on the scale of
  // the empty sample.
  const run_result base = short_run(a, "one-gpu", 7.1e-6, 3.0e-6, 1);
  comparison c = compare_runs(base, short_run(b, "four-gpu", 9.6e-6, 5.5e-6, 81), {.threshold = 0.015});
  const case_comparison& r = find(c, "histogram/fast/1048576");
  EXPECT_EQ(r.v, verdict::unchanged) << r.note;
  EXPECT_NEAR(r.change, 0.352, 0.01);
  EXPECT_NEAR(*r.normalized_change, 0.0, 0.01);
  EXPECT_EQ(r.control, "limits/empty_cold");
  EXPECT_NE(r.note.find("sample overhead +2.50 us (limits/empty_cold)"), std::string::npos) << r.note;
  EXPECT_EQ(c.exit_status(), 0);
  // Without the empty sample in a run the case is judged as measured: a flag held for confirmation.
  c = compare_runs(base, short_run(b, "four-gpu", 9.6e-6, 0, 81), {.threshold = 0.015});
  EXPECT_EQ(find(c, "histogram/fast/1048576").v, verdict::unconfirmed);
  // A real change of the case's own work stays: 10% more kernel time over the same host.
  c = compare_runs(base, short_run(b, "four-gpu", 2.5e-6 + 7.1e-6 + 0.1 * 4.1e-6, 5.5e-6, 81), {.threshold = 0.015});
  EXPECT_EQ(find(c, "histogram/fast/1048576").v, verdict::unconfirmed);
  EXPECT_NEAR(*find(c, "histogram/fast/1048576").normalized_change, 0.058, 0.01);
  // On one machine the overhead is the same on both sides: nothing is taken out.
  c = compare_runs(base, short_run(a, "one-gpu", 7.1e-6, 3.1e-6, 82), {.threshold = 0.015});
  EXPECT_FALSE(find(c, "histogram/fast/1048576").normalized_change.has_value());
  EXPECT_EQ(find(c, "histogram/fast/1048576").v, verdict::unchanged);
}

TEST(Normalize, ALimitsChangeNeverFails) {
  const run_result base = make_run("GPU-aaaaaaaa-0000-0000-0000-000000000000", 1e-3, 2e-3, 1);
  run_result cur = make_run("GPU-aaaaaaaa-0000-0000-0000-000000000000", 1.2e-3, 2e-3 * 1.2, 41);
  const comparison c = compare_runs(base, cur, {});
  EXPECT_EQ(find(c, "limits/read").v, verdict::machine_differs);
  EXPECT_EQ(find(c, "reduce/fast/268435456").v, verdict::unchanged);
  EXPECT_FALSE(c.failing());
  EXPECT_TRUE(c.same_board);
  EXPECT_NE(reports::verdict_counts(c).find("1 machine differs"), std::string::npos);
}

TEST(Normalize, WithoutTheControlInOneRunTheChangeIsJudgedAsMeasured) {
  const run_result base = make_run("GPU-aaaaaaaa-0000-0000-0000-000000000000", 1e-3, 2e-3, 1);
  run_result cur = make_run("GPU-bbbbbbbb-0000-0000-0000-000000000000", 1.02e-3, 2.04e-3 * 1.03, 51);
  cur.cases.erase(cur.cases.begin());  // a filtered run without the limits
  cur.index_cases();
  const comparison c = compare_runs(base, cur, {.threshold = 0.015});
  const case_comparison& r = find(c, "reduce/fast/268435456");
  EXPECT_FALSE(r.normalized_change);
  EXPECT_EQ(r.v, verdict::unconfirmed);  // beyond the gate as measured, on another board
  EXPECT_NEAR(r.change, 0.0506, 0.005);
  bool said = false;
  for (const auto& n : c.header_notes)
    said |= n.find("1 case(s) with a control limit judged as measured") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(GatesAcrossBoards, BoardOffsetsThatTheControlExplainsLeaveTheDrift) {
  // Three boards reading at -3%, 0 and +3%, each case moving with its board's read limit, and 0.1% of drift.
  std::vector<run_result> runs;
  const double offsets[] = {1.03, 1.0, 0.97};
  std::mt19937 g(7);
  std::normal_distribution<double> z(0, 0.001);
  for (int i = 0; i < 18; ++i) {  // six runs a board: 12 pairs of one board, what a same-board gate needs
    const double o = offsets[i % 3];
    const std::string uuid = fmt::format("GPU-{0}{0}{0}{0}{0}{0}{0}{0}-0000-0000-0000-000000000000", i % 3);
    runs.push_back(
        make_run(uuid, 1e-3 * o, 2e-3 * o * std::exp(z(g)), 100 + i, fmt::format("2026-11-{:02}T02:00:00Z", i + 1)));
  }
  const gate_table t = learn_gates(runs, {});
  EXPECT_TRUE(t.normalized);
  EXPECT_EQ(t.boards().size(), 3u);
  const learned_gate* reduce = t.find("reduce/fast/268435456");
  ASSERT_TRUE(reduce);
  EXPECT_EQ(reduce->boards, 3u);
  EXPECT_EQ(reduce->runs, 18u);
  EXPECT_LT(reduce->drift, 0.006) << "the board offsets are explained by the control";
  EXPECT_GT(reduce->same_board_drift, 0);
  EXPECT_GT(reduce->across_board_drift, 0);
  EXPECT_EQ(reduce->gate, 0.015) << "the floor: what is left is the drift";
  // The limit itself is learned as measured: the boards' offsets are its drift.
  ASSERT_TRUE(t.find("limits/read"));
  EXPECT_GT(t.find("limits/read")->across_board_drift, 0.02);
  // The file keeps what was learned.
  const gate_table back = parse_gates(gates_json(t), "g.gates.json");
  EXPECT_TRUE(back.normalized);
  EXPECT_EQ(back.boards().size(), 3u);
  EXPECT_EQ(back.find("reduce/fast/268435456")->same_board_gate, reduce->same_board_gate);
  EXPECT_EQ(back.find("reduce/fast/268435456")->boards, 3u);
}

TEST(GatesAcrossBoards, ARunFromABoardOutsideTheHistoryIsSaid) {
  std::vector<run_result> runs;
  for (int i = 0; i < 6; ++i)
    runs.push_back(make_run(fmt::format("GPU-{0}{0}{0}{0}{0}{0}{0}{0}-0000-0000-0000-000000000000", i % 2), 1e-3, 2e-3,
                            200 + i, fmt::format("2026-11-0{}T02:00:00Z", i + 1)));
  compare_settings s;
  s.gates = std::make_shared<gate_table>(learn_gates(runs, {}));
  const run_result outside = make_run("GPU-99999999-0000-0000-0000-000000000000", 1e-3, 2e-3, 300);
  const comparison c = compare_runs(runs.front(), outside, s);
  bool said = false;
  for (const auto& n : c.header_notes) said |= n.find("not among the 2 board(s)") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(GatesAcrossBoards, OneBoardUsesItsOwnDriftWhereItHasOne) {
  learned_gate g;
  g.gate = 0.03;
  g.drift = 0.005;
  g.same_board_gate = 0.015;
  g.same_board_drift = 0.002;
  g.across_board_drift = 0.006;
  EXPECT_EQ(g.for_pair(true).gate, 0.015);
  EXPECT_EQ(g.for_pair(true).drift, 0.002);
  EXPECT_EQ(g.for_pair(false).gate, 0.03);
  EXPECT_EQ(g.for_pair(false).drift, 0.006);
  g.same_board_gate = 0;  // too few pairs of one board
  EXPECT_EQ(g.for_pair(true).gate, 0.03);
}

TEST(GatesAcrossBoards, VersionOneFilesStayReadable) {
  const std::string v1 =
      R"({"kind": "cudabench gates", "schema_version": 1, "device": "NVIDIA H100 80GB HBM3", "preset": "nightly",
      "floor": 0.015, "k": 6, "min_runs": 5, "runs": [{"file": "a.json", "revision": "r", "date": "d"}],
      "cases": {"reduce/fast/1": {"gate": 0.02, "drift": 0.003, "runs": 5}}})";
  const gate_table t = parse_gates(v1, "old.gates.json");
  EXPECT_FALSE(t.normalized);
  EXPECT_TRUE(t.boards().empty());
  EXPECT_EQ(t.find("reduce/fast/1")->gate, 0.02);
  EXPECT_EQ(t.find("reduce/fast/1")->same_board_gate, 0);
}

TEST(GatesAcrossBoards, ATrendSaysItsRunsComeFromSeveralBoards) {
  std::vector<run_result> runs;
  for (int i = 0; i < 3; ++i) {
    runs.push_back(
        make_run(i < 2 ? "GPU-aaaaaaaa-0000-0000-0000-000000000000" : "GPU-bbbbbbbb-0000-0000-0000-000000000000", 1e-3,
                 2e-3, 400 + i));
    runs.back().settings.host_name = "runner-1";
  }
  const auto notes = reports::machines_of(runs);
  ASSERT_EQ(notes.size(), 1u) << "one host: only the boards are said";
  EXPECT_EQ(notes[0], "runs from 2 boards: GPU-aaaaaaaa (2 runs), GPU-bbbbbbbb (1 run)");
  runs.pop_back();
  EXPECT_TRUE(reports::machines_of(runs).empty());
}

TEST(GatesAcrossBoards, FiveRunsOfOneBoardSetNoSameBoardGate) {
  std::vector<run_result> runs;
  for (int i = 0; i < 5; ++i)
    runs.push_back(make_run("GPU-aaaaaaaa-0000-0000-0000-000000000000", 1e-3, 2e-3, 500 + i,
                            fmt::format("2026-11-0{}T02:00:00Z", i + 1)));
  const learned_gate* g = learn_gates(runs, {}).find("reduce/fast/268435456");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->same_board_gate, 0) << "9 pairs of one board: too few";
}

TEST(Normalize, AcrossBoardsWithoutTheControlANormalizedGateHoldsTheChangeBack) {
  std::vector<run_result> history;
  for (int i = 0; i < 6; ++i)
    history.push_back(make_run(fmt::format("GPU-{0}{0}{0}{0}{0}{0}{0}{0}-0000-0000-0000-000000000000", i % 2), 1e-3,
                               2e-3, 600 + i, fmt::format("2026-11-0{}T02:00:00Z", i + 1)));
  compare_settings s;
  s.gates = std::make_shared<gate_table>(learn_gates(history, {}));
  const run_result base = make_run("GPU-aaaaaaaa-0000-0000-0000-000000000000", 1e-3, 2e-3, 1);
  run_result cur = make_run("GPU-bbbbbbbb-0000-0000-0000-000000000000", 1.03e-3, 2.06e-3, 61);
  cur.cases.erase(cur.cases.begin());  // no limits in the current run: a 3% slower board, as measured
  cur.index_cases();
  const comparison c = compare_runs(base, cur, s);
  const case_comparison& r = find(c, "reduce/fast/268435456");
  EXPECT_EQ(r.v, verdict::inconclusive);
  EXPECT_NE(r.note.find("its control was not measured in both runs"), std::string::npos) << r.note;
}

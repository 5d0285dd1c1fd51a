// Tests of the energy meter (measure/energy) on the fake NVML library (tests/nvml/fake_nvml.cpp): the window and
// its energy phase, the uncertainty, the sampled-power fallback, the throttle flags and times; and of the energy
// verdicts and throttled time verdicts (analysis/energy, compare), the reports' energy, the older files' reader.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

#include "analysis/compare.hpp"
#include "app/confirm.hpp"
#include "io/atomic_file.hpp"
#include "measure/energy.hpp"
#include "reports/csv.hpp"
#include "reports/energy_report.hpp"
#include "reports/escape.hpp"
#include "reports/render.hpp"
#include "results/machine.hpp"
#include "results/results.hpp"
#include "results/results_json.hpp"

using namespace cudabench;

namespace {
constexpr const char* board_uuid = "GPU-12345678-aaaa-bbbb-cccc-0123456789ab";

/// Sets environment variables for a test's life (the fake NVML reads them at each call).
class fake_board {
 public:
  explicit fake_board(std::initializer_list<std::pair<const char*, std::string>> vars) {
    setenv(nvml_library_environment, CUDABENCH_FAKE_NVML, 1);
    for (const auto& [name, value] : vars) {
      setenv(name, value.c_str(), 1);
      names_.push_back(name);
    }
  }
  ~fake_board() {
    for (const char* n : names_) unsetenv(n);
  }

 private:
  std::vector<const char*> names_;
};

void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

/// A case of `sample_s` per timed sample: `timed` samples (each throttled or not as NVML says), then the energy
/// phase's; the finished window's figures, given per byte of a case of 1 MB a run.
struct simulated_case {
  energy_result result;
  std::size_t throttled = 0;
};
simulated_case simulate(energy_meter& m, int timed, double sample_s, double busy_share = 1) {
  simulated_case out;
  m.begin();
  for (int i = 0; i < timed; ++i) {
    sleep_s(sample_s);
    out.throttled += m.after_sample(sample_s * busy_share);
  }
  m.timed_done();
  while (!m.window_reached()) {
    sleep_s(sample_s);
    m.untimed_sample(sample_s * busy_share);
  }
  out.result = m.finish(out.throttled, energy_unit_of(1e6, 0, 0));
  return out;
}

energy_settings window(double s) {
  energy_settings e;
  e.window_s = s;
  return e;
}
}  // namespace

TEST(EnergyMeter, ShortTimedSamplesAreRepeatedUntilTheWindowIsReached) {
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "200"}, {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "10"}});
  energy_meter m(board_uuid, "", window(0.3));
  ASSERT_EQ(m.problem(), "");
  const simulated_case got = simulate(m, 5, 0.01);
  const energy_record& e = got.result.record;
  EXPECT_EQ(e.method, "counter");
  EXPECT_EQ(e.absent, "");
  EXPECT_GE(e.window_s * (1 + e.uncertainty), 0.3) << "the window, within its ends' uncertainty";
  EXPECT_GT(e.extra_s, 0.15) << "five samples of 10 ms leave most of the window to the energy phase";
  EXPECT_GT(e.runs, 5);
  const auto& k = got.result.counters;
  ASSERT_TRUE(k.count(energy_counters::watts));
  EXPECT_NEAR(k.at(energy_counters::watts), 200, 12);
  EXPECT_NEAR(k.at(energy_counters::joules), 200 * e.window_s / e.runs, 0.1 * 200 * e.window_s / e.runs);
  EXPECT_DOUBLE_EQ(k.at("joules_per_byte"), k.at(energy_counters::joules) / 1e6);
  // The counter's updates were seen within a reading of each other: the uncertainty is below the 2 x 10 ms / 0.3 s
  // an update period's staleness at each end would give (generous: readings are slow on a loaded machine).
  EXPECT_GT(e.uncertainty, 0);
  EXPECT_LT(e.uncertainty, 0.05);
  EXPECT_EQ(got.throttled, 0u) << "idle (the fake's default reason) is not a throttle";
}

TEST(EnergyMeter, AShortCasesWindowIsOfItsRunsBackToBackWithTheCounterReadOnAThreadOfItsOwn) {
  // Batches of 250 runs of 4 us, 1 ms each, the counter updated every 20 ms and read on the meter's thread.
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "300"},
                      {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "20"},
                      {"CUDABENCH_FAKE_VIOLATION_POWER", "0.5"}});
  energy_meter m(board_uuid, "", window(0.25));
  // A window around an earlier case's timed samples first: its throttle time is not this window's.
  ASSERT_EQ(simulate(m, 2, 0.01).result.record.throttle_source, "violation counters");
  m.begin();
  int batches = 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (!m.window_reached()) {
    sleep_s(1e-3);
    m.untimed_sample(1e-3, 250);
    ++batches;
  }
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const energy_result got = m.finish(0, energy_unit_of(1e6, 0, 0));
  const energy_record& e = got.record;
  EXPECT_EQ(e.method, "counter");
  EXPECT_EQ(e.absent, "") << e.absent;
  EXPECT_GE(e.window_s * (1 + e.uncertainty), 0.25) << "the window, within its ends' uncertainty";
  EXPECT_LT(e.window_s, spent) << "between two updates seen within the batches";
  EXPECT_GT(e.extra_s, 0.25) << "the whole window is after the timed samples";
  // The runs between the two updates, counted within the batches' GPU spans around them: about 250 a millisecond
  // of the window (a loaded machine's sleeps run long, so fewer).
  EXPECT_LT(e.runs, 250.0 * batches);
  EXPECT_GT(e.runs, 0.3 * 250 * 1e3 * e.window_s);
  EXPECT_LE(e.runs, 1.05 * 250 * 1e3 * e.window_s);
  EXPECT_GT(e.busy_fraction, 0.3);
  EXPECT_NEAR(got.counters.at(energy_counters::watts), 300, 30);
  EXPECT_NEAR(got.counters.at(energy_counters::joules), 300 * e.window_s / e.runs, 0.1 * 300 * e.window_s / e.runs);
  EXPECT_LT(e.uncertainty, 0.05) << "the thread sees each update within a reading of it";
  EXPECT_EQ(e.throttle_source, "") << "no timed samples, so no throttle time of them";
}

TEST(EnergyMeter, ABackToBackWindowWithTooFewUpdatesSaysSo) {
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "300"}, {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "5000"}});
  energy_meter m(board_uuid, "", window(0.05));
  m.begin();
  while (!m.window_reached()) {
    sleep_s(1e-3);
    m.untimed_sample(1e-3, 10);
  }
  const energy_result got = m.finish(0, energy_unit_of(1e6, 0, 0));
  EXPECT_NE(got.record.absent.find("while the case ran: too few"), std::string::npos) << got.record.absent;
  EXPECT_FALSE(got.counters.count(energy_counters::joules));
}

TEST(EnergyMeter, ALongEnoughTimedPhaseIsNotRepeated) {
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "300"}});
  energy_meter m(board_uuid, "", window(0.05));
  const simulated_case got = simulate(m, 3, 0.04);
  EXPECT_GT(got.result.record.runs, 1) << "the runs between the first update seen and the last";
  EXPECT_LT(got.result.record.runs, 3);
  EXPECT_LT(got.result.record.extra_s, 0.03);
}

TEST(EnergyMeter, TheRunsOfAWindowAreThoseOfTheSamplesGpuSpansWithinIt) {
  // Samples of 20 ms of which the GPU ran the case 12 ms each: the window's runs are one a sample, the idle host time
  // between the samples holding none, so the GPU was busy 60% of the window.
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "200"}, {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "50"}});
  energy_meter m(board_uuid, "", window(0.3));
  const simulated_case got = simulate(m, 5, 0.02, 0.6);
  const energy_record& e = got.result.record;
  EXPECT_EQ(e.absent, "") << e.absent;
  EXPECT_NEAR(e.runs, e.window_s / 0.02, 0.15 * e.window_s / 0.02);
  EXPECT_NEAR(e.busy_fraction, 0.6, 0.1);
}

TEST(EnergyMeter, AWindowAvoidsTheUpdatesSeenBySlowReadings) {
  // Readings of 3 ms, every tenth 30 ms longer: about half the updates are seen only within 33 ms, which would make
  // a window of 0.15 s 11% uncertain at one end and be refused. The window takes a pair of updates both seen within a
  // quick reading instead.
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "300"},
                      {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "50"},
                      {"CUDABENCH_FAKE_ENERGY_READ_MS", "3"},
                      {"CUDABENCH_FAKE_ENERGY_SLOW_EVERY", "10"}});
  for (int k = 0; k < 3; ++k) {
    energy_meter m(board_uuid, "", window(0.15));
    m.begin();
    while (!m.window_reached()) {
      sleep_s(1e-3);
      m.untimed_sample(1e-3, 10);
    }
    const energy_record e = m.finish(0, energy_unit_of(1e6, 0, 0)).record;
    EXPECT_EQ(e.absent, "") << e.absent;
    EXPECT_GE(e.window_s * (1 + e.uncertainty), 0.15) << "the window, within its ends' uncertainty";
    EXPECT_LT(e.uncertainty, 0.03);
  }
}

TEST(EnergyMeter, ShortSamplesTakeTheirWindowFromTheUpdatesSeenBetweenThem) {
  // Updated every 100 ms, as NVML's counter; samples of 4 ms, the counter read after each: no wait at either end.
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "250"}, {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "100"}});
  energy_meter m(board_uuid, "", window(0));
  const auto t0 = std::chrono::steady_clock::now();
  const simulated_case got = simulate(m, 150, 0.004);
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const energy_record& e = got.result.record;
  EXPECT_EQ(e.method, "counter");
  EXPECT_EQ(e.absent, "") << e.absent;
  EXPECT_LT(e.extra_s, 0.02) << "the timed samples alone: no energy phase, no wait for the counter";
  EXPECT_GT(e.window_s, 0.15);
  EXPECT_LT(e.window_s, spent) << "from the first update seen to the last, within the samples";
  EXPECT_GT(e.runs, 20);
  EXPECT_LT(e.runs, 150) << "only the runs between the two updates count";
  EXPECT_NEAR(got.result.counters.at(energy_counters::watts), 250, 40);
  EXPECT_LT(e.uncertainty, 0.05);
}

TEST(EnergyMeter, TimedSamplesThatSawTooFewUpdatesSaySo) {
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "250"}, {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "500"}});
  energy_meter m(board_uuid, "", window(0));
  const simulated_case got = simulate(m, 10, 0.004);
  EXPECT_NE(got.result.record.absent.find("too few for a window"), std::string::npos) << got.result.record.absent;
  EXPECT_FALSE(got.result.counters.count(energy_counters::joules));
}

TEST(EnergyMeter, AWindowLongerThanTheTimedSamplesIsFilledBetweenUpdatesSeen) {
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "200"}, {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "20"}});
  energy_meter m(board_uuid, "", window(0.3));
  const simulated_case got = simulate(m, 5, 0.004);
  const energy_record& e = got.result.record;
  EXPECT_EQ(e.absent, "") << e.absent;
  EXPECT_GE(e.window_s * (1 + e.uncertainty), 0.3) << "the window, within its ends' uncertainty";
  EXPECT_GT(e.extra_s, 0.2);
  EXPECT_GT(e.runs, 5);
  EXPECT_NEAR(got.result.counters.at(energy_counters::watts), 200, 30);
}

TEST(EnergyMeter, TheQuickPresetsWindowIsItsTimedSamples) {
  EXPECT_EQ(default_energy_window_s(preset_by_name("quick")), 0);
  EXPECT_EQ(default_energy_window_s(preset_by_name("nightly")), 0.1);
  EXPECT_EQ(default_energy_window_s(preset_by_name("full")), 0.1);
  EXPECT_GT(confirm_energy_window_s, default_energy_window_s(preset_by_name("nightly")));
}

/// A window of runs back to back, 1 ms batches, finished.
energy_record back_to_back_window(energy_meter& m) {
  m.begin();
  while (!m.window_reached()) {
    sleep_s(1e-3);
    m.untimed_sample(1e-3, 10);
  }
  return m.finish(0, energy_unit_of(1e6, 0, 0)).record;
}

TEST(EnergyMeter, AWindowOfOneCounterPeriodTakesTwoUpdatesInARow) {
  // NVML's period of 100 ms, readings of 3 ms: two updates in a row make the window, whether the second was seen a
  // little under or over 0.1 s after the first.
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "300"},
                      {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "100"},
                      {"CUDABENCH_FAKE_ENERGY_READ_MS", "3"}});
  // A loaded machine's reading now and then takes long enough to push a window to the next update: of three
  // windows, one of one period is enough.
  energy_meter m(board_uuid, "", window(0.1));
  int one_period = 0;
  for (int k = 0; k < 3; ++k) {
    const energy_record e = back_to_back_window(m);
    EXPECT_EQ(e.absent, "") << e.absent;
    EXPECT_LT(e.window_s, 0.25) << "one period, or two";
    EXPECT_LE(e.uncertainty, m.settings().max_uncertainty);
    if (e.window_s < 0.15) {
      ++one_period;
      EXPECT_LT(e.extra_s, 0.3) << "the wait for the first update, one period and the last batch";
    }
  }
  EXPECT_GE(one_period, 1);
}

TEST(EnergyMeter, AWindowTooUncertainForItsLengthWaitsForAnotherUpdate) {
  // Readings of 8 ms: a window of one period would be about 8% uncertain, over the 5% given, so it takes two.
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "300"},
                      {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "100"},
                      {"CUDABENCH_FAKE_ENERGY_READ_MS", "8"}});
  energy_meter m(board_uuid, "", window(0.1));
  const energy_record e = back_to_back_window(m);
  EXPECT_EQ(e.absent, "") << e.absent;
  EXPECT_GT(e.window_s, 0.15);
  EXPECT_LE(e.uncertainty, m.settings().max_uncertainty);
}

TEST(EnergyMeter, AnIdleWindowOrACoarseCounterGivesAReasonInsteadOfANumber) {
  {
    const fake_board b({{"CUDABENCH_FAKE_POWER_W", "200"}});
    energy_meter m(board_uuid, "", window(0.2));
    const simulated_case got = simulate(m, 4, 0.02, 0.1);
    EXPECT_NE(got.result.record.absent.find("idle board"), std::string::npos) << got.result.record.absent;
    EXPECT_FALSE(got.result.counters.count(energy_counters::joules));
    EXPECT_FALSE(got.result.counters.count("joules_per_byte"));
  }
  {
    // Each reading of the counter takes 150 ms (a slow host's 3 ms, magnified): each update is known only within
    // 150 ms. No pair of updates is certain enough, so the window runs to its limit (the window and 1 s more), and
    // even its widest pair, about 1.1 s, is uncertain by some 13%: refused.
    const fake_board b({{"CUDABENCH_FAKE_POWER_W", "200"},
                        {"CUDABENCH_FAKE_ENERGY_PERIOD_MS", "100"},
                        {"CUDABENCH_FAKE_ENERGY_READ_MS", "150"}});
    energy_meter m(board_uuid, "", window(0.3));
    const simulated_case got = simulate(m, 4, 0.02);
    EXPECT_GT(got.result.record.uncertainty, 0.08);
    EXPECT_NE(got.result.record.absent.find("uncertainty"), std::string::npos) << got.result.record.absent;
  }
}

TEST(EnergyMeter, WithoutTheCounterPowerIsSampled) {
  const fake_board b({{"CUDABENCH_FAKE_POWER_W", "150"}, {"CUDABENCH_FAKE_NO_ENERGY", "1"}});
  energy_meter m(board_uuid, "", window(0.6));
  const simulated_case got = simulate(m, 5, 0.01);
  const energy_record& e = got.result.record;
  EXPECT_EQ(e.method, "sampled power");
  EXPECT_EQ(e.absent, "") << e.absent;
  EXPECT_NEAR(got.result.counters.at(energy_counters::watts), 150, 1);
  EXPECT_NEAR(e.uncertainty, 2 * 0.01 / e.window_s, 1e-9);
}

TEST(EnergyMeter, ThrottledSamplesAreFlaggedAndTheirTimeCounted) {
  {
    const fake_board b({{"CUDABENCH_FAKE_CLOCK_REASONS", "4"},
                        {"CUDABENCH_FAKE_VIOLATION_POWER", "0.5"},
                        {"CUDABENCH_FAKE_MEM_CLOCK", "1593"}});
    energy_meter m(board_uuid, "", window(0.1));
    const simulated_case got = simulate(m, 5, 0.02);
    EXPECT_EQ(got.throttled, 5u);
    const energy_record& e = got.result.record;
    EXPECT_EQ(e.throttled_samples, 5u);
    EXPECT_EQ(e.throttle_source, "violation counters");
    EXPECT_NEAR(e.throttle_s.at("power"), 0.05, 0.03) << "half of the timed samples' 0.1 s";
    EXPECT_EQ(e.throttle_s.at("thermal"), 0);
    EXPECT_EQ(got.result.counters.at(energy_counters::memory_clock), 1593);
    EXPECT_EQ(got.result.counters.at(energy_counters::throttled), 5);
  }
  {
    const fake_board b({{"CUDABENCH_FAKE_CLOCK_REASONS", "0x41"}, {"CUDABENCH_FAKE_NO_VIOLATIONS", "1"}});
    energy_meter m(board_uuid, "", window(0.05));
    const simulated_case got = simulate(m, 4, 0.01);
    EXPECT_EQ(got.throttled, 4u);
    EXPECT_EQ(got.result.record.throttle_source, "sampled reasons");
    EXPECT_NEAR(got.result.record.throttle_s.at("hw_thermal"), 0.04, 1e-9);
    EXPECT_EQ(got.result.record.throttle_s.at("power_cap"), 0);
  }
  EXPECT_EQ(throttle_names(0x44), "power_cap, hw_thermal");
  EXPECT_EQ(throttle_names(0x3), "");
}

TEST(EnergyMeter, AnUnknownBoardSaysWhy) {
  const fake_board b({});
  energy_meter m("GPU-00000000-0000-0000-0000-000000000000", "", window(0.1));
  EXPECT_NE(m.problem().find("NVML does not know"), std::string::npos) << m.problem();
}

namespace {
run_result load_fixture(const std::string& name) { return load_run(std::string(CUDABENCH_FIXTURES) + "/" + name); }

/// Gives every repetition of `name` an energy window of `joules_per_unit` (times 1 + 1% x its index, a spread),
/// with `throttled` of its samples flagged.
void add_energy(run_result& run, const std::string& name, double joules_per_unit, std::size_t throttled = 0) {
  for (case_result& c : run.cases) {
    if (c.name != name) continue;
    const energy_unit unit = energy_unit_of(c.bytes, c.items, c.flops);
    for (std::size_t i = 0; i < c.repetitions.size(); ++i) {
      repetition& r = c.repetitions[i];
      if (!r.record) r.record.emplace();
      r.record->samples = std::max<std::size_t>(r.record->samples, 10);
      energy_record& e = r.record->energy.emplace();
      e.method = "counter";
      e.window_s = 1;
      e.uncertainty = 0.001;
      e.throttled_samples = std::min(throttled, r.record->samples);
      const double per = joules_per_unit * (1 + 0.01 * double(i % 3));
      r.counters[unit.counter] = per;
      r.counters[energy_counters::joules] = per * unit.per_run;
      r.counters[energy_counters::watts] = 300;
    }
    summarize_case(c);
  }
  run.index_cases();
}

/// Gives case `name` one energy window a repetition of the per-unit figures `windows` (in order), and its other
/// repetitions the reason one run records for them.
void set_windows(run_result& run, const std::string& name, const std::vector<double>& windows) {
  add_energy(run, name, 1e-10);
  for (case_result& c : run.cases) {
    if (c.name != name) continue;
    const energy_unit unit = energy_unit_of(c.bytes, c.items, c.flops);
    for (std::size_t i = 0; i < c.repetitions.size(); ++i) {
      repetition& r = c.repetitions[i];
      if (i < windows.size()) {
        r.counters[unit.counter] = windows[i];
        continue;
      }
      r.counters = counter_map(std::map<std::string, double>{});
      r.record->energy->absent = "energy is measured on the case's first repetition in the run";
    }
    summarize_case(c);
  }
  run.index_cases();
}

/// Gives case `name` of `run` the device code `digest`, and `run` the board `board`.
void set_code_and_board(run_result& run, const std::string& name, const std::string& digest, const std::string& board) {
  for (case_result& c : run.cases)
    if (c.name == name) c.code.emplace().digest = digest;
  run.device->uuid = board;
}

const case_comparison& find_case(const comparison& c, const std::string& name) {
  for (const case_comparison& r : c.cases)
    if (r.name == name) return r;
  throw std::runtime_error("no case " + name);
}
constexpr const char* energy_case = "conv2d/tiled/4096";
}  // namespace

TEST(EnergyVerdicts, AnEnergyChangeIsItsOwnVerdictAndFailsOnlyWhenGated) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  add_energy(base, energy_case, 1e-10);
  add_energy(cur, energy_case, 1.10e-10);
  compare_settings s;
  comparison c = compare_runs(base, cur, s);
  const case_comparison& r = find_case(c, energy_case);
  EXPECT_EQ(r.v, verdict::unchanged) << "the time verdict is the time's";
  ASSERT_TRUE(r.energy);
  EXPECT_EQ(r.energy->v, energy_verdict::regression);
  EXPECT_NEAR(r.energy->change, 0.10, 1e-9);
  EXPECT_EQ(c.count(energy_verdict::regression), 1u);
  EXPECT_FALSE(c.failing()) << "an energy regression fails only with --gate-energy";
  s.energy.gating = true;
  EXPECT_TRUE(compare_runs(base, cur, s).failing());
  // Cases neither run measured the energy of have no energy comparison.
  for (const case_comparison& x : c.cases) {
    if (x.name == energy_case) continue;
    EXPECT_FALSE(x.energy) << x.name;
  }
  // A/A: the same energy, no flag.
  run_result same = load_fixture("synthetic_same.json");
  add_energy(same, energy_case, 1e-10);
  const comparison aa = compare_runs(base, same, s);
  EXPECT_EQ(find_case(aa, energy_case).energy->v, energy_verdict::unchanged);
  EXPECT_FALSE(aa.failing());
  // A side without a figure says why.
  run_result absent = load_fixture("synthetic_same.json");
  add_energy(absent, energy_case, 1e-10);
  for (case_result& x : absent.cases) {
    if (x.name != energy_case) continue;
    for (repetition& rep : x.repetitions) {
      rep.counters = counter_map(std::map<std::string, double>{});
      rep.record->energy->absent = "the GPU ran the case 12% of the window";
    }
  }
  const case_comparison& u = find_case(compare_runs(base, absent, s), energy_case);
  EXPECT_EQ(u.energy->v, energy_verdict::unmeasured);
  EXPECT_NE(u.energy->note.find("12% of the window"), std::string::npos) << u.energy->note;
}

TEST(EnergyVerdicts, AMostlyThrottledRegressionIsInconclusive) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_slowed.json");
  EXPECT_EQ(find_case(compare_runs(base, cur, {}), energy_case).v, verdict::regression);
  add_energy(cur, energy_case, 1e-10, 8);  // 8 of each repetition's 10 samples
  add_energy(base, energy_case, 1e-10);
  const comparison c = compare_runs(base, cur, {});
  const case_comparison& r = find_case(c, energy_case);
  EXPECT_EQ(r.v, verdict::inconclusive);
  EXPECT_TRUE(r.throttled);
  EXPECT_EQ(r.verdict_text(), "inconclusive (throttled)");
  EXPECT_FALSE(c.failing());
  EXPECT_EQ(c.exit_status(), exit_unconfirmed) << "a case it could not judge never passes quietly";
  bool noted = false;
  for (const std::string& n : c.header_notes)
    noted = noted || n.find("taken while the GPU was throttled (1 case(s) mostly)") != std::string::npos;
  EXPECT_TRUE(noted);
  // The reports say so, and show the energy beside the time.
  const std::string md = reports::comparison_markdown(c);
  EXPECT_NE(md.find("inconclusive (throttled)"), std::string::npos);
  EXPECT_NE(md.find("1 not judged (throttled)"), std::string::npos);
  EXPECT_NE(md.find("1 case(s) could not be judged"), std::string::npos);
  EXPECT_NE(md.find("### Energy"), std::string::npos);
  const std::string verdicts = reports::verdict_json(c);
  EXPECT_NE(verdicts.find("\"throttled\": true"), std::string::npos);
  EXPECT_NE(verdicts.find("\"energy unchanged\""), std::string::npos);
  EXPECT_NE(reports::results_csv(cur, &c).find("inconclusive,"), std::string::npos);
  EXPECT_NE(reports::results_csv(cur, &c).find(",yes"), std::string::npos);
}

TEST(EnergyResults, TheEnergyRecordRoundTripsAndOlderFilesStillRead) {
  run_result run = load_fixture("synthetic_base.json");
  add_energy(run, energy_case, 2e-11);
  for (case_result& x : run.cases)
    if (x.name == energy_case) {
      x.repetitions.front().record->energy->throttle_source = "violation counters";
      x.repetitions.front().record->energy->throttle_s = {{"power", 0.25}, {"thermal", 0}};
      x.repetitions.front().record->energy->back_to_back = 357;
    }
  const std::string text = to_json(run).dump();
  EXPECT_NE(text.find("\"schema_version\":2"), std::string::npos);
  const run_result back = parse_run_text(text, "back.json");
  const case_result* c = back.find(energy_case);
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->repetitions.front().record->energy);
  EXPECT_EQ(c->repetitions.front().record->energy->method, "counter");
  EXPECT_EQ(c->repetitions.front().record->energy->throttle_s.at("power"), 0.25);
  EXPECT_EQ(c->repetitions.front().record->energy->back_to_back, 357);
  EXPECT_NE(reports::run_energy_table(back, reports::markdown_text).find("0 of"), std::string::npos);
  // A field of the wrong type is one line naming it.
  std::string bad = text;
  bad.replace(bad.find("\"method\":\"counter\""), 18, "\"method\":7");
  try {
    parse_run_text(bad, "bad.json");
    ADD_FAILURE() << "read a method of 7";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("field 'cudabench.energy.method' is 7 where a string is expected"),
              std::string::npos)
        << e.what();
  }
  // Every results file among the fixtures (schema version 1, written before energy was recorded) still reads,
  // with no energy records and no energy comparison.
  std::size_t read = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(CUDABENCH_FIXTURES)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name.rfind("bad_", 0) == 0 || name.find("trace") != std::string::npos)
      continue;
    const std::string text_of = read_file(entry.path().string());
    if (text_of.find("\"benchmarks\"") == std::string::npos) continue;
    const run_result old = load_run(entry.path().string());
    for (const case_result& x : old.cases)
      for (const repetition& rep : x.repetitions) EXPECT_FALSE(rep.record && rep.record->energy) << name;
    for (const case_comparison& r : compare_runs(old, old,
                                                 [] {
                                                   compare_settings s;
                                                   s.allow_device_mismatch = true;
                                                   return s;
                                                 }())
                                        .cases)
      EXPECT_FALSE(r.energy) << name;
    ++read;
  }
  EXPECT_GE(read, 9u);
}

TEST(EnergyVerdicts, FewerThanThreeWindowsASideAreNotJudged) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  set_windows(base, energy_case, {1e-10});
  set_windows(cur, energy_case, {1.10e-10});
  compare_settings s;
  const comparison c = compare_runs(base, cur, s);
  const energy_comparison& e = *find_case(c, energy_case).energy;
  EXPECT_EQ(std::string(to_string(e.v)), "energy not judged") << "a threshold alone never flags";
  EXPECT_EQ(e.method, "1 vs 1 windows: a test needs 3 a side");
  EXPECT_FALSE(e.p_value);
  EXPECT_NEAR(e.change, 0.10, 1e-9) << "the change is still shown";
  EXPECT_EQ(c.exit_status(), 0);
  // Two a side are not enough either; three are.
  set_windows(base, energy_case, {1e-10, 1.001e-10});
  set_windows(cur, energy_case, {1.1e-10, 1.101e-10});
  EXPECT_EQ(std::string(to_string(find_case(compare_runs(base, cur, s), energy_case).energy->v)), "energy not judged");
  set_windows(base, energy_case, {1e-10, 1.001e-10, 1.002e-10});
  set_windows(cur, energy_case, {1.1e-10, 1.101e-10, 1.102e-10});
  const comparison tested = compare_runs(base, cur, s);
  const energy_comparison& three = *find_case(tested, energy_case).energy;
  EXPECT_EQ(three.method, "rank test (3 vs 3 windows)");
  EXPECT_TRUE(three.p_value);
  EXPECT_NE(three.v, energy_verdict::regression) << "3 a side cannot reach alpha = 0.01";
  EXPECT_EQ(energy_windows_to_flag(0.01), 5u) << "so confirm measures 5 processes a revision for an energy flag";
  EXPECT_EQ(energy_windows_to_flag(0.05), 4u);
}

TEST(EnergyVerdicts, UnderTheEnergyGateAnUntestedChangeBeyondItIsUnconfirmed) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  set_windows(base, energy_case, {1e-10});
  set_windows(cur, energy_case, {1.10e-10});
  compare_settings s;
  s.energy.gating = true;
  const comparison c = compare_runs(base, cur, s);
  const energy_comparison& e = *find_case(c, energy_case).energy;
  EXPECT_EQ(std::string(to_string(e.v)), "energy unconfirmed");
  EXPECT_EQ(e.held, energy_verdict::regression);
  EXPECT_NE(e.note.find("`confirm` measures it in more processes"), std::string::npos) << e.note;
  EXPECT_FALSE(c.failing()) << "never a regression untested";
  EXPECT_EQ(c.exit_status(), exit_unconfirmed) << "never a pass either";
  EXPECT_STREQ(reports::verdict_word(c), "unconfirmed");
  EXPECT_NE(reports::verdict_json(c).find("\"held\": \"regression\""), std::string::npos);
  // Within the gate: not judged, and nothing undecided.
  set_windows(cur, energy_case, {1.005e-10});
  const comparison small = compare_runs(base, cur, s);
  EXPECT_EQ(std::string(to_string(find_case(small, energy_case).energy->v)), "energy not judged");
  EXPECT_EQ(small.exit_status(), 0);
}

TEST(EnergyVerdicts, TheNoiseFloorIsTheWindowsRobustCV) {
  // One far window of six (a disturbed one) would widen the plain CV's gate to about 60%; the robust CV is the bulk's.
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  set_windows(base, energy_case, {1e-10, 1.001e-10, 1.002e-10, 1.003e-10, 1.004e-10, 0.5e-10});
  set_windows(cur, energy_case, {1.05e-10, 1.051e-10, 1.052e-10, 1.053e-10, 1.054e-10, 1.055e-10});
  const comparison c = compare_runs(base, cur, {});
  const energy_comparison& e = *find_case(c, energy_case).energy;
  EXPECT_EQ(std::string(to_string(e.v)), "energy regression") << e.method << " gate " << e.gate;
  EXPECT_LT(e.gate, 0.02);
}

TEST(EnergyVerdicts, AcrossMachinesAnEnergyFlagIsHeldAsTimesAre) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  add_energy(base, energy_case, 1e-10);
  add_energy(cur, energy_case, 1.10e-10);
  compare_settings s;
  ASSERT_EQ(find_case(compare_runs(base, cur, s), energy_case).energy->v, energy_verdict::regression);
  // Another board, the same device code: the machine's.
  set_code_and_board(base, energy_case, "00000000000000aa", "GPU-aaaa");
  set_code_and_board(cur, energy_case, "00000000000000aa", "GPU-bbbb");
  const comparison same = compare_runs(base, cur, s);
  const energy_comparison& m = *find_case(same, energy_case).energy;
  EXPECT_EQ(std::string(to_string(m.v)), "energy machine differs (same code)") << m.note;
  EXPECT_FALSE(m.held);
  s.energy.gating = true;
  EXPECT_EQ(compare_runs(base, cur, s).exit_status(), 0) << "the machine's change never fails nor holds";
  // Another board, other code: unconfirmed, its direction held; undecided only where energy gates.
  set_code_and_board(cur, energy_case, "00000000000000bb", "GPU-bbbb");
  const comparison gated = compare_runs(base, cur, s);
  const energy_comparison& u = *find_case(gated, energy_case).energy;
  EXPECT_EQ(std::string(to_string(u.v)), "energy unconfirmed") << u.note;
  EXPECT_EQ(u.held, energy_verdict::regression);
  EXPECT_NE(u.note.find("on another machine"), std::string::npos) << u.note;
  EXPECT_FALSE(gated.failing());
  EXPECT_EQ(gated.exit_status(), exit_unconfirmed);
  s.energy.gating = false;
  EXPECT_EQ(compare_runs(base, cur, s).exit_status(), 0) << "without --gate-energy energy never sets the status";
}

TEST(EnergyVerdicts, ACaseWhoseTimeIsNotGatedHasNoEnergyFlag) {
  // 10% more energy on one machine is a regression; the same change of a case declared not gated (its time moves
  // between processes with nothing changed) is reported only, with or without --gate-energy, as its time is.
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  add_energy(base, energy_case, 1e-10);
  add_energy(cur, energy_case, 1.10e-10);
  compare_settings s;
  s.energy.gating = true;
  ASSERT_EQ(find_case(compare_runs(base, cur, s), energy_case).energy->v, energy_verdict::regression);
  for (run_result* r : {&base, &cur})
    for (case_result& c : r->cases)
      if (c.name == energy_case) c.gated = false;
  const comparison c = compare_runs(base, cur, s);
  const case_comparison& r = find_case(c, energy_case);
  ASSERT_EQ(r.v, verdict::not_gated);
  EXPECT_EQ(r.energy->v, energy_verdict::not_judged);
  EXPECT_FALSE(r.energy->held);
  EXPECT_NE(r.energy->note.find("energy regression +10.0%, not gated as its time is not"), std::string::npos)
      << r.energy->note;
  EXPECT_EQ(c.exit_status(), 0);
}

namespace {
/// Two runs of different boards and device code whose energy_case used 10% more energy: under --gate-energy an
/// unconfirmed energy flag.
struct held_energy_pair {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  compare_settings s;
  held_energy_pair() {
    add_energy(base, energy_case, 1e-10);
    add_energy(cur, energy_case, 1.10e-10);
    set_code_and_board(base, energy_case, "00000000000000aa", "GPU-aaaa");
    set_code_and_board(cur, energy_case, "00000000000000bb", "GPU-bbbb");
    s.energy.gating = true;
  }
};
}  // namespace

TEST(EnergyVerdicts, ConfirmMeasuresAnEnergyFlagAloneInOneRoundAProcess) {
  // A run measures energy in its first round only: where confirm holds energy flags alone, each of its processes
  // runs one round; with a time flag held too, or rounds given, the arguments stay as they are.
  held_energy_pair p;
  run_result &base = p.base, &cur = p.cur;
  compare_settings& s = p.s;
  comparison held = compare_runs(base, cur, s);
  ASSERT_EQ(find_case(held, energy_case).energy->v, energy_verdict::unconfirmed);
  for (case_comparison& r : held.cases)
    if (r.v == verdict::unconfirmed) r.v = verdict::unchanged;  // the energy flag alone is held
  using args = std::vector<std::string>;
  const std::string window = fmt::format("--energy-window={:g}", confirm_energy_window_s);
  EXPECT_EQ(app::process_arguments(held, {"--preset=nightly"}), (args{"--preset=nightly", "--rounds=1", window}));
  EXPECT_EQ(app::process_arguments(held, {"--preset=nightly", "--rounds=3"}),
            (args{"--preset=nightly", "--rounds=3", window}));
  EXPECT_EQ(app::process_arguments(held, {"--energy-window=2"}), (args{"--energy-window=2", "--rounds=1"}))
      << "a window given is kept";
  held.cases.front().v = verdict::unconfirmed;
  EXPECT_EQ(app::process_arguments(held, {"--preset=nightly"}), (args{"--preset=nightly", window}));
  s.energy.gating = false;
  EXPECT_EQ(app::process_arguments(compare_runs(base, cur, s), {}), (args{})) << "no energy flag held";
}

TEST(EnergyVerdicts, ConfirmSettlesEnergyFlagsByOneMachinesMeasurement) {
  held_energy_pair p;
  run_result &base = p.base, &cur = p.cur;
  compare_settings& s = p.s;
  const comparison held = compare_runs(base, cur, s);
  ASSERT_EQ(find_case(held, energy_case).energy->v, energy_verdict::unconfirmed);
  // What one machine measured of both revisions: the same regression, an improvement, nothing, or too few windows.
  run_result here_base = load_fixture("synthetic_base.json"), here_cur = load_fixture("synthetic_same.json");
  add_energy(here_base, energy_case, 1e-10);
  const auto settled_with = [&](double here_joules, std::size_t windows) {
    run_result b = here_base, c = here_cur;
    set_windows(b, energy_case, std::vector<double>(windows, 1e-10));
    std::vector<double> w;
    for (std::size_t i = 0; i < windows; ++i) w.push_back(here_joules * (1 + 0.001 * double(i)));
    set_windows(c, energy_case, w);
    comparison out = held;
    app::settle_flags(out, compare_runs(b, c, s), "measured here");
    return out;
  };
  const comparison confirmed = settled_with(1.1e-10, 5);
  const energy_comparison& e = *find_case(confirmed, energy_case).energy;
  EXPECT_EQ(e.v, energy_verdict::regression) << e.note;
  EXPECT_EQ(e.note.rfind("confirmed: ", 0), 0u) << e.note;
  EXPECT_EQ(confirmed.exit_status(), 1) << "a confirmed energy regression fails under --gate-energy";
  EXPECT_EQ(find_case(settled_with(0.9e-10, 5), energy_case).energy->v, energy_verdict::improvement);
  EXPECT_NE(find_case(settled_with(0.9e-10, 5), energy_case).energy->note.find("the opposite"), std::string::npos);
  const comparison machine = settled_with(1e-10, 5);
  EXPECT_EQ(std::string(to_string(find_case(machine, energy_case).energy->v)), "energy machine differs");
  EXPECT_EQ(machine.exit_status(), 0);
  const comparison unsettled = settled_with(1.1e-10, 1);
  EXPECT_EQ(find_case(unsettled, energy_case).energy->v, energy_verdict::unconfirmed);
  EXPECT_EQ(unsettled.exit_status(), exit_unconfirmed);
}

TEST(EnergyVerdicts, ConfirmCallsAFlagOfTooFewWindowsOnOneMachineUnchangedWhereItsWindowsSaySo) {
  // Both runs of one board, one window a side: the +10% is held for too few windows, not for the machine. Five
  // windows a side measured unchanged settle it as unchanged, not as the machine's.
  held_energy_pair p;
  set_code_and_board(p.cur, energy_case, "00000000000000bb", "GPU-aaaa");
  set_windows(p.base, energy_case, {1e-10});
  set_windows(p.cur, energy_case, {1.1e-10});
  const comparison held = compare_runs(p.base, p.cur, p.s);
  ASSERT_TRUE(held.same_machine) << held.machine_change;
  ASSERT_EQ(find_case(held, energy_case).energy->v, energy_verdict::unconfirmed);
  run_result b = p.base, c = p.cur;
  set_windows(b, energy_case, std::vector<double>(5, 1e-10));
  set_windows(c, energy_case, {1e-10, 1.001e-10, 0.999e-10, 1.002e-10, 0.998e-10});
  comparison out = held;
  app::settle_flags(out, compare_runs(b, c, p.s), "measured here");
  const energy_comparison& e = *find_case(out, energy_case).energy;
  EXPECT_EQ(e.v, energy_verdict::unchanged) << e.note;
  EXPECT_EQ(e.note.rfind("not confirmed: ", 0), 0u) << e.note;
  EXPECT_NE(out.header_notes.back().find("1 unchanged"), std::string::npos) << out.header_notes.back();
  EXPECT_EQ(out.exit_status(), 0);
}

TEST(EnergyReports, TheComparisonListsCasesWithEnergyAndCountsTheOthersByReason) {
  run_result base = load_fixture("synthetic_base.json"), cur = load_fixture("synthetic_same.json");
  add_energy(base, energy_case, 1e-10);
  add_energy(cur, energy_case, 1e-10);
  // Three cases too short for a window, one of another reason: counted, not listed.
  std::size_t shortened = 0;
  for (run_result* run : {&base, &cur})
    for (case_result& c : run->cases) {
      if (c.name == energy_case || c.repetitions.empty() || c.status != case_status::ok) continue;
      const std::size_t k = run == &base ? shortened++ : 0;
      for (repetition& r : c.repetitions) {
        if (!r.record) r.record.emplace();
        r.record->energy.emplace().absent =
            c.name.find("histogram") != std::string::npos
                ? "the GPU ran the case 31% of the window: its energy would be mostly the idle board's"
                : fmt::format("a run of {}.5 us takes under 1 ms: too short for an energy window", 10 + k);
      }
    }
  const comparison c = compare_runs(base, cur, {});
  const std::string md = reports::comparison_markdown(c);
  EXPECT_NE(md.find("| conv2d/tiled/4096 |"), std::string::npos);
  EXPECT_EQ(md.find("| energy unmeasured |"), std::string::npos) << "no row for a case without energy";
  EXPECT_NE(md.find("case(s) without energy, not listed:"), std::string::npos) << md;
  EXPECT_NE(md.find("'baseline: a run of N us takes under N ms: too short for an energy window'"), std::string::npos)
      << md;
  EXPECT_NE(reports::comparison_html(c).find("without energy, not listed"), std::string::npos);
  EXPECT_NE(reports::comparison_terminal(c, false).find("without energy, not listed"), std::string::npos);
}

TEST(EnergyResults, ARunWithoutAGpuSaysWhyItHasNoEnergy) {
  run_result run = load_fixture("synthetic_base.json");
  run.settings.energy_absent = "no GPU (no CUDA device): GPU cases are skipped, and CPU cases are never metered";
  const std::string text = to_json(run).dump();
  EXPECT_NE(text.find("\"energy_absent\":\"no GPU (no CUDA device)"), std::string::npos);
  const run_result back = parse_run_text(text, "back.json");
  EXPECT_EQ(back.settings.energy_absent, run.settings.energy_absent);
  EXPECT_NE(reports::run_markdown(back).find("Energy unavailable: no GPU (no CUDA device)"), std::string::npos);
  EXPECT_NE(reports::run_html(back).find("Energy unavailable: no GPU"), std::string::npos);
  // The run's description of a machine without a GPU says so.
  device_info none;
  none.unavailable_reason = "no CUDA device";
  const run_result made = make_run_result({}, none, run_settings{}, declared_cases{}, {});
  EXPECT_NE(made.settings.energy_absent.find("no GPU (no CUDA device)"), std::string::npos);
  device_info gpu;
  gpu.available = true;
  run_settings off;
  off.energy_absent = "--no-energy";
  EXPECT_EQ(make_run_result({}, gpu, off, declared_cases{}, {}).settings.energy_absent, "--no-energy");
}

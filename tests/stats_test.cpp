// Tests of results/stats (summaries, Mann-Whitney U, detectable change, clock filtering) and of the stopping rule
// over its running moments (measure/stop_rule).
#include "results/stats.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include "measure/stop_rule.hpp"

using namespace cudabench;

namespace {
std::vector<double> normal(double mean, double rel_sd, int n, unsigned seed) {
  std::mt19937 g(seed);
  std::normal_distribution<double> d(mean, mean * rel_sd);
  std::vector<double> v(n);
  for (auto& x : v) x = d(g);
  return v;
}
}  // namespace

TEST(Stats, SummaryOfKnownValues) {
  summary s = summarize({4, 1, 3, 2});
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_NEAR(s.stddev, 1.2909944, 1e-6);
  EXPECT_DOUBLE_EQ(median({5, 1, 9}), 5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(StopRule, WaitsForMinimumSamplesAndTime) {
  sampling_policy p{.min_samples = 10, .min_time_s = 0.01, .max_time_s = 1, .target_noise = 0.005, .warmup_s = 0};
  std::vector<double> quiet(5, 1e-3);
  EXPECT_EQ(stop_rule(quiet, 0.005, p), stop_reason::none);  // too few samples
  quiet.assign(10, 1e-3);
  EXPECT_EQ(stop_rule(quiet, 0.005, p), stop_reason::none);  // too little time
  EXPECT_EQ(stop_rule(quiet, 0.010, p), stop_reason::noise);
}

TEST(StopRule, NoisySamplesRunToTheCap) {
  sampling_policy p{.min_samples = 10, .min_time_s = 0, .max_time_s = 1, .target_noise = 0.005, .warmup_s = 0};
  auto bimodal = normal(1e-3, 0.01, 20, 1);
  for (std::size_t i = 0; i < bimodal.size(); i += 2) bimodal[i] *= 2;  // two modes, 2x apart
  EXPECT_EQ(stop_rule(bimodal, 0.5, p), stop_reason::none);
  EXPECT_EQ(stop_rule(bimodal, 1.0, p), stop_reason::time_cap);
}

// The time cap ends sampling whatever min_samples says: a run longer than the cap is one sample (docs/reference.md
// states this rule for each preset).
TEST(StopRule, ARunLongerThanTheCapIsOneSample) {
  const sampling_policy p = preset_by_name("nightly").sampling;
  ASSERT_GT(p.min_samples, 1);
  EXPECT_EQ(stop_rule(std::vector<double>{0.35}, 0.35, p), stop_reason::time_cap);
  EXPECT_EQ(stop_rule(std::vector<double>{0.02, 0.02}, 0.04, p), stop_reason::none);  // under the cap: min_samples holds
}

TEST(StopRule, DriftKeepsNoiseHigh) {
  sampling_policy p{.min_samples = 10, .min_time_s = 0, .max_time_s = 10, .target_noise = 0.005, .warmup_s = 0};
  std::vector<double> drift;
  for (int i = 0; i < 30; ++i) drift.push_back(1e-3 * (1 + 0.02 * i));  // thermal-style drift: 60% over the run
  EXPECT_EQ(stop_rule(drift, 0.05, p), stop_reason::none);
  EXPECT_EQ(stop_rule(normal(1e-3, 0.005, 30, 2), 0.05, p), stop_reason::noise);
}

TEST(MannWhitney, IdenticalSamplesAreNotSignificant) {
  auto a = normal(100, 0.01, 10, 3);
  EXPECT_GT(mann_whitney(a, a).p_value, 0.9);
}

TEST(MannWhitney, ExactPValueOfCompleteSeparation) {
  std::vector<double> a{1, 2, 3, 4, 5}, b{6, 7, 8, 9, 10};
  rank_test r = mann_whitney(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_NEAR(r.p_value, 2.0 / 252.0, 1e-12);  // C(10,5) = 252 arrangements, two-sided
}

TEST(MannWhitney, NormalApproximationForLargeSamples) {
  auto a = normal(100, 0.01, 30, 4), b = normal(105, 0.01, 30, 5);
  rank_test r = mann_whitney(a, b);
  EXPECT_FALSE(r.exact);
  EXPECT_LT(r.p_value, 1e-6);
  EXPECT_GT(mann_whitney(a, normal(100, 0.01, 30, 6)).p_value, 0.01);
}

TEST(MannWhitney, TiesAreHandled) {
  std::vector<double> a{1, 1, 1, 2, 2}, b{1, 1, 2, 2, 2};
  rank_test r = mann_whitney(a, b);
  EXPECT_TRUE(r.exact);  // enumerated over the tied ranks
  EXPECT_DOUBLE_EQ(r.p_value, 1.0);  // every split is as far from the mean rank sum
  // Larger samples with ties: the normal approximation.
  std::vector<double> c(40, 1.0), d(40, 2.0);
  c[0] = 2;
  EXPECT_FALSE(mann_whitney(c, d).exact);
}

TEST(MannWhitney, CompleteSeparationWithTiesIsExact) {
  // Five rounds' medians a side, quantised by the event timer: ties inside each side. The normal
  // approximation gives 0.012 here, above alpha 0.01; the exact distribution gives 2/252.
  std::vector<double> a{27.392, 27.456, 27.488, 27.488, 27.488}, b{29.824, 29.856, 29.872, 30.208, 30.224};
  rank_test r = mann_whitney(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_NEAR(r.p_value, 2.0 / 252.0, 1e-12);
  std::vector<double> e{1, 2, 2, 3, 4}, f{2, 5, 6, 7, 8};  // a tie across the sides: not fully separated
  EXPECT_GT(mann_whitney(e, f).p_value, 2.0 / 252.0);
}

TEST(Normal, PValuesAndCriticalValues) {
  EXPECT_NEAR(normal_p_value(1.959964), 0.05, 1e-6);
  EXPECT_NEAR(normal_p_value(-1.959964), 0.05, 1e-6);
  EXPECT_DOUBLE_EQ(normal_p_value(0), 1.0);
  EXPECT_NEAR(normal_critical(0.01), 2.575829, 1e-5);
  EXPECT_NEAR(normal_critical(0.05), 1.959964, 1e-5);
}

TEST(Normal, MedianStderrIgnoresOneFarSample) {
  const std::vector<double> quiet{100, 100.2, 99.8, 100.1, 99.9};
  std::vector<double> one_far = quiet;
  one_far[4] = 130;  // one slow round of five
  EXPECT_GT(median_log_stderr(quiet), 0);
  EXPECT_LT(median_log_stderr(one_far), 2 * median_log_stderr(quiet));
  EXPECT_LT(median_log_stderr(one_far), 0.002);
  EXPECT_EQ(median_log_stderr({100}), 0);
  // Spread 1% about the median: about 1.25 x 1% / sqrt(n).
  EXPECT_NEAR(median_log_stderr({99, 100, 101, 99, 101, 100}), 1.2533 * 1.4826 * 0.01 / std::sqrt(6.0), 2e-4);
}

TEST(DetectableChange, GrowsWithNoise) {
  auto quiet_a = normal(100, 0.002, 10, 7), quiet_b = normal(100, 0.002, 10, 8);
  auto noisy_a = normal(100, 0.05, 10, 9), noisy_b = normal(100, 0.05, 10, 10);
  double quiet = min_detectable_change(quiet_a, quiet_b, 0.01);
  double noisy = min_detectable_change(noisy_a, noisy_b, 0.01);
  EXPECT_LT(quiet, 0.02);
  EXPECT_GT(noisy, 0.05);
  EXPECT_TRUE(std::isnan(min_detectable_change({1}, {1}, 0.01)));
}

namespace {
/// The definition the bisection must reproduce: the first 0.1% step up to 1000% at which the test separates.
double detectable_by_scan(const std::vector<double>& a, const std::vector<double>& b, double alpha) {
  const double ma = median(a), mb = median(b);
  std::vector<double> na, shifted(b.size());
  for (double x : a) na.push_back(x / ma);
  for (int step = 1; step <= 10000; ++step) {
    for (std::size_t i = 0; i < b.size(); ++i) shifted[i] = b[i] / mb * (1 + step * 0.001);
    if (mann_whitney(na, shifted).p_value < alpha) return step * 0.001;
  }
  return std::numeric_limits<double>::infinity();
}

/// Repetitions spread `spread` times apart (uniform between the fastest and spread x the fastest).
std::vector<double> spread_apart(int n, double spread, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> d(1, spread);
  std::vector<double> v(n);
  for (auto& x : v) x = d(g);
  return v;
}
}  // namespace

TEST(DetectableChange, SameStepAsTheGridScan) {
  for (unsigned seed = 0; seed < 40; ++seed) {
    const int n = 2 + int(seed % 14);  // exact test up to 10 a side, normal approximation above
    for (double spread : {1.01, 1.3, 3.0, 12.0}) {
      const auto a = spread_apart(n, spread, seed), b = spread_apart(n + int(seed % 3), spread, seed + 1000);
      for (double alpha : {0.01, 0.05})
        EXPECT_EQ(min_detectable_change(a, b, alpha), detectable_by_scan(a, b, alpha)) << "seed " << seed << " spread " << spread;
    }
  }
}

// A grid scan took 10,000 rank tests a case whose repetitions spread 12x apart (62 s over 6,000 cases).
TEST(DetectableChange, RepetitionsSpreadFarApartCostFewTests) {
  const auto start = std::chrono::steady_clock::now();
  double sum = 0;
  for (unsigned seed = 0; seed < 2000; ++seed) sum += min_detectable_change(spread_apart(10, 12, seed), spread_apart(10, 12, seed + 7), 0.01);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GT(sum, 0);
  EXPECT_LT(seconds, 5) << "2,000 cases of 10 repetitions 12x apart";
}

// The rule measure_gpu applies to every sample (measure/measure.cpp calls discard_throttled).
TEST(ClockFilter, DropsThrottledSamples) {
  const double peak = 1980, fraction = 0.9;
  EXPECT_FALSE(discard_throttled(1980, peak, fraction, 0));
  EXPECT_FALSE(discard_throttled(1782, peak, fraction, 0));  // exactly at the fraction: kept
  EXPECT_TRUE(discard_throttled(1200, peak, fraction, 0));
  EXPECT_TRUE(discard_throttled(1781, peak, fraction, 0));
}

TEST(ClockFilter, UnknownClocksDiscardNothing) {
  EXPECT_FALSE(discard_throttled(0, 1980, 0.9, 0));     // the probe read no clock
  EXPECT_FALSE(discard_throttled(1200, 0, 0.9, 0));     // the device's peak clock is unknown
}

TEST(ClockFilter, CapKeepsThrottledSamplesOnceReached) {
  EXPECT_TRUE(discard_throttled(1200, 1980, 0.9, max_clock_discards - 1));
  EXPECT_FALSE(discard_throttled(1200, 1980, 0.9, max_clock_discards));
  EXPECT_TRUE(discard_throttled(1200, 1980, 0.9, 2, 3));
  EXPECT_FALSE(discard_throttled(1200, 1980, 0.9, 3, 3));
  // A run of throttled samples: the first `cap` are discarded, every later one kept.
  std::size_t discarded = 0, kept = 0;
  for (int i = 0; i < 10; ++i) {
    if (discard_throttled(1000, 1980, 0.75, discarded, 4)) ++discarded;
    else ++kept;
  }
  EXPECT_EQ(discarded, 4u);
  EXPECT_EQ(kept, 6u);
}

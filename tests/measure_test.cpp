// Tests of measure/measure: the CPU sampling loop stays within its preset's time cap, even for a case of a
// few nanoseconds per run (O(1) work per sample, batched runs, a sample cap).
#include <gtest/gtest.h>

#include <chrono>

#include "cudabench/fixture.hpp"
#include "measure/host_info.hpp"
#include "measure/measure.hpp"

using namespace cudabench;

namespace {
/// About 10 ns of host work per run: a short dependent chain the compiler cannot remove.
class tiny_fixture final : public fixture {
 public:
  void run(cudaStream_t) override {
    for (int i = 0; i < 8; ++i) x_ = x_ * 1.0000001 + 1e-9;
  }
  std::string verify() override { return x_ > 0 ? "" : "never ran"; }

 private:
  volatile double x_ = 1;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

// A case's time budget is its preset's warm-up plus its measuring time cap; the case must end within 10% of it.
TEST(Measure, TinyCpuCaseFinishesWithinTheTimeCap) {
  for (const char* name : {"quick", "nightly", "full"}) {
    sampling_policy p = preset_by_name(name).sampling;
    p.target_noise = 1e-9;  // never stops on noise: only the time cap (or the sample cap) can end it
    tiny_fixture fx;
    const auto t0 = std::chrono::steady_clock::now();
    const cpu_samples got = sample_cpu(fx, p);
    const double wall = seconds_since(t0);
    // Generous: a loaded 2-core machine stretches the last batch; an unbounded loop would still be far beyond it.
    EXPECT_LE(wall, 2.0 * (p.warmup_s + p.max_time_s) + 0.25)
        << name << ": " << got.seconds.size() << " samples, batch " << got.batch;
    EXPECT_EQ(got.stop, "time_cap");
    EXPECT_GT(got.batch, 1) << "a run of a few ns is timed in batches";
    ASSERT_FALSE(got.seconds.empty());
    EXPECT_LT(got.seconds.front(), 1e-6) << "per-run time, not per batch";
  }
}

TEST(Measure, SampleCapEndsSampling) {
  sampling_policy p = preset_by_name("quick").sampling;
  p.target_noise = 1e-9;
  p.max_time_s = 1e9;  // no time cap to speak of
  p.max_samples = 50;
  tiny_fixture fx;
  const cpu_samples got = sample_cpu(fx, p);
  EXPECT_EQ(got.seconds.size(), 50u);
  EXPECT_EQ(got.stop, "time_cap");
}

TEST(Measure, UnknownRunTimeMeansNoBatch) {
  sampling_policy p = preset_by_name("quick").sampling;
  p.warmup_s = 0;  // no warm-up and no verification run: nothing tells how long a run takes
  p.max_samples = 20;
  tiny_fixture fx;
  EXPECT_EQ(sample_cpu(fx, p).batch, 1);
}

TEST(Measure, NoiseStopsAQuietCase) {
  sampling_policy p = preset_by_name("quick").sampling;
  p.target_noise = 0.5;  // any realistic spread is under 50% relative error of the mean
  tiny_fixture fx;
  const cpu_samples got = sample_cpu(fx, p);
  EXPECT_EQ(got.stop, "noise");
  EXPECT_GE(got.seconds.size(), std::size_t(p.min_samples));
}

TEST(HostInfo, TheHostIsGoogleBenchmarksContextInItsOrder) {
  const host_info here = collect_host_info();
  EXPECT_GE(here.num_cpus, 1);
  EXPECT_FALSE(here.host_name.empty());
  EXPECT_EQ(here.date.size(), std::string("2026-11-29T23:40:01+00:00").size()) << here.date;
  EXPECT_EQ(here.date[here.date.size() - 3], ':') << "the zone as +hh:mm, as Google Benchmark writes it";
  const host_info h{.date = "2026-11-29T23:40:01+00:00",
                    .host_name = "node7",
                    .executable = "./run_bench",
                    .num_cpus = 16,
                    .mhz_per_cpu = 2445,
                    .cpu_scaling_enabled = true,
                    .caches = {{"Data", 1, 32768, 2}},
                    .load_avg = {0.5, 1, 2},
                    .library_build_type = "release"};
  EXPECT_EQ(to_json(h).dump(),
            R"({"date":"2026-11-29T23:40:01+00:00","host_name":"node7","executable":"./run_bench","num_cpus":16,)"
            R"("mhz_per_cpu":2445,"cpu_scaling_enabled":true,"caches":[{"type":"Data","level":1,"size":32768,)"
            R"("num_sharing":2}],"load_avg":[0.5,1.0,2.0],"library_build_type":"release"})");
}

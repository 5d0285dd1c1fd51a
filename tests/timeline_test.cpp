// Timelines on hand-made activity records: the metrics, the Chrome trace (against a golden file), the
// stored form and how compare reads it, and the recorder's host ranges.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "measure/nvtx_ranges.hpp"
#include "analysis/compare.hpp"
#include "io/errors.hpp"
#include "results/results.hpp"
#include "results/timeline.hpp"
#include "measure/trace_recorder.hpp"

using cudabench::device_op;
using kind = cudabench::device_op::kind;

namespace {
constexpr std::uint64_t us = 1000;  // ns
constexpr std::uint64_t t0 = 1'700'000'000'000'000'000ull;  // a CLOCK_REALTIME-sized origin

device_op copy(const char* dir, std::uint32_t stream, std::uint64_t start_us, std::uint64_t end_us, std::uint64_t bytes) {
  return {kind::memcpy, 0, stream, t0 + start_us * us, t0 + end_us * us, bytes, dir, ""};
}
device_op kernel(std::uint32_t stream, std::uint64_t start_us, std::uint64_t end_us, const char* name = "invert(unsigned char const*, unsigned char*, unsigned long)") {
  return {kind::kernel, 0, stream, t0 + start_us * us, t0 + end_us * us, 0, "", name};
}

/// One stream, three chunks in order: copy in, kernel, copy out, never at once.
std::vector<device_op> one_stream() {
  return {copy("HtoD", 7, 0, 100, 5'000'000), kernel(7, 100, 110), copy("DtoH", 7, 110, 210, 5'000'000)};
}

/// Four streams, each copy in 25 us, kernel 5 us, copy out 25 us; stream k starts 25 us after stream k-1
/// (one H2D engine), so every kernel but the last runs under another stream's copy.
std::vector<device_op> four_streams() {
  std::vector<device_op> v;
  for (std::uint32_t k = 0; k < 4; ++k) {
    const std::uint64_t s = 25 * k;
    v.push_back(copy("HtoD", 13 + k, s, s + 25, 1'250'000));
    v.push_back(kernel(13 + k, s + 25, s + 30));
    v.push_back(copy("DtoH", 13 + k, s + 30, s + 55, 1'250'000));
  }
  return v;
}
}  // namespace

TEST(Timeline, OneStreamDoesNotOverlap) {
  const auto m = cudabench::metrics_of(one_stream());
  EXPECT_DOUBLE_EQ(m.at("copy_compute_overlap"), 0.0);
  EXPECT_DOUBLE_EQ(m.at("gpu_busy_fraction"), 1.0);
  EXPECT_DOUBLE_EQ(m.at("gpu_span_us"), 210.0);
  EXPECT_DOUBLE_EQ(m.at("kernel_launches"), 1.0);
  EXPECT_DOUBLE_EQ(m.at("device_ops"), 3.0);
  EXPECT_DOUBLE_EQ(m.at("largest_gap_us"), 0.0);
  EXPECT_DOUBLE_EQ(m.at("h2d_bytes_per_second"), 5e6 / 100e-6);  // 50 GB/s
  EXPECT_DOUBLE_EQ(m.at("d2h_bytes_per_second"), 5e6 / 100e-6);
}

TEST(Timeline, FourStreamsHideTheirKernelsUnderCopies) {
  const auto m = cudabench::metrics_of(four_streams());
  // Kernels at [25,30], [50,55], [75,80], [100,105]: the first three run under a copy (the next stream's
  // H2D, or the previous one's D2H); the last one under stream 2's D2H [80,105]. All 20 us of kernel time.
  EXPECT_DOUBLE_EQ(m.at("copy_compute_overlap"), 1.0);
  EXPECT_DOUBLE_EQ(m.at("gpu_span_us"), 130.0);
  EXPECT_DOUBLE_EQ(m.at("gpu_busy_fraction"), 1.0);
  EXPECT_DOUBLE_EQ(m.at("kernel_launches"), 4.0);
  // H2D copies back to back over [0,100]: 5 MB in 100 us.
  EXPECT_DOUBLE_EQ(m.at("h2d_bytes_per_second"), 5e6 / 100e-6);
}

TEST(Timeline, PartialOverlapGapsAndMissingDirections) {
  // A kernel half under a copy, then a 40 us idle gap, then a memset.
  const std::vector<device_op> ops = {copy("HtoD", 1, 0, 20, 1000), kernel(2, 10, 30),
                                      {kind::memset, 0, 1, t0 + 70 * us, t0 + 80 * us, 64, "", ""}};
  const auto m = cudabench::metrics_of(ops);
  EXPECT_DOUBLE_EQ(m.at("copy_compute_overlap"), 0.5);      // 10 us of 20 us (both are 20 us long)
  EXPECT_DOUBLE_EQ(m.at("largest_gap_us"), 40.0);
  EXPECT_DOUBLE_EQ(m.at("gpu_busy_fraction"), 40.0 / 80.0);
  EXPECT_EQ(m.count("d2h_bytes_per_second"), 0u);           // no D2H copy: not measurable, absent
  const auto none = cudabench::metrics_of({});
  EXPECT_EQ(none.count("gpu_span_us"), 0u);
  EXPECT_DOUBLE_EQ(none.at("device_ops"), 0.0);
  EXPECT_EQ(cudabench::metrics_of({kernel(1, 0, 5)}).count("copy_compute_overlap"), 0u);  // no copy
}

TEST(Timeline, ChromeTraceMatchesTheGoldenFile) {
  cudabench::trace_log log;
  log.origin_ns = t0;
  log.device_names[0] = "NVIDIA H100 80GB HBM3";
  log.ranges = {{"image/pinned_streams/4", "case", 0, 0, t0 + 1 * us, t0 + 900 * us},
                {"traced sample", "stage", 0, 1, t0 + 700 * us, t0 + 890 * us},
                {"copy H2D", "phase", 0, 2, t0 + 701 * us, t0 + 702 * us},
                {"host work", "phase", 1, 0, t0 + 705 * us, t0 + 706 * us}};
  for (device_op o : four_streams()) {
    o.start_ns += 700 * us;
    o.end_ns += 700 * us;
    log.ops.push_back(o);
  }
  const std::string got = cudabench::chrome_trace(log).dump(1) + "\n";
  const std::string golden_path = std::string(CUDABENCH_FIXTURES) + "/trace_golden.json";
  std::ifstream in(golden_path);
  std::stringstream want;
  want << in.rdbuf();
  if (std::getenv("CUDABENCH_UPDATE_GOLDEN")) std::ofstream(golden_path) << got;
  EXPECT_EQ(got, want.str()) << "(CUDABENCH_UPDATE_GOLDEN=1 rewrites " << golden_path << " after a deliberate change)";
}

TEST(Timeline, DemanglesKernelNames) {
  EXPECT_EQ(cudabench::demangle("_Z6invertPKhPhm"), "invert(unsigned char const*, unsigned char*, unsigned long)");
  EXPECT_EQ(cudabench::demangle("plain_c_name"), "plain_c_name");
  EXPECT_EQ(cudabench::demangle(nullptr), "?");
}

TEST(Timeline, StoredFormIsReadBackAndComparedWithoutAVerdict) {
  cudabench::case_timeline t;
  t.begin_ns = t0;
  t.end_ns = t0 + 220 * us;
  t.ops = one_stream();
  t.metrics = cudabench::metrics_of(t.ops);
  const auto stored = cudabench::to_json(t);
  EXPECT_DOUBLE_EQ(stored["sample_us"].get<double>(), 220.0);
  EXPECT_DOUBLE_EQ(stored["ops"][1]["start_us"].get<double>(), 100.0);  // exact: relative times in integers
  EXPECT_EQ(stored["ops"][0]["copy"], "HtoD");

  auto run_with = [&](const nlohmann::ordered_json& timeline, double time_us) {
    nlohmann::json doc = {{"context", {{"date", "x"}}},
                          {"benchmarks", {{{"name", "image/pinned_streams/4"}, {"run_type", "iteration"}, {"repetition_index", 0},
                                           {"real_time", time_us}, {"cpu_time", 1.0}, {"time_unit", "us"},
                                           {"cudabench", {{"timeline", timeline}}}}}}};
    return cudabench::parse_run(doc, "test");
  };
  const auto base = run_with(stored, 210);
  ASSERT_EQ(base.cases.size(), 1u);
  EXPECT_DOUBLE_EQ(base.cases[0].timeline_metrics.at("copy_compute_overlap"), 0.0);

  cudabench::case_timeline overlapped = t;
  overlapped.ops = four_streams();
  overlapped.metrics = cudabench::metrics_of(overlapped.ops);
  const auto cur = run_with(cudabench::to_json(overlapped), 210);
  const cudabench::comparison c = cudabench::compare_runs(base, cur, {.allow_device_mismatch = true});
  ASSERT_EQ(c.cases.size(), 1u);
  EXPECT_EQ(c.cases[0].v, cudabench::verdict::unchanged);  // same time: the timeline alone decides nothing
  bool saw_overlap = false;
  for (const auto& m : c.cases[0].timeline)
    if (m.metric == "copy_compute_overlap") {
      saw_overlap = true;
      EXPECT_DOUBLE_EQ(m.base, 0.0);
      EXPECT_DOUBLE_EQ(m.cur, 1.0);
      EXPECT_TRUE(m.notable());
    }
  EXPECT_TRUE(saw_overlap);
  EXPECT_FALSE((cudabench::timeline_change{"gpu_busy_fraction", 0.90, 0.95}.notable()));
  EXPECT_TRUE((cudabench::timeline_change{"kernel_launches", 4, 5}.notable()));
  EXPECT_TRUE((cudabench::timeline_change{"h2d_bytes_per_second", 50e9, 40e9}.notable()));
  EXPECT_FALSE((cudabench::timeline_change{"largest_gap_us", 1.3, 2.2}.notable()));  // +70%, but under 5 us
  EXPECT_TRUE((cudabench::timeline_change{"largest_gap_us", 3, 300}.notable()));

  nlohmann::ordered_json broken = stored;
  broken["metrics"] = "not an object";
  EXPECT_TRUE(run_with(broken, 210).cases[0].timeline_metrics.empty());  // read, metrics ignored, no crash
  EXPECT_THROW(run_with(nlohmann::ordered_json::array(), 210), cudabench::input_error);
}

TEST(Timeline, RecorderKeepsCasesAndStagesAlwaysAndPhasesOnlyInsideASample) {
  cudabench::trace_recorder tr;
  {
    cudabench::case_range c("family/variant");
    { cudabench::phase_range p(cudabench::phase::measure); cudabench::phase_range k(cudabench::phase::kernel); }
    cudabench::phase_range t(cudabench::phase::trace);
    tr.begin_sample(false);
    const std::uint64_t begin = cudabench::trace_recorder::now();
    { cudabench::phase_range h(cudabench::phase::host); }
    const cudabench::case_timeline sample = tr.end_sample(begin, cudabench::trace_recorder::now());
    tr.keep(sample);
    ASSERT_EQ(sample.ranges.size(), 1u);
    EXPECT_EQ(sample.ranges[0].name, "host work");
    EXPECT_EQ(sample.ranges[0].depth, 2);  // inside the case and the traced-sample stage
    EXPECT_TRUE(sample.ops.empty());
    tr.begin_sample(false);  // a sample not kept leaves nothing in the run's trace
    { cudabench::phase_range h(cudabench::phase::host); }
    tr.end_sample(cudabench::trace_recorder::now(), cudabench::trace_recorder::now());
  }
  std::vector<std::string> names;
  for (const auto& r : tr.log().ranges) names.push_back(r.category + ":" + r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"stage:measure", "phase:host work", "stage:traced sample", "case:family/variant"}));
}

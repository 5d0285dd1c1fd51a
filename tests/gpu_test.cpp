// GPU tests (ctest label gpu): each kernel against its CPU reference on fresh random input.
// Without a usable device every test skips and says why.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cudabench/cuda_handles.hpp"
#include "measure/device_query.hpp"
#include "measure/gpu_probes.hpp"
#include "measure/trace_recorder.hpp"
#include "kernels/conv2d.hpp"
#include "kernels/device_fill.cuh"
#include "kernels/histogram.hpp"
#include "support/host_data.hpp"
#include "kernels/image.hpp"
#include "kernels/matmul.hpp"
#include "kernels/reduce.hpp"
#include "kernels/vector.hpp"

using namespace kernels;

namespace {
const cudabench::device_info& device() {
  static const cudabench::device_info d = cudabench::query_device(0);
  return d;
}
}  // namespace

// GTEST_SKIP returns from the function it is in, so this has to expand inside each test body.
#define REQUIRE_GPU() \
  if (!device().available) GTEST_SKIP() << device().unavailable_reason

TEST(Gpu, InvertOnOddSizesAndOffsets) {
  REQUIRE_GPU();
  for (std::size_t n : {1u, 15u, 16u, 4097u, 1000003u}) {
    std::vector<std::uint8_t> in(n + 3), out(n + 3), want(n);
    fill_bytes(in.data(), in.size(), fresh_seed());
    cudabench::device_buffer<std::uint8_t> d_in(n + 3), d_out(n + 3);
    CB_CHECK(cudaMemcpy(d_in.get(), in.data(), in.size(), cudaMemcpyHostToDevice));
    launch_invert(d_in.get() + 3, d_out.get() + 1, n, nullptr);  // unaligned: the scalar path
    CB_CHECK(cudaMemcpy(out.data(), d_out.get() + 1, n, cudaMemcpyDeviceToHost));
    invert_cpu(in.data() + 3, want.data(), n);
    ASSERT_EQ(compare_elements(out.data(), want.data(), n, 0), "") << "n=" << n;
  }
}

// A fixture fills its input on the device and its check rebuilds the host copy from the seed: the two must
// agree bit for bit.
TEST(Gpu, DeviceFillsWriteTheHostFillsValues) {
  REQUIRE_GPU();
  const std::size_t n = (std::size_t(1) << 21) + 777;
  const std::uint64_t seed = fresh_seed();
  std::vector<float> f(n), want_f(n);
  std::vector<int> i(n), want_i(n);
  std::vector<std::uint8_t> b(n), want_b(n);
  cudabench::device_buffer<float> d_f(n);
  cudabench::device_buffer<int> d_i(n);
  cudabench::device_buffer<std::uint8_t> d_b(n);
  kernels::fill_uniform_device(d_f.get(), n, -1.0f, 1.0f, seed, nullptr);
  kernels::fill_ints_device(d_i.get(), n, 0, 256, seed, nullptr);
  kernels::fill_bytes_device(d_b.get(), n, seed, nullptr);
  CB_CHECK(cudaMemcpy(f.data(), d_f.get(), n * sizeof(float), cudaMemcpyDeviceToHost));
  CB_CHECK(cudaMemcpy(i.data(), d_i.get(), n * sizeof(int), cudaMemcpyDeviceToHost));
  CB_CHECK(cudaMemcpy(b.data(), d_b.get(), n, cudaMemcpyDeviceToHost));
  fill_uniform(want_f.data(), n, -1.0f, 1.0f, seed);
  fill_ints(want_i.data(), n, 0, 256, seed);
  fill_bytes(want_b.data(), n, seed);
  EXPECT_EQ(compare_elements(f.data(), want_f.data(), n, 0), "");
  EXPECT_EQ(compare_elements(i.data(), want_i.data(), n, 0), "");
  EXPECT_EQ(compare_elements(b.data(), want_b.data(), n, 0), "");
}

// The zero-copy inversion reads and writes pinned host memory through its mapped device address; sizes
// below, at and far above one pass of its small grid, aligned and not. Each buffer is inverted twice with new
// input in between, so a second launch served from stale cached host data would fail.
TEST(Gpu, InvertThroughMappedHostMemory) {
  REQUIRE_GPU();
  for (std::size_t n : {1u, 4097u, 131072u, 1000003u, 8294400u}) {
    for (std::size_t offset : {0u, 3u}) {
      cudabench::pinned_buffer<std::uint8_t> in(n + offset), out(n + offset);
      std::uint8_t *d_in = nullptr, *d_out = nullptr;
      CB_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_in), in.get(), 0));
      CB_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_out), out.get(), 0));
      std::vector<std::uint8_t> want(n);
      for (int round = 0; round < 2; ++round) {
        fill_bytes(in.get(), n + offset, fresh_seed());
        std::memset(out.get(), 0x5A, n + offset);
        launch_invert_mapped(d_in + offset, d_out + offset, n, nullptr);
        CB_CHECK(cudaDeviceSynchronize());
        invert_cpu(in.get() + offset, want.data(), n);
        ASSERT_EQ(compare_elements(out.get() + offset, want.data(), n, 0), "") << "n=" << n << " offset=" << offset << " round " << round;
      }
    }
  }
}

// A captured graph replays its copies and kernels with every launch (new input each time, so a replay that
// did nothing would fail); work that throws while being captured ends the capture and leaves the stream usable.
TEST(Gpu, CapturedGraphReplaysItsWork) {
  REQUIRE_GPU();
  const std::size_t n = 1 << 20;
  cudabench::pinned_buffer<std::uint8_t> in(n), out(n);
  std::vector<std::uint8_t> want(n);
  cudabench::device_buffer<std::uint8_t> d_in(n), d_out(n);
  cudabench::stream s;
  const cudabench::graph g = cudabench::graph::capture(s, [&] {
    CB_CHECK(cudaMemcpyAsync(d_in.get(), in.get(), n, cudaMemcpyHostToDevice, s));
    launch_invert(d_in.get(), d_out.get(), n, s);
    CB_CHECK(cudaMemcpyAsync(out.get(), d_out.get(), n, cudaMemcpyDeviceToHost, s));
  });
  for (int round = 0; round < 2; ++round) {
    fill_bytes(in.get(), n, fresh_seed());
    std::memset(out.get(), 0x5A, n);
    g.launch(s);
    CB_CHECK(cudaStreamSynchronize(s));
    invert_cpu(in.get(), want.data(), n);
    ASSERT_EQ(compare_elements(out.get(), want.data(), n, 0), "") << "launch " << round;
  }
  EXPECT_THROW(cudabench::graph::capture(s, [] { throw std::runtime_error("while capturing"); }), std::runtime_error);
  launch_invert(d_in.get(), d_out.get(), n, s);  // not captured any more: runs now
  CB_CHECK(cudaStreamSynchronize(s));
}

TEST(Gpu, HistogramVariantsAgreeWithTheCpu) {
  REQUIRE_GPU();
  const std::size_t n = 1 << 20;
  std::vector<int> in(n);
  fill_ints(in.data(), n, 0, 256, fresh_seed());
  unsigned want[256], got[256];
  histogram_cpu(in.data(), n, want);
  cudabench::device_buffer<int> d_in(n);
  cudabench::device_buffer<unsigned> d_hist(256), d_partials(256 * histogram_config::shared_blocks);
  CB_CHECK(cudaMemcpy(d_in.get(), in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  histogram_atomic_global(d_in.get(), n, d_hist.get(), nullptr);
  CB_CHECK(cudaMemcpy(got, d_hist.get(), sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(compare_elements(got, want, 256, 0), "");
  histogram_shared_partials(d_in.get(), n, d_partials.get(), nullptr);
  histogram_merge_partials(d_partials.get(), d_hist.get(), nullptr);
  CB_CHECK(cudaMemcpy(got, d_hist.get(), sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(compare_elements(got, want, 256, 0), "");
  cub_call cub = cub_histogram(d_in.get(), n, d_hist.get());
  cub.run(nullptr);
  CB_CHECK(cudaMemcpy(got, d_hist.get(), sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(compare_elements(got, want, 256, 0), "");
  for (std::size_t m : {n, n - 3, std::size_t(5)}) {  // the int4 path, its scalar tail, a handful of values
    histogram_cpu(in.data(), m, want);
    histogram_fast(d_in.get(), m, d_hist.get(), nullptr);
    CB_CHECK(cudaMemcpy(got, d_hist.get(), sizeof got, cudaMemcpyDeviceToHost));
    EXPECT_EQ(compare_elements(got, want, 256, 0), "") << "fast, n=" << m;
  }
  histogram_cpu(in.data() + 1, n - 1, want);  // input that is not 16-byte aligned
  histogram_fast(d_in.get() + 1, n - 1, d_hist.get(), nullptr);
  CB_CHECK(cudaMemcpy(got, d_hist.get(), sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_EQ(compare_elements(got, want, 256, 0), "") << "fast, unaligned";
}

TEST(Gpu, ReductionsAgreeWithTheCpu) {
  REQUIRE_GPU();
  for (std::size_t n : {1u, 1000u, 1u << 20, (1u << 22) + 7}) {
    std::vector<float> in(n);
    fill_uniform(in.data(), n, 0, 1, fresh_seed());
    const double want = sum_cpu(in.data(), n);
    cudabench::device_buffer<float> d_in(n), d_res(1), d_a(reduce_recursive_scratch(n) + reduce_config::max_blocks),
        d_b(reduce_recursive_scratch(n) + reduce_config::max_blocks);
    CB_CHECK(cudaMemcpy(d_in.get(), in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    auto got = [&] { float r = 0; CB_CHECK(cudaMemcpy(&r, d_res.get(), sizeof r, cudaMemcpyDeviceToHost)); return double(r); };
    reduce_shared_tree(d_in.get(), n, d_a.get(), d_res.get(), nullptr);
    EXPECT_NEAR(got(), want, 1e-4 * want + 1e-6) << "tree n=" << n;
    reduce_warp_shuffle(d_in.get(), n, d_a.get(), d_res.get(), nullptr);
    EXPECT_NEAR(got(), want, 1e-4 * want + 1e-6) << "shuffle n=" << n;
    reduce_recursive(d_in.get(), n, d_a.get(), d_b.get(), d_res.get(), nullptr);
    CB_CHECK(cudaDeviceSynchronize());
    EXPECT_NEAR(got(), want, 1e-4 * want + 1e-6) << "recursive n=" << n;
    cudabench::device_buffer<unsigned> counter(1);
    CB_CHECK(cudaMemset(counter.get(), 0, sizeof(unsigned)));
    for (int again = 0; again < 2; ++again) {  // the counter is left at zero for the next launch
      reduce_fast(d_in.get(), n, d_a.get(), counter.get(), d_res.get(), nullptr);
      EXPECT_NEAR(got(), want, 1e-4 * want + 1e-6) << "fast n=" << n << " launch " << again;
    }
    // Input that is not 16-byte aligned takes the scalar path.
    if (n > 1) {
      reduce_fast(d_in.get() + 1, n - 1, d_a.get(), counter.get(), d_res.get(), nullptr);
      EXPECT_NEAR(got(), want - in[0], 1e-4 * want + 1e-6) << "fast, unaligned, n=" << n;
    }
  }
}

TEST(Gpu, ConvolutionsAgreeWithTheCpuOnOddSizes) {
  REQUIRE_GPU();
  float mask[conv_mask * conv_mask];
  fill_uniform(mask, conv_mask * conv_mask, -1, 1, fresh_seed());
  conv2d_set_mask(mask, nullptr);
  for (int n : {1, 4, 5, 37, 100, 516, 1030}) {  // multiples of 4 take the fast kernel's cp.async path
    const std::size_t total = std::size_t(n) * n;
    std::vector<float> in(total), want(total), got(total);
    fill_uniform(in.data(), total, -1, 1, fresh_seed());
    conv2d_cpu_seq(in.data(), want.data(), n, mask);
    cudabench::device_buffer<float> d_in(total), d_out(total);
    CB_CHECK(cudaMemcpy(d_in.get(), in.data(), total * sizeof(float), cudaMemcpyHostToDevice));
    for (auto [name, launch] : {std::pair{"naive", &conv2d_naive}, std::pair{"tiled", &conv2d_tiled}, std::pair{"fast", &conv2d_fast}}) {
      CB_CHECK(cudaMemset(d_out.get(), 0xFF, total * sizeof(float)));  // NaN: every output must be written
      launch(d_in.get(), d_out.get(), n, nullptr);
      CB_CHECK(cudaMemcpy(got.data(), d_out.get(), total * sizeof(float), cudaMemcpyDeviceToHost));
      std::size_t bad = 0;
      for (std::size_t i = 0; i < total; ++i) bad += !(std::fabs(got[i] - want[i]) <= 1e-4f * (1 + std::fabs(want[i])));
      EXPECT_EQ(bad, 0u) << name << " n=" << n;
    }
  }
}

// Every element against a double-precision dot product: sizes that are and are not multiples of the fast
// kernel's tiles (its paths without and with bounds checks), both of its shapes, and matrices that do not
// start on a 16-byte boundary (the checked path again).
TEST(Gpu, MatrixMultipliesAgreeWithTheCpu) {
  REQUIRE_GPU();
  using launcher = std::function<void(const float*, const float*, float*, int)>;
  const std::vector<std::pair<std::string, launcher>> variants{
      {"naive", [](const float* a, const float* b, float* c, int n) { matmul_naive(a, b, c, n, nullptr); }},
      {"tiled", [](const float* a, const float* b, float* c, int n) { matmul_tiled(a, b, c, n, nullptr); }},
      {"fast 128x128", [](const float* a, const float* b, float* c, int n) { matmul_fast(a, b, c, n, nullptr, &matmul_config::fast_large); }},
      {"fast 64x64", [](const float* a, const float* b, float* c, int n) { matmul_fast(a, b, c, n, nullptr, &matmul_config::fast_small); }},
      {"fast (its own pick)", [](const float* a, const float* b, float* c, int n) { matmul_fast(a, b, c, n, nullptr); }}};
  for (int n : {1, 7, 64, 100, 128, 257, 384}) {
    const std::size_t total = std::size_t(n) * n;
    std::vector<float> a(total), b(total), got(total);
    fill_uniform(a.data(), total, -1, 1, fresh_seed());
    fill_uniform(b.data(), total, -1, 1, fresh_seed());
    for (int offset : {0, 1}) {
      cudabench::device_buffer<float> d_a(total + 1), d_b(total + 1), d_c(total + 1);
      CB_CHECK(cudaMemcpy(d_a.get() + offset, a.data(), total * sizeof(float), cudaMemcpyHostToDevice));
      CB_CHECK(cudaMemcpy(d_b.get() + offset, b.data(), total * sizeof(float), cudaMemcpyHostToDevice));
      for (const auto& [name, launch] : variants) {
        if (offset != 0 && name.rfind("fast", 0) != 0) continue;
        CB_CHECK(cudaMemset(d_c.get(), 0xFF, (total + 1) * sizeof(float)));  // NaN: every output must be written
        launch(d_a.get() + offset, d_b.get() + offset, d_c.get() + offset, n);
        CB_CHECK(cudaMemcpy(got.data(), d_c.get() + offset, total * sizeof(float), cudaMemcpyDeviceToHost));
        std::size_t bad = 0;
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) {
            double mag = 0;
            const double want = matmul_reference_at(a.data(), b.data(), n, r, c, &mag);
            bad += !(std::fabs(got[std::size_t(r) * n + c] - want) <= 1e-4 * mag + 1e-6);
          }
        EXPECT_EQ(bad, 0u) << name << " n=" << n << " offset=" << offset;
      }
    }
  }
}

TEST(Gpu, DotPartialsSumToTheDotProduct) {
  REQUIRE_GPU();
  const std::size_t n = 3'000'001;
  std::vector<float> a(n), b(n), partials(vector_config::dot_blocks);
  fill_uniform(a.data(), n, 0, 1, fresh_seed());
  fill_uniform(b.data(), n, 0, 1, fresh_seed());
  cudabench::device_buffer<float> d_a(n), d_b(n), d_p(vector_config::dot_blocks);
  CB_CHECK(cudaMemcpy(d_a.get(), a.data(), n * 4, cudaMemcpyHostToDevice));
  CB_CHECK(cudaMemcpy(d_b.get(), b.data(), n * 4, cudaMemcpyHostToDevice));
  dot_partials(d_a.get(), d_b.get(), n, d_p.get(), nullptr);
  CB_CHECK(cudaMemcpy(partials.data(), d_p.get(), partials.size() * 4, cudaMemcpyDeviceToHost));
  const double got = std::accumulate(partials.begin(), partials.end(), 0.0), want = dot_cpu(a.data(), b.data(), n);
  EXPECT_NEAR(got, want, 1e-4 * want);
}

// The held stream: host time spent between the start and stop events stays out of the measurement when the
// stream is held, and is measured when it is not; a hold nobody releases gives up and says so.
TEST(Gpu, StreamBlockerKeepsHostTimeOutOfTheTimedRegion) {
  REQUIRE_GPU();
  cudabench::stream s;
  cudabench::event start, stop;
  cudabench::stream_blocker blocker;
  auto timed_ms = [&](bool hold) {
    if (hold) blocker.hold(s);
    start.record(s);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the host still queueing
    cudabench::spin_for(s, 10e3);                                  // 10 us of GPU work
    stop.record(s);
    if (hold) blocker.release();
    s.synchronize();
    EXPECT_FALSE(hold && blocker.timed_out());
    return double(stop.elapsed_ms_since(start));
  };
  timed_ms(true);  // warm-up: module load, first launch
  EXPECT_LT(timed_ms(true), 5.0);
  EXPECT_GE(timed_ms(false), 19.0);

  cudabench::stream_blocker impatient(2e6);  // gives up after 2 ms
  impatient.hold(s);
  s.synchronize();  // never released
  EXPECT_TRUE(impatient.timed_out());
}

// --trace's recorder on the GPU: CUPTI reports the traced sample's copies and kernel with their streams,
// bytes and directions, in order on the host clock; nothing before begin_sample is recorded.
TEST(Gpu, TraceRecorderSeesCopiesAndKernelsOfTheSample) {
  REQUIRE_GPU();
  const std::size_t n = std::size_t(1) << 24;
  std::vector<std::uint8_t> in(n);
  fill_bytes(in.data(), n, fresh_seed());
  cudabench::pinned_buffer<std::uint8_t> host(n);
  cudabench::device_buffer<std::uint8_t> d_in(n), d_out(n);
  cudabench::stream s;
  cudabench::trace_recorder tr;
  launch_invert(d_in.get(), d_out.get(), n, s.get());  // before the sample: not recorded
  s.synchronize();
  for (int k = 0; k < 2; ++k) {
    std::copy(in.begin(), in.end(), host.get());
    tr.begin_sample(true);
    const std::uint64_t t0 = cudabench::trace_recorder::now();
    CB_CHECK(cudaMemcpyAsync(d_in.get(), host.get(), n, cudaMemcpyHostToDevice, s.get()));
    launch_invert(d_in.get(), d_out.get(), n, s.get());
    CB_CHECK(cudaMemcpyAsync(host.get(), d_out.get(), n, cudaMemcpyDeviceToHost, s.get()));
    s.synchronize();
    const cudabench::case_timeline t = tr.end_sample(t0, cudabench::trace_recorder::now());
    if (k == 1) tr.keep(t);
    ASSERT_EQ(tr.device_problem(), "");
    ASSERT_EQ(t.ops.size(), 3u);
    EXPECT_EQ(t.ops[0].copy, "HtoD");
    EXPECT_EQ(t.ops[0].bytes, n);
    EXPECT_EQ(t.ops[1].what, cudabench::device_op::kind::kernel);
    EXPECT_NE(t.ops[1].name.find("invert"), std::string::npos) << t.ops[1].name;
    EXPECT_EQ(t.ops[2].copy, "DtoH");
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(t.ops[i].stream, t.ops[0].stream);
      EXPECT_LT(t.ops[i].start_ns, t.ops[i].end_ns);
      EXPECT_GE(t.ops[i].start_ns + 50000, t0);  // on the host clock, inside the sample (50 us of slack)
      if (i) {
        EXPECT_LE(t.ops[i - 1].end_ns, t.ops[i].start_ns + 1000);
      }
    }
    EXPECT_EQ(t.metrics.at("kernel_launches"), 1);
    EXPECT_GT(t.metrics.at("h2d_bytes_per_second"), 1e9);  // pinned copies run at GB/s
    EXPECT_LT(t.metrics.at("copy_compute_overlap"), 0.05);  // one stream: nothing overlaps
  }
  tr.stop();
  EXPECT_EQ(tr.log().ops.size(), 3u);  // the kept sample only
  std::vector<std::uint8_t> want(n);
  invert_cpu(in.data(), want.data(), n);
  EXPECT_EQ(compare_elements(host.get(), want.data(), n, 0), "");
}

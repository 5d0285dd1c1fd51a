// Tests of the CPU references in kernels/ (plain C++): known answers on small inputs, random agreement.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "kernels/conv2d.hpp"
#include "kernels/histogram.hpp"
#include "support/host_data.hpp"
#include "kernels/image.hpp"
#include "kernels/matmul.hpp"
#include "kernels/reduce.hpp"
#include "kernels/vector.hpp"

using namespace kernels;

TEST(ImageCpu, InvertIs255Minus) {
  std::vector<std::uint8_t> in(1000), out(1000);
  fill_bytes(in.data(), in.size(), fresh_seed());
  invert_cpu(in.data(), out.data(), in.size());
  for (std::size_t i = 0; i < in.size(); ++i) ASSERT_EQ(out[i], 255 - in[i]);
}

TEST(ImageCpu, SaturationKeepsGraysAndStretchesColour) {
  const std::uint8_t px[6] = {100, 100, 100, 200, 100, 50};
  std::uint8_t out[6];
  saturate_rgb_cpu(px, out, 2, 1.5f);
  EXPECT_EQ(out[0], 100);  // a gray pixel has no saturation to change
  EXPECT_EQ(out[2], 100);
  EXPECT_GT(out[3], 200);  // the dominant channel moves further from the luma
  EXPECT_LT(out[5], 50);
  saturate_rgb_cpu(px, out, 2, 0.0f);  // factor 0: every channel becomes the luma
  EXPECT_EQ(out[3], out[4]);
  EXPECT_EQ(out[4], out[5]);
}

TEST(HistogramCpu, CountsAndMerges) {
  std::vector<int> in(10000);
  fill_ints(in.data(), in.size(), 0, 256, fresh_seed());
  unsigned hist[256];
  histogram_cpu(in.data(), in.size(), hist);
  EXPECT_EQ(std::accumulate(hist, hist + 256, 0u), 10000u);
  std::vector<unsigned> partials(3 * 256, 1);
  merge_partials_cpu(partials.data(), 3, hist);
  EXPECT_EQ(hist[17], 3u);
}

TEST(Conv2dCpu, SequentialParallelAndPointReferenceAgree) {
  const int n = 37;
  std::vector<float> in(n * n), a(n * n), b(n * n), mask(25);
  fill_uniform(in.data(), in.size(), -1, 1, fresh_seed());
  fill_uniform(mask.data(), 25, -1, 1, fresh_seed());
  conv2d_cpu_seq(in.data(), a.data(), n, mask.data());
  conv2d_cpu_par(in.data(), b.data(), n, mask.data(), 3);
  EXPECT_EQ(a, b);
  for (int r : {0, 1, 18, 36})
    for (int c : {0, 2, 35, 36}) EXPECT_NEAR(a[r * n + c], conv2d_reference_at(in.data(), n, mask.data(), r, c), 1e-5);
}

TEST(Conv2dCpu, MaskOfOnesSumsTheNeighbourhood) {
  const int n = 8;
  std::vector<float> in(n * n, 1.0f), out(n * n), ones(25, 1.0f);
  conv2d_cpu_seq(in.data(), out.data(), n, ones.data());
  EXPECT_FLOAT_EQ(out[0], 9);          // corner: 3x3 inside the image
  EXPECT_FLOAT_EQ(out[3 * n + 3], 25);  // interior
  std::vector<float> signs(n * n, -1.0f);
  double mag = 0;
  EXPECT_DOUBLE_EQ(conv2d_reference_at(signs.data(), n, ones.data(), 0, 0, &mag), -9);
  EXPECT_DOUBLE_EQ(mag, 9);  // the error bound sums magnitudes, not values
}

TEST(MatmulCpu, MatchesTheDoubleReference) {
  const int n = 33;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  fill_uniform(a.data(), a.size(), -1, 1, fresh_seed());
  fill_uniform(b.data(), b.size(), -1, 1, fresh_seed());
  matmul_cpu(a.data(), b.data(), c.data(), n);
  double mag = 0;
  for (int r = 0; r < n; r += 8)
    for (int col = 0; col < n; col += 8) EXPECT_NEAR(c[r * n + col], matmul_reference_at(a.data(), b.data(), n, r, col, &mag), 1e-4);
  EXPECT_GT(mag, 0);
}

TEST(VectorCpu, AddDotSum) {
  std::vector<float> a{1, 2, 3}, b{4, 5, 6}, c(3);
  vector_add_cpu(a.data(), b.data(), c.data(), 3);
  EXPECT_EQ(c, (std::vector<float>{5, 7, 9}));
  EXPECT_DOUBLE_EQ(dot_cpu(a.data(), b.data(), 3), 32);
  EXPECT_DOUBLE_EQ(sum_cpu(a.data(), 3), 6);
}

TEST(HostData, CompareElementsReportsTheFirstMismatch) {
  std::vector<int> got{1, 2, 3, 9}, want{1, 2, 3, 4};
  EXPECT_EQ(compare_elements(got.data(), want.data(), 3, 0), "");
  EXPECT_NE(compare_elements(got.data(), want.data(), 4, 0).find("first at 3"), std::string::npos);
  std::vector<float> nan{std::nanf("")}, one{1};
  EXPECT_NE(compare_elements(nan.data(), one.data(), 1, 100), "");
}

// Seeded inputs: element i is a function of (seed, i) alone, whatever the chunking over threads, in range,
// spread over it, and different for another seed (the device fills write these same values: gpu_test).
TEST(HostData, SeededFillsDependOnSeedAndIndexAlone) {
  const std::size_t n = (std::size_t(1) << 21) + 12345;  // more than two chunks of the parallel fill
  const std::uint64_t seed = fresh_seed();
  std::vector<float> a(n), b(n), other(n);
  fill_uniform(a.data(), n, -1.0f, 1.0f, seed);
  fill_uniform(b.data(), n, -1.0f, 1.0f, seed);
  fill_uniform(other.data(), n, -1.0f, 1.0f, seed + 1);
  EXPECT_EQ(a, b);
  std::size_t same = 0, below_zero = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(a[i] >= -1.0f && a[i] < 1.0f) << "element " << i << " is " << a[i];
    ASSERT_EQ(a[i], counter_random::uniform(seed, i, -1.0f, 1.0f)) << "element " << i;
    same += a[i] == other[i];
    below_zero += a[i] < 0;
  }
  EXPECT_LT(same, n / 1000);
  EXPECT_NEAR(double(below_zero) / double(n), 0.5, 0.01);

  std::vector<int> ints(n);
  std::vector<std::size_t> counts(256);
  fill_ints(ints.data(), n, 0, 256, seed);
  for (int v : ints) {
    ASSERT_TRUE(v >= 0 && v < 256) << v;
    ++counts[std::size_t(v)];
  }
  // Each count is binomial around n / 256 with a standard deviation of sqrt(n / 256): 6 of them is far from any
  // seed's luck (5%, 4.6 of them, failed about once in a thousand seeds), and a biased fill is off by far more.
  for (std::size_t c : counts) EXPECT_NEAR(double(c), double(n) / 256, 6 * std::sqrt(double(n) / 256));

  std::vector<std::uint8_t> bytes(n);
  fill_bytes(bytes.data(), n, seed);
  std::size_t high = 0;
  for (auto v : bytes) high += v >= 128;
  EXPECT_NEAR(double(high) / double(n), 0.5, 0.01);
}

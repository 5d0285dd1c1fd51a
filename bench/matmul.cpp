// matmul: fp32 square C = A B: CPU, naive and tiled kernels, ours (fast: register-blocked), and cuBLAS SGEMM
// (pure fp32) as the reference.
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "bench/common.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "kernels/matmul.hpp"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;
constexpr int sampled_points = 1024;
constexpr double rel_tolerance = 1e-4;  ///< |got - want| <= tol * sum |a_ik b_kj|: fp32 passes, a wrong index does not

enum class variant { naive, tiled, fast, cublas };

/// Checks sampled elements (corners included) against double-precision dot products, and that all were written.
std::string check_matmul(const float* a, const float* b, const float* c, int n) {
  return bench::check_sampled(c, n, sampled_points, rel_tolerance, "C", [&](int r, int c, double* mag) {
    return kernels::matmul_reference_at(a, b, n, r, c, mag);
  });
}

class matmul_gpu final : public cudabench::fixture {
 public:
  matmul_gpu(variant v, std::string_view name, int n) : v_(v), n_(n), total_(std::size_t(n) * n) {
    cudabench::require_device_memory(3.0 * double(total_) * sizeof(float));
    cudabench::require_host_memory(3.0 * double(total_) * sizeof(float));
    a_.resize(total_);
    b_.resize(total_);
    c_.resize(total_);
    kernels::fill_uniform(a_.data(), total_, -1.0f, 1.0f, kernels::fresh_seed());
    kernels::fill_uniform(b_.data(), total_, -1.0f, 1.0f, kernels::fresh_seed());
    d_a_ = cudabench::device_buffer<float>(total_);
    d_b_ = cudabench::device_buffer<float>(total_);
    d_c_ = cudabench::device_buffer<float>(total_);
    CB_CHECK(cudaMemcpy(d_a_.get(), a_.data(), total_ * sizeof(float), cudaMemcpyHostToDevice));
    CB_CHECK(cudaMemcpy(d_b_.get(), b_.data(), total_ * sizeof(float), cudaMemcpyHostToDevice));
    CB_CHECK(cudaMemset(d_c_.get(), 0xFF, total_ * sizeof(float)));  // NaN poison
    if (v == variant::cublas) cublas_ = std::make_unique<kernels::cublas_sgemm>();
    // Under CUDABENCH_EXTRA_WORK: a second product of side m, m^3 = fraction x n^3, on the inputs' first m x m
    // elements into its own output (stored, so the compiler keeps it).
    if (const double extra = bench::extra_work_fraction(fmt::format("matmul/{}", name)); extra > 0) {
      extra_n_ = std::max(1, int(std::lround(n * std::cbrt(extra))));
      d_extra_c_ = cudabench::device_buffer<float>(std::size_t(extra_n_) * extra_n_);
    }
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    multiply(d_c_.get(), n_, s);
    if (extra_n_ > 0) multiply(d_extra_c_.get(), extra_n_, s);
  }
  std::string verify() override {
    CB_CHECK(cudaMemcpy(c_.data(), d_c_.get(), total_ * sizeof(float), cudaMemcpyDeviceToHost));
    return check_matmul(a_.data(), b_.data(), c_.data(), n_);
  }
  std::string note() const override { return extra_n_ > 0 ? bench::extra_work_note() : ""; }

 private:
  variant v_;
  int n_;
  std::size_t total_;
  std::vector<float> a_, b_, c_;
  cudabench::device_buffer<float> d_a_, d_b_, d_c_;
  std::unique_ptr<kernels::cublas_sgemm> cublas_;
  int extra_n_ = 0;
  cudabench::device_buffer<float> d_extra_c_;

  void multiply(float* c, int n, cudaStream_t s) {
    if (v_ == variant::naive)
      kernels::matmul_naive(d_a_.get(), d_b_.get(), c, n, s);
    else if (v_ == variant::tiled)
      kernels::matmul_tiled(d_a_.get(), d_b_.get(), c, n, s);
    else if (v_ == variant::fast)
      kernels::matmul_fast(d_a_.get(), d_b_.get(), c, n, s);
    else
      cublas_->run(d_a_.get(), d_b_.get(), c, n, s);
  }
};

class matmul_cpu_case final : public cudabench::fixture {
 public:
  explicit matmul_cpu_case(int n) : n_(n) {
    const std::size_t total = std::size_t(n) * n;
    cudabench::require_host_memory(3.0 * double(total) * sizeof(float));
    a_.resize(total);
    b_.resize(total);
    c_.assign(total, std::nanf(""));
    kernels::fill_uniform(a_.data(), a_.size(), -1.0f, 1.0f, kernels::fresh_seed());
    kernels::fill_uniform(b_.data(), b_.size(), -1.0f, 1.0f, kernels::fresh_seed());
  }
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    kernels::matmul_cpu(a_.data(), b_.data(), c_.data(), n_);
  }
  std::string verify() override { return check_matmul(a_.data(), b_.data(), c_.data(), n_); }

 private:
  int n_;
  std::vector<float> a_, b_, c_;
};

void register_matmul(cudabench::family_builder& f) {
  bench::extra_work_fraction();  // a bad CUDABENCH_EXTRA_WORK stops the run before its first case
  f.describe("fp32 square matrix multiply C = A B, row-major, inputs uniform in [-1, 1)")
      .tolerance("sampled elements within 1e-4 x sum|a b| of a double-precision reference")
      .reference("naive", "naive")
      .reference("vendor", "cublas");
  const auto gpu_n = cudabench::size_axis(
      "n", {{"quick", {1024, 2048}}, {"nightly", {1024, 2048, 4096}}, {"full", {1024, 2048, 4096, 8192}}},
      bench::max_side);
  const auto cpu_n =
      cudabench::size_axis("n", {{"quick", {1024}}, {"nightly", {1024}}, {"full", {1024, 2048}}}, bench::max_side);
  auto work = [](int n) {
    const double e = double(n) * n;
    return cudabench::work_counts{.bytes_read = 8 * e, .bytes_written = 4 * e, .items = e, .flops = 2.0 * e * n};
  };
  for (const cudabench::point& at : f.points(gpu_n))
    for (auto [name, v] : {std::pair{"naive", variant::naive}, std::pair{"tiled", variant::tiled},
                           std::pair{"fast", variant::fast}, std::pair{"cublas", variant::cublas}})
      f.add(at, {.variant = name,
                 .on = cudabench::where::gpu,
                 .cache = cudabench::cache_state::cold,
                 .work = work(at.get<int>("n")),
                 .limit = "limits/fma",
                 .make = [v, name, n = at.get<int>("n")] { return std::make_unique<matmul_gpu>(v, name, n); }});
  for (const cudabench::point& at : f.points(cpu_n))
    f.add(at, {.variant = "cpu",
               .on = cudabench::where::cpu,
               .work = work(at.get<int>("n")),
               .make = [n = at.get<int>("n")] { return std::make_unique<matmul_cpu_case>(n); }});
}

}  // namespace

CB_REGISTER_FAMILY(matmul, register_matmul);

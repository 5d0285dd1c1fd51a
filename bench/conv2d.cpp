// conv2d: 5x5 fp32 convolution of square matrices: CPU (sequential and threaded), naive and tiled
// kernels, and cuDNN's fastest algorithm. Timed with a random mask; checked with it and with ones.
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "bench/common.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "kernels/conv2d.hpp"
#include "kernels/conv2d_cudnn.hpp"
#include "kernels/device_fill.cuh"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;
constexpr int taps = kernels::conv_mask * kernels::conv_mask;
constexpr double rel_tolerance = 1e-5;  ///< |got - want| <= tol * sum |w x| (+ tiny absolute)
constexpr int sampled_points = 4096;

enum class variant { naive, tiled, cudnn, fast };

std::array<float, taps> random_mask(std::uint64_t seed) {
  std::array<float, taps> m{};
  kernels::fill_uniform(m.data(), taps, -1.0f, 1.0f, seed);
  return m;
}

/// Checks `out` (n x n) at sampled positions (corners included) and that every element was written.
std::string check_conv(const float* in, const float* out, int n, const float* mask) {
  return bench::check_sampled(out, n, sampled_points, rel_tolerance, "output ", [&](int r, int c, double* mag) {
    return kernels::conv2d_reference_at(in, n, mask, r, c, mag);
  });
}

class conv_gpu final : public cudabench::fixture {
 public:
  conv_gpu(variant v, int n) : v_(v), n_(n), total_(std::size_t(n) * n), mask_(random_mask(kernels::fresh_seed())) {
    if (v_ == variant::cudnn && !kernels::built_with_cudnn()) throw cudabench::skip_case("built without cuDNN");
    cudabench::require_device_memory(2.0 * total_ * sizeof(float));
    cudabench::require_host_memory(2.0 * total_ * sizeof(float));  // the check's host copies
    d_in_ = cudabench::device_buffer<float>(total_);
    d_out_ = cudabench::device_buffer<float>(total_);
    d_mask_ = cudabench::device_buffer<float>(taps);
    kernels::fill_uniform_device(d_in_.get(), total_, -1.0f, 1.0f, seed_, nullptr);
    set_mask(mask_.data());
    poison();  // before cuDNN's algorithm search, whose candidates may read the output (compute-sanitizer initcheck)
    if (v_ == variant::cudnn)
      cudnn_ = std::make_unique<kernels::cudnn_conv5x5>(n_, d_in_.get(), d_mask_.get(), d_out_.get());
    poison();
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    if (v_ == variant::naive)
      kernels::conv2d_naive(d_in_.get(), d_out_.get(), n_, s);
    else if (v_ == variant::tiled)
      kernels::conv2d_tiled(d_in_.get(), d_out_.get(), n_, s);
    else if (v_ == variant::fast)
      kernels::conv2d_fast(d_in_.get(), d_out_.get(), n_, s);
    else
      cudnn_->run(s);
  }
  std::string verify() override {
    std::string problem = fetch_and_check(mask_.data());
    if (!problem.empty()) return "random mask: " + problem;
    // The source's mask of ones, checked the same way, then the timed (random) mask is restored.
    std::array<float, taps> ones;
    ones.fill(1.0f);
    set_mask(ones.data());
    poison();
    run(nullptr);
    CB_CHECK(cudaDeviceSynchronize());
    problem = fetch_and_check(ones.data());
    set_mask(mask_.data());
    return problem.empty() ? problem : "mask of ones: " + problem;
  }
  std::string note() const override { return cudnn_ ? cudnn_->algorithm() : ""; }

 private:
  void set_mask(const float* m) {
    kernels::conv2d_set_mask(m, nullptr);
    CB_CHECK(cudaMemcpy(d_mask_.get(), m, taps * sizeof(float), cudaMemcpyHostToDevice));
  }
  void poison() { CB_CHECK(cudaMemset(d_out_.get(), 0xFF, total_ * sizeof(float))); }  // all-ones bits: NaN
  std::string fetch_and_check(const float* mask) {
    if (h_in_.empty()) {  // the input, rebuilt from its seed, and room for the output: only a checked run needs them
      h_in_.resize(total_);
      kernels::fill_uniform(h_in_.data(), total_, -1.0f, 1.0f, seed_);
      h_out_.resize(total_);
    }
    CB_CHECK(cudaMemcpy(h_out_.data(), d_out_.get(), total_ * sizeof(float), cudaMemcpyDeviceToHost));
    return check_conv(h_in_.data(), h_out_.data(), n_, mask);
  }
  variant v_;
  int n_;
  std::size_t total_;
  std::array<float, taps> mask_;
  std::uint64_t seed_ = kernels::fresh_seed();
  std::vector<float> h_in_, h_out_;
  cudabench::device_buffer<float> d_in_, d_out_, d_mask_;
  std::unique_ptr<kernels::cudnn_conv5x5> cudnn_;
};

class conv_cpu final : public cudabench::fixture {
 public:
  conv_cpu(int n, int threads) : n_(n), threads_(threads), mask_(random_mask(kernels::fresh_seed())) {
    const std::size_t total = std::size_t(n) * n;
    cudabench::require_host_memory(2.0 * total * sizeof(float));
    in_.resize(total);
    out_.assign(total, std::nanf(""));
    kernels::fill_uniform(in_.data(), total, -1.0f, 1.0f, kernels::fresh_seed());
  }
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    if (threads_ <= 1)
      kernels::conv2d_cpu_seq(in_.data(), out_.data(), n_, mask_.data());
    else
      kernels::conv2d_cpu_par(in_.data(), out_.data(), n_, mask_.data(), threads_);
  }
  std::string verify() override { return check_conv(in_.data(), out_.data(), n_, mask_.data()); }
  std::string note() const override { return threads_ > 1 ? std::to_string(threads_) + " threads" : ""; }

 private:
  int n_, threads_;
  std::array<float, taps> mask_;
  std::vector<float> in_, out_;
};

void register_conv2d(cudabench::family_builder& f) {
  f.describe(
       "5x5 fp32 convolution, zero padding, square n x n input; mask in constant memory for the kernels; `fast` is "
       "ours, beyond the source material")
      .tolerance("sampled outputs within 1e-5 x sum|w x| of a double-precision reference, every output written")
      .reference("cpu", "cpu_seq")
      .reference("cpu_parallel", "cpu_par")
      .reference("naive", "naive")
      .reference("vendor", "cudnn")
      .table("conv2d in the layout of the paper's Table 1", {"cpu_seq", "cpu_par"}, {"naive", "tiled"});
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  // Nightly runs the GPU variants at every size of the paper's Table 1, and a CPU case at each (the table
  // takes the sequential one where it ran, else the parallel one, and says which).
  const auto gpu_n = cudabench::size_axis("n",
                                          {{"quick", {1024, 4096}},
                                           {"nightly", {1024, 2048, 4096, 8192, 16384}},
                                           {"full", {1024, 2048, 4096, 8192, 16384}}},
                                          bench::max_side);
  // The sequential CPU takes tens of seconds at 16384; only the full preset goes there.
  const auto seq_n = cudabench::size_axis(
      "n", {{"quick", {1024}}, {"nightly", {1024, 2048}}, {"full", {1024, 2048, 4096, 8192, 16384}}}, bench::max_side);
  const auto par_n = cudabench::size_axis(
      "n", {{"quick", {1024, 4096}}, {"nightly", {1024, 4096, 8192, 16384}}, {"full", {1024, 2048, 4096, 8192, 16384}}},
      bench::max_side);
  auto work = [](int n) {
    const double elems = double(n) * n;
    return cudabench::work_counts{
        .bytes_read = 4 * elems, .bytes_written = 4 * elems, .items = elems, .flops = 2.0 * taps * elems};
  };
  for (const cudabench::point& at : f.points(gpu_n)) {
    const int n = at.get<int>("n");
    for (auto [name, v] : {std::pair{"naive", variant::naive}, std::pair{"tiled", variant::tiled},
                           std::pair{"cudnn", variant::cudnn}, std::pair{"fast", variant::fast}})
      f.add(at, {.variant = name,
                 .on = cudabench::where::gpu,
                 .cache = cudabench::cache_state::cold,
                 .work = work(n),
                 .limit = "limits/copy_d2d",
                 .make = [v, n] { return std::make_unique<conv_gpu>(v, n); }});
  }
  for (const cudabench::point& at : f.points(seq_n)) {
    const int n = at.get<int>("n");
    f.add(at, {.variant = "cpu_seq", .on = cudabench::where::cpu, .work = work(n), .make = [n] {
                 return std::make_unique<conv_cpu>(n, 1);
               }});
  }
  for (const cudabench::point& at : f.points(par_n)) {
    const int n = at.get<int>("n");
    f.add(at, {.variant = "cpu_par", .on = cudabench::where::cpu, .work = work(n), .make = [n, threads] {
                 return std::make_unique<conv_cpu>(n, threads);
               }});
  }
}

}  // namespace

CB_REGISTER_FAMILY(conv2d, register_conv2d);

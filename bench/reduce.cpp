// reduce: the sum of n device-resident floats: shared-memory tree, warp shuffle, recursive by tail
// launch (dynamic parallelism), CUB, ours beyond the source (fast: one launch of float4 loads, the last block
// finishing); and the CPU baseline.
#include <cmath>
#include <memory>
#include <vector>

#include "bench/common.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "kernels/device_fill.cuh"
#include "kernels/reduce.hpp"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;
constexpr double rel_tolerance = 1e-4;  ///< inputs in [0, 1): tree-ordered fp32 sums land far inside this

enum class variant { shared_tree, warp_shuffle, recursive_tail, cub, fast };

std::string check_sum(double got, double want) {
  if (std::fabs(got - want) <= rel_tolerance * want) return {};
  return "sum is " + std::to_string(got) + ", want " + std::to_string(want);
}

class reduce_gpu final : public cudabench::fixture {
 public:
  reduce_gpu(variant v, std::string_view name, std::size_t declared_n)
      : v_(v),
        extra_(bench::extra_work_fraction(fmt::format("reduce/{}", name))),
        n_(declared_n + std::size_t(std::llround(double(declared_n) * extra_))) {
    const std::size_t n = n_;  // the declared size, or more under CUDABENCH_EXTRA_WORK
    cudabench::require_device_memory(double(n) * sizeof(float) * 1.1);
    cudabench::require_host_memory(double(n) * sizeof(float));  // the check's host copy
    d_in_ = cudabench::device_buffer<float>(n);
    kernels::fill_uniform_device(d_in_.get(), n, 0.0f, 1.0f, seed_, nullptr);
    d_result_ = cudabench::device_buffer<float>(1);
    CB_CHECK(cudaMemset(d_result_.get(), 0xFF, sizeof(float)));  // NaN poison
    const std::size_t scratch =
        v == variant::recursive_tail ? kernels::reduce_recursive_scratch(n) : kernels::reduce_config::max_blocks;
    d_a_ = cudabench::device_buffer<float>(scratch);
    d_b_ = cudabench::device_buffer<float>(scratch);
    if (v == variant::cub)
      cub_ = std::make_unique<kernels::cub_call>(kernels::cub_sum(d_in_.get(), n, d_result_.get()));
    CB_CHECK(cudaMemset(d_counter_.get(), 0, sizeof(unsigned)));
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    switch (v_) {
      case variant::shared_tree: kernels::reduce_shared_tree(d_in_.get(), n_, d_a_.get(), d_result_.get(), s); break;
      case variant::warp_shuffle: kernels::reduce_warp_shuffle(d_in_.get(), n_, d_a_.get(), d_result_.get(), s); break;
      case variant::recursive_tail:
        kernels::reduce_recursive(d_in_.get(), n_, d_a_.get(), d_b_.get(), d_result_.get(), s);
        break;
      case variant::cub: cub_->run(s); break;
      case variant::fast:
        kernels::reduce_fast(d_in_.get(), n_, d_a_.get(), d_counter_.get(), d_result_.get(), s);
        break;
    }
  }
  std::string verify() override {
    float got = 0;
    CB_CHECK(cudaMemcpy(&got, d_result_.get(), sizeof got, cudaMemcpyDeviceToHost));
    std::vector<float> h(n_);  // the input, rebuilt from its seed
    kernels::fill_uniform(h.data(), n_, 0.0f, 1.0f, seed_);
    return check_sum(got, kernels::sum_cpu(h.data(), n_));
  }
  std::string note() const override { return bench::extra_work_note(extra_); }

 private:
  variant v_;
  double extra_;
  std::size_t n_;
  std::uint64_t seed_ = kernels::fresh_seed();
  cudabench::device_buffer<float> d_in_, d_result_, d_a_, d_b_;
  cudabench::device_buffer<unsigned> d_counter_{1};
  std::unique_ptr<kernels::cub_call> cub_;
};

class reduce_cpu_case final : public cudabench::fixture {
 public:
  explicit reduce_cpu_case(std::size_t n) {
    cudabench::require_host_memory(double(n) * sizeof(float));
    in_.resize(n);
    kernels::fill_uniform(in_.data(), n, 0.0f, 1.0f, kernels::fresh_seed());
  }
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    got_ = kernels::sum_cpu(in_.data(), in_.size());
  }
  std::string verify() override {
    // Independent check: pairwise halves must add up to the whole.
    const std::size_t h = in_.size() / 2;
    const double parts = kernels::sum_cpu(in_.data(), h) + kernels::sum_cpu(in_.data() + h, in_.size() - h);
    return check_sum(got_, parts);
  }

 private:
  std::vector<float> in_;
  double got_ = 0;
};

void register_reduce(cudabench::family_builder& f) {
  bench::extra_work_fraction();  // a bad CUDABENCH_EXTRA_WORK stops the run before its first case
  f.describe(
       "sum of n fp32 values uniform in [0, 1), device-resident input, result left on the device; `fast` is "
       "ours, beyond the source material")
      .tolerance("relative 1e-4 against a double-precision sum")
      .reference("naive", "shared_tree")
      .reference("vendor", "cub");
  for (const cudabench::point& at : f.points(bench::element_count_axis())) {
    const auto n = at.get<std::size_t>("n");
    const cudabench::work_counts w{.bytes_read = 4.0 * double(n), .bytes_written = 4, .items = double(n)};
    for (auto [name, v] :
         {std::pair{"shared_tree", variant::shared_tree}, std::pair{"warp_shuffle", variant::warp_shuffle},
          std::pair{"recursive_tail", variant::recursive_tail}, std::pair{"cub", variant::cub},
          std::pair{"fast", variant::fast}}) {
      cudabench::case_def c{.variant = name, .cache = cudabench::cache_state::cold, .work = w};
      c.limit = "limits/read";  // read-bound: each element read once
      c.make = [v, name, n] { return std::make_unique<reduce_gpu>(v, name, n); };
      f.add(at, std::move(c));
    }
    f.add(at, {.variant = "cpu", .on = cudabench::where::cpu, .work = w, .make = [n] {
                 return std::make_unique<reduce_cpu_case>(n);
               }});
  }
}

}  // namespace

CB_REGISTER_FAMILY(reduce, register_reduce);

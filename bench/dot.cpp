// dot: a.b with a per-block shared-memory reduction and the final sum on the CPU, from host data;
// the same split over K streams driven from K host threads; and the CPU baseline.
#include <cmath>
#include <memory>
#include <vector>

#include "bench/common.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "kernels/vector.hpp"
#include "measure/worker_pool.hpp"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;
using kernels::vector_config;
constexpr double rel_tolerance = 1e-4;  ///< inputs in [0, 1): no cancellation, fp32 partial sums stay well within this

std::string check_dot(double got, double want) {
  if (std::fabs(got - want) <= rel_tolerance * std::fabs(want)) return {};
  return "dot product is " + std::to_string(got) + ", want " + std::to_string(want);
}

/// One chunk's pipeline on its own stream: copy in, partial sums, copy partials out, finish on the host.
struct dot_lane {
  dot_lane(const float* h_a, const float* h_b, std::size_t n)
      : h_a(h_a),
        h_b(h_b),
        n(n),
        d_a(n),
        d_b(n),
        d_partials(vector_config::dot_blocks),
        h_partials(vector_config::dot_blocks) {}
  void enqueue(cudaStream_t s) {
    {
      phase_range p(phase::h2d);
      CB_CHECK(cudaMemcpyAsync(d_a.get(), h_a, n * sizeof(float), cudaMemcpyHostToDevice, s));
      CB_CHECK(cudaMemcpyAsync(d_b.get(), h_b, n * sizeof(float), cudaMemcpyHostToDevice, s));
    }
    {
      phase_range p(phase::kernel);
      kernels::dot_partials(d_a.get(), d_b.get(), n, d_partials.get(), s);
    }
    {
      phase_range p(phase::d2h);
      CB_CHECK(cudaMemcpyAsync(h_partials.get(), d_partials.get(), h_partials.bytes(), cudaMemcpyDeviceToHost, s));
    }
  }
  double finish(cudaStream_t s) {
    CB_CHECK(cudaStreamSynchronize(s));
    phase_range p(phase::host);
    double sum = 0;
    for (float v : h_partials) sum += v;
    return sum;
  }
  const float *h_a, *h_b;
  std::size_t n;
  cudabench::device_buffer<float> d_a, d_b, d_partials;
  cudabench::pinned_buffer<float> h_partials;
};

class dot_gpu final : public cudabench::fixture {
 public:
  dot_gpu(std::size_t n, int k) : n_(n), fan_(k), result_(k, 0.0) {
    cudabench::require_device_memory(2.0 * double(n) * sizeof(float));
    cudabench::require_host_memory(2.0 * double(n) * sizeof(float));
    h_a_ = cudabench::pinned_buffer<float>(n);
    h_b_ = cudabench::pinned_buffer<float>(n);
    kernels::fill_uniform(h_a_.get(), n, 0.0f, 1.0f, kernels::fresh_seed());
    kernels::fill_uniform(h_b_.get(), n, 0.0f, 1.0f, kernels::fresh_seed());
    want_ = kernels::dot_cpu(h_a_.get(), h_b_.get(), n);
    for (int i = 0; i < k; ++i) {
      auto [b, e] = bench::chunk(n, k, i);
      lanes_.push_back(std::make_unique<dot_lane>(h_a_.get() + b, h_b_.get() + b, e - b));
    }
    if (k > 1)
      pool_ = std::make_unique<cudabench::worker_pool>(k, [this](int i) {
        lanes_[i]->enqueue(fan_[i]);
        result_[i] = lanes_[i]->finish(fan_[i]);
      });
  }
  void run(cudaStream_t s) override {
    fan_.fork(s);
    if (pool_)
      pool_->run_round();
    else {
      lanes_[0]->enqueue(fan_[0]);
      result_[0] = lanes_[0]->finish(fan_[0]);
    }
    fan_.join(s);
    got_ = 0;
    for (double r : result_) got_ += r;
  }
  std::string verify() override { return check_dot(got_, want_); }

 private:
  std::size_t n_;
  bench::stream_fan fan_;
  cudabench::pinned_buffer<float> h_a_, h_b_;
  std::vector<std::unique_ptr<dot_lane>> lanes_;
  std::vector<double> result_;
  std::unique_ptr<cudabench::worker_pool> pool_;
  double want_ = 0, got_ = 0;
};

class dot_cpu_case final : public cudabench::fixture {
 public:
  explicit dot_cpu_case(std::size_t n) {
    cudabench::require_host_memory(2.0 * double(n) * sizeof(float));
    a_ = kernels::uniform_floats(n, 0.0f, 1.0f);
    b_ = kernels::uniform_floats(n, 0.0f, 1.0f);
  }
  // Accumulates in double: a sequential fp32 sum of 2^24 terms loses percents once the sum dwarfs a term.
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    got_ = kernels::dot_cpu(a_.data(), b_.data(), a_.size());
  }
  /// Independent check: the two halves must add up to the whole.
  std::string verify() override {
    const std::size_t h = a_.size() / 2;
    return check_dot(got_, kernels::dot_cpu(a_.data(), b_.data(), h) +
                               kernels::dot_cpu(a_.data() + h, b_.data() + h, a_.size() - h));
  }

 private:
  std::vector<float> a_, b_;
  double got_ = 0;
};

void register_dot(cudabench::family_builder& f) {
  f.describe(
       "dot product of fp32 vectors in [0, 1) from pinned host memory: copies, per-block sums, final sum on the CPU")
      .tolerance("relative 1e-4 against a double-precision sum")
      .reference("naive", "shared");
  const auto n_axis = cudabench::size_axis(
      "n", {{"quick", {1 << 24}}, {"nightly", {1 << 20, 1 << 24}}, {"full", {1 << 20, 1 << 24, 1 << 26, 1 << 28}}},
      bench::max_elements);
  // Host threads, each with its own stream (one thread is `shared`).
  const auto streams = cudabench::int_axis("streams", {{"quick", {4}}, {"nightly", {2, 4, 8}}, {"full", {2, 4, 8, 16}}},
                                           bench::max_split);
  for (const cudabench::point& at : f.points(n_axis)) {
    const auto n = at.get<std::size_t>("n");
    const cudabench::work_counts w{.bytes_read = 8.0 * double(n),
                                   .bytes_written = 4.0 * vector_config::dot_blocks,
                                   .items = double(n),
                                   .flops = 2.0 * double(n)};
    // Bound by copying both vectors from pinned memory: compared on the scale of the run's own host-to-device copy.
    f.add(at, {.variant = "shared",
               .on = cudabench::where::gpu,
               .work = w,
               .syncs = true,
               .control = "limits/h2d_pinned",
               .make = [n] { return std::make_unique<dot_gpu>(n, 1); }});
    for (const cudabench::point& at_k : f.points(at, {streams})) {
      const int k = at_k.get<int>("streams");
      f.add(at_k,
            {.variant = "threads_streams", .on = cudabench::where::gpu, .work = w, .host_bound = true, .make = [n, k] {
               return std::make_unique<dot_gpu>(n, k);
             }});
    }
    f.add(at, {.variant = "cpu", .on = cudabench::where::cpu, .work = w, .make = [n] {
                 return std::make_unique<dot_cpu_case>(n);
               }});
  }
}

}  // namespace

CB_REGISTER_FAMILY(dot, register_dot);

// vector: c = a + b from host data to a result on the device: explicit copies from pinned memory,
// unified memory migrated on demand, unified memory prefetched; and the CPU baseline.
#include <cstring>
#include <memory>
#include <vector>

#include "bench/common.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "kernels/device_fill.cuh"
#include "kernels/vector.hpp"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;

std::string check_sum(const float* a, const float* b, const float* c, std::size_t n) {
  std::vector<float> want(n);
  kernels::vector_add_cpu(a, b, want.data(), n);
  return kernels::compare_elements(c, want.data(), n, 0);
}

class vector_explicit final : public cudabench::fixture {
 public:
  explicit vector_explicit(std::size_t n) : n_(n) {
    cudabench::require_device_memory(3.0 * n * sizeof(float));
    cudabench::require_host_memory(4.0 * n * sizeof(float));
    h_a_ = cudabench::pinned_buffer<float>(n);
    h_b_ = cudabench::pinned_buffer<float>(n);
    kernels::fill_uniform(h_a_.get(), n, -1.0f, 1.0f, kernels::fresh_seed());
    kernels::fill_uniform(h_b_.get(), n, -1.0f, 1.0f, kernels::fresh_seed());
    d_a_ = cudabench::device_buffer<float>(n);
    d_b_ = cudabench::device_buffer<float>(n);
    d_c_ = cudabench::device_buffer<float>(n);
    CB_CHECK(cudaMemset(d_c_.get(), 0xFF, n * sizeof(float)));
  }
  void run(cudaStream_t s) override {
    {
      phase_range p(phase::h2d);
      CB_CHECK(cudaMemcpyAsync(d_a_.get(), h_a_.get(), h_a_.bytes(), cudaMemcpyHostToDevice, s));
      CB_CHECK(cudaMemcpyAsync(d_b_.get(), h_b_.get(), h_b_.bytes(), cudaMemcpyHostToDevice, s));
    }
    phase_range p(phase::kernel);
    kernels::vector_add(d_a_.get(), d_b_.get(), d_c_.get(), n_, s);
  }
  std::string verify() override {
    std::vector<float> c(n_);
    CB_CHECK(cudaMemcpy(c.data(), d_c_.get(), n_ * sizeof(float), cudaMemcpyDeviceToHost));
    return check_sum(h_a_.get(), h_b_.get(), c.data(), n_);
  }

 private:
  std::size_t n_;
  cudabench::pinned_buffer<float> h_a_, h_b_;
  cudabench::device_buffer<float> d_a_, d_b_, d_c_;
};

/// Unified memory; before every timed run the pages are sent back to the host (untimed).
class vector_managed final : public cudabench::fixture {
 public:
  vector_managed(std::size_t n, bool prefetch) : n_(n), prefetch_(prefetch) {
    int dev = 0, concurrent = 0;
    CB_CHECK(cudaGetDevice(&dev));
    CB_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev));
    if (!concurrent) throw cudabench::skip_case("the device has no concurrent managed access (no on-demand migration)");
    cudabench::require_device_memory(3.0 * n * sizeof(float));  // managed memory never beyond free device memory
    cudabench::require_host_memory(4.0 * n * sizeof(float));    // filled on the host; the check adds one more array
    device_ = {cudaMemLocationTypeDevice, dev};
    a_ = cudabench::managed_buffer<float>(n);
    b_ = cudabench::managed_buffer<float>(n);
    c_ = cudabench::managed_buffer<float>(n);
    // Written on the device; prepare() sends every page to the host before each run, as the source's host fill left
    // them.
    kernels::fill_uniform_device(a_.get(), n, -1.0f, 1.0f, kernels::fresh_seed(), nullptr);
    kernels::fill_uniform_device(b_.get(), n, -1.0f, 1.0f, kernels::fresh_seed(), nullptr);
    CB_CHECK(cudaMemset(c_.get(), 0xFF, n * sizeof(float)));
    CB_CHECK(cudaDeviceSynchronize());
  }
  void prepare(cudaStream_t s) override {
    const cudaMemLocation host{cudaMemLocationTypeHost, 0};
    for (auto* buf : {&a_, &b_, &c_}) CB_CHECK(cudaMemPrefetchAsync(buf->get(), buf->bytes(), host, 0, s));
    CB_CHECK(cudaStreamSynchronize(s));
  }
  void run(cudaStream_t s) override {
    if (prefetch_) {
      phase_range p(phase::h2d);
      for (auto* buf : {&a_, &b_, &c_}) CB_CHECK(cudaMemPrefetchAsync(buf->get(), buf->bytes(), device_, 0, s));
    }
    phase_range p(phase::kernel);
    kernels::vector_add(a_.get(), b_.get(), c_.get(), n_, s);
  }
  std::string verify() override {
    CB_CHECK(cudaDeviceSynchronize());
    return check_sum(a_.get(), b_.get(), c_.get(), n_);
  }

 private:
  std::size_t n_;
  bool prefetch_;
  cudaMemLocation device_{};
  cudabench::managed_buffer<float> a_, b_, c_;
};

class vector_cpu_case final : public cudabench::fixture {
 public:
  explicit vector_cpu_case(std::size_t n) {
    cudabench::require_host_memory(3.0 * double(n) * sizeof(float));
    a_ = kernels::uniform_floats(n, -1.0f, 1.0f);
    b_ = kernels::uniform_floats(n, -1.0f, 1.0f);
    c_.assign(n, std::nanf(""));
  }
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    kernels::vector_add_cpu(a_.data(), b_.data(), c_.data(), a_.size());
  }
  std::string verify() override {
    for (std::size_t i = 0; i < a_.size(); ++i)
      if (c_[i] != a_[i] + b_[i]) return "element " + std::to_string(i) + " is not a + b";
    return {};
  }

 private:
  std::vector<float> a_, b_, c_;
};

void register_vector(cudabench::family_builder& f) {
  f.describe("c = a + b, fp32, from inputs in host memory to the result on the device")
      .tolerance("exact")
      .reference("naive", "explicit");
  const auto n_axis = cudabench::size_axis(
      "n",
      {{"quick", {1 << 24}}, {"nightly", {1 << 24, 1 << 28}}, {"full", {1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28}}},
      bench::max_elements);
  for (const cudabench::point& at : f.points(n_axis)) {
    const auto n = at.get<std::size_t>("n");
    const cudabench::work_counts w{.bytes_read = 8.0 * double(n), .bytes_written = 4.0 * double(n), .items = double(n)};
    // Bound by its two copies from pinned memory: compared on the scale of the run's own host-to-device copy.
    f.add(at,
          {.variant = "explicit", .on = cudabench::where::gpu, .work = w, .control = "limits/h2d_pinned", .make = [n] {
             return std::make_unique<vector_explicit>(n);
           }});
    f.add(at, {.variant = "managed", .on = cudabench::where::gpu, .work = w, .host_bound = true, .make = [n] {
                 return std::make_unique<vector_managed>(n, false);
               }});
    f.add(at, {.variant = "managed_prefetch", .on = cudabench::where::gpu, .work = w, .host_bound = true, .make = [n] {
                 return std::make_unique<vector_managed>(n, true);
               }});
    f.add(at, {.variant = "cpu", .on = cudabench::where::cpu, .work = w, .make = [n] {
                 return std::make_unique<vector_cpu_case>(n);
               }});
  }
}

}  // namespace

CB_REGISTER_FAMILY(vector, register_vector);

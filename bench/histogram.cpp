// histogram: 256 bins over ints in [0, 256): naive (racy, kept for teaching), global atomics,
// shared memory with the merge on the CPU or the GPU, CUB, and the CPU baseline.
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "bench/common.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "kernels/device_fill.cuh"
#include "kernels/histogram.hpp"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;
using kernels::histogram_bins;
using kernels::histogram_config;

enum class variant { naive, atomic_global, shared_cpu_merge, shared_gpu_merge, cub, fast };

/// Input on the device, the expected histogram on the host.
class histogram_gpu final : public cudabench::fixture {
 public:
  histogram_gpu(variant v, std::size_t n) : v_(v), n_(n) {
    cudabench::require_device_memory(double(n) * sizeof(int) + 4.0 * histogram_bins * histogram_config::shared_blocks);
    cudabench::require_host_memory(double(n) * sizeof(int));  // the check's host copy
    d_in_ = cudabench::device_buffer<int>(n);
    d_hist_ = cudabench::device_buffer<unsigned>(histogram_bins);
    kernels::fill_ints_device(d_in_.get(), n, 0, histogram_bins, seed_, nullptr);
    CB_CHECK(cudaMemset(d_hist_.get(), 0xFF, histogram_bins * sizeof(unsigned)));  // poison
    if (v == variant::shared_cpu_merge || v == variant::shared_gpu_merge) {
      d_partials_ = cudabench::device_buffer<unsigned>(std::size_t(histogram_bins) * histogram_config::shared_blocks);
      h_partials_ = cudabench::pinned_buffer<unsigned>(d_partials_.size());
    }
    if (v == variant::cub)
      cub_ = std::make_unique<kernels::cub_call>(kernels::cub_histogram(d_in_.get(), n, d_hist_.get()));
  }
  void run(cudaStream_t s) override {
    if (v_ == variant::shared_cpu_merge) return run_cpu_merge(s);
    phase_range p(phase::kernel);
    switch (v_) {
      case variant::naive: kernels::histogram_naive(d_in_.get(), n_, d_hist_.get(), s); break;
      case variant::atomic_global: kernels::histogram_atomic_global(d_in_.get(), n_, d_hist_.get(), s); break;
      case variant::cub: cub_->run(s); break;
      case variant::fast: kernels::histogram_fast(d_in_.get(), n_, d_hist_.get(), s); break;
      case variant::shared_gpu_merge:
        kernels::histogram_shared_partials(d_in_.get(), n_, d_partials_.get(), s);
        kernels::histogram_merge_partials(d_partials_.get(), d_hist_.get(), s);
        break;
      case variant::shared_cpu_merge: break;
    }
  }
  /// The partial histograms on the device, copied back, merged on the host.
  void run_cpu_merge(cudaStream_t s) {
    {
      phase_range p(phase::kernel);
      kernels::histogram_shared_partials(d_in_.get(), n_, d_partials_.get(), s);
    }
    {
      phase_range p(phase::d2h);
      CB_CHECK(cudaMemcpyAsync(h_partials_.get(), d_partials_.get(), h_partials_.bytes(), cudaMemcpyDeviceToHost, s));
      CB_CHECK(cudaStreamSynchronize(s));
    }
    // The merge is host work inside the timed region: the stop event is recorded after it returns.
    phase_range p(phase::host);
    kernels::merge_partials_cpu(h_partials_.get(), histogram_config::shared_blocks, merged_.data());
  }
  std::string verify() override {
    std::array<unsigned, histogram_bins> got{};
    if (v_ == variant::shared_cpu_merge)
      got = merged_;
    else
      CB_CHECK(cudaMemcpy(got.data(), d_hist_.get(), sizeof got, cudaMemcpyDeviceToHost));
    if (v_ == variant::naive) {
      // Wrong by design: count what the race lost instead of failing.
      unsigned long long total = 0;
      for (unsigned c : got) total += c;
      lost_ = double(n_) - double(total);
      return total <= n_ ? std::string() : "the racy kernel counted more than it read";
    }
    std::array<unsigned, histogram_bins> want{};
    {
      std::vector<int> h_in(n_);  // the input, rebuilt from its seed
      kernels::fill_ints(h_in.data(), n_, 0, histogram_bins, seed_);
      kernels::histogram_cpu(h_in.data(), n_, want.data());
    }
    return kernels::compare_elements(got.data(), want.data(), histogram_bins, 0);
  }
  void add_counters(std::map<std::string, double>& c) const override {
    // Only where the check counted them: a later round, which runs without the check, has no count to give.
    if (v_ == variant::naive && lost_) {
      c["lost_counts"] = *lost_;
      c["lost_fraction"] = *lost_ / double(n_);
    }
  }
  std::string note() const override { return v_ == variant::naive ? "incorrect by design (racy increments)" : ""; }
  bool correct() const override { return v_ != variant::naive; }

 private:
  variant v_;
  std::size_t n_;
  std::uint64_t seed_ = kernels::fresh_seed();
  std::array<unsigned, histogram_bins> merged_{};
  cudabench::device_buffer<int> d_in_;
  cudabench::device_buffer<unsigned> d_hist_, d_partials_;
  cudabench::pinned_buffer<unsigned> h_partials_;
  std::unique_ptr<kernels::cub_call> cub_;
  std::optional<double> lost_;  ///< counts the race lost, once verify() has counted them
};

class histogram_cpu_case final : public cudabench::fixture {
 public:
  explicit histogram_cpu_case(std::size_t n) {
    cudabench::require_host_memory(double(n) * sizeof(int));
    in_.resize(n);
    kernels::fill_ints(in_.data(), n, 0, histogram_bins, kernels::fresh_seed());
  }
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    kernels::histogram_cpu(in_.data(), in_.size(), hist_.data());
  }
  std::string verify() override {
    unsigned long long total = 0;
    for (unsigned c : hist_) total += c;
    if (total != in_.size()) return "counts add up to " + std::to_string(total) + ", not " + std::to_string(in_.size());
    // Spot-check three bins by counting them directly.
    for (int bin : {0, 128, 255}) {
      unsigned direct = 0;
      for (int v : in_) direct += v == bin;
      if (direct != hist_[bin]) return "bin " + std::to_string(bin) + " is wrong";
    }
    return {};
  }

 private:
  std::vector<int> in_;
  std::array<unsigned, histogram_bins> hist_{};
};

void register_histogram(cudabench::family_builder& f) {
  f.describe(
       "256-bin histogram of ints uniform in [0, 256); the input is device-resident for GPU variants; `fast` is "
       "ours, beyond the source material")
      .tolerance("exact counts (naive: counts lost to the race are reported, not checked)")
      .reference("naive", "atomic_global")
      .reference("vendor", "cub");
  const std::array<std::pair<const char*, variant>, 6> variants{{{"naive", variant::naive},
                                                                 {"atomic_global", variant::atomic_global},
                                                                 {"shared_cpu_merge", variant::shared_cpu_merge},
                                                                 {"shared_gpu_merge", variant::shared_gpu_merge},
                                                                 {"cub", variant::cub},
                                                                 {"fast", variant::fast}}};
  for (const cudabench::point& at : f.points(bench::element_count_axis())) {
    const auto n = at.get<std::size_t>("n");
    const cudabench::work_counts w{
        .bytes_read = 4.0 * double(n), .bytes_written = 4.0 * histogram_bins, .items = double(n)};
    for (auto [name, v] : variants)
      f.add(at, {.variant = name,
                 .on = cudabench::where::gpu,
                 .cache = cudabench::cache_state::cold,
                 .work = w,
                 .host_bound = v == variant::shared_cpu_merge,
                 .limit = "limits/read",
                 .make = [v, n] { return std::make_unique<histogram_gpu>(v, n); }});
    const auto cpu = [n] { return std::make_unique<histogram_cpu_case>(n); };
    f.add(at, {.variant = "cpu", .on = cudabench::where::cpu, .work = w, .make = cpu});
  }
}

}  // namespace

CB_REGISTER_FAMILY(histogram, register_histogram);

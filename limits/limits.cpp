// limits: what this device does at best, measured in the run: device-to-device copy, a read-only stream,
// pinned and pageable host copies each way and both ways at once, FP32 FMA throughput, the time of a
// launch and what a sample of one empty kernel takes, cold and hot. Cases of other families name the limit that bounds
// them (case_def::limit); reports show their time against it ("% of limit": the case's bytes or FLOPs over the limit's
// measured rate, divided by its time). It ships in the library, written against the public API as a user's family is,
// so every binary linked with cudabench::main can measure it.
#include "cudabench/limits.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "cudabench/cuda_handles.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "limits/limits_kernels.cuh"
#include "support/host_bytes.hpp"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;
using kernels::limits_config;

constexpr std::size_t device_bytes = std::size_t(1) << 30;  ///< 1 GiB: 20x the H100's L2
constexpr std::size_t host_copy_bytes = std::size_t(256) << 20;
constexpr int fma_threads = 1 << 20;  ///< 4,096 blocks: several full waves on any current GPU

/// Empty when the n bytes match, else the first that differs. memcmp, not kernels::compare_elements: these
/// buffers are up to 1 GiB, which memcmp checks in tens of milliseconds and the element-wise check in seconds.
std::string compare_bytes(const std::uint8_t* got, const std::uint8_t* want, std::size_t n, const char* what) {
  if (std::memcmp(got, want, n) == 0) return {};
  std::size_t i = 0;
  while (got[i] == want[i]) ++i;
  return fmt::format("{}: byte {} is {}, want {}", what, i, got[i], want[i]);
}

/// cudaMemcpyAsync device to device: the copy bandwidth every kernel that reads and writes DRAM once is
/// held to. Its source is written on the device; the check rebuilds it on the host from its seed.
class copy_d2d final : public cudabench::fixture {
 public:
  explicit copy_d2d(std::size_t n) : n_(n) {
    cudabench::require_device_memory(2.0 * double(n));
    cudabench::require_host_memory(2.0 * double(n));  // the check's copies
    src_ = cudabench::device_buffer<std::uint8_t>(n);
    dst_ = cudabench::device_buffer<std::uint8_t>(n);
    kernels::limits_fill_bytes(src_.get(), n, seed_, nullptr);
    CB_CHECK(cudaMemset(dst_.get(), 0xA5, n));
    CB_CHECK(cudaDeviceSynchronize());
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    CB_CHECK(cudaMemcpyAsync(dst_.get(), src_.get(), n_, cudaMemcpyDeviceToDevice, s));
  }
  std::string verify() override {
    // Uninitialised: every byte is written before it is read, so 2 GiB are not zeroed first.
    const auto got = std::make_unique_for_overwrite<std::uint8_t[]>(n_);
    const auto want = std::make_unique_for_overwrite<std::uint8_t[]>(n_);
    CB_CHECK(cudaMemcpy(got.get(), dst_.get(), n_, cudaMemcpyDeviceToHost));
    kernels::fill_bytes(want.get(), n_, seed_);
    return compare_bytes(got.get(), want.get(), n_, "copy");
  }

 private:
  std::size_t n_;
  std::uint64_t seed_ = kernels::fresh_seed();
  cudabench::device_buffer<std::uint8_t> src_, dst_;
};

/// A kernel that only reads (a sum of float4 loads): the bandwidth of read-bound kernels. Its input is
/// written on the device; the check rebuilds it on the host from its seed.
class read_stream final : public cudabench::fixture {
 public:
  explicit read_stream(std::size_t floats) : n_(floats) {
    cudabench::require_device_memory(4.0 * double(floats));
    cudabench::require_host_memory(4.0 * double(floats));  // the check's copy
    in_ = cudabench::device_buffer<float>(floats);
    partials_ = cudabench::device_buffer<float>(std::size_t(kernels::read_stream_blocks()));
    kernels::limits_fill_uniform(in_.get(), floats, 0.0f, 1.0f, seed_, nullptr);
    CB_CHECK(cudaDeviceSynchronize());
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    kernels::read_stream(reinterpret_cast<const float4*>(in_.get()), n_ / 4, partials_.get(), s);
  }
  std::string verify() override {
    std::vector<float> got(partials_.size());
    CB_CHECK(cudaMemcpy(got.data(), partials_.get(), partials_.bytes(), cudaMemcpyDeviceToHost));
    double sum = 0, want = 0;
    for (float v : got) sum += v;
    // The input rebuilt from its seed and summed chunk by chunk on all cores, with no host copy of it.
    constexpr std::size_t chunk = std::size_t(1) << 20;  // kernels::parallel_chunks's
    std::vector<double> partial((n_ + chunk - 1) / chunk);
    kernels::parallel_chunks(n_, [&](std::size_t b, std::size_t e) {
      double part = 0;
      for (std::size_t i = b; i < e; ++i) part += kernels::counter_random::uniform(seed_, i, 0.0f, 1.0f);
      partial[b / chunk] = part;
    });
    for (double part : partial) want += part;
    // inputs in [0, 1): no cancellation; fp32 partial sums of a few thousand terms stay well within 1e-4
    if (std::fabs(sum - want) <= 1e-4 * want) return {};
    return fmt::format("sum of what was read is {}, want {}", sum, want);
  }

 private:
  std::size_t n_;
  std::uint64_t seed_ = kernels::fresh_seed();
  cudabench::device_buffer<float> in_, partials_;
};

enum class direction { h2d, d2h, both };

/// Host copies over PCIe (or C2C): pinned or pageable host memory, one way or both at once on two streams.
/// The data going up is written on the host, the data coming down on the device, each from a seed the check
/// rebuilds it from.
class host_copy final : public cudabench::fixture {
 public:
  host_copy(std::size_t n, direction d, bool pinned) : n_(n), dir_(d), fan_(2) {
    cudabench::require_device_memory(2.0 * double(n));
    cudabench::require_host_memory(4.0 * double(n));  // both host buffers, and the check's two copies
    dev_in_ = cudabench::device_buffer<std::uint8_t>(n);
    dev_out_ = cudabench::device_buffer<std::uint8_t>(n);
    up_ = cudabench::host_bytes(n, pinned);
    down_ = cudabench::host_bytes(n, pinned);
    kernels::fill_bytes(up(), n, seed_up_);
    std::memset(down(), 0x5A, n);
    kernels::limits_fill_bytes(dev_out_.get(), n, seed_down_, nullptr);
    CB_CHECK(cudaDeviceSynchronize());
  }
  void run(cudaStream_t s) override {
    if (dir_ != direction::both) {
      if (dir_ == direction::h2d) {
        phase_range p(phase::h2d);
        CB_CHECK(cudaMemcpyAsync(dev_in_.get(), up(), n_, cudaMemcpyHostToDevice, s));
      } else {
        phase_range p(phase::d2h);
        CB_CHECK(cudaMemcpyAsync(down(), dev_out_.get(), n_, cudaMemcpyDeviceToHost, s));
      }
      return;
    }
    fan_.fork(s);
    {
      phase_range p(phase::h2d);
      CB_CHECK(cudaMemcpyAsync(dev_in_.get(), up(), n_, cudaMemcpyHostToDevice, fan_[0]));
    }
    {
      phase_range p(phase::d2h);
      CB_CHECK(cudaMemcpyAsync(down(), dev_out_.get(), n_, cudaMemcpyDeviceToHost, fan_[1]));
    }
    fan_.join(s);
  }
  std::string verify() override {
    CB_CHECK(cudaDeviceSynchronize());
    const auto want = std::make_unique_for_overwrite<std::uint8_t[]>(n_);  // written before it is read
    if (dir_ != direction::d2h) {
      const auto got = std::make_unique_for_overwrite<std::uint8_t[]>(n_);
      CB_CHECK(cudaMemcpy(got.get(), dev_in_.get(), n_, cudaMemcpyDeviceToHost));
      kernels::fill_bytes(want.get(), n_, seed_up_);
      if (std::string problem = compare_bytes(got.get(), want.get(), n_, "host to device"); !problem.empty())
        return problem;
    }
    if (dir_ == direction::h2d) return {};
    kernels::fill_bytes(want.get(), n_, seed_down_);
    return compare_bytes(down(), want.get(), n_, "device to host");
  }

 private:
  std::uint8_t* up() { return up_.get(); }
  std::uint8_t* down() { return down_.get(); }
  std::size_t n_;
  direction dir_;
  std::uint64_t seed_up_ = kernels::fresh_seed(), seed_down_ = kernels::fresh_seed();
  cudabench::stream_fan fan_;
  cudabench::device_buffer<std::uint8_t> dev_in_, dev_out_;
  cudabench::host_bytes up_, down_;
};

/// Independent FMA chains in every thread of a full device: FP32 throughput on the CUDA cores.
class fma_peak final : public cudabench::fixture {
 public:
  static constexpr float a = 0.9999f, b = 0.0001f;  ///< x -> x*a + b stays finite and moves every step
  explicit fma_peak(int threads) : threads_(threads) {
    cudabench::require_device_memory(8.0 * threads);
    cudabench::require_host_memory(8.0 * threads);
    seed_ = cudabench::device_buffer<float>(std::size_t(threads));
    out_ = cudabench::device_buffer<float>(std::size_t(threads));
    h_seed_.resize(std::size_t(threads));
    got_.resize(std::size_t(threads));
    kernels::fill_uniform(h_seed_.data(), std::size_t(threads), 0.0f, 1.0f, kernels::fresh_seed());
    CB_CHECK(cudaMemcpy(seed_.get(), h_seed_.data(), seed_.bytes(), cudaMemcpyHostToDevice));
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    kernels::fma_throughput(seed_.get(), out_.get(), threads_, a, b, s);
  }
  /// 64 threads spread over the grid, recomputed on the CPU with the same fused operations: equal bits.
  std::string verify() override {
    CB_CHECK(cudaMemcpy(got_.data(), out_.get(), out_.bytes(), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 64; ++k) {
      const int t = int((long long)k * (threads_ - 1) / 63);
      float x[limits_config::fma_chains];
      for (int c = 0; c < limits_config::fma_chains; ++c) x[c] = h_seed_[t] + float(c);
      for (int i = 0; i < limits_config::fma_iterations; ++i)
        for (int c = 0; c < limits_config::fma_chains; ++c) x[c] = std::fma(x[c], a, b);
      float want = 0;
      for (int c = 0; c < limits_config::fma_chains; ++c) want += x[c];
      if (got_[t] != want) return fmt::format("thread {}: {} after the FMA chains, want {}", t, got_[t], want);
    }
    return {};
  }

 private:
  int threads_;
  cudabench::device_buffer<float> seed_, out_;
  std::vector<float> h_seed_, got_;
};

/// Empty kernels back to back: the least time a launch takes on the device (queued while the stream is held).
class launch_cost final : public cudabench::fixture {
 public:
  static constexpr int launches = 1000;
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    kernels::empty_kernels(launches, s);
  }
  std::string verify() override { return {}; }  // nothing to compute; every launch is checked as it is made
};

/// One empty kernel, timed as any sample is: what a sample's time holds besides the case's own device work
/// (the launch fetched by the GPU, the events around it). compare takes its change between two machines out
/// of short cases' times (an additive control); cold and hot, as a case's samples are timed one way or the other.
class sample_overhead final : public cudabench::fixture {
 public:
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    kernels::empty_kernels(1, s);
  }
  std::string verify() override { return {}; }  // nothing to compute; the launch is checked as it is made
};

}  // namespace

namespace cudabench {
namespace {

/// The host copies: pinned each way and both ways at once, pageable each way.
void add_host_copies(family_builder& f) {
  struct host_case {
    const char* name;
    direction d;
    bool pinned;
  };
  for (const host_case& h :
       {host_case{"h2d_pinned", direction::h2d, true}, host_case{"d2h_pinned", direction::d2h, true},
        host_case{"bidir_pinned", direction::both, true}, host_case{"h2d_pageable", direction::h2d, false},
        host_case{"d2h_pageable", direction::d2h, false}}) {
    const double moved = double(host_copy_bytes) * (h.d == direction::both ? 2 : 1);
    // Both ways at once is not gated: on the H100 machine it measured 85.7-95.4 GB/s in fifteen processes
    // with nothing changed (one way: within 0.5%), while the pipelines it bounds held within 1% (docs/validation.md,
    // "The defaults of `compare`, and why").
    f.add({.variant = h.name,
           .on = where::gpu,
           .work = {.bytes_read = moved / 2, .bytes_written = moved / 2},
           .size = moved,
           .host_bound = !h.pinned,
           .gated = h.d != direction::both,
           .make = [h] { return std::make_unique<host_copy>(host_copy_bytes, h.d, h.pinned); }});
  }
}

}  // namespace

void register_limits(family_builder& f) {
  f.describe(
       "what this device does at best, measured in the run: copies, a read-only stream, host copies, FP32 "
       "FMA throughput, launches and an empty sample; other families' cases are shown against these (% of limit)")
      .tolerance("copies byte for byte; the read's sum within 1e-4; FMA chains bit for bit on 64 threads");
  using cudabench::where;
  f.add({.variant = "copy_d2d",
         .on = where::gpu,
         .work = {.bytes_read = double(device_bytes), .bytes_written = double(device_bytes)},
         .size = double(device_bytes),
         .make = [] { return std::make_unique<copy_d2d>(device_bytes); }});
  f.add({.variant = "read",
         .on = where::gpu,
         .work = {.bytes_read = double(device_bytes)},
         .size = double(device_bytes),
         .make = [] { return std::make_unique<read_stream>(device_bytes / sizeof(float)); }});
  add_host_copies(f);
  f.add({.variant = "fma",
         .on = where::gpu,
         .work = {.bytes_read = 4.0 * fma_threads,
                  .bytes_written = 4.0 * fma_threads,
                  .flops = 2.0 * fma_threads * limits_config::fma_chains * limits_config::fma_iterations},
         .size = double(fma_threads),
         .make = [] { return std::make_unique<fma_peak>(fma_threads); }});
  // Not gated: on one H100 a launch took from 1.65 to 1.89 us depending on the process, with nothing
  // changed in between (docs/validation.md, "The defaults of `compare`, and why").
  f.add({.variant = "launch",
         .on = where::gpu,
         .work = {.items = double(launch_cost::launches)},
         .size = launch_cost::launches,
         .gated = false,
         .make = [] { return std::make_unique<launch_cost>(); }});
  // Not gated either: they measure the machine, and compare reads them as the additive control of short cases.
  for (const auto& [variant, cache] :
       {std::pair{"empty_cold", cache_state::cold}, std::pair{"empty_hot", cache_state::hot}})
    f.add({.variant = variant,
           .on = where::gpu,
           .cache = cache,
           .work = {.items = 1},
           .size = 1,
           .gated = false,
           .make = [] { return std::make_unique<sample_overhead>(); }});
}

}  // namespace cudabench

// image: the 4K inversion (sync, pageable and pinned streams, kernel only, CPU; ours: pinned pieces on a
// stream per engine, queued each time or replayed as a CUDA graph, and a zero-copy kernel on mapped pinned
// memory) and the RGB exercise (inversion then saturation: sync, pipelined over pinned streams, CPU).
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "bench/common.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "kernels/image.hpp"
#include "support/host_bytes.hpp"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;

constexpr std::size_t width = 3840, height = 2160;
constexpr std::size_t gray_bytes = width * height;
constexpr std::size_t rgb_pixels = width * height;
constexpr std::size_t rgb_bytes = 3 * rgb_pixels;
constexpr float saturation = 1.5f;

/// Host input/output of one image, in pageable (std::vector) or pinned memory. The first member of every image
/// fixture: it checks the fixture's whole need, host and device (`device_bytes`), before anything is allocated.
struct host_image {
  host_image(std::size_t n, bool pinned, double device_bytes, double more_host_bytes = 0) {
    cudabench::require_device_memory(device_bytes);
    cudabench::require_host_memory(2.0 * double(n) + more_host_bytes);
    in_ = cudabench::host_bytes(n, pinned);
    out_ = cudabench::host_bytes(n, pinned);
    kernels::fill_bytes(in(), n, kernels::fresh_seed());
    std::memset(out(), 0x5A, n);  // poison
  }
  std::uint8_t* in() { return in_.get(); }
  std::uint8_t* out() { return out_.get(); }
  cudabench::host_bytes in_, out_;
};

// --- 4K grayscale inversion -------------------------------------------------------------------

/// The exercise's base code: pageable memory, cudaMemcpy, kernel, cudaDeviceSynchronize, cudaMemcpy back.
class invert_sync final : public cudabench::fixture {
 public:
  invert_sync() : host_(gray_bytes, false, 2.0 * gray_bytes), d_in_(gray_bytes), d_out_(gray_bytes) {}
  void run(cudaStream_t) override {
    {
      phase_range p(phase::h2d);
      CB_CHECK(cudaMemcpy(d_in_.get(), host_.in(), gray_bytes, cudaMemcpyHostToDevice));
    }
    {
      phase_range p(phase::kernel);
      kernels::launch_invert(d_in_.get(), d_out_.get(), gray_bytes, nullptr);
      CB_CHECK(cudaDeviceSynchronize());
    }
    {
      phase_range p(phase::d2h);
      CB_CHECK(cudaMemcpy(host_.out(), d_out_.get(), gray_bytes, cudaMemcpyDeviceToHost));
    }
  }
  std::string verify() override { return check_inverted(host_.in(), host_.out()); }
  static std::string check_inverted(const std::uint8_t* in, const std::uint8_t* out) {
    std::vector<std::uint8_t> want(gray_bytes);
    kernels::invert_cpu(in, want.data(), gray_bytes);
    return kernels::compare_elements(out, want.data(), gray_bytes, 0);
  }

 private:
  host_image host_;
  cudabench::device_buffer<std::uint8_t> d_in_, d_out_;
};

/// The image split over N streams with cudaMemcpyAsync, from pageable or pinned host memory.
class invert_streams final : public cudabench::fixture {
 public:
  invert_streams(int n, bool pinned)
      : fan_(n), host_(gray_bytes, pinned, 2.0 * gray_bytes), d_in_(gray_bytes), d_out_(gray_bytes) {}
  void run(cudaStream_t s) override {
    fan_.fork(s);
    for (int i = 0; i < fan_.size(); ++i) {
      auto [b, e] = bench::chunk(gray_bytes, fan_.size(), i);
      {
        phase_range p(phase::h2d);
        CB_CHECK(cudaMemcpyAsync(d_in_.get() + b, host_.in() + b, e - b, cudaMemcpyHostToDevice, fan_[i]));
      }
      {
        phase_range p(phase::kernel);
        kernels::launch_invert(d_in_.get() + b, d_out_.get() + b, e - b, fan_[i]);
      }
      {
        phase_range p(phase::d2h);
        CB_CHECK(cudaMemcpyAsync(host_.out() + b, d_out_.get() + b, e - b, cudaMemcpyDeviceToHost, fan_[i]));
      }
    }
    fan_.join(s);
  }
  std::string verify() override { return invert_sync::check_inverted(host_.in(), host_.out()); }

 private:
  bench::stream_fan fan_;
  host_image host_;
  cudabench::device_buffer<std::uint8_t> d_in_, d_out_;
};

/// Ours: the image in `chunks` pieces on a stream per engine: every host-to-device piece back to back on the
/// first, each piece's kernel on the second once its copy is in, each piece's copy back on the third once
/// its kernel is done. Neither copy engine waits on the other direction's stream order (with a stream per
/// piece, as pinned_streams does, a stream's next copy in waits for its last copy out; with the kernels on
/// the copy-back stream, 4-12 pieces measured 15-46% slower on the H100).
/// With `as_graph`, the same work is captured once into a CUDA graph and each run launches the graph.
class invert_chunks final : public cudabench::fixture {
 public:
  invert_chunks(int chunks, bool as_graph)
      : chunks_(chunks), fan_(3), host_(gray_bytes, true, 2.0 * gray_bytes), d_in_(gray_bytes), d_out_(gray_bytes) {
    for (int i = 0; i < chunks; ++i) {
      copied_in_.emplace_back(cudaEventDisableTiming);
      inverted_.emplace_back(cudaEventDisableTiming);
    }
    if (as_graph) graph_ = cudabench::graph::capture(origin_, [this] { enqueue(origin_); });
  }
  void run(cudaStream_t s) override {
    if (graph_) {
      phase_range p(phase::kernel);  // the copies and kernels of every piece, one graph launch
      graph_->launch(s);
    } else {
      enqueue(s);
    }
  }
  std::string verify() override { return invert_sync::check_inverted(host_.in(), host_.out()); }

 private:
  void enqueue(cudaStream_t s) {
    fan_.fork(s);
    cudaStream_t in = fan_[0], work = fan_[1], back = fan_[2];
    for (int i = 0; i < chunks_; ++i) {
      auto [b, e] = bench::chunk(gray_bytes, chunks_, i);
      {
        phase_range p(phase::h2d);
        CB_CHECK(cudaMemcpyAsync(d_in_.get() + b, host_.in() + b, e - b, cudaMemcpyHostToDevice, in));
      }
      cudabench::stream_wait(work, in, copied_in_[i]);
      {
        phase_range p(phase::kernel);
        kernels::launch_invert(d_in_.get() + b, d_out_.get() + b, e - b, work);
      }
      cudabench::stream_wait(back, work, inverted_[i]);
      {
        phase_range p(phase::d2h);
        CB_CHECK(cudaMemcpyAsync(host_.out() + b, d_out_.get() + b, e - b, cudaMemcpyDeviceToHost, back));
      }
    }
    fan_.join(s);
  }
  int chunks_;
  bench::stream_fan fan_;
  cudabench::stream origin_;  ///< the stream a graph is captured from
  std::optional<cudabench::graph> graph_;
  std::vector<cudabench::event> copied_in_, inverted_;
  host_image host_;
  cudabench::device_buffer<std::uint8_t> d_in_, d_out_;
};

/// Ours: no copies; the kernel reads and writes the pinned host image directly over the bus (mapped, zero
/// copy), on a grid small enough that reads and writes are in flight together, so both directions stream at
/// once from the first byte to the last (no piece waits to be copied in before its copy back can start).
class invert_mapped final : public cudabench::fixture {
 public:
  invert_mapped() : host_(gray_bytes, true, 0) {
    CB_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_in_), host_.in(), 0));
    CB_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&d_out_), host_.out(), 0));
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    kernels::launch_invert_mapped(d_in_, d_out_, gray_bytes, s);
  }
  std::string verify() override { return invert_sync::check_inverted(host_.in(), host_.out()); }

 private:
  host_image host_;
  std::uint8_t* d_in_ = nullptr;  ///< the device's addresses of host_'s pinned buffers
  std::uint8_t* d_out_ = nullptr;
};

/// The kernel alone on device-resident data (cold L2).
class invert_kernel_only final : public cudabench::fixture {
 public:
  invert_kernel_only() : host_(gray_bytes, false, 2.0 * gray_bytes), d_in_(gray_bytes), d_out_(gray_bytes) {
    CB_CHECK(cudaMemcpy(d_in_.get(), host_.in(), gray_bytes, cudaMemcpyHostToDevice));
    CB_CHECK(cudaMemset(d_out_.get(), 0x5A, gray_bytes));
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    kernels::launch_invert(d_in_.get(), d_out_.get(), gray_bytes, s);
  }
  std::string verify() override {
    CB_CHECK(cudaMemcpy(host_.out(), d_out_.get(), gray_bytes, cudaMemcpyDeviceToHost));
    return invert_sync::check_inverted(host_.in(), host_.out());
  }

 private:
  host_image host_;
  cudabench::device_buffer<std::uint8_t> d_in_, d_out_;
};

/// The CPU baseline.
class invert_cpu_case final : public cudabench::fixture {
 public:
  invert_cpu_case() : host_(gray_bytes, false, 0) {}
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    kernels::invert_cpu(host_.in(), host_.out(), gray_bytes);
  }
  std::string verify() override {
    for (std::size_t i = 0; i < gray_bytes; ++i)
      if (host_.out()[i] + host_.in()[i] != 255) return "pixel " + std::to_string(i) + " is not 255 - input";
    return {};
  }

 private:
  host_image host_;
};

// --- RGB exercise: inversion, then saturation -------------------------------------------------

std::string check_rgb(const std::uint8_t* in, const std::uint8_t* out) {
  std::vector<std::uint8_t> inverted(rgb_bytes), want(rgb_bytes);
  kernels::invert_cpu(in, inverted.data(), rgb_bytes);
  kernels::saturate_rgb_cpu(inverted.data(), want.data(), rgb_pixels, saturation);
  return kernels::compare_elements(out, want.data(), rgb_bytes, 1);
}

/// Pageable, synchronous, both kernels on the legacy stream (the exercise's base code).
class rgb_sync final : public cudabench::fixture {
 public:
  rgb_sync() : host_(rgb_bytes, false, 3.0 * rgb_bytes), d_in_(rgb_bytes), d_mid_(rgb_bytes), d_out_(rgb_bytes) {}
  void run(cudaStream_t) override {
    {
      phase_range p(phase::h2d);
      CB_CHECK(cudaMemcpy(d_in_.get(), host_.in(), rgb_bytes, cudaMemcpyHostToDevice));
    }
    {
      phase_range p(phase::kernel);
      kernels::launch_invert(d_in_.get(), d_mid_.get(), rgb_bytes, nullptr);
      kernels::launch_saturate_rgb(d_mid_.get(), d_out_.get(), rgb_pixels, saturation, nullptr);
      CB_CHECK(cudaDeviceSynchronize());
    }
    {
      phase_range p(phase::d2h);
      CB_CHECK(cudaMemcpy(host_.out(), d_out_.get(), rgb_bytes, cudaMemcpyDeviceToHost));
    }
  }
  std::string verify() override { return check_rgb(host_.in(), host_.out()); }

 private:
  host_image host_;
  cudabench::device_buffer<std::uint8_t> d_in_, d_mid_, d_out_;
};

/// Pinned memory, rows split over N streams so copies and both kernels of different chunks overlap.
class rgb_pipelined final : public cudabench::fixture {
 public:
  explicit rgb_pipelined(int n)
      : fan_(n), host_(rgb_bytes, true, 3.0 * rgb_bytes), d_in_(rgb_bytes), d_mid_(rgb_bytes), d_out_(rgb_bytes) {}
  void run(cudaStream_t s) override {
    fan_.fork(s);
    for (int i = 0; i < fan_.size(); ++i) {
      auto [pb, pe] = bench::chunk(rgb_pixels, fan_.size(), i);
      const std::size_t b = 3 * pb, len = 3 * (pe - pb);
      {
        phase_range p(phase::h2d);
        CB_CHECK(cudaMemcpyAsync(d_in_.get() + b, host_.in() + b, len, cudaMemcpyHostToDevice, fan_[i]));
      }
      {
        phase_range p(phase::kernel);
        kernels::launch_invert(d_in_.get() + b, d_mid_.get() + b, len, fan_[i]);
        kernels::launch_saturate_rgb(d_mid_.get() + b, d_out_.get() + b, pe - pb, saturation, fan_[i]);
      }
      {
        phase_range p(phase::d2h);
        CB_CHECK(cudaMemcpyAsync(host_.out() + b, d_out_.get() + b, len, cudaMemcpyDeviceToHost, fan_[i]));
      }
    }
    fan_.join(s);
  }
  std::string verify() override { return check_rgb(host_.in(), host_.out()); }

 private:
  bench::stream_fan fan_;
  host_image host_;
  cudabench::device_buffer<std::uint8_t> d_in_, d_mid_, d_out_;
};

class rgb_cpu final : public cudabench::fixture {
 public:
  rgb_cpu() : host_(rgb_bytes, false, 0, rgb_bytes), mid_(rgb_bytes) {}
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    kernels::invert_cpu(host_.in(), mid_.data(), rgb_bytes);
    kernels::saturate_rgb_cpu(mid_.data(), host_.out(), rgb_pixels, saturation);
  }
  std::string verify() override { return check_rgb(host_.in(), host_.out()); }

 private:
  host_image host_;
  std::vector<std::uint8_t> mid_;
};

/// The 8-bit inversion's cases. One image, so no size axis: the size is the image's bytes (distinct sizes:
/// separate speedup tables).
void add_gray_cases(cudabench::family_builder& f) {
  using cudabench::cache_state;
  using cudabench::where;
  const cudabench::work_counts gray{
      .bytes_read = double(gray_bytes), .bytes_written = double(gray_bytes), .items = double(gray_bytes)};
  const double size = double(gray_bytes);
  const auto streams = cudabench::int_axis("streams", cudabench::every_preset({1, 2, 4, 8, 16}), bench::max_split);
  const auto chunks = cudabench::int_axis(
      "chunks", {{"quick", {6}}, {"nightly", {4, 6, 8}}, {"full", {4, 6, 8, 12, 16}}}, bench::max_split);
  f.add({.variant = "sync", .on = where::gpu, .work = gray, .size = size, .host_bound = true, .make = [] {
           return std::make_unique<invert_sync>();
         }});
  for (const cudabench::point& at : f.points(streams)) {
    const int n = at.get<int>("streams");
    f.add(at, {.variant = "async_pageable_streams",
               .on = where::gpu,
               .work = gray,
               .size = size,
               .host_bound = true,
               .make = [n] { return std::make_unique<invert_streams>(n, false); }});
    f.add(at, {.variant = "pinned_streams",
               .on = where::gpu,
               .work = gray,
               .size = size,
               .limit = "limits/bidir_pinned",
               .make = [n] { return std::make_unique<invert_streams>(n, true); }});
  }
  for (const cudabench::point& at : f.points(chunks))
    for (auto [name, as_graph] : {std::pair{"fast_chunks", false}, std::pair{"fast_graph", true}})
      f.add(at,
            {.variant = name,
             .on = where::gpu,
             .work = gray,
             .size = size,
             .limit = "limits/bidir_pinned",
             .make = [n = at.get<int>("chunks"), as_graph] { return std::make_unique<invert_chunks>(n, as_graph); }});
  f.add({.variant = "fast_mapped",
         .on = where::gpu,
         .work = gray,
         .size = size,
         .limit = "limits/bidir_pinned",
         .make = [] { return std::make_unique<invert_mapped>(); }});
  f.add({.variant = "kernel_only",
         .on = where::gpu,
         .cache = cache_state::cold,
         .work = gray,
         .size = size,
         .limit = "limits/copy_d2d",
         .make = [] { return std::make_unique<invert_kernel_only>(); }});
  f.add({.variant = "cpu", .on = where::cpu, .work = gray, .size = size, .make = [] {
           return std::make_unique<invert_cpu_case>();
         }});
}

/// The RGB exercise's cases: inversion then saturation, two kernels that each read and write the whole image.
void add_rgb_cases(cudabench::family_builder& f) {
  using cudabench::where;
  const cudabench::work_counts rgb{
      .bytes_read = 2.0 * rgb_bytes, .bytes_written = 2.0 * rgb_bytes, .items = double(rgb_pixels)};
  const double rgb_size = double(rgb_bytes);
  const auto rgb_streams = cudabench::int_axis(
      "streams", {{"quick", {4}}, {"nightly", {1, 2, 4, 8, 16}}, {"full", {1, 2, 4, 8, 16}}}, bench::max_split);
  f.add({.variant = "rgb_sync", .on = where::gpu, .work = rgb, .size = rgb_size, .host_bound = true, .make = [] {
           return std::make_unique<rgb_sync>();
         }});
  for (const cudabench::point& at : f.points(rgb_streams))
    // No limit: its bytes are the two kernels' (each reads and writes the image), twice what crosses the bus.
    f.add(at, {.variant = "rgb_pipelined_streams",
               .on = where::gpu,
               .work = rgb,
               .size = rgb_size,
               .make = [n = at.get<int>("streams")] { return std::make_unique<rgb_pipelined>(n); }});
  f.add({.variant = "rgb_cpu", .on = where::cpu, .work = rgb, .size = rgb_size, .make = [] {
           return std::make_unique<rgb_cpu>();
         }});
}

void register_image(cudabench::family_builder& f) {
  f.describe("4K (3840x2160) image: 8-bit inversion 255-p, and the RGB exercise (inversion then saturation x1.5)")
      .tolerance("inversion exact; saturation within 1 level")
      .reference("cpu", "cpu")
      .reference("cpu", "rgb_cpu")
      .reference("sync", "sync")
      .reference("sync", "rgb_sync");
  add_gray_cases(f);
  add_rgb_cases(f);
}

}  // namespace

CB_REGISTER_FAMILY(image, register_image);

// The project's benchmark: its saxpy kernel and a CPU loop, checked against a reference, on cudabench.
#include <cudabench/cudabench.hpp>

#include <cmath>
#include <random>

#include "saxpy.cuh"

namespace {
constexpr float a = 2.5f;

/// Fresh random x and y0, and the check of a result y against a x + y0.
struct saxpy_data {
  std::vector<float> x, y0;
  explicit saxpy_data(std::size_t n) : x(n), y0(n) {
    std::mt19937 g(std::random_device{}());
    std::uniform_real_distribution<float> d(-1, 1);
    for (std::size_t i = 0; i < n; ++i) x[i] = d(g), y0[i] = d(g);
  }
  std::string check(const float* y) const {
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!(std::fabs(y[i] - (a * x[i] + y0[i])) <= 1e-6f * (1 + std::fabs(y0[i])))) return "y[" + std::to_string(i) + "] is wrong";
    return {};
  }
};

class saxpy_gpu final : public cudabench::fixture, saxpy_data {
 public:
  explicit saxpy_gpu(std::size_t n) : saxpy_data(n), d_x_(n), d_y0_(n), d_y_(n) {
    CB_CHECK(cudaMemcpy(d_x_.get(), x.data(), d_x_.bytes(), cudaMemcpyHostToDevice));
    CB_CHECK(cudaMemcpy(d_y0_.get(), y0.data(), d_y0_.bytes(), cudaMemcpyHostToDevice));
  }
  void prepare(cudaStream_t s) override { CB_CHECK(cudaMemcpyAsync(d_y_.get(), d_y0_.get(), d_y_.bytes(), cudaMemcpyDeviceToDevice, s)); }
  void run(cudaStream_t s) override { saxpy(a, d_x_.get(), d_y_.get(), x.size(), s); }
  std::string verify() override {
    std::vector<float> y(x.size());
    CB_CHECK(cudaMemcpy(y.data(), d_y_.get(), d_y_.bytes(), cudaMemcpyDeviceToHost));
    return check(y.data());
  }
 private:
  cudabench::device_buffer<float> d_x_, d_y0_, d_y_;
};

class saxpy_cpu final : public cudabench::fixture, saxpy_data {
 public:
  explicit saxpy_cpu(std::size_t n) : saxpy_data(n), y_(n) {}
  void prepare(cudaStream_t) override { y_ = y0; }
  void run(cudaStream_t) override { for (std::size_t i = 0; i < x.size(); ++i) y_[i] = a * x[i] + y_[i]; }
  std::string verify() override { return check(y_.data()); }
 private:
  std::vector<float> y_;
};

void register_saxpy(cudabench::family_builder& f) {
  f.describe("y = a x + y, fp32").tolerance("within 1e-6 x (1 + |y0|)");
  const auto n_axis = cudabench::size_axis("n", {{"quick", {1 << 20}}, {"nightly", {1 << 20, 1 << 24}}, {"full", {1 << 20, 1 << 24, 1 << 26}}});
  for (const cudabench::point& at : f.points(n_axis)) {  // saxpy/gpu/1048576, saxpy/cpu/1048576, ...
    const auto n = at.get<std::size_t>("n");
    const cudabench::work_counts w{.bytes_read = 8.0 * n, .bytes_written = 4.0 * n, .items = double(n), .flops = 2.0 * n};
    // Reads and writes DRAM once: held to the device-to-device copy bandwidth (% of limit in the reports).
    f.add(at, {.variant = "gpu", .work = w, .limit = "limits/copy_d2d", .make = [n] { return std::make_unique<saxpy_gpu>(n); }});
    f.add(at, {.variant = "cpu", .on = cudabench::where::cpu, .work = w, .make = [n] { return std::make_unique<saxpy_cpu>(n); }});
  }
}
}  // namespace

CB_REGISTER_FAMILY(saxpy, register_saxpy);

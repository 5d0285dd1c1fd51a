// Test-only cases that misbehave on purpose, linked among the suite's families in the fault_suite test
// binary (never in the suite): a kernel that writes to an illegal address (the CUDA context is lost), a kernel
// that never ends, a CPU case whose process crashes and one that never returns. tests/faults/faults_test.py
// checks that each fails alone while every other case is still run and written.
#include <csignal>
#include <chrono>
#include <thread>

#include "cudabench/cuda_check.hpp"
#include "cudabench/cuda_handles.hpp"
#include "cudabench/registry.hpp"

namespace {

__global__ void write_out_of_bounds(int* p) {
  // Far past the end of a 4-byte allocation, in no mapping: an illegal address, which poisons the context.
  p[(1ull << 36) + threadIdx.x] = 1;
}

__global__ void spin_forever(const volatile int* flag) {
  while (*flag == 0) __nanosleep(1000);  // the flag stays 0: the kernel never ends
}

class illegal_address final : public cudabench::fixture {
 public:
  void run(cudaStream_t s) override {
    write_out_of_bounds<<<1, 32, 0, s>>>(target_.get());
    CB_CHECK_LAUNCH("write_out_of_bounds");
  }
  std::string verify() override { return {}; }
 private:
  cudabench::device_buffer<int> target_{1};
};

class kernel_hang final : public cudabench::fixture {
 public:
  kernel_hang() { CB_CHECK(cudaMemset(flag_.get(), 0, sizeof(int))); }
  void run(cudaStream_t s) override {
    spin_forever<<<1, 1, 0, s>>>(flag_.get());
    CB_CHECK_LAUNCH("spin_forever");
  }
  std::string verify() override { return {}; }
 private:
  cudabench::device_buffer<int> flag_{1};
};

class process_crash final : public cudabench::fixture {
 public:
  void run(cudaStream_t) override { std::raise(SIGSEGV); }
  std::string verify() override { return {}; }
};

class host_hang final : public cudabench::fixture {
 public:
  void run(cudaStream_t) override {
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
  }
  std::string verify() override { return {}; }
};

template <typename F>
cudabench::case_def fault_case(std::string variant, cudabench::where on) {
  cudabench::case_def c;
  c.variant = std::move(variant);
  c.on = on;
  c.host_bound = on == cudabench::where::cpu;
  c.work.bytes_read = 4;
  c.size = 1;
  c.make = [] { return std::make_unique<F>(); };
  return c;
}

void register_faults(cudabench::family_builder& f) {
  f.describe("test only: cases that fault or hang on purpose");
  f.add(fault_case<illegal_address>("illegal_address", cudabench::where::gpu));
  f.add(fault_case<kernel_hang>("kernel_hang", cudabench::where::gpu));
  f.add(fault_case<process_crash>("cpu_crash", cudabench::where::cpu));
  f.add(fault_case<host_hang>("cpu_hang", cudabench::where::cpu));
}

}  // namespace

// Among the suite's families (after conv2d), so cases run after each fault: the test checks they still do.
CB_REGISTER_FAMILY(fault, register_faults);

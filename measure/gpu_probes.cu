// Kernels the harness itself launches: the clock probe, the stream blocker and the calibrated spin.
#include "measure/gpu_probes.hpp"

#include <atomic>

namespace cudabench {
namespace {
__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void clock_probe_kernel(unsigned long long* out) {
  constexpr unsigned long long window_ns = 5000;
  const unsigned long long t0 = global_ns();
  const long long c0 = clock64();
  unsigned long long t1 = t0;
  long long c1 = c0;
  while (t1 - t0 < window_ns) {
    t1 = global_ns();
    c1 = clock64();
  }
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

__global__ void spin_kernel(unsigned long long ns) {
  const unsigned long long t0 = global_ns();
  while (global_ns() - t0 < ns) {}
}
__global__ void stream_blocker_kernel(volatile int* flags, unsigned long long timeout_ns) {
  const unsigned long long t0 = global_ns();
  while (flags[0] == 0) {
    if (global_ns() - t0 > timeout_ns) {
      flags[1] = 1;
      return;
    }
  }
}
}  // namespace

stream_blocker::stream_blocker(double timeout_ns) : flags_(2), timeout_ns_(timeout_ns) { flags_[0] = flags_[1] = 0; }

// The flags are shared with a running kernel: volatile accesses, so neither side caches them.
void stream_blocker::hold(cudaStream_t s) {
  volatile int* f = flags_.get();
  f[1] = 0;
  f[0] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  stream_blocker_kernel<<<1, 1, 0, s>>>(flags_.get(), static_cast<unsigned long long>(timeout_ns_));
  CB_CHECK_LAUNCH("stream_blocker_kernel");
}

void stream_blocker::release() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  static_cast<volatile int*>(flags_.get())[0] = 1;
}

bool stream_blocker::timed_out() const { return static_cast<const volatile int*>(flags_.get())[1] != 0; }

clock_probe::clock_probe() : d_(2), h_(2) { h_[0] = h_[1] = 0; }

void clock_probe::enqueue(cudaStream_t s) {
  clock_probe_kernel<<<1, 1, 0, s>>>(d_.get());
  CB_CHECK_LAUNCH("clock_probe_kernel");
  CB_CHECK(cudaMemcpyAsync(h_.get(), d_.get(), d_.bytes(), cudaMemcpyDeviceToHost, s));
}

double clock_probe::mhz() const { return h_[1] ? 1e3 * double(h_[0]) / double(h_[1]) : 0.0; }

void spin_for(cudaStream_t s, double ns) {
  if (ns <= 0) return;
  spin_kernel<<<1, 1, 0, s>>>(static_cast<unsigned long long>(ns));
  CB_CHECK_LAUNCH("spin_kernel");
}

}  // namespace cudabench

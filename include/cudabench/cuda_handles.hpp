// RAII owners for device, pinned and managed buffers, streams and events. Move-only: each owns a handle.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "cudabench/cuda_check.hpp"

namespace cudabench {

namespace detail {
/// Where an owned_buffer's elements live.
enum class memory { device, pinned, managed };

inline void* allocate(memory m, std::size_t bytes) {
  void* p = nullptr;
  if (m == memory::device)
    CB_CHECK(cudaMalloc(&p, bytes));
  else if (m == memory::pinned)
    CB_CHECK(cudaMallocHost(&p, bytes));
  else
    CB_CHECK(cudaMallocManaged(&p, bytes));
  return p;
}
inline void release(memory m, void* p) noexcept {
  if (m == memory::pinned)
    CB_CHECK_NOTHROW(cudaFreeHost(p));
  else
    CB_CHECK_NOTHROW(cudaFree(p));
}

/// n elements of memory of kind M, released on destruction; no copies (two owners would free twice).
template <typename T, memory M>
class owned_buffer {
 public:
  owned_buffer() = default;
  explicit owned_buffer(std::size_t n) : ptr_(static_cast<T*>(allocate(M, n * sizeof(T)))), n_(n) {}
  owned_buffer(const owned_buffer&) = delete;
  owned_buffer& operator=(const owned_buffer&) = delete;
  owned_buffer(owned_buffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  owned_buffer& operator=(owned_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  ~owned_buffer() { reset(); }

  T* get() const noexcept { return ptr_; }
  T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return n_; }
  std::size_t bytes() const noexcept { return n_ * sizeof(T); }
  T& operator[](std::size_t i) const noexcept { return ptr_[i]; }
  T* begin() const noexcept { return ptr_; }
  T* end() const noexcept { return ptr_ + n_; }

 private:
  void reset() noexcept {
    if (ptr_) release(M, ptr_);
    ptr_ = nullptr;
    n_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t n_ = 0;
};
}  // namespace detail

/// n elements of device memory (cudaMalloc).
template <typename T>
using device_buffer = detail::owned_buffer<T, detail::memory::device>;
/// n elements of page-locked host memory (cudaMallocHost).
template <typename T>
using pinned_buffer = detail::owned_buffer<T, detail::memory::pinned>;
/// n elements of unified memory (cudaMallocManaged). Callers check free device memory first.
template <typename T>
using managed_buffer = detail::owned_buffer<T, detail::memory::managed>;

namespace detail {
/// A CUDA handle (a stream, an event) destroyed by `Destroy`; move-only (two owners would destroy it twice).
template <typename Handle, cudaError_t (*Destroy)(Handle)>
class owned_handle {
 public:
  owned_handle() = default;
  owned_handle(const owned_handle&) = delete;
  owned_handle& operator=(const owned_handle&) = delete;
  owned_handle(owned_handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  owned_handle& operator=(owned_handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  ~owned_handle() { reset(); }
  Handle get() const noexcept { return h_; }
  operator Handle() const noexcept { return h_; }

 protected:
  Handle h_ = nullptr;

 private:
  void reset() noexcept {
    if (h_) CB_CHECK_NOTHROW(Destroy(h_));
    h_ = nullptr;
  }
};
}  // namespace detail

/// A CUDA stream; non-blocking unless asked otherwise.
class stream : public detail::owned_handle<cudaStream_t, cudaStreamDestroy> {
 public:
  explicit stream(unsigned flags = cudaStreamNonBlocking) { CB_CHECK(cudaStreamCreateWithFlags(&h_, flags)); }
  void synchronize() const { CB_CHECK(cudaStreamSynchronize(h_)); }
};

/// A CUDA event; timing-capable by default.
class event : public detail::owned_handle<cudaEvent_t, cudaEventDestroy> {
 public:
  explicit event(unsigned flags = cudaEventDefault) { CB_CHECK(cudaEventCreateWithFlags(&h_, flags)); }
  void record(cudaStream_t s) { CB_CHECK(cudaEventRecord(h_, s)); }
  void synchronize() const { CB_CHECK(cudaEventSynchronize(h_)); }
  /// Milliseconds from `start` to this event; both must have completed.
  float elapsed_ms_since(const event& start) const {
    float ms = 0;
    CB_CHECK(cudaEventElapsedTime(&ms, start.h_, h_));
    return ms;
  }
};

/// Makes `waiter` wait for all work queued so far on `signaller`, through `e`.
inline void stream_wait(cudaStream_t waiter, cudaStream_t signaller, event& e) {
  e.record(signaller);
  CB_CHECK(cudaStreamWaitEvent(waiter, e.get(), 0));
}

/// N worker streams that fork from and join back into the stream a case is timed on (work on several streams
/// at once inside one timed sample). Owns its streams and events, so it moves but does not copy.
class stream_fan {
 public:
  explicit stream_fan(int n) {
    for (int i = 0; i < n; ++i) {
      streams_.emplace_back();
      done_.emplace_back(cudaEventDisableTiming);
    }
  }
  int size() const { return int(streams_.size()); }
  cudaStream_t operator[](int i) const { return streams_[std::size_t(i)].get(); }
  /// Every worker waits for what `main` has queued so far.
  void fork(cudaStream_t main) {
    forked_.record(main);
    for (auto& s : streams_) CB_CHECK(cudaStreamWaitEvent(s.get(), forked_.get(), 0));
  }
  /// `main` waits for everything the workers queued.
  void join(cudaStream_t main) {
    for (std::size_t i = 0; i < streams_.size(); ++i) stream_wait(main, streams_[i].get(), done_[i]);
  }

 private:
  std::vector<stream> streams_;
  std::vector<event> done_;
  event forked_{cudaEventDisableTiming};
};

/// An instantiated CUDA graph, captured from what a function queues on a stream (and on streams that join
/// it through events and are joined back): the work's launches and dependencies are built once and then
/// replayed with one launch. Move-only.
class graph : public detail::owned_handle<cudaGraphExec_t, cudaGraphExecDestroy> {
 public:
  graph() = default;
  template <typename Enqueue>
  static graph capture(cudaStream_t s, Enqueue&& enqueue) {
    CB_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue();
    } catch (...) {
      cudaGraph_t partial = nullptr;
      if (cudaStreamEndCapture(s, &partial) == cudaSuccess && partial) CB_CHECK_NOTHROW(cudaGraphDestroy(partial));
      throw;
    }
    cudaGraph_t g = nullptr;
    CB_CHECK(cudaStreamEndCapture(s, &g));
    graph out;
    const cudaError_t made = cudaGraphInstantiate(&out.h_, g, 0);
    CB_CHECK_NOTHROW(cudaGraphDestroy(g));  // the instantiated graph does not need it
    CB_CHECK(made);
    return out;
  }
  void launch(cudaStream_t s) const { CB_CHECK(cudaGraphLaunch(h_, s)); }
};

}  // namespace cudabench

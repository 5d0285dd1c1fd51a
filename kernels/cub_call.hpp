// A CUB device-wide algorithm with its temporary storage, the vendor call of the histogram and reduce families.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <utility>

#include "cudabench/cuda_check.hpp"
#include "cudabench/cuda_handles.hpp"

namespace kernels {

/// `call(temp, bytes, stream)` is the CUB function with its data bound. The constructor asks it for its
/// temporary storage (temp null) and allocates that once, outside any timed region; run() calls it on `s`.
class cub_call {
 public:
  using function = std::function<cudaError_t(void* temp, std::size_t& bytes, cudaStream_t s)>;
  explicit cub_call(function call) : call_(std::move(call)) {
    CB_CHECK(call_(nullptr, bytes_, nullptr));
    temp_ = cudabench::device_buffer<std::byte>(bytes_);
  }
  void run(cudaStream_t s) { CB_CHECK(call_(temp_.get(), bytes_, s)); }

 private:
  function call_;
  std::size_t bytes_ = 0;
  cudabench::device_buffer<std::byte> temp_;
};

}  // namespace kernels

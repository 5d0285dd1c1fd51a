// L2 flushing for cold measurements.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cudabench/cuda_handles.hpp"

namespace cudabench {

/// Evicts the L2 by writing a buffer twice its size (nvbench's l2flush does the same).
/// Owns a device allocation, so it is move-only.
class l2_flusher {
 public:
  explicit l2_flusher(std::size_t l2_bytes) : buffer_(l2_bytes * 2) {}
  void flush(cudaStream_t s) { CB_CHECK(cudaMemsetAsync(buffer_.get(), ++value_ & 0xFF, buffer_.bytes(), s)); }
 private:
  device_buffer<unsigned char> buffer_;
  int value_ = 0;
};

}  // namespace cudabench

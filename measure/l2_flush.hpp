// L2 flushing for cold measurements.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cudabench/cuda_handles.hpp"

namespace cudabench {

/// Evicts the L2 by reading a buffer twice its size. Reading, not writing (nvbench's l2flush writes): a
/// written buffer leaves the L2 full of dirty lines whose write-back then lands inside the next timed
/// kernel. On the H100, reduce/fast and histogram/fast at 2^28 (DRAM at 91-92% of its peak) measured 7% and
/// 9% over Nsight Compute's kernel time after a writing flush, and within 1% after this one.
/// Reading evicts the case's data (written back here, outside the timed region) and
/// leaves only clean lines behind. Owns device allocations, so it is move-only.
class l2_flusher {
 public:
  explicit l2_flusher(std::size_t l2_bytes);
  void flush(cudaStream_t s);

 private:
  device_buffer<unsigned char> buffer_;
  device_buffer<unsigned int> sink_;  ///< written only if the bytes read sum to an impossible value
  unsigned blocks_ = 1;               ///< 4 blocks an SM, grid-stride
};

}  // namespace cudabench

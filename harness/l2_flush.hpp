// L2 flushing for cold measurements.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cudabench/cuda_handles.hpp"

namespace cudabench {

/// Evicts the L2 by reading a buffer twice its size. Reading, not writing (nvbench's l2flush writes): a
/// written buffer leaves the L2 full of dirty lines whose write-back then lands inside the next timed
/// kernel, and a kernel that streams DRAM near its limit measured 4-9% slower than Nsight Compute's
/// flushed time on the H100. Reading evicts the case's data (written back here, outside the timed region)
/// and leaves only clean lines behind. Owns device allocations, so it is move-only.
class l2_flusher {
 public:
  explicit l2_flusher(std::size_t l2_bytes);
  void flush(cudaStream_t s);
 private:
  device_buffer<unsigned char> buffer_;
  device_buffer<unsigned int> sink_;  ///< written only if the bytes read sum to an impossible value
  unsigned blocks_ = 1;              ///< 4 blocks an SM, grid-stride
};

}  // namespace cudabench

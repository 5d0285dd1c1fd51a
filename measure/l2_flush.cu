// The L2 flusher's read kernel.
#include "measure/l2_flush.hpp"

#include <algorithm>

#include "cudabench/cuda_check.hpp"

namespace cudabench {
namespace {
constexpr int flush_block = 512;

/// Reads n16 16-byte words; the sink is written only when their sum is the impossible ~0u (the buffer is
/// zero), which keeps the loads from being optimised away.
__global__ void __launch_bounds__(flush_block)
    read_all(const uint4* __restrict__ p, std::size_t n16, unsigned int* sink) {
  unsigned int acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n16;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = __ldcg(p + i);
    acc += v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == ~0u) *sink = acc;
}
}  // namespace

l2_flusher::l2_flusher(std::size_t l2_bytes)
    : buffer_((std::max<std::size_t>(l2_bytes, 1) * 2 + 15) / 16 * 16), sink_(1) {
  CB_CHECK(cudaMemset(buffer_.get(), 0, buffer_.bytes()));
  CB_CHECK(cudaMemset(sink_.get(), 0, sink_.bytes()));
  int device = 0, sms = 0;
  CB_CHECK(cudaGetDevice(&device));
  CB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  blocks_ = unsigned(
      std::min<std::size_t>((buffer_.bytes() / 16 + flush_block - 1) / flush_block, std::size_t(std::max(sms, 1)) * 4));
}

void l2_flusher::flush(cudaStream_t s) {
  read_all<<<blocks_, flush_block, 0, s>>>(reinterpret_cast<const uint4*>(buffer_.get()), buffer_.bytes() / 16,
                                           sink_.get());
  CB_CHECK_LAUNCH("l2 flush read_all");
}

}  // namespace cudabench

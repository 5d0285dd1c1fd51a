// Host memory of a case's transfers, pinned or pageable as the case asks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cudabench/cuda_handles.hpp"

namespace cudabench {

/// n bytes of host memory: pinned (cudaMallocHost, the DMA engines read it directly) or pageable (a
/// std::vector, which the driver stages through its own pinned buffers). Callers check free host memory first.
class host_bytes {
 public:
  host_bytes() = default;
  host_bytes(std::size_t n, bool pinned) {
    if (pinned)
      pinned_ = pinned_buffer<std::uint8_t>(n);
    else
      pageable_.resize(n);
  }
  std::uint8_t* get() { return pageable_.empty() ? pinned_.get() : pageable_.data(); }

 private:
  pinned_buffer<std::uint8_t> pinned_;
  std::vector<std::uint8_t> pageable_;
};

}  // namespace cudabench

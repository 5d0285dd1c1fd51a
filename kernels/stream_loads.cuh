// The streaming grid-stride read shared by the kernels that visit every value of a large input once
// (reduce.cu, histogram.cu).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kernels::detail {

/// Visits the n values at `in` over the whole grid, each once: where `in` is 16-byte aligned, as 16-byte
/// vectors V (float4, int4) with streaming loads, two in flight a thread (`visit(a, b)`, then `visit(a)` for
/// an odd one left), and the values after the last whole vector (or all of them, unaligned) one at a time
/// (`visit(x)`). The visitor is a functor with those three overloads.
template <typename V, typename T, typename Visitor>
__device__ __forceinline__ void stream_grid(const T* __restrict__ in, std::size_t n, Visitor& visit) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t n4 = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 ? n / 4 : 0;
  const V* in4 = reinterpret_cast<const V*>(in);
  std::size_t i = first;
  for (; i + stride < n4; i += 2 * stride) visit(__ldcs(in4 + i), __ldcs(in4 + i + stride));
  if (i < n4) visit(__ldcs(in4 + i));
  for (std::size_t t = 4 * n4 + first; t < n; t += stride) visit(in[t]);
}

}  // namespace kernels::detail

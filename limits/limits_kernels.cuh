// Launchers of the limits family: what the device can do at best, measured on the device a run uses.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace kernels {

struct limits_config {
  static constexpr int block = 256;
  static constexpr int read_blocks_per_sm = 8;  ///< enough loads in flight to saturate DRAM
  static constexpr int fma_chains = 8;          ///< independent FMA chains per thread (hides FMA latency)
  static constexpr int fma_iterations = 4096;   ///< FMAs per chain
};

/// Blocks read_stream uses on the current device (read_blocks_per_sm an SM): the partial sums it writes.
int read_stream_blocks();
/// Streams n4 float4 from `in` and writes one partial sum per block to `partials` (read_stream_blocks() of them).
void read_stream(const float4* in, std::size_t n4, float* partials, cudaStream_t s);

/// fma_chains x fma_iterations dependent FMAs per thread over `threads` threads; each thread writes the sum
/// of its chains to out[thread]. Chain c starts at seed[thread] + c and computes x = x * a + b.
void fma_throughput(const float* seed, float* out, int threads, float a, float b, cudaStream_t s);

/// The seeded inputs of support/host_data.hpp's fill_bytes and fill_uniform, written on the device (so a set-up
/// needs no host copy; a check rebuilds it from the seed).
void limits_fill_bytes(std::uint8_t* d, std::size_t n, std::uint64_t seed, cudaStream_t s);
void limits_fill_uniform(float* d, std::size_t n, float lo, float hi, std::uint64_t seed, cudaStream_t s);

/// `count` empty kernels back to back on `s`.
void empty_kernels(int count, cudaStream_t s);

}  // namespace kernels

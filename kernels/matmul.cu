// Matrix multiply kernels (naive, shared-memory tiled, and ours: register-blocked) and the cuBLAS SGEMM reference.
#include "kernels/matmul.cuh"

#include <cstdint>

#include "cudabench/cuda_check.hpp"
#include "kernels/vendor_handle.hpp"

namespace kernels {
namespace {
using cfg = matmul_config;

__global__ void naive_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += a[std::size_t(row) * n + k] * b[std::size_t(k) * n + col];
  c[std::size_t(row) * n + col] = sum;
}

__global__ void __launch_bounds__(cfg::tile * cfg::tile) tiled_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                                                     float* __restrict__ c, int n) {
  __shared__ float ta[cfg::tile][cfg::tile], tb[cfg::tile][cfg::tile];
  const int row = blockIdx.y * cfg::tile + threadIdx.y, col = blockIdx.x * cfg::tile + threadIdx.x;
  float sum = 0;
  for (int k0 = 0; k0 < n; k0 += cfg::tile) {
    ta[threadIdx.y][threadIdx.x] = row < n && k0 + threadIdx.x < n ? a[std::size_t(row) * n + k0 + threadIdx.x] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = col < n && k0 + threadIdx.y < n ? b[std::size_t(k0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < cfg::tile; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < n && col < n) c[std::size_t(row) * n + col] = sum;
}

/// One thread's share of a fast_bm x fast_bk slice of A and a fast_bk x fast_bn slice of B: four consecutive
/// elements of each (float4 loads where the slice lies inside the matrix).
struct fast_slice {
  float a[4], b[4];
};

template <bool Full>
__device__ __forceinline__ void load_slice(const float* __restrict__ a, const float* __restrict__ b, int n, int m0, int n0, int k0,
                                           int tid, fast_slice& r) {
  const int ar = tid / (cfg::fast_bk / 4), ac = (tid % (cfg::fast_bk / 4)) * 4;  // A: 128 rows x 2 float4
  const int br = tid / (cfg::fast_bn / 4), bc = (tid % (cfg::fast_bn / 4)) * 4;  // B: 8 rows x 32 float4
  if constexpr (Full) {
    const float4 va = *reinterpret_cast<const float4*>(a + std::size_t(m0 + ar) * n + k0 + ac);
    const float4 vb = *reinterpret_cast<const float4*>(b + std::size_t(k0 + br) * n + n0 + bc);
    r = {{va.x, va.y, va.z, va.w}, {vb.x, vb.y, vb.z, vb.w}};
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int arow = m0 + ar, acol = k0 + ac + i, brow = k0 + br, bcol = n0 + bc + i;
      r.a[i] = arow < n && acol < n ? a[std::size_t(arow) * n + acol] : 0.0f;
      r.b[i] = brow < n && bcol < n ? b[std::size_t(brow) * n + bcol] : 0.0f;
    }
  }
}

/// A is stored transposed (k-major, padded by 4 so the transposing stores do not conflict) and B as it is,
/// so a thread's 8 rows of A and 8 columns of B at one k are two float4 loads each.
struct fast_smem {
  float a[2][cfg::fast_bk][cfg::fast_bm + 4];
  float b[2][cfg::fast_bk][cfg::fast_bn];
};

__device__ __forceinline__ void store_slice(fast_smem& sm, int buf, int tid, const fast_slice& r) {
  const int ar = tid / (cfg::fast_bk / 4), ac = (tid % (cfg::fast_bk / 4)) * 4;
  const int br = tid / (cfg::fast_bn / 4), bc = (tid % (cfg::fast_bn / 4)) * 4;
#pragma unroll
  for (int i = 0; i < 4; ++i) sm.a[buf][ac + i][ar] = r.a[i];
  *reinterpret_cast<float4*>(&sm.b[buf][br][bc]) = make_float4(r.b[0], r.b[1], r.b[2], r.b[3]);
}

template <bool Full>
__global__ void __launch_bounds__(cfg::fast_threads, 2) fast_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                                                   float* __restrict__ c, int n) {
  static_assert(cfg::fast_tm == 8 && cfg::fast_tn == 8 && cfg::fast_threads == 256, "the loads and the 4 + 4 split assume this shape");
  static_assert(cfg::fast_bm * cfg::fast_bk == 4 * cfg::fast_threads && cfg::fast_bn * cfg::fast_bk == 4 * cfg::fast_threads,
                "one float4 of A and one of B a thread per slice");
  __shared__ __align__(16) fast_smem sm;
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * cfg::fast_bm, n0 = blockIdx.x * cfg::fast_bn;
  // A thread's outputs: rows ty*4 .. +3 and 64 + ty*4 .. +3, columns tx*4 .. +3 and 64 + tx*4 .. +3 of the tile,
  // so a warp reads 2 distinct float4 of A (broadcast) and 16 of B at each k.
  const int tx = tid % (cfg::fast_bn / cfg::fast_tn), ty = tid / (cfg::fast_bn / cfg::fast_tn);
  constexpr int half_m = cfg::fast_bm / 2, half_n = cfg::fast_bn / 2;
  float acc[8][8] = {};
  const int slices = (n + cfg::fast_bk - 1) / cfg::fast_bk;
  fast_slice next;
  load_slice<Full>(a, b, n, m0, n0, 0, tid, next);
  store_slice(sm, 0, tid, next);
  __syncthreads();
  for (int t = 0; t < slices; ++t) {
    const int cur = t & 1;
    if (t + 1 < slices) load_slice<Full>(a, b, n, m0, n0, (t + 1) * cfg::fast_bk, tid, next);  // in flight during the FMAs
#pragma unroll
    for (int k = 0; k < cfg::fast_bk; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&sm.a[cur][k][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&sm.a[cur][k][half_m + ty * 4]);
      const float4 b0 = *reinterpret_cast<const float4*>(&sm.b[cur][k][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&sm.b[cur][k][half_n + tx * 4]);
      const float ra[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float rb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }
    // The other buffer was last read in the previous step, which every thread finished before the barrier.
    if (t + 1 < slices) store_slice(sm, cur ^ 1, tid, next);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = m0 + (i < 4 ? ty * 4 + i : half_m + ty * 4 + i - 4);
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = n0 + h * half_n + tx * 4;
      const float* v = &acc[i][h * 4];
      if constexpr (Full) {
        *reinterpret_cast<float4*>(c + std::size_t(row) * n + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else if (row < n) {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < n) c[std::size_t(row) * n + col + j] = v[j];
      }
    }
  }
}

dim3 grid_for(int n) { return dim3((n + cfg::tile - 1) / cfg::tile, (n + cfg::tile - 1) / cfg::tile); }
}  // namespace

void matmul_naive(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s) {
  naive_kernel<<<grid_for(n), dim3(cfg::tile, cfg::tile), 0, s>>>(d_a, d_b, d_c, n);
  CB_CHECK_LAUNCH("matmul naive_kernel");
}

void matmul_tiled(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s) {
  tiled_kernel<<<grid_for(n), dim3(cfg::tile, cfg::tile), 0, s>>>(d_a, d_b, d_c, n);
  CB_CHECK_LAUNCH("matmul tiled_kernel");
}

void matmul_fast(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s) {
  const dim3 grid((n + cfg::fast_bn - 1) / cfg::fast_bn, (n + cfg::fast_bm - 1) / cfg::fast_bm);
  const auto aligned = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (n % cfg::fast_bm == 0 && n % cfg::fast_bn == 0 && aligned(d_a) && aligned(d_b) && aligned(d_c))
    fast_kernel<true><<<grid, cfg::fast_threads, 0, s>>>(d_a, d_b, d_c, n);
  else
    fast_kernel<false><<<grid, cfg::fast_threads, 0, s>>>(d_a, d_b, d_c, n);
  CB_CHECK_LAUNCH("matmul fast_kernel");
}

struct cublas_sgemm::impl {
  vendor_handle<cublasHandle_t, cublasDestroy> handle;
};

cublas_sgemm::cublas_sgemm() : impl_(std::make_unique<impl>()) {
  cublasHandle_t h = nullptr;
  CB_CHECK(cublasCreate(&h));
  impl_->handle = vendor_handle<cublasHandle_t, cublasDestroy>(h);
  CB_CHECK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
}

cublas_sgemm::~cublas_sgemm() = default;

void cublas_sgemm::run(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s) {
  const float alpha = 1, beta = 0;
  CB_CHECK(cublasSetStream(impl_->handle, s));
  CB_CHECK(cublasSgemm(impl_->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, d_b, n, d_a, n, &beta, d_c, n));
}

}  // namespace kernels

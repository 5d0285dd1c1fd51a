// Matrix multiply kernels (naive, shared-memory tiled, and ours: register-blocked) and the cuBLAS SGEMM reference.
#include "kernels/matmul.hpp"

#include <cstdint>

#include "cudabench/cuda_check.hpp"
#include "kernels/vendor_handle.hpp"
#include "support/device_shape.hpp"

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

__global__ void __launch_bounds__(cfg::tile* cfg::tile)
    tiled_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
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

/// One thread's share of a bm x bk slice of A and a bk x bn slice of B: four consecutive elements of each
/// (float4 loads where the slice lies inside the matrix).
struct fast_slice {
  float a[4], b[4];
};

/// A launch shape as a type (S::bm, ...), for templates.
template <int BM, int BN, int BK, int TM, int TN>
struct shape_t {
  static constexpr int bm = BM, bn = BN, bk = BK, tm = TM, tn = TN, threads = (BM / TM) * (BN / TN);
};
template <const sgemm_shape& S>
using shape_of = shape_t<S.bm, S.bn, S.bk, S.tm, S.tn>;

template <class S, bool Full>
__device__ __forceinline__ void load_slice(const float* __restrict__ a, const float* __restrict__ b, int n, int m0,
                                           int n0, int k0, int tid, fast_slice& r) {
  const int ar = tid / (S::bk / 4), ac = (tid % (S::bk / 4)) * 4;  // A: bm rows of bk / 4 float4
  const int br = tid / (S::bn / 4), bc = (tid % (S::bn / 4)) * 4;  // B: bk rows of bn / 4 float4
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

/// A is stored transposed (k-major, padded by 4 so the transposing stores spread over the banks) and B as it
/// is, so a thread's rows of A and columns of B at one k are float4 loads.
template <class S>
struct fast_smem {
  float a[2][S::bk][S::bm + 4];
  float b[2][S::bk][S::bn];
};

template <class S>
__device__ __forceinline__ void store_slice(fast_smem<S>& sm, int buf, int tid, const fast_slice& r) {
  const int ar = tid / (S::bk / 4), ac = (tid % (S::bk / 4)) * 4;
  const int br = tid / (S::bn / 4), bc = (tid % (S::bn / 4)) * 4;
#pragma unroll
  for (int i = 0; i < 4; ++i) sm.a[buf][ac + i][ar] = r.a[i];
  *reinterpret_cast<float4*>(&sm.b[buf][br][bc]) = make_float4(r.b[0], r.b[1], r.b[2], r.b[3]);
}

template <class S, bool Full>
__global__ void __launch_bounds__(S::threads, 2)
    fast_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  static_assert(S::tm % 4 == 0 && S::tn % 4 == 0, "a thread's outputs come in groups of 4 x 4");
  static_assert(S::bm * S::bk == 4 * S::threads && S::bn * S::bk == 4 * S::threads,
                "one float4 of A and one of B a thread per slice");
  constexpr int gm = S::tm / 4, gn = S::tn / 4;            // groups of 4 rows / columns a thread
  constexpr int step_m = S::bm / gm, step_n = S::bn / gn;  // rows / columns between a thread's groups
  __shared__ __align__(16) fast_smem<S> sm;
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * S::bm, n0 = blockIdx.x * S::bn;
  // A thread's outputs: rows g * step_m + ty * 4 .. +3 and columns g * step_n + tx * 4 .. +3 of the tile, so
  // the threads of a warp read few distinct float4 of A (broadcast) and consecutive ones of B at each k.
  const int tx = tid % (S::bn / S::tn), ty = tid / (S::bn / S::tn);
  float acc[S::tm][S::tn] = {};
  const int slices = (n + S::bk - 1) / S::bk;
  fast_slice next;
  load_slice<S, Full>(a, b, n, m0, n0, 0, tid, next);
  store_slice<S>(sm, 0, tid, next);
  __syncthreads();
  for (int t = 0; t < slices; ++t) {
    const int cur = t & 1;
    if (t + 1 < slices) load_slice<S, Full>(a, b, n, m0, n0, (t + 1) * S::bk, tid, next);  // in flight during the FMAs
#pragma unroll
    for (int k = 0; k < S::bk; ++k) {
      float ra[S::tm], rb[S::tn];
#pragma unroll
      for (int g = 0; g < gm; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(&sm.a[cur][k][g * step_m + ty * 4]);
        ra[4 * g] = v.x, ra[4 * g + 1] = v.y, ra[4 * g + 2] = v.z, ra[4 * g + 3] = v.w;
      }
#pragma unroll
      for (int g = 0; g < gn; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(&sm.b[cur][k][g * step_n + tx * 4]);
        rb[4 * g] = v.x, rb[4 * g + 1] = v.y, rb[4 * g + 2] = v.z, rb[4 * g + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < S::tm; ++i)
#pragma unroll
        for (int j = 0; j < S::tn; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }
    // The other buffer was last read in the previous step, which every thread finished before the barrier.
    if (t + 1 < slices) store_slice<S>(sm, cur ^ 1, tid, next);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < S::tm; ++i) {
    const int row = m0 + (i / 4) * step_m + ty * 4 + i % 4;
#pragma unroll
    for (int g = 0; g < gn; ++g) {
      const int col = n0 + g * step_n + tx * 4;
      const float* v = &acc[i][4 * g];
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

template <class S>
void launch_fast(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s) {
  const dim3 grid((n + S::bn - 1) / S::bn, (n + S::bm - 1) / S::bm);
  const auto aligned = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (n % S::bm == 0 && n % S::bn == 0 && aligned(d_a) && aligned(d_b) && aligned(d_c))
    fast_kernel<S, true><<<grid, S::threads, 0, s>>>(d_a, d_b, d_c, n);
  else
    fast_kernel<S, false><<<grid, S::threads, 0, s>>>(d_a, d_b, d_c, n);
  CB_CHECK_LAUNCH("matmul fast_kernel");
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

void matmul_fast(const float* d_a, const float* d_b, float* d_c, int n, cudaStream_t s, const sgemm_shape* shape) {
  using large = shape_of<cfg::fast_large>;
  using small = shape_of<cfg::fast_small>;
  const long long large_tiles = (long long)((n + large::bm - 1) / large::bm) * ((n + large::bn - 1) / large::bn);
  const bool use_small = shape ? shape->bm == small::bm && shape->bn == small::bn : large_tiles < sm_count();
  if (use_small)
    launch_fast<small>(d_a, d_b, d_c, n, s);
  else
    launch_fast<large>(d_a, d_b, d_c, n, s);
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

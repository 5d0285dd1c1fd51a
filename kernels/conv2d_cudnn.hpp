// The vendor reference of conv2d: cuDNN's fastest forward algorithm for one 5x5 fp32 channel.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>

namespace kernels {

/// Whether the kernels were built with cuDNN (CUDABENCH_WITH_CUDNN); without it cudnn_conv5x5 cannot be made.
bool built_with_cudnn();

class cudnn_conv5x5 {
 public:
  /// Plans an n x n single-channel convolution (pad 2, cross-correlation, FMA math: no TF32) and picks
  /// the fastest algorithm cuDNN finds; the mask lives in device memory (25 floats). Built without cuDNN:
  /// throws std::runtime_error (check built_with_cudnn() first).
  cudnn_conv5x5(int n, const float* d_in, const float* d_mask, float* d_out);
  ~cudnn_conv5x5();
  cudnn_conv5x5(const cudnn_conv5x5&) = delete;
  cudnn_conv5x5& operator=(const cudnn_conv5x5&) = delete;
  void run(cudaStream_t s);
  const std::string& algorithm() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace kernels

// The project's kernel: y = a x + y in fp32, launched on a stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

void saxpy(float a, const float* d_x, float* d_y, std::size_t n, cudaStream_t s);

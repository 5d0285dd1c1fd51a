// cudabench's public API in one include: fixtures, family registration, presets and sizes, NVTX phase
// ranges, memory requirements, and the CUDA support layer (error checks, RAII handles).
// Link cudabench::main for a complete benchmark binary, or cudabench::app and call cudabench::app::run_main.
#pragma once

#include "cudabench/cuda_check.hpp"
#include "cudabench/cuda_handles.hpp"
#include "cudabench/fixture.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/presets.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"

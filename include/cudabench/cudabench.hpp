// cudabench's public API in one include: fixtures, family registration with named axes, presets, NVTX phase
// ranges, memory requirements, the run memo, the worker pool, the exceptions it throws, and the CUDA support layer.
// Link cudabench::main for a complete benchmark binary, or cudabench::app and call cudabench::app::run_main.
#pragma once

#include "cudabench/axes.hpp"
#include "cudabench/cuda_check.hpp"
#include "cudabench/cuda_handles.hpp"
#include "cudabench/errors.hpp"
#include "cudabench/fixture.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/presets.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "cudabench/run_memo.hpp"

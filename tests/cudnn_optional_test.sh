#!/usr/bin/env bash
# cuDNN is optional: configured with -DCUDABENCH_WITH_CUDNN=OFF, the suite builds the conv2d family with the
# stand-in that says "built without cuDNN" (its cudnn cases registered and skipped), nothing of it links cuDNN,
# and configuring says so; a value other than AUTO, ON or OFF is refused naming them. Configures only (seconds).
# Usage: tests/cudnn_optional_test.sh SOURCE_DIR CUDA_COMPILER
set -uo pipefail
src=$(cd "$1" && pwd) nvcc=$2
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

configure() { run cmake -S "$src" -B "$tmp/$1" -G "Unix Makefiles" -DCMAKE_CUDA_COMPILER="$nvcc" -DCUDABENCH_BUILD_TESTS=OFF "${@:2}"; }
s=$(configure off -DCUDABENCH_WITH_CUDNN=OFF)
kernels="$tmp/off/kernels/CMakeFiles/kernels.dir"
check "CUDABENCH_WITH_CUDNN=OFF: configured, said, the stand-in built and cuDNN neither compiled nor linked" 0 "$s" \
  'grep -q "cudabench: built without cuDNN (CUDABENCH_WITH_CUDNN=OFF): the conv2d/cudnn cases are skipped" "$tmp/out"' \
  'grep -q "conv2d_cudnn_absent.cpp" "$kernels/build.make"' '! grep -q "conv2d_cudnn\.cpp" "$kernels/build.make"' \
  '[ -f "$tmp/off/bench/CMakeFiles/cudabench.dir/link.txt" ]' '! grep -qi "cudnn" "$tmp/off/bench/CMakeFiles/cudabench.dir/link.txt"'
s=$(configure bad -DCUDABENCH_WITH_CUDNN=maybe)
check "CUDABENCH_WITH_CUDNN=maybe: refused naming the values" 1 "$s" 'grep -q "CUDABENCH_WITH_CUDNN=maybe: expected AUTO, ON or OFF" "$tmp/err"'
# The stand-in is what the fixture checks before anything else: the case is skipped with the reason.
check "conv2d's cudnn fixture skips, saying so, where the kernels are built without cuDNN" 0 0 \
  'grep -q "if (v_ == variant::cudnn && !kernels::built_with_cudnn()) throw cudabench::skip_case(\"built without cuDNN\");" "$src/bench/conv2d.cpp"'
finish

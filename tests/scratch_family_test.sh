#!/usr/bin/env bash
# A family in four files: a throwaway family, scratchfam, added to a copy of the source tree as docs/extending.md
# says (kernels/scratchfam.cu, kernels/scratchfam.hpp, bench/scratchfam.cpp, and its name appended to
# CUDABENCH_FAMILIES in the top-level CMakeLists.txt) and nothing else. On the copy, the tree's source lints
# (each python lint tests/CMakeLists.txt runs over the source folder) pass and the family's files are in the house
# format; the copy configures with the real build's compilers and settings, its generated build lists the
# family's two sources, and those two objects compile, alone: the suite is not built.
# CUDABENCH_SCRATCH_FAMILY_FULL=1 also builds the copy's suite binary (minutes): `--list --filter=scratchfam`
# shows the family's cases, its CPU case runs and passes its check, and tests/cli_axes_test.sh (no stored case
# name vanishes or moves) passes against it.
# Usage: tests/scratch_family_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
# Under the build folder, at a fixed path, so that ccache finds the family's objects again on the next run.
work="$build/tests/scratch_family" tree="$build/tests/scratch_family/src" b="$build/tests/scratch_family/build"
rm -rf "$work" && mkdir -p "$tree" || exit 1
trap 'rm -rf "$tmp" "$work"' EXIT
ok_run() {  # ok_run NAME COMMAND...: the command exits 0; else the last lines it said are shown
  local before=$fail
  check "$1" 0 "$(shift; run "$@")"
  [ "$fail" = "$before" ] || tail -n 40 "$tmp/out" "$tmp/err"
}

# The copy: the files git would commit (tracked, or new and not ignored); outside a checkout, all but builds.
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$src" && pwd -P)" ]; then
  git -C "$src" ls-files -z --cached --others --exclude-standard | (cd "$src" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null)
else
  tar -C "$src" --exclude=./.git --exclude='./build*' --exclude=./out --exclude=./.devlibs --exclude=./.tools -cf - .
fi | tar -C "$tree" -xf - || exit 1
[ -f "$tree/CMakeLists.txt" ] && [ ! -e "$tree/bench/scratchfam.cpp" ] || { echo "FAIL: no clean copy of $src"; exit 1; }
touch "$work/copied"

# The family: its three files, and its name in CUDABENCH_FAMILIES.
cat >"$tree/kernels/scratchfam.hpp" <<'EOF'
// The scratchfam family's host interface: y = alpha * x. The launcher (its kernel is in scratchfam.cu) and
// the CPU reference the checks compare with.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace kernels {

void scratchfam_scale(const float* d_x, float alpha, float* d_y, std::size_t n, cudaStream_t s);

// CPU reference: plain C++.
inline void scratchfam_scale_cpu(const float* x, float alpha, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = alpha * x[i];
}

}  // namespace kernels
EOF
cat >"$tree/kernels/scratchfam.cu" <<'EOF'
// y = alpha * x, a grid-stride loop.
#include "kernels/scratchfam.hpp"

#include <algorithm>

#include "cudabench/cuda_check.hpp"

namespace kernels {
namespace {
constexpr int block = 256;

__global__ void scale_kernel(const float* __restrict__ x, float alpha, float* __restrict__ y, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    y[i] = alpha * x[i];
}
}  // namespace

void scratchfam_scale(const float* d_x, float alpha, float* d_y, std::size_t n, cudaStream_t s) {
  const unsigned grid = unsigned(std::clamp<std::size_t>((n + block - 1) / block, 1, 132 * 32));
  scale_kernel<<<grid, block, 0, s>>>(d_x, alpha, d_y, n);
  CB_CHECK_LAUNCH("scratchfam scale_kernel");
}

}  // namespace kernels
EOF
cat >"$tree/bench/scratchfam.cpp" <<'EOF'
// scratchfam: y = alpha * x from fresh random input, on the device and on the CPU.
#include <memory>
#include <vector>

#include "bench/common.hpp"
#include "cudabench/nvtx.hpp"
#include "cudabench/registry.hpp"
#include "cudabench/requirements.hpp"
#include "kernels/scratchfam.hpp"
#include "support/host_data.hpp"

namespace {
using cudabench::phase;
using cudabench::phase_range;
constexpr float alpha = 3.0f;

std::vector<float> fresh_input(std::size_t n) {
  cudabench::require_host_memory(3.0 * double(n) * sizeof(float));
  std::vector<float> x(n);
  kernels::fill_uniform(x.data(), n, -1.0f, 1.0f, kernels::fresh_seed());
  return x;
}

std::string check_scale(const std::vector<float>& x, const float* y) {
  std::vector<float> want(x.size());
  kernels::scratchfam_scale_cpu(x.data(), alpha, want.data(), x.size());
  return kernels::compare_elements(y, want.data(), x.size(), 0);
}

class scratchfam_gpu final : public cudabench::fixture {
 public:
  explicit scratchfam_gpu(std::size_t n) : x_(fresh_input(n)) {
    cudabench::require_device_memory(2.0 * double(n) * sizeof(float));
    d_x_ = cudabench::device_buffer<float>(n);
    d_y_ = cudabench::device_buffer<float>(n);
    CB_CHECK(cudaMemcpy(d_x_.get(), x_.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CB_CHECK(cudaMemset(d_y_.get(), 0xFF, n * sizeof(float)));
  }
  void run(cudaStream_t s) override {
    phase_range p(phase::kernel);
    kernels::scratchfam_scale(d_x_.get(), alpha, d_y_.get(), x_.size(), s);
  }
  std::string verify() override {
    std::vector<float> y(x_.size());
    CB_CHECK(cudaMemcpy(y.data(), d_y_.get(), y.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return check_scale(x_, y.data());
  }

 private:
  std::vector<float> x_;
  cudabench::device_buffer<float> d_x_, d_y_;
};

class scratchfam_cpu final : public cudabench::fixture {
 public:
  explicit scratchfam_cpu(std::size_t n) : x_(fresh_input(n)), y_(n) {}
  void run(cudaStream_t) override {
    phase_range p(phase::host);
    kernels::scratchfam_scale_cpu(x_.data(), alpha, y_.data(), x_.size());
  }
  std::string verify() override { return check_scale(x_, y_.data()); }

 private:
  std::vector<float> x_, y_;
};

template <class Fixture>
cudabench::fixture_factory make(std::size_t n) {
  return [n] { return std::make_unique<Fixture>(n); };
}

void register_scratchfam(cudabench::family_builder& f) {
  f.describe("y = alpha * x, fp32, on the device").tolerance("exact").reference("naive", "scale");
  const auto n_axis = cudabench::size_axis(
      "n", {{"quick", {1 << 20}}, {"nightly", {1 << 20}}, {"full", {1 << 20, 1 << 24}}}, bench::max_elements);
  for (const cudabench::point& at : f.points(n_axis)) {
    const auto n = at.get<std::size_t>("n");
    const cudabench::work_counts w{.bytes_read = 4.0 * n, .bytes_written = 4.0 * n, .items = 1.0 * n, .flops = 1.0 * n};
    f.add(at, {.variant = "scale", .on = cudabench::where::gpu, .work = w, .make = make<scratchfam_gpu>(n)});
    f.add(at, {.variant = "cpu", .on = cudabench::where::cpu, .work = w, .make = make<scratchfam_cpu>(n)});
  }
}

}  // namespace

CB_REGISTER_FAMILY(scratchfam, register_scratchfam);
EOF
sed -i 's/^\( *set(CUDABENCH_FAMILIES [a-z0-9_ ]*\))/\1 scratchfam)/' "$tree/CMakeLists.txt"
check "the family is named in CUDABENCH_FAMILIES" 0 0 "grep -q '^ *set(CUDABENCH_FAMILIES .* scratchfam)' '$tree/CMakeLists.txt'"
touched=$(cd "$tree" && find . -type f -newer "$work/copied" | LC_ALL=C sort | paste -sd' ')
check "the family touched four files" 0 0 '[ "$touched" = "./CMakeLists.txt ./bench/scratchfam.cpp ./kernels/scratchfam.cu ./kernels/scratchfam.hpp" ]'

# The source lints, as tests/CMakeLists.txt runs them on the tree, run on the copy.
lints=$(sed -n 's/.*COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}\/\([a-z_]*\.py\) ${PROJECT_SOURCE_DIR})$/\1/p' "$tree/tests/CMakeLists.txt")
check "tests/CMakeLists.txt runs the source lints (layering, function length, doc paths, lab apart, public API)" 0 0 \
  "[ $(echo "$lints" | grep -c .) -ge 5 ]"
for lint in $lints; do
  ok_run "$lint passes on the copy" python3 -B "$tree/tests/$lint" "$tree"
done
if command -v "${CLANG_FORMAT:-clang-format}" >/dev/null 2>&1; then
  ok_run "the family's files are in the house format" "${CLANG_FORMAT:-clang-format}" --dry-run -Werror \
    --style="file:$tree/.clang-format" "$tree"/kernels/scratchfam.* "$tree/bench/scratchfam.cpp"
fi

# Configured as the real build is (its compilers, build type, architectures, launchers and prefix), with Makefiles.
args=(-G "Unix Makefiles")
for v in CMAKE_BUILD_TYPE CMAKE_CXX_COMPILER CMAKE_CUDA_COMPILER CMAKE_CUDA_ARCHITECTURES CMAKE_CXX_COMPILER_LAUNCHER \
         CMAKE_CUDA_COMPILER_LAUNCHER CMAKE_PREFIX_PATH CUDABENCH_WITH_CUDNN; do
  value=$(sed -n "s/^$v:[A-Z]*=//p" "$build/CMakeCache.txt" 2>/dev/null)
  [ -n "$value" ] && args+=("-D$v=$value")
done
ok_run "the copy configures" nice -n 10 cmake -S "$tree" -B "$b" "${args[@]}"
[ -f "$b/Makefile" ] || { finish; exit; }
# Each source's object rule in the generated build (OBJECT: SOURCE in a target's build.make), compiled alone.
object_rule() { grep -rF --include=build.make ": $tree/$1" "$b" | LC_ALL=C sort | head -n 1; }
for source in kernels/scratchfam.cu bench/scratchfam.cpp; do
  rule=$(object_rule "$source")  # BUILD_MAKE:OBJECT: SOURCE
  check "the generated build has an object of $source" 0 0 '[ -n "$rule" ]'
  [ -n "$rule" ] || continue
  makefile=${rule%%:*} object=${rule#*:}
  object=${object%%:*}
  ok_run "$source compiles (its object alone)" nice -n 10 make -C "$b" -f "${makefile#"$b"/}" "$object"
done

if [ "${CUDABENCH_SCRATCH_FAMILY_FULL:-0}" = 1 ]; then
  bench="$b/bench/cudabench"
  ok_run "the copy's suite builds" nice -n 10 cmake --build "$b" --target cudabench -j "$(nproc)"
  check "--list --filter=scratchfam lists its cases" 0 "$(run "$bench" --list --filter=scratchfam)" \
    "grep -q '^scratchfam/scale/1048576 ' '$tmp/out'" "grep -q '^scratchfam/cpu/1048576 ' '$tmp/out'"
  ok_run "its CPU case runs and passes its check" "$bench" --filter='^scratchfam/cpu/' --quiet
  ok_run "cli_axes passes against the copy's suite" "$tree/tests/cli_axes_test.sh" "$b" "$tree"
fi
finish

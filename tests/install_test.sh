#!/usr/bin/env bash
# The installed package as another project uses it: `cmake --install` into a fresh prefix, then
# examples/external configured with find_package(cudabench 0.3), built, listed and its CPU case run.
# Usage: tests/install_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/log" ] && tail -n 40 "$tmp/log"; exit 1; }
prefix="$tmp/prefix" ext="$tmp/saxpy"

cmake --install "$build" --prefix "$prefix" >"$tmp/log" 2>&1 || fail "cmake --install"
for f in include/cudabench/cudabench.hpp include/cudabench/registry.hpp include/cudabench/limits.hpp bin/cudabench-report bin/cudabench-run \
         lib/cmake/cudabench/cudabenchConfig.cmake lib/cmake/cudabench/cudabenchConfigVersion.cmake; do
  [ -e "$prefix/$f" ] || fail "the install has no $f"
done
! find "$prefix/include" -path '*harness/*' -o -path '*reports/*' | grep -q . || fail "internal headers were installed"
echo "ok   install: headers, libraries, cudabench-report, cudabench-run, package config"

cuda_root=${CUDA_HOME:-/usr/local/cuda}
[ -e "$prefix/include/cudabench/errors.hpp" ] || fail "the install has no cudabench/errors.hpp (usage_error, input_error)"
for h in "$prefix"/include/cudabench/*.hpp; do  # each public header compiles alone against the install
  echo "#include <cudabench/${h##*/}>" >"$tmp/one_header.cpp"
  c++ -std=c++20 -fsyntax-only -I"$prefix/include" -I"$cuda_root/include" "$tmp/one_header.cpp" >"$tmp/log" 2>&1 \
    || fail "the installed ${h##*/} does not compile on its own"
done
echo "ok   every installed header compiles on its own (what it names is installed)"

cmake -S "$src/examples/external" -B "$ext" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" >"$tmp/log" 2>&1 || fail "configuring examples/external against the package"
cmake --build "$ext" -j 2 >"$tmp/log" 2>&1 || fail "building examples/external"
echo "ok   examples/external configures and builds with find_package(cudabench 0.3)"
link=$(find "$ext" -name link.txt -path '*saxpy_bench*' | head -n 1)
[ -n "$link" ] || fail "no link line found for saxpy_bench"
if grep -qi cudnn "$link" || ldd "$ext/saxpy_bench" | grep -qi cudnn; then fail "cuDNN is on the external project's link line"; fi
echo "ok   no cuDNN in the external project's link line or its libraries"

sed 's/find_package(cudabench [0-9.]* REQUIRED)/find_package(cudabench 1.0 REQUIRED)/' "$src/examples/external/CMakeLists.txt" >"$tmp/CMakeLists.txt"
mkdir -p "$tmp/v1" && cp "$src"/examples/external/saxpy* "$tmp/v1/" && cp "$tmp/CMakeLists.txt" "$tmp/v1/"
if cmake -S "$tmp/v1" -B "$tmp/v1b" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" >"$tmp/log" 2>&1; then
  fail "find_package(cudabench 1.0) accepted the installed version"
fi
echo "ok   the version file refuses an incompatible version"

cd "$tmp" || exit 1
"$ext/saxpy_bench" --list >"$tmp/list" 2>&1 || fail "saxpy_bench --list"
grep -q '^saxpy/gpu/1048576 *gpu' "$tmp/list" && grep -q '^saxpy/cpu/1048576 *cpu' "$tmp/list" || { cat "$tmp/list"; fail "--list does not show the family"; }
"$ext/saxpy_bench" --list --sizes=saxpy=4096 | grep -q '^saxpy/cpu/4096 ' || fail "--sizes does not reach the user's family"
"$ext/saxpy_bench" --list --preset=nightly --axis=saxpy.n=8,16 | awk '{print $1}' | grep -v '^limits/' | paste -sd' ' | grep -qx 'saxpy/gpu/8 saxpy/cpu/8 saxpy/gpu/16 saxpy/cpu/16' \
  || fail "--axis does not reach the user's family's axis n"
echo "ok   --list shows the user's family; --sizes and --axis choose its sizes"
# The library's limits family: with --limits whatever the filter, by default in the nightly preset, never
# unasked in the quick one.
! grep -q '^limits/' "$tmp/list" || fail "the quick preset lists the limits family without --limits"
"$ext/saxpy_bench" --list --limits --filter=saxpy/gpu | awk '{print $1}' | paste -sd' ' \
  | grep -qx 'limits/copy_d2d limits/read limits/h2d_pinned limits/d2h_pinned limits/bidir_pinned limits/h2d_pageable limits/d2h_pageable limits/fma limits/launch saxpy/gpu/1048576' \
  || fail "--list --limits does not list the limits family first, beside the selected cases"
"$ext/saxpy_bench" --list --preset=nightly | head -n 1 | grep -q '^limits/copy_d2d ' || fail "the nightly preset does not run the limits family by default"
"$ext/saxpy_bench" --list --preset=nightly --filter=saxpy | grep -q '^limits/' && fail "--filter=saxpy runs the limits family in the nightly preset"
"$ext/saxpy_bench" --help | grep -q -- '--limits' || fail "--help does not mention --limits"
echo "ok   the limits family ships in cudabench::main: --limits lists it, the nightly preset runs it, --help says so"
"$ext/saxpy_bench" --filter=saxpy/cpu --sizes=saxpy=65536 --json "$tmp/out.json" --save-baseline >"$tmp/run" 2>&1 || { cat "$tmp/run"; fail "running the CPU case"; }
python3 - "$tmp/out.json" <<'PY' || fail "the result JSON"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [r for r in j["benchmarks"] if r["name"] == "saxpy/cpu/65536"]
assert rows and rows[0]["real_time"] > 0, rows
assert j["context"]["cudabench"]["families"]["saxpy"]["references"]["cpu"] == ["cpu"]
PY
[ "$(find "$tmp/reports/baselines" -name quick.json | wc -l)" = 1 ] || fail "--save-baseline did not write under the current directory"
! find "$prefix" -newer "$tmp/list" -type f | grep -q . || fail "the run wrote into the installed tree"
echo "ok   the CPU case runs and is checked; results and baseline go to the user's directory, none into the prefix"
"$prefix/bin/cudabench-report" report "$tmp/out.json" >/dev/null || fail "cudabench-report on the user's result"
echo "ok   cudabench-report reads the user's result"

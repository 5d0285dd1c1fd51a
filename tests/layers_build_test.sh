#!/usr/bin/env bash
# The build enforces the layers (docs/architecture.md): a unit of a folder's library that includes a header of a
# layer it may not use fails to compile, the header not found; one that includes its own folder or a layer it
# may use compiles. So with the public headers: a library sees those whose code it links (results/ never sees
# app's cudabench/main.hpp, nor the registry's), and they reach every library that links them. Each is one
# planted unit of tests/vendored/, compiled with the include directories of that library's own units and built
# alone: no library of the tree is built.
# WORK_DIR keeps that build between runs (configured afresh each time).
# Usage: tests/layers_build_test.sh SOURCE_DIR [WORK_DIR]
set -uo pipefail
src=$(cd "$1" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
work=${2:-$tmp}
build="$work/build"

refused=(io:results/stats.hpp io:reports/writer.hpp results:measure/measure.hpp results:analysis/compare.hpp
         measure:analysis/compare.hpp analysis:measure/measure.hpp api:reports/writer.hpp limits:measure/measure.hpp
         reports:measure/measure.hpp reports:cli/options.hpp cli:app/commands.hpp app:kernels/matmul.hpp
         results:cudabench/main.hpp results:cudabench/registry.hpp results:cudabench/fixture.hpp
         io:cudabench/limit_names.hpp analysis:cudabench/presets.hpp measure:cudabench/registry.hpp
         reports:cudabench/fixture.hpp cli:cudabench/registry.hpp cli:cudabench/main.hpp limits:cudabench/main.hpp)
allowed=(io:io/format.hpp results:io/errors.hpp measure:results/stats.hpp analysis:results/results_model.hpp
         api:measure/measure.hpp limits:support/host_data.hpp reports:analysis/compare.hpp cli:measure/pattern.hpp
         cli:reports/writer.hpp app:cli/options.hpp
         io:cudabench/errors.hpp results:cudabench/limit_names.hpp results:cudabench/build_note.hpp
         measure:cudabench/fixture.hpp cli:cudabench/presets.hpp api:cudabench/cudabench.hpp
         limits:cudabench/registry.hpp limits:cudabench/nvtx.hpp app:cudabench/main.hpp main:cudabench/main.hpp
         main:cudabench/limits.hpp)
plants=("${refused[@]}" "${allowed[@]}")
mkdir -p "$build" && rm -f "$build/CMakeCache.txt"
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
check "a project vendoring the tree configures with a unit planted in each library" 0 \
  "$(run cmake -S "$src/tests/vendored" -B "$build" -DCUDABENCH_SOURCE="$src" -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_CUDA_COMPILER="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" "-DPLANTS=$(IFS=';'; echo "${plants[*]}")" "${launcher[@]}")" \
  || cat "$tmp/out" "$tmp/err"
n=0
for plant in "${plants[@]}"; do
  n=$((n + 1))
  layer=${plant%%:*} header=${plant#*:}
  built=$([ "$(run cmake --build "$build" --target "plant_$n")" = 0 ] && echo compiled || echo failed)
  if [ "$n" -le "${#refused[@]}" ]; then
    check "$layer/ including $header: the build fails, $header not found" failed "$built" \
      "grep -q '${header//./\\.}: No such file or directory' '$tmp/out' '$tmp/err'"
  else
    check "$layer/ including $header: compiles" compiled "$built" || tail -n 20 "$tmp/out" "$tmp/err"
  fi
done
[ -e "$build/cudabench/io/libcudabench_io.a" ] && echo "FAIL a library was built" && fail=$((fail + 1))
finish

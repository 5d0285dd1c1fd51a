#!/usr/bin/env bash
# Builds and tests on a GPU machine against that machine's own packages (Ubuntu 24.04: Google Benchmark
# 1.8.3, GoogleTest 1.14, fmt 9.1, nlohmann-json 3.11.3, g++ 13, CMake 4), nothing carried: the Google
# Benchmark 1.8 code paths (SkipWithMessage, "skipped" rows) built and run. From the repository root;
# results under $OUT (or ./out), a short summary at the end.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"
build="$root/build-gb18"
mkdir -p "$out"
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
cd "$root" || exit 2
start=$(date +%s)
export PKG_CONFIG_PATH="$root/.devlibs/re2/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"  # RE2, packed by device_pack.sh: Ubuntu there has none
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc >"$out/configure.txt" 2>&1
note "configure: exit $?; $(grep -m1 -o 'benchmark_DIR:PATH=.*' "$build/CMakeCache.txt"); Google Benchmark $(grep -h -m1 -o 'PACKAGE_VERSION "[0-9.]*"' "$(sed -n 's/benchmark_DIR:PATH=//p' "$build/CMakeCache.txt")"/benchmarkConfigVersion.cmake 2>/dev/null)"
grep -c CUDABENCH_GBENCH_HAS_SKIP_MESSAGE "$build/measure/CMakeFiles/cudabench_measure.dir/flags.make" >/dev/null 2>&1 \
  && note "measure compiled with CUDABENCH_GBENCH_HAS_SKIP_MESSAGE=1" || note "measure compiled WITHOUT the 1.8 skip path"
cmake --build "$build" -j "$(nproc)" >"$out/build.txt" 2>&1
note "build: exit $?, $(( $(date +%s) - start )) s; warnings: $(grep -c 'warning:' "$out/build.txt")"
(cd "$build" && ctest -j 8 --output-on-failure >"$out/ctest.txt" 2>&1)
note "ctest: exit $?, $(grep -E 'tests passed|tests failed' "$out/ctest.txt")"
grep -E "\(Failed\)|\(Skipped\)|Not Run" "$out/ctest.txt" | head -n 20 | tee -a "$summary"
"$build/bench/cudabench" --quiet --json "$out/quick_gb18.json" >"$out/quick_gb18.txt" 2>&1
note "quick suite (GB 1.8.3 build): exit $?, $(grep 'case(s):' "$out/quick_gb18.txt")"
CUDA_VISIBLE_DEVICES= "$build/bench/cudabench" --quiet --filter='^(image/kernel_only|image/cpu)$' --json "$out/skip_gb18.json" >"$out/skip_gb18.txt" 2>&1
note "without a visible GPU: exit $?; $(python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["benchmarks"]:
    print(r["name"], "skipped=%s" % r.get("skipped"), r.get("skip_message", "")[:60], end="; ")
' "$out/skip_gb18.json")"
grep -m2 -E "kernel_only" "$out/skip_gb18.txt" | tee -a "$summary"
echo "== summary"; cat "$summary"

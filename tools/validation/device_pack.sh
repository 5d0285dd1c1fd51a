#!/usr/bin/env bash
# Packs what a GPU machine without packages needs into .devlibs/ (ignored by git): the binaries in the
# build's layout and the shared libraries Debian provides but that machine lacks (Google Benchmark, fmt).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CUDABENCH_BUILD_DIR:-$root/build}"
out="$root/.devlibs"
rm -rf "$out"
mkdir -p "$out/bench" "$out/reports" "$out/tests" "$out/lib"
cp "$build/bench/cudabench" "$out/bench/"
cp "$build/reports/cudabench-report" "$out/reports/"
cp "$build/tests/gpu_tests" "$build/tests/unit_tests" "$out/tests/"
cp "$build/tests/libnvtx_recorder.so" "$out/lib/"
for lib in $(ldd "$build/bench/cudabench" | awk '/libbenchmark|libfmt/ {print $3}'); do cp -L "$lib" "$out/lib/"; done
git -C "$root" rev-parse HEAD >"$out/revision" 2>/dev/null || echo unknown >"$out/revision"
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then echo 1 >"$out/dirty"; else echo 0 >"$out/dirty"; fi
du -sh "$out"

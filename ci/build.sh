#!/usr/bin/env bash
# Configures (until a configure succeeds) and builds in Release into build/, incrementally. Quiet unless something
# fails, but for one line of progress when standard error is a terminal, a line every 30 s when it is not.
# Usage: ci/build.sh [TARGET...]   (no target: everything, tests included)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CUDABENCH_BUILD_DIR:-$root/build}"
mkdir -p "$build"
log="$build/build.log"
jobs=$(nproc 2>/dev/null || echo 2)
cuda_root=${CUDA_HOME:-/usr/local/cuda}
# ccache, where installed, keeps compiled objects across fresh checkouts (CI caches its directory, and a
# self-hosted runner's checkout deletes build/ but not ~/.ccache).
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
# Configured when the last configure did not succeed (its stamp is written only after one that did: a failed
# one is tried again once the environment is fixed) and when the folder was configured for another source tree
# (copied from another checkout), whose cache CMake would not reuse.
stamp="$build/.cudabench-configured"
home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null)
if [ -n "$home" ] && [ "$(cd "$home" 2>/dev/null && pwd -P)" != "$(cd "$root" && pwd -P)" ]; then
  echo "$build was configured for another source tree ($home): configuring it for $root" >&2
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles" "$stamp"
fi
if [ ! -f "$stamp" ] || [ ! -f "$build/CMakeCache.txt" ]; then
  echo "configuring $build ..." >&2
  rm -f "$stamp"
  if ! cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" "${launcher[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    echo "run_bench: configuring failed (log: $log); the next run configures again" >&2
    exit 2
  fi
  touch "$stamp"
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
echo "building ($jobs jobs; log: $log) ..." >&2
if [ -t 2 ]; then  # a person is watching: one line of progress, the output to the log as before
  cmake --build "$build" -j "$jobs" "${targets[@]}" 2>&1 | "$root/ci/build_progress.sh" "$log"
  built=${PIPESTATUS[0]}
else  # a log (CI): a line of progress every 30 s, so that a long first build is not taken for a hung one
  cmake --build "$build" -j "$jobs" "${targets[@]}" 2>&1 | CUDABENCH_PROGRESS_EVERY=${CUDABENCH_PROGRESS_EVERY:-30} "$root/ci/build_progress.sh" "$log"
  built=${PIPESTATUS[0]}
fi
if [ "$built" -ne 0 ]; then
  grep -E -B2 -A8 "error|Error" "$log" | tail -n 60 >&2
  echo "run_bench: the build failed (log: $log)" >&2
  exit 2
fi

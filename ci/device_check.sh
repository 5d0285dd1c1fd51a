#!/usr/bin/env bash
# Run on a GPU machine from the repository root, with the binaries packed by ci/device_pack.sh in .devlibs/:
# GPU tests, the CLI tests, then the default (quick) suite; results under $OUT (or ./out).
# Usage: ci/device_check.sh [extra runner options for the suite run]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/.devlibs/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CUDABENCH_SOURCE_DIR="$root"
export CUDABENCH_GIT_REVISION="$(cat "$root/.devlibs/revision" 2>/dev/null)" CUDABENCH_GIT_DIRTY="$(cat "$root/.devlibs/dirty" 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$out/gpu.txt"
echo "== gpu tests"; "$root/.devlibs/tests/gpu_tests" 2>&1 | tail -n 8
echo "== cli tests"; "$root/tests/cli_test.sh" "$root/.devlibs" "$root" 2>&1 | tail -n 5
echo "== quick suite"
start=$(date +%s)
"$root/.devlibs/bench/cudabench" --json "$out/h100_quick.json" "$@" 2>&1 | tee "$out/quick.txt"
echo "quick suite wall time: $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# Run on a GPU machine from the repository root, with the binaries packed by ci/device_pack.sh in .devlibs/:
# GPU tests, the CLI tests, then the default (quick) suite; results under $OUT (or ./out).
# Usage: ci/device_check.sh [extra runner options for the suite run]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$out/gpu.txt"
echo "== gpu tests"; "$root/.devlibs/tests/gpu_tests" 2>&1 | tail -n 8
echo "== cli tests"; "$root/tests/cli_test.sh" "$root/.devlibs" "$root" 2>&1 | tail -n 5
echo "== quick suite"
start=$(date +%s)
"$bench" --json "$out/h100_quick.json" "$@" 2>&1 | tee "$out/quick.txt"
echo "quick suite wall time: $(( $(date +%s) - start )) s"

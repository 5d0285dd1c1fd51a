#!/usr/bin/env bash
# Runs the benchmark binary with the NVTX recorder injected and checks the recorded ranges.
# Usage: tests/nvtx/nvtx_test.sh BENCH_BINARY RECORDER_LIB SOURCE_DIR [runner options]
set -uo pipefail
bench=$1 lib=$2 src=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NVTX_INJECTION64_PATH="$lib" CUDABENCH_NVTX_LOG="$tmp/nvtx.log" "$bench" --json "$tmp/run.json" "$@" >"$tmp/out" 2>&1 \
  || { cat "$tmp/out"; echo "FAIL: the run failed"; exit 1; }
[ -s "$tmp/nvtx.log" ] || { echo "FAIL: the recorder wrote nothing (not injected?)"; exit 1; }
python3 "$src/tests/nvtx/check_nvtx_log.py" "$tmp/nvtx.log" "$tmp/run.json"

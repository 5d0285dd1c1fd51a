#!/usr/bin/env bash
# One GPU session of validation (docs/validation.md): the quick suite, ncu accuracy over its kernel-only
# cases (which also shows each case's kernels under its NVTX range), then a nightly baseline and a nightly
# run with INJECT_PCT (default 3) percent injected into one case per family.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"
"$root/validation/device_check.sh" quick >"$out/check.txt" 2>&1
grep -E "PASSED|FAILED|passed|wall time|case\(s\)" "$out/check.txt"
timeout 200 "$root/validation/ncu_accuracy.sh" "$out/quick.json" 20 | tee "$out/ncu_table.txt"
export NIGHTLY_OPTS=--repetitions=6
"$root/validation/validate.sh" aa base6
pct=${INJECT_PCT:-3}
"$root/validation/validate.sh" inject "$pct" "inj$pct" base6

#!/usr/bin/env bash
# One GPU session of validation (docs/validation.md): the quick suite, ncu accuracy over its kernel-only
# cases, then a nightly baseline and nightly runs with 10%, 5% and 3% injected into one case per family.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"
"$root/ci/device_check.sh" >"$out/check.txt" 2>&1
grep -E "PASSED|FAILED|passed|wall time|case\(s\)" "$out/check.txt"
timeout 150 "$root/ci/ncu_accuracy.sh" "$out/h100_quick.json" 20 | tee "$out/ncu_table.txt"
export NIGHTLY_OPTS=--repetitions=6
BUDGET_S=${BUDGET_S:-380} "$root/ci/validate.sh" aa base6
for pct in 10 5 3; do BUDGET_S=${BUDGET_S:-380} "$root/ci/validate.sh" inject "$pct" "inj$pct" base6; done

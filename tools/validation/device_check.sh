#!/usr/bin/env bash
# The release check on a GPU machine, from the repository root, with the binaries device_pack.sh packed into
# .devlibs/: GPU tests, CLI tests, the quick suite, a nightly run compared with the stored baseline of this GPU
# model, and the external example's cases. Results under $OUT (or ./out); a short table at the end.
# Usage: tools/validation/device_check.sh [quick|nightly|external|all]   (default all)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
what=${1:-all}
summary=()
note() { summary+=("$1"); }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee "$out/gpu.txt"
if [ "$what" = all ] || [ "$what" = quick ]; then
  echo "== gpu tests"; "$root/.devlibs/tests/gpu_tests" >"$out/gpu_tests.txt" 2>&1; rc=$?
  note "gpu tests: exit $rc, $(grep -E '^\[  PASSED  \]|FAILED TEST|tests ran' "$out/gpu_tests.txt" | tr '\n' ' ')"
  "$root/.devlibs/tests/suite_gpu_tests" >"$out/suite_gpu_tests.txt" 2>&1; rc=$?
  note "suite gpu tests: exit $rc, $(grep -E '^\[  PASSED  \]|FAILED TEST|tests ran' "$out/suite_gpu_tests.txt" | tr '\n' ' ')"
  echo "== cli tests"; "$root/tests/cli_test.sh" "$root/.devlibs" "$root" >"$out/cli.txt" 2>&1; rc=$?
  note "cli tests: exit $rc, $(tail -n 1 "$out/cli.txt")"; grep FAIL "$out/cli.txt"
  echo "== quick suite"
  start=$(date +%s)
  "$bench" --json "$out/quick.json" >"$out/quick.txt" 2>&1; rc=$?
  note "quick suite: exit $rc, $(grep 'case(s):' "$out/quick.txt"), $(( $(date +%s) - start )) s"
fi
if [ "$what" = all ] || [ "$what" = external ]; then
  echo "== external example (saxpy, installed package)"
  "$saxpy" --json "$out/saxpy_quick.json" >"$out/saxpy_quick.txt" 2>&1; rc=$?
  "$saxpy" --preset=nightly --json "$out/saxpy_nightly.json" >"$out/saxpy_nightly.txt" 2>&1; rc2=$?
  cat "$out/saxpy_quick.txt" "$out/saxpy_nightly.txt"
  note "saxpy quick: exit $rc, $(grep 'case(s):' "$out/saxpy_quick.txt"); nightly preset: exit $rc2, $(grep 'case(s):' "$out/saxpy_nightly.txt")"
fi
if [ "$what" = all ] || [ "$what" = nightly ]; then
  echo "== nightly, compared with the stored baseline"
  start=$(date +%s)
  "$bench" --preset=nightly --json "$out/nightly.json" --compare-to=auto --md "$out/nightly_compare.md" \
           --verdict "$out/nightly_verdict.json" >"$out/nightly.txt" 2>&1; rc=$?
  grep -E "regression|improvement|inconclusive|case\(s\)" "$out/nightly.txt" | tail -n 8
  note "nightly vs stored baseline: exit $rc, $(grep 'case(s):' "$out/nightly.txt"), $(( $(date +%s) - start )) s"
  python3 - "$out/nightly_verdict.json" <<'PY' && true
import json, sys, collections
j = json.load(open(sys.argv[1]))
print("verdicts:", dict(collections.Counter(c["verdict"] for c in j["cases"])))
PY
fi
echo
echo "== summary"
for line in "${summary[@]}"; do echo "$line"; done

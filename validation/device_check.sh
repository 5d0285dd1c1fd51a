#!/usr/bin/env bash
# The release check on a GPU machine, from the repository root, with the binaries device_pack.sh packed into
# .devlibs/: GPU tests, every CLI test and the device-fault test, the quick suite, --trace, --devices and --nsys
# (features), a nightly run compared with the stored baseline of this GPU model, the external example's
# cases, and README.md's project as cudabench-pack bundled it (bundle). Results under $OUT (or ./out); a short
# table at the end.
# Usage: validation/device_check.sh [quick|features|nightly|external|bundle|all]   (default all)
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
  echo "== cli tests"
  for t in "$root"/tests/cli_*test.sh; do
    name=$(basename "$t" .sh)
    "$t" "$root/.devlibs" "$root" >"$out/$name.txt" 2>&1; rc=$?
    note "$name: exit $rc, $(tail -n 1 "$out/$name.txt")"; grep FAIL "$out/$name.txt"
  done
  python3 "$root/tests/faults/faults_test.py" "$root/.devlibs/tests/fault_suite" >"$out/faults.txt" 2>&1; rc=$?
  note "device faults: exit $rc, $(tail -n 1 "$out/faults.txt")"
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
if [ "$what" = all ] || [ "$what" = bundle ]; then
  echo "== README.md's project, bundled by cudabench-pack (no LD_LIBRARY_PATH: only the bundle, the driver, the toolkit)"
  env -u LD_LIBRARY_PATH ldd "$root/.devlibs/bundle/mybench" | tee "$out/bundle_ldd.txt"
  env -u LD_LIBRARY_PATH "$root/.devlibs/bundle/mybench" --json "$out/bundle_quick.json" >"$out/bundle_quick.txt" 2>&1; rc=$?
  env -u LD_LIBRARY_PATH "$root/.devlibs/bundle/mybench" compare "$out/bundle_quick.json" "$out/bundle_quick.json" >"$out/bundle_compare.txt" 2>&1; rc2=$?
  cat "$out/bundle_quick.txt"
  note "bundle: quick exit $rc, $(grep 'case(s):' "$out/bundle_quick.txt"); compare as its subcommand: exit $rc2; not found: $(grep -c 'not found' "$out/bundle_ldd.txt")"
fi
if [ "$what" = all ] || [ "$what" = features ]; then
  echo "== --trace, --devices=all, --nsys"
  sel='^(image/pinned_streams/4|conv2d/tiled/4096|reduce/cub/16777216|histogram/cpu/1048576)$'
  "$bench" --quiet --filter="$sel" --trace "$out/trace.json" --json "$out/traced.json" >"$out/traced.txt" 2>&1; rc=$?
  "$report" report "$out/traced.json" --html "$out/traced.html" >/dev/null 2>&1; rc2=$?
  note "--trace: exit $rc, $(grep '^trace:' "$out/traced.txt"); report --html of it: exit $rc2, $(grep -c 'class="op kernel"' "$out/traced.html") kernel slices"
  "$bench" --quiet --devices=all --filter="$sel" --json "$out/devices.json" >"$out/devices.txt" 2>&1; rc=$?
  note "--devices=all: exit $rc, $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d['context']['devices']), 'device(s),', len({r['run_name'] for r in d['benchmarks']}), 'cases')" "$out/devices.json")"
  nsys=${NSYS:-$(command -v nsys || ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | tail -n 1)}
  if [ -n "$nsys" ]; then
    (cd "$out" && LD_LIBRARY_PATH="$nsys_lib:$LD_LIBRARY_PATH" NSYS="$nsys" "$root/app/cudabench-run" "$bench" --nsys --filter="$sel" --json "$out/nsys.json" >"$out/nsys.txt" 2>&1); rc=$?
    note "--nsys: exit $rc, $(grep 'nsys report' "$out/nsys.txt" | head -n 1)"
  else
    note "--nsys: no nsys on this machine"
  fi
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

#!/usr/bin/env bash
# ci/skipped_tests.py: under CI a skipped test fails the run unless its label may skip.
# Usage: skipped_tests_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
log() { printf 'The following tests did not run:\n\t %s - %s (Skipped)\n' 1 "$1" >"$work/test.log"; }
fail() { echo "FAIL: $*"; exit 1; }
log Gpu.ReductionsAgreeWithTheCpu
python3 "$src/ci/skipped_tests.py" "$build" "$work/test.log" >"$work/out" || fail "a gpu test's skip was refused: $(cat "$work/out")"
log workflow_lint
python3 "$src/ci/skipped_tests.py" "$build" "$work/test.log" >"$work/out" && fail "a lint test's skip passed"
grep -q "workflow_lint (labels: lint) skipped" "$work/out" || fail "the message does not name the test and its label: $(cat "$work/out")"
python3 "$src/ci/skipped_tests.py" "$build" "$work/test.log" gpu lint >/dev/null || fail "a label named as may-skip was refused"
python3 "$src/ci/skipped_tests.py" "$build" "$work/missing.log" 2>"$work/err"; [ $? = 2 ] || fail "a missing log is not exit 2"
echo "skipped_tests: ok"

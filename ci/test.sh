#!/usr/bin/env bash
# The test command: installs what is missing, builds everything (tests included) and runs ctest.
# GPU tests (label gpu) skip without a GPU. The log is kept in build/test.log. Under CI=true (GitHub Actions
# sets it) a skipped test of any other label fails the run: CI must not pass on tests that did not run
# (CUDABENCH_MAY_SKIP lists the labels that may skip; default gpu).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/ci/deps.sh" --tests || exit $?
"$root/ci/build.sh" || exit $?
build="${CUDABENCH_BUILD_DIR:-$root/build}"
cd "$build" || exit 2
set -o pipefail
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@" 2>&1 | tee "$build/test.log"
status=${PIPESTATUS[0]}
if [ "${CI:-}" = true ]; then
  # shellcheck disable=SC2086  # a list of labels
  python3 "$root/ci/skipped_tests.py" "$build" "$build/test.log" ${CUDABENCH_MAY_SKIP:-gpu} || status=1
fi
exit "$status"

#!/usr/bin/env bash
# The test command: installs what is missing, builds everything (tests included) and runs ctest.
# GPU tests (label gpu) skip without a GPU. The log is kept in build/test.log. Under CI=true (GitHub Actions
# sets it) a skipped test of any other label fails the run: CI must not pass on tests that did not run
# (CUDABENCH_MAY_SKIP lists the labels that may skip; default gpu and optional: the tests of a tool only npm has).
# Works offline: a test tool ci/deps.sh cannot install is reported as skipped (CUDABENCH_REQUIRE_TOOLS=1, as CI
# sets it, makes that an error, but for the optional ones). While ctest runs,
# a line every 60 s on standard error says how many tests have ended and which are still running.
# The long fuzz (label fuzz: libFuzzer and the sanitizers over every reader, minutes to build) runs only with
# CUDABENCH_FUZZ=1, as .ci/run sets it; the default fuzz smoke (the fuzz_replay tests) runs always.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/ci/deps.sh" --tests || exit $?
"$root/ci/build.sh" || exit $?
build="${CUDABENCH_BUILD_DIR:-$root/build}"
cd "$build" || exit 2
labels=(-LE '^fuzz$')
[ "${CUDABENCH_FUZZ:-}" = 1 ] && labels=()
set -o pipefail
total=$(ctest -N ${labels[@]+"${labels[@]}"} "$@" 2>/dev/null | sed -n 's/^Total Tests: //p')
# progress: the tests ended (from the log)
(
  while sleep "${CUDABENCH_PROGRESS_EVERY:-60}"; do
    ended=$(grep -c '^ *[0-9]*/[0-9]* Test *#' "$build/test.log" 2>/dev/null)
    echo "ctest: ${ended:-0} of ${total:-?} tests ended, ${SECONDS} s elapsed" >&2
  done
) &
progress=$!
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" ${labels[@]+"${labels[@]}"} "$@" 2>&1 | tee "$build/test.log"
status=${PIPESTATUS[0]}
kill "$progress" 2>/dev/null
if [ "${CI:-}" = true ]; then
  # shellcheck disable=SC2086  # a list of labels
  python3 "$root/ci/skipped_tests.py" "$build" "$build/test.log" ${CUDABENCH_MAY_SKIP:-gpu optional} || status=1
fi
exit "$status"

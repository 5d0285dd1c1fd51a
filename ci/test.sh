#!/usr/bin/env bash
# The test command: installs what is missing, builds everything (tests included) and runs ctest.
# GPU tests (label gpu) skip without a GPU. The log is kept in build/test.log.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/ci/deps.sh" --tests || exit $?
"$root/ci/build.sh" || exit $?
build="${CUDABENCH_BUILD_DIR:-$root/build}"
cd "$build" || exit 2
set -o pipefail
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@" 2>&1 | tee "$build/test.log"

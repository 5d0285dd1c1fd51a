#!/usr/bin/env bash
# tools/fuzz/run.sh where a sanitized program cannot start (AddressSanitizer under ulimit -v cannot reserve its
# shadow memory): said once, in one line, before anything is built, and never reported as a finding.
# Usage: tests/fuzz_start_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
src=$(cd "$2" && pwd)
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
command -v "${CXX_FUZZ:-clang++}" >/dev/null || { echo "skip: no ${CXX_FUZZ:-clang++}"; exit 77; }
limited() { (ulimit -v 4000000 && FUZZ_BUILD_DIR="$tmp/fuzz" run "$src/tools/fuzz/run.sh" "$@"); }
check "--smoke under ulimit -v: skipped (77), one line saying why, no finding, nothing built" 77 "$(limited --smoke results)" \
  'one_line "a sanitized program cannot start here (.*AddressSanitizer.*ulimit -v unlimited)"' \
  '! grep -q FINDING "$tmp/err"' '[ ! -e "$tmp/fuzz/CMakeCache.txt" ]'
check "a fuzzing run under ulimit -v: exit 2, one line, no finding" 2 "$(RUNS=1 limited results)" \
  'one_line "a sanitized program cannot start here"' '! grep -q FINDING "$tmp/err"'
finish

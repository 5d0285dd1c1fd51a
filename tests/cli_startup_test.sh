#!/usr/bin/env bash
# The start-up line (CUDABENCH_STARTUP_TIMES=1): a worker says where its time went before its first case (and again
# at its end), the supervisor before its first worker; nothing without the variable. A supervisor leaves the device
# to its workers, and its run still records the device.
# Usage: tests/cli_startup_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd)
bench="$build/bench/cudabench"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
case=$("$bench" --list | awk '$2 == "cpu" {print $1; exit}')
[ -n "$case" ] || { echo "FAIL no CPU case listed"; exit 1; }
filter="^${case}\$"
phase='[a-z ]+ [0-9]+\.[0-9]{3} s'
check "CUDABENCH_STARTUP_TIMES=1: the worker's phases to its first case, the supervisor's to its first worker" 0 \
  "$(CUDABENCH_STARTUP_TIMES=1 run "$bench" --filter="$filter" --json "$tmp/r.json")" \
  'grep -Eq "^startup: [0-9.]+ s to its first case \(process [0-9.]+ s, suite [0-9.]+ s, ($phase, )*cuda [0-9.]+ s, ($phase, )*benchmark [0-9.]+ s\)$" "$tmp/err"' \
  'grep -Eq "^startup: [0-9.]+ s to its first worker \(process [0-9.]+ s, suite [0-9.]+ s, ($phase, )*outputs [0-9.]+ s\)$" "$tmp/err"' \
  '! grep -E "to its first worker" "$tmp/err" | grep -q "cuda"' \
  'grep -Eq "^startup: [0-9.]+ s to its end \(" "$tmp/err"' \
  'py "assert \"available\" in j[\"context\"][\"device\"]" "$tmp/r.json"'
check "without it: no start-up line" 0 "$(run "$bench" --filter="$filter")" '! grep -q "^startup:" "$tmp/err"'
check "--watchdog=off: the one process says it at its first case" 0 \
  "$(CUDABENCH_STARTUP_TIMES=1 run "$bench" --filter="$filter" --watchdog=off)" \
  'grep -Eq "^startup: [0-9.]+ s to its first case \(process .*cuda [0-9.]+ s" "$tmp/err"' \
  '! grep -q "to its first worker" "$tmp/err"'
finish

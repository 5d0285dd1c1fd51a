#!/usr/bin/env bash
# run --identify: each selected case's code identity from one untimed run, written as an identities file, nothing
# timed and no results written; a case whose identity cannot be told (a CPU case, no GPU) is listed with why.
# Usage: tests/cli_identify_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd)
bench="$build/bench/cudabench"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

s=$(run "$bench" --identify="$tmp/ids.json" --filter='^(image/cpu|limits/empty_hot)$' --json="$tmp/r.json")
check "--identify: each selected case listed with its family, a digest or why it has none; no results file" 0 "$s" \
  'py "
c = {x[\"name\"]: x for x in j[\"cases\"]}
assert j[\"kind\"] == \"cudabench code identities\" and j[\"schema_version\"] == 1 and sorted(c) == [\"image/cpu\", \"limits/empty_hot\"], j
assert c[\"image/cpu\"][\"digest\"] == \"\" and c[\"image/cpu\"][\"why\"] == \"a CPU case\", c
gpu = c[\"limits/empty_hot\"]
assert gpu[\"family\"] == \"limits\" and (len(gpu[\"digest\"]) == 16) != bool(gpu.get(\"why\")), gpu
" "$tmp/ids.json"' '[ ! -e "$tmp/r.json" ]' 'grep -q "2 case(s) identified" "$tmp/err"'
s=$(run "$bench" --identify="$tmp/no/such/ids.json" --filter='^image/cpu$')
check "--identify into a missing directory: one line, exit 2" 2 "$s" 'one_line "ids.json"'
s=$(run "$bench" --identify="$tmp/ids2.json" --devices=all --filter='^image/cpu$')
check "--identify with --devices: one line, exit 2" 2 "$s" 'one_line "not with --devices"' '[ ! -e "$tmp/ids2.json" ]'
finish

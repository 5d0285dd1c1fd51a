#!/usr/bin/env bash
# The limits family in the suite binary: listed and run in every preset where the filter selects it (as before it
# moved into the library), and with --limits beside any filter, in worker processes too.
# Usage: tests/cli_limits_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd)
bench="$build/bench/cudabench"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
limits='limits/copy_d2d limits/read limits/h2d_pinned limits/d2h_pinned limits/bidir_pinned limits/h2d_pageable limits/d2h_pageable limits/fma limits/launch limits/empty_cold limits/empty_hot'
names() { awk '{print $1}' "$tmp/out" | paste -sd' '; }

check "the suite's quick preset lists the limits family first" 0 "$(run "$bench" --list)" \
  '[ "$(head -n 11 "$tmp/out" | awk "{print \$1}" | paste -sd" ")" = "$limits" ]'
check "a filter that does not name them: no limits" 0 "$(run "$bench" --list --filter=conv2d/tiled)" \
  '! grep -q "^limits/" "$tmp/out"'
check "the nightly preset with such a filter: no limits either" 0 "$(run "$bench" --list --preset=nightly --filter=conv2d/tiled)" \
  '! grep -q "^limits/" "$tmp/out"'
check "--limits: the whole family first, then the filter's cases" 0 "$(run "$bench" --list --limits --filter=conv2d/tiled/1024)" \
  '[ "$(names)" = "$limits conv2d/tiled/1024" ]'
check "--help says --limits" 0 "$(run "$bench" --help)" 'grep -q -- "--limits " "$tmp/out"'
check "--limits in worker processes: the limits are run (skipped without a GPU) beside the filter's case" 0 \
  "$(run "$bench" --limits --filter='^image/cpu$' --quiet --json "$tmp/l.json")" \
  'python3 -c "import json, sys; n = sorted({r[\"run_name\"] for r in json.load(open(sys.argv[1]))[\"benchmarks\"]}); assert len(n) == 12 and \"image/cpu\" in n and all(x.startswith(\"limits/\") for x in n if x != \"image/cpu\"), n" "$tmp/l.json"'
finish

#!/usr/bin/env bash
# Injected slowdowns against a run with rounds, on a GPU machine: the nightly preset over FILTER (image,
# matmul, and histogram and reduce at 2^20 and 2^24 elements by default), once as is, then with every case
# slowed by each PCT (--inject-slowdown='.:PCT'); each run's results under $OUT as inject-<PCT>.json
# (inject-0.json: none). Compare them here with ./run_bench compare.
# Usage: validation/device_inject_rounds.sh [PCT...]    (default 2 3)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
filter=${FILTER:-'^(image|matmul|histogram|reduce)/'}
sizes=(--sizes=histogram=1048576,16777216 --sizes=reduce=1048576,16777216)
for pct in 0 "${@:-2 3}"; do
  for p in $pct; do
    inject=(); [ "$p" = 0 ] || inject=(--inject-slowdown=".:$p")
    start=$SECONDS
    timeout 150 "$bench" --quiet --preset=nightly --filter="$filter" "${sizes[@]}" "${inject[@]}" --json "$out/inject-$p.json" >"$out/inject-$p.txt" 2>&1
    echo "inject $p%: exit $?, $(grep 'case(s):' "$out/inject-$p.txt"), $((SECONDS - start)) s"
  done
done

#!/usr/bin/env bash
# Validation runs on a GPU machine (binaries from validation/device_pack.sh in .devlibs/); see docs/validation.md.
#   validation/validate.sh aa NAME...           nightly runs named NAME into $OUT/NAME.json, back to back, each timed;
#                                       then every consecutive pair compared (A/A: nothing should be flagged)
#   validation/validate.sh inject PCT NAME      a nightly run with PCT% injected into one case of each family
# Stops starting runs when the next one would not finish inside $BUDGET_S seconds (default 560).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
budget=${BUDGET_S:-560} start=$(date +%s) last=0
injected='^(image/pinned_streams/4|histogram/cub/16777216|conv2d/tiled/4096|matmul/cublas/2048|vector/explicit/16777216|dot/shared/16777216|reduce/cub/16777216)$'
run_one() {  # run_one NAME [extra options]
  local name=$1; shift
  local now=$(( $(date +%s) - start ))
  if [ "$last" -gt 0 ] && [ $(( now + last + last / 5 )) -gt "$budget" ]; then echo "skip $name: would not fit the budget"; return 1; fi
  local t0=$(date +%s)
  "$bench" --preset=nightly --json "$out/$name.json" --benchmark_color=false ${NIGHTLY_OPTS:-} "$@" >"$out/$name.log" 2>&1
  local rc=$?
  last=$(( $(date +%s) - t0 ))
  echo "$name: exit $rc, wall $last s, $(tail -n 2 "$out/$name.log" | head -n 1)"
}
mode=$1; shift
case "$mode" in
  aa)
    prev=""
    for name in "$@"; do
      run_one "$name" || break
      if [ -n "$prev" ]; then
        "$report" compare "$out/$prev.json" "$out/$name.json" --verdict "$out/$prev-vs-$name.verdict.json" >"$out/$prev-vs-$name.txt" 2>&1
        echo "compare $prev -> $name: exit $?; $(tail -n 1 "$out/$prev-vs-$name.txt")"
        grep -E " (regression|improvement|inconclusive) " "$out/$prev-vs-$name.txt" | cut -c1-160
      fi
      prev=$name
    done ;;
  inject)
    pct=$1 name=$2 base=${3:-}
    run_one "$name" "--inject-slowdown=$injected:$pct"
    if [ -n "$base" ] && [ -f "$out/$base.json" ]; then
      "$report" compare "$out/$base.json" "$out/$name.json" --verdict "$out/$base-vs-$name.verdict.json" >"$out/$base-vs-$name.txt" 2>&1
      echo "compare $base -> $name: exit $?; $(tail -n 1 "$out/$base-vs-$name.txt")"
      grep -E " (regression|improvement|inconclusive) " "$out/$base-vs-$name.txt" | cut -c1-160
    fi ;;
  *) echo "usage: validation/validate.sh aa NAME... | inject PCT NAME [BASE]" >&2; exit 2 ;;
esac

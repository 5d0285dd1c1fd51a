#!/usr/bin/env bash
# Times compare (alone, and with its four outputs), report in every format, trend and fleet over synthetic
# results of N rows a side (wall time and peak memory from /usr/bin/time -v), and prints a Markdown table for
# docs/validation.md. --repetitions sets the rows a case (default 10; 1: a case a row).
#   tools/scale/bench.sh [--report PATH] [--keep DIR] [--repetitions N] ROWS...   e.g. tools/scale/bench.sh 10000 100000 1000000
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
report=${REPORT:-$here/../../build/app/cudabench-report}
keep=""
reps=10
while [[ $# -gt 0 ]]; do
  case $1 in
    --report) report=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --repetitions) reps=$2; shift 2 ;;
    -h|--help) sed -n 2,4p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
[[ $# -gt 0 ]] || { echo "bench.sh: give the row counts (e.g. 10000 100000)" >&2; exit 2; }
[[ -x $report ]] || { echo "bench.sh: $report: no cudabench-report there (build it, or pass --report)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench.sh: needs /usr/bin/time (GNU time) for the peak memory" >&2; exit 2; }
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[[ -n $keep ]] || trap 'rm -rf "$work"' EXIT


# One command: wall seconds and peak resident memory; its exit status 0 or 1 (a comparison's verdict) is fine.
measure() {
  local label=$1 input_bytes=$2; shift 2
  local log="$work/time.log" rc=0
  /usr/bin/time -v "$@" >"$work/stdout" 2>"$log" || rc=$?
  if [[ $rc -gt 1 ]]; then echo "bench.sh: $label failed (exit $rc):" >&2; tail -5 "$log" >&2; exit 1; fi
  local wall cpu kb
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$log")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s }' "$log")
  kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$log")
  awk -v r="$rows" -v l="$label" -v w="$wall" -v c="$cpu" -v k="$kb" -v i="$input_bytes" \
    'BEGIN { printf "| %d | %s | %.2f | %.2f | %.0f | %.0f | %.2f |\n", r, l, w, c, k / 1024, i / 1048576, k * 1024 / i }'
}

echo "| rows a side | command | wall (s) | CPU (s) | peak memory (MiB) | input (MiB) | peak / input |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for rows in "$@"; do
  base="$work/base-$rows-$reps.json" cur="$work/cur-$rows-$reps.json" dir="$work/trend-$rows-$reps"
  [[ -s $base ]] || python3 "$here/make_results.py" --rows "$rows" --repetitions "$reps" --out "$base"
  [[ -s $cur ]] || python3 "$here/make_results.py" --rows "$rows" --repetitions "$reps" --slower 10 --seed 2 --date 2026-11-23T04:43:46+00:00 --out "$cur"
  mkdir -p "$dir"
  ln -f "$base" "$dir/1.json" 2>/dev/null || cp "$base" "$dir/1.json"
  ln -f "$cur" "$dir/2.json" 2>/dev/null || cp "$cur" "$dir/2.json"
  one=$(stat -c %s "$base")
  two=$(( one + $(stat -c %s "$cur") ))
  out="$work/out"
  measure "compare" "$two" "$report" compare "$base" "$cur"
  measure "compare, 4 outputs" "$two" "$report" compare "$base" "$cur" --md "$out.md" --html "$out.html" --csv "$out.csv" --verdict "$out.json"
  measure "report (text)" "$one" "$report" report "$base"
  measure "report --md" "$one" "$report" report "$base" --md "$out.md"
  measure "report --html" "$one" "$report" report "$base" --html "$out.html"
  measure "report --csv" "$one" "$report" report "$base" --csv "$out.csv"
  measure "report --format=gab" "$one" "$report" report "$base" --format=gab
  measure "report --format=bmf" "$one" "$report" report "$base" --format=bmf
  measure "trend (2 runs)" "$two" "$report" trend "$dir"
  measure "fleet (2 runs)" "$two" "$report" fleet "$base" "$cur"
  rm -f "$out".*
done

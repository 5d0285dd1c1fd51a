#!/usr/bin/env bash
# A/A check of learned gates over kept nightly runs with rounds (tools/validation/runs/<model>/*.json.gz):
# learns the gates from all of them, then compares every pair (older as baseline) with those gates and prints
# the regressions and improvements each pair shows (both should be 0), and the gated cases' gates.
# Usage: tools/validation/aa_pairs.sh [RUNS_DIR]    (default tools/validation/runs/h100)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs=${1:-$root/tools/validation/runs/h100}
report=${REPORT:-$root/build/app/cudabench-report}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
for f in "$runs"/*.json.gz; do gunzip -c "$f" >"$tmp/$(basename "$f" .gz)"; done
n=$(find "$tmp" -name '*.json' | wc -l)
[ "$n" -ge 2 ] || { echo "aa_pairs: $n run(s) in $runs; two or more are needed" >&2; exit 2; }
"$report" gates "$tmp" --out "$tmp/gates.out" >"$tmp/gates.txt" || { cat "$tmp/gates.txt"; exit 2; }
head -n 3 "$tmp/gates.txt"
mapfile -t files < <(find "$tmp" -name '*.json' | sort)
printf '%-34s %-34s %5s %5s %5s %5s\n' baseline current regr impr incon unch
for ((i = 0; i < ${#files[@]}; i++)); do
  for ((j = i + 1; j < ${#files[@]}; j++)); do
    "$report" compare "${files[i]}" "${files[j]}" --gates "$tmp/gates.out" --verdict "$tmp/v.json" >/dev/null
    python3 - "$tmp/v.json" "$(basename "${files[i]}")" "$(basename "${files[j]}")" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
print(f"{sys.argv[2]:<34} {sys.argv[3]:<34} {c.get('regression', 0):5} {c.get('improvement', 0):5} {c.get('inconclusive', 0):5} {c.get('unchanged', 0):5}")
PY
  done
done
python3 - "$tmp/gates.out" <<'PY'
import json, sys, statistics
g = json.load(open(sys.argv[1]))["cases"]
gates = sorted(100 * v["gate"] for v in g.values())
if gates:
    print(f"{len(gates)} learned gates: min {gates[0]:.2f}%, median {statistics.median(gates):.2f}%, max {gates[-1]:.2f}%")
PY

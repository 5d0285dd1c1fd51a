#!/usr/bin/env bash
# A/A check of learned gates over kept nightly runs with rounds (validation/runs/<model>/*.json.gz):
# learns the gates from all of them, then compares every pair (the first by name as baseline) with those gates
# and prints the regressions and improvements each pair shows (both should be 0), and the gated cases' gates.
# Then, out of sample: each run held out in turn, gates learned from the others, the held-out run compared
# against each of them; the totals.
# Usage: validation/aa_pairs.sh [RUNS_DIR]    (default validation/runs/h100)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs=${1:-$root/validation/runs/h100}
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
counts() {
  python3 - "$1" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
print(c.get("regression", 0), c.get("improvement", 0), c.get("inconclusive", 0), c.get("unchanged", 0))
PY
}
total=(0 0 0 0) pairs=0
for held in "${files[@]}"; do
  mkdir -p "$tmp/rest" && rm -f "$tmp/rest"/*.json
  for f in "${files[@]}"; do [ "$f" = "$held" ] || ln -s "$f" "$tmp/rest/"; done
  "$report" gates "$tmp/rest" --out "$tmp/rest.gates" >/dev/null || exit 2
  for f in "${files[@]}"; do
    [ "$f" = "$held" ] && continue
    rm -f "$tmp/v.json"
    "$report" compare "$f" "$held" --gates "$tmp/rest.gates" --verdict "$tmp/v.json" >/dev/null
    [ $? -le 1 ] || { echo "aa_pairs: compare $f $held failed" >&2; exit 2; }
    read -r -a c < <(counts "$tmp/v.json")
    for k in 0 1 2 3; do total[k]=$((total[k] + c[k])); done
    pairs=$((pairs + 1))
  done
done
echo "held out (gates from the other runs): $pairs comparisons, ${total[0]} regressions, ${total[1]} improvements, ${total[2]} inconclusive, ${total[3]} unchanged"
python3 - "$tmp/gates.out" <<'PY'
import json, sys, statistics
g = json.load(open(sys.argv[1]))["cases"]
gates = sorted(100 * v["gate"] for v in g.values())
if gates:
    print(f"{len(gates)} learned gates: min {gates[0]:.2f}%, median {statistics.median(gates):.2f}%, max {gates[-1]:.2f}%")
PY

#!/usr/bin/env bash
# Verdicts across boards, from the kept runs: the nightly runs of validation/runs/h100 (those that
# validation/device_boards.sh made are kept there as nightly-board-<board>.json.gz) and its extra-work runs
# (validation/runs/h100-extra/extra-<board>.json.gz):
#  1. A/A: each nightly-board-* run against the stored baseline, with gates learned from every other kept run
#     (the run itself held out): regressions, improvements, machine differs, and the largest normalized change
#     over its gate.
#  2. Detection: each extra-work run (reduce and matmul doing PCT% more real work) against the nightly run of
#     the same board and against the stored baseline (another board), with gates learned without that board's
#     nightly run: per gated device case of 20 us or more, the normalized change, the gate, and whether it was
#     flagged.
# Usage: validation/boards_table.sh [RUNS_DIR [EXTRA_DIR]]   (REPORT: the cudabench-report binary,
#        default build/app/cudabench-report; BASELINE: the stored baseline)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
report=${REPORT:-$root/build/app/cudabench-report}
baseline=${BASELINE:-$root/reports/baselines/NVIDIA_H100_80GB_HBM3/nightly.json}
kept=${1:-$root/validation/runs/h100}
extra=${2:-$root/validation/runs/h100-extra}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/all" "$tmp/new" "$tmp/extra"
for f in "$kept"/*.json.gz; do gunzip -c "$f" >"$tmp/all/$(basename "$f" .gz)"; done
for f in "$tmp"/all/nightly-board-*.json; do [ -e "$f" ] && ln -s "$f" "$tmp/new/"; done
for f in "$extra"/extra-*.json.gz; do [ -e "$f" ] && gunzip -c "$f" >"$tmp/extra/$(basename "$f" .gz)"; done
echo "runs for the gates: $(ls "$tmp/all" | wc -l) ($(ls "$tmp/new" | wc -l) new)"
held_out_gates() {  # $1: the run left out; writes $tmp/held.gates.json
  local run
  rm -rf "$tmp/rest" && mkdir "$tmp/rest"
  for run in "$tmp"/all/*.json; do [ "$(basename "$run")" = "$(basename "$1")" ] || ln -s "$run" "$tmp/rest/"; done
  "$report" gates "$tmp/rest" --out "$tmp/held.gates.json" >"$tmp/gates.txt" || { cat "$tmp/gates.txt" >&2; exit 2; }
}
echo
echo "A/A: each new board's nightly against the stored baseline ($(basename "$(dirname "$baseline")")), gates held out"
printf '%-28s %5s %5s %7s %5s %5s  %s\n' run regr impr machine incon unch "largest |normalized change| / gate"
for f in "$tmp"/new/*.json; do
  held_out_gates "$f"
  "$report" compare "$baseline" "$f" --gates "$tmp/held.gates.json" --verdict "$tmp/v.json" >"$tmp/c.txt"
  python3 - "$tmp/v.json" "$(basename "$f")" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
c = v["counts"]
worst = max(((abs(x.get("normalized_change", x.get("change", 0))) / x["gate"], x["name"]) for x in v["cases"]
             if x.get("gate") and x["verdict"] in ("unchanged", "inconclusive", "regression", "improvement")), default=(0, "-"))
print(f"{sys.argv[2]:<28} {c['regression']:5} {c['improvement']:5} {c.get('machine differs', 0):7} {c['inconclusive']:5} {c['unchanged']:5}  {worst[0]:.2f} ({worst[1]})")
for x in v["cases"]:
    if x["verdict"] in ("regression", "improvement"):
        print(f"    {x['verdict']}: {x['name']} {100 * x.get('change', 0):+.1f}% normalized {100 * x.get('normalized_change', x.get('change', 0)):+.1f}% gate {100 * x['gate']:.1f}%")
PY
done
echo
echo "Detection: extra-work runs (gated device cases of 20 us or more)"
for e in "$tmp"/extra/*.json; do
  board=$(basename "$e" .json | sed 's/^extra-//')
  same="$tmp/new/nightly-board-$board.json"
  held_out_gates "$same"
  for base in "$same" "$baseline"; do
    [ -e "$base" ] || continue
    "$report" compare "$base" "$e" --gates "$tmp/held.gates.json" --verdict "$tmp/v.json" >"$tmp/c.txt"
    python3 - "$tmp/v.json" "$board" "$(basename "$base")" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
rows = [x for x in v["cases"] if x.get("gate") and x.get("baseline_median_s", 0) >= 20e-6
        and not x["name"].startswith("limits/") and x["verdict"] not in ("not gated", "new", "missing", "skipped", "failed")]
allowed = [x for x in rows if x.get("normalized_change", x.get("change", 0)) > x["gate"]]
flagged = [x for x in allowed if x["verdict"] == "regression"]
print(f"board {sys.argv[2]} against {sys.argv[3]}: {len(rows)} gated device cases >= 20 us; gate below the change in {len(allowed)}; flagged {len(flagged)} of them")
for x in rows:
    n = x.get("normalized_change", x.get("change", 0))
    print(f"    {x['name']:<34} change {100 * x.get('change', 0):+5.1f}% normalized {100 * n:+5.1f}% gate {100 * x['gate']:4.1f}% {x['verdict']}")
PY
  done
done

#!/usr/bin/env bash
# Stores a baseline: runs the preset with --save-baseline, or files an existing result (e.g. a nightly
# artifact) under reports/baselines/<gpu-model>/<preset>.json. With --history, also learns the gates from those
# runs (run_bench gates) and stores them beside it as <gpu-model>/<preset>.gates.json; without, a gates file
# already there is kept.
# Usage: ci/baseline.sh [--preset=nightly] [--history=DIR|RUN.json]... [RESULT.json]
#   --history: a directory of runs (its *.json, as trend reads them, e.g. the nightly results kept on the
#   runner) or one result file; repeat it for several. The runs must be of the baseline's GPU model and preset.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset=nightly from="" history=()
for a in "$@"; do
  case "$a" in
    --preset=*) preset=${a#--preset=} ;;
    --history=*) history+=("${a#--history=}") ;;
    -*) echo "ci/baseline.sh: unknown option '$a'" >&2; exit 2 ;;
    *) from=$a ;;
  esac
done
for h in ${history[@]+"${history[@]}"}; do
  [ -e "$h" ] || { echo "ci/baseline.sh: --history=$h: no such file or directory" >&2; exit 2; }
done
if [ -z "$from" ] && [ ${#history[@]} -eq 0 ]; then
  exec "$root/run_bench" --preset="$preset" --save-baseline --baseline-dir="$root/reports/baselines"
fi
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
# Learns the gates of the history into $work, refused unless of the GPU model and preset of result $1.
learn_gates() {
  "$root/run_bench" gates "${history[@]}" --out "$work/gates.json" || return 2
  python3 - "$1" "$work/gates.json" <<'EOF' || return 2
import json, sys
ctx = json.load(open(sys.argv[1]))["context"]
gates = json.load(open(sys.argv[2]))
model = (ctx.get("device") or {}).get("name") or "no GPU"
preset = ctx.get("cudabench", {}).get("preset", "")
if (gates["device"], gates["preset"]) != (model, preset):
    sys.exit("ci/baseline.sh: the history is of %s / %s and the baseline of %s / %s: gates are stored beside a "
             "baseline of their GPU model and preset only" % (gates["device"], gates["preset"], model, preset))
EOF
}
if [ -z "$from" ]; then  # a run with history: stored only once its gates are learned
  "$root/run_bench" --preset="$preset" --json="$work/run.json" || exit $?
  from="$work/run.json"
fi
[ -f "$from" ] || { echo "ci/baseline.sh: $from: no such file" >&2; exit 2; }
"$root/run_bench" compare "$from" "$from" --gates none >/dev/null || { echo "ci/baseline.sh: $from: not a usable result" >&2; exit 2; }
dest=$(python3 "$root/ci/baseline_path.py" "$from" "$root/reports/baselines") || exit 2
if [ ${#history[@]} -gt 0 ]; then learn_gates "$from" || exit 2; fi  # nothing stored
mkdir -p "$(dirname "$dest")"
cp "$from" "$dest.tmp.$$" && mv "$dest.tmp.$$" "$dest"
echo "baseline saved: $dest"
[ ${#history[@]} -eq 0 ] && exit 0
gates="${dest%.json}.gates.json"
cp "$work/gates.json" "$gates.tmp.$$" && mv "$gates.tmp.$$" "$gates" && echo "gates saved: $gates"

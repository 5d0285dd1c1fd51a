#!/usr/bin/env bash
# Stores a baseline: runs the preset with --save-baseline, or files an existing result (e.g. a nightly
# artifact) under reports/baselines/<gpu-model>/<preset>.json.
# Usage: ci/baseline.sh [--preset=nightly] [RESULT.json]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset=nightly from=""
for a in "$@"; do
  case "$a" in
    --preset=*) preset=${a#--preset=} ;;
    -*) echo "ci/baseline.sh: unknown option '$a'" >&2; exit 2 ;;
    *) from=$a ;;
  esac
done
if [ -z "$from" ]; then exec "$root/run_bench" --preset="$preset" --save-baseline --baseline-dir="$root/reports/baselines"; fi
[ -f "$from" ] || { echo "ci/baseline.sh: $from: no such file" >&2; exit 2; }
"$root/run_bench" compare "$from" "$from" >/dev/null || { echo "ci/baseline.sh: $from: not a usable result" >&2; exit 2; }
dest=$(python3 "$root/ci/baseline_path.py" "$from" "$root/reports/baselines") || exit 2
mkdir -p "$(dirname "$dest")"
cp "$from" "$dest.tmp.$$" && mv "$dest.tmp.$$" "$dest"
echo "baseline saved: $dest"

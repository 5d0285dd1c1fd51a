#!/usr/bin/env bash
# The nightly job, as the nightly workflow and SLURM script run it (and as a person can run it locally):
# the nightly preset, compared against the stored baseline for this GPU model, with every report written.
# Usage: ci/nightly.sh [RESULTS_DIR]    (default: results/; or $CUDABENCH_RESULTS_DIR)
# Exit status: 0 no regression, 1 a regression (or a case failed its check), 2 usage/input error.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-${CUDABENCH_RESULTS_DIR:-$root/results}}"
mkdir -p "$dir" || exit 2
stamp=$(date -u +%Y%m%dT%H%M%SZ)
json="$dir/nightly-$stamp.json"
"$root/run_bench" --preset=nightly --json "$json" || run_status=$?
run_status=${run_status:-0}
[ -f "$json" ] || exit "$run_status"   # refused before running (usage or input error)
baseline=$(python3 "$root/ci/baseline_path.py" "$json" "$root/reports/baselines") || exit 2
status=$run_status
if [ -f "$baseline" ]; then
  "$root/run_bench" compare "$baseline" "$json" --md "$dir/report-$stamp.md" --html "$dir/report-$stamp.html" --json "$dir/verdict-$stamp.json"
  cmp=$?
  [ "$cmp" -gt "$status" ] && status=$cmp
else
  echo "note: no stored baseline at $baseline; ci/baseline.sh stores one. Writing the speedup report only." >&2
  "$root/run_bench" report "$json" --md "$dir/report-$stamp.md" --html "$dir/report-$stamp.html" >/dev/null
fi
ln -sf "$(basename "$json")" "$dir/latest.json"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$dir/report-$stamp.md" ]; then cat "$dir/report-$stamp.md" >>"$GITHUB_STEP_SUMMARY"; fi
exit "$status"

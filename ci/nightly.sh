#!/usr/bin/env bash
# The nightly job, as the nightly workflow and SLURM script run it (and as a person can run it locally):
# the nightly preset, compared against the stored baseline for this GPU model, with every report written,
# then the trend over every night kept in the results directory.
# Usage: ci/nightly.sh [RESULTS_DIR]    (default: $CUDABENCH_RESULTS_DIR, else results/)
#   RESULTS_DIR/runs/nightly-<time>.json   each night's results (what `trend` reads); latest.json links the newest
#   RESULTS_DIR/report-<time>.md|.html, verdict-<time>.json, trend.html
# CUDABENCH_BASELINE_DIR: where baselines are stored (default: reports/baselines of this checkout).
# RUN_BENCH names the runner (default: this checkout's run_bench; a project's own binary built with
# cudabench::main also works, with cudabench-report for compare/report/trend).
# Exit status: 0 no regression; 1 a regression (or a case failed its check); 2 usage or input error, or no
# baseline stored for this GPU model (the results and the speedup report are still written).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-${CUDABENCH_RESULTS_DIR:-$root/results}}"
mkdir -p "$dir/runs" || exit 2
stamp=$(date -u +%Y%m%dT%H%M%SZ)
json="$dir/runs/nightly-$stamp.json"
run_bench=${RUN_BENCH:-$root/run_bench}
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi; }
"$run_bench" --preset=nightly --json "$json" || run_status=$?
run_status=${run_status:-0}
[ -f "$json" ] || exit "$run_status"   # refused before running (usage or input error)
ln -sfn "runs/$(basename "$json")" "$dir/latest.json"
baseline=$(python3 "$root/ci/baseline_path.py" "$json" "${CUDABENCH_BASELINE_DIR:-$root/reports/baselines}") || exit 2
status=$run_status
if [ -f "$baseline" ]; then
  "$run_bench" compare "$baseline" "$json" --md "$dir/report-$stamp.md" --html "$dir/report-$stamp.html" --verdict "$dir/verdict-$stamp.json"
  cmp=$?
  [ "$cmp" -gt "$status" ] && status=$cmp
  [ -f "$dir/report-$stamp.md" ] && summary <"$dir/report-$stamp.md"
else
  msg="no baseline is stored for this GPU model and the nightly preset (${baseline#"$root"/}), so nothing was compared. Store one with the baseline workflow (Actions > baseline > Run workflow) or \`bash ci/baseline.sh --preset=nightly $json\`, and merge its pull request."
  echo "run_bench: $msg" >&2
  "$run_bench" report "$json" --md "$dir/report-$stamp.md" --html "$dir/report-$stamp.html" >/dev/null
  printf '## Nightly benchmarks: no baseline\n\n%s\n\n' "$msg" | summary
  status=2
fi
nights=$(find "$dir/runs" -maxdepth 1 -name 'nightly-*.json' | wc -l)
if [ "$nights" -ge 2 ]; then
  if "$run_bench" trend "$dir/runs" --html "$dir/trend.html" >"$dir/trend.txt"; then
    { printf '\n## Trend over %s nights\n\n```\n' "$nights"; tail -n 40 "$dir/trend.txt"; printf '```\n'; } | summary
  fi
fi
exit "$status"

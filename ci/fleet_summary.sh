#!/usr/bin/env bash
# The fleet report of one night, as the nightly workflow's last job writes it: `run_bench fleet` over every
# model's results directory under NIGHTS_DIR (each subdirectory holding a latest run, where RUN_BENCH store latest
# names it; e.g. the models' downloaded artifacts), to OUT_DIR/fleet.md|.html|.csv, the Markdown also into the job
# summary.
# Usage: ci/fleet_summary.sh NIGHTS_DIR OUT_DIR    (RUN_BENCH names the runner, as in ci/nightly.sh)
# Exit status: the fleet command's (0, 1 a model's verdict failed, 2 bad input or no model's results).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/defaults.sh"
run_bench=$(cb_runner report) || exit 2
[ $# = 2 ] || { echo "ci/fleet_summary.sh: usage: ci/fleet_summary.sh NIGHTS_DIR OUT_DIR" >&2; exit 2; }
nights=$1 out=$2
dirs=()
for d in "$nights"/*/; do
  latest=$("$run_bench" store latest "${d%/}" 2>/dev/null) && [ -e "$latest" ] && dirs+=("${d%/}")
done
if [ ${#dirs[@]} -eq 0 ]; then
  echo "ci/fleet_summary.sh: no model's results under $nights (no directory with a latest run)" >&2
  exit 2
fi
mkdir -p "$out" || exit 2
"$run_bench" fleet "${dirs[@]}" --md "$out/fleet.md" --html "$out/fleet.html" --csv "$out/fleet.csv"
status=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$out/fleet.md" ]; then cat "$out/fleet.md" >>"$GITHUB_STEP_SUMMARY"; fi
exit "$status"

#!/usr/bin/env bash
# The cost of rounds on one GPU machine: the full nightly with its rounds, then the same 10 repetitions in one
# worker process (--rounds=1), each timed (wall, start to exit), then the run with rounds compared with the
# stored baseline and its learned gates (the A/A check). Results under $OUT: rounds-<board>.json.gz,
# one-<board>.json.gz, compare-<board>.md and times.txt (<board>: the uuid's first 8 hex digits).
# Usage: validation/device_rounds_cost.sh [RUN_BENCH OPTIONS...]   (added to both runs)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
nvidia-smi --query-gpu=name,uuid,clocks.max.sm,clocks.max.mem,pcie.link.gen.current,temperature.gpu --format=csv,noheader | tee "$out/times.txt"
board=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -n 1 | cut -c5-12)
timed() {  # NAME ARGS...: one nightly run, its wall time in times.txt
  local name=$1; shift
  local start; start=$(date +%s.%N)
  timeout 290 "$bench" --quiet --preset=nightly "$@" --json "$out/$name-$board.json" >"$out/$name-$board.txt" 2>&1
  local rc=$?
  printf '%s exit %s, %s, %.1f s\n' "$name" "$rc" "$(grep 'case(s):' "$out/$name-$board.txt")" "$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" \
    | tee -a "$out/times.txt"
}
timed rounds "$@"
timed one --rounds=1 "$@"
base=reports/baselines/NVIDIA_H100_80GB_HBM3
"$bench" compare "$base/nightly.json" "$out/rounds-$board.json" --gates="$base/nightly.gates.json" --md "$out/compare-$board.md" \
  >"$out/compare-$board.txt" 2>&1
echo "compare with the stored baseline: exit $?" | tee -a "$out/times.txt"
tail -n 4 "$out/compare-$board.txt" | tee -a "$out/times.txt"
gzip -f "$out"/*.json

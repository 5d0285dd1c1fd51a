#!/usr/bin/env bash
# A/B of two benchmark binaries on one board (binaries from device_pack.sh in .devlibs/): the nightly preset
# with A, then with B, back to back; then B compared with A (does B measure what A measured?) and B with the
# stored baseline of this GPU model. Results under $OUT (or ./out); a short table at the end.
# Usage: validation/ab_nightly.sh A_BINARY [B_BINARY]   (B defaults to the packed suite; REPS=6)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
a=$1 b=${2:-$bench} reps=${REPS:-6}
nvidia-smi --query-gpu=name,uuid,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader | tee "$out/gpu.txt"
for side in a b; do
  bin=$a; [ "$side" = b ] && bin=$b
  start=$(date +%s)
  "$bin" --preset=nightly --repetitions="$reps" --json "$out/nightly_$side.json" >"$out/nightly_$side.txt" 2>&1
  echo "$side: exit $?, $(grep 'case(s):' "$out/nightly_$side.txt"), $(( $(date +%s) - start )) s"
done
"$report" compare "$out/nightly_a.json" "$out/nightly_b.json" --md "$out/b_vs_a.md" >"$out/b_vs_a.txt" 2>&1
echo "B vs A (same board): exit $?, $(tail -n 1 "$out/b_vs_a.txt")"
grep -E " (regression|improvement) " "$out/b_vs_a.txt"
baseline=$("$report" store baseline "$out/nightly_b.json" --baseline-dir="$root/reports/baselines")
"$report" compare "$baseline" "$out/nightly_b.json" >"$out/b_vs_stored.txt" 2>&1
echo "B vs stored baseline: exit $?, $(tail -n 1 "$out/b_vs_stored.txt")"
grep -E " (regression|improvement) " "$out/b_vs_stored.txt"
"$report" compare "$baseline" "$out/nightly_a.json" >"$out/a_vs_stored.txt" 2>&1
echo "A vs stored baseline: exit $?, $(tail -n 1 "$out/a_vs_stored.txt")"
grep -E " (regression|improvement) " "$out/a_vs_stored.txt"

#!/usr/bin/env bash
# Nightly runs with rounds on a GPU machine, for the learned gates and the A/A check: each run's results
# (nightly-<tag>-<i>.json) and wall time under $OUT, then the table of times.
# Usage: validation/device_rounds.sh TAG COUNT [RUN_BENCH OPTIONS...]
#   e.g. device_rounds.sh h100a 1                 one nightly run with the preset's rounds
#        device_rounds.sh one 1 --rounds=1        the same in one worker process, for the wall-time ratio
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
tag=${1:?tag}; count=${2:?count}; shift 2
nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee -a "$out/times.txt"
for i in $(seq 1 "$count"); do
  start=$SECONDS
  "$bench" --quiet --preset=nightly "$@" --json "$out/nightly-$tag-$i.json" >"$out/nightly-$tag-$i.txt" 2>&1; rc=$?
  printf '%s-%s exit %s, %s, %s s\n' "$tag" "$i" "$rc" "$(grep 'case(s):' "$out/nightly-$tag-$i.txt")" "$((SECONDS - start))" | tee -a "$out/times.txt"
  rm -f "$out/nightly-$tag-$i.txt"
done

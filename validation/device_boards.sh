#!/usr/bin/env bash
# One board of a runner pool, on a GPU machine (docs/validation.md, "False alarms" and "Detection"): what the board is
# (nvidia-smi, and the facts a run records), the full nightly with rounds, then the nightly preset over the
# limits and the device cases of reduce and matmul with CUDABENCH_EXTRA_WORK=PCT (default 2): reduce reads PCT%
# more of its input, matmul multiplies a second pair of matrices with PCT% of the FLOPs. Results under $OUT as
# nightly-<board>.json.gz and extra-<board>.json.gz (<board>: the uuid's first 8 hex digits); kept here as
# validation/runs/h100/nightly-board-<board>.json.gz and runs/h100-extra/extra-<board>.json.gz, they are
# compared by validation/boards_table.sh.
# Usage: [SKIP_EXTRA=1] validation/device_boards.sh [PCT]   (SKIP_EXTRA: the nightly alone)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
pct=${1:-2}
nvidia-smi --query-gpu=name,uuid,serial,vbios_version,driver_version,power.limit,clocks.max.sm,clocks.max.mem,pcie.link.gen.current,pcie.link.width.current,temperature.gpu \
  --format=csv | tee "$out/gpu.txt"
board=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -n 1 | cut -c5-12)
start=$SECONDS
timeout 440 "$bench" --preset=nightly --json "$out/nightly-$board.json" >"$out/nightly-$board.txt" 2>&1
echo "nightly: exit $?, $(grep 'case(s):' "$out/nightly-$board.txt"), $((SECONDS - start)) s"
start=$SECONDS
[ -n "${SKIP_EXTRA:-}" ] || {
device_cases='^(limits/|reduce/(shared_tree|warp_shuffle|recursive_tail|cub|fast)/|matmul/(naive|tiled|fast|cublas)/)'
CUDABENCH_EXTRA_WORK=$pct timeout 140 "$bench" --preset=nightly --filter="$device_cases" --json "$out/extra-$board.json" \
  >"$out/extra-$board.txt" 2>&1
echo "extra work $pct%: exit $?, $(grep 'case(s):' "$out/extra-$board.txt"), $((SECONDS - start)) s"
}
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["context"]["device"].get("machine"), indent=1))' \
  "$out/nightly-$board.json" | head -n 40
gzip -f "$out"/*.json

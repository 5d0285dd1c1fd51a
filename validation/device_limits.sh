#!/usr/bin/env bash
# The limits family and "% of limit" on a GPU machine, from the repository root, with the binaries
# device_pack.sh packed into .devlibs/: the quick preset (limits measured in the run) with its report, a run
# without the limits cases (they come from the stored baseline of this GPU model when there is one), and the
# nightly preset's conv2d family with the Table 1 layout. Results under $OUT (or ./out).
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
"$root/.devlibs/tests/gpu_tests" >"$out/gpu_tests.txt" 2>&1; echo "gpu tests: exit $?, $(grep -E '^\[  PASSED  \]|FAILED TEST' "$out/gpu_tests.txt" | tr '\n' ' ')"
"$bench" --quiet --json "$out/quick.json" --md "$out/quick.md" >"$out/quick.txt" 2>&1; echo "quick: exit $?, $(grep 'case(s):' "$out/quick.txt")"
grep -E "^limits/" "$out/quick.txt"
sed -n '/^Limits/,/^$/p' "$out/quick.txt"
grep -E "^  (naive|tiled|cudnn|shared_gpu_merge|cub|warp_shuffle|pinned_streams/4|kernel_only|sync) " "$out/quick.txt" | head -n 24
"$bench" --quiet --filter='^reduce/cub' --json "$out/no_limits.json" >"$out/no_limits.txt" 2>&1; echo "without limits cases: exit $?; $(grep '^limits:' "$out/no_limits.txt")"
"$bench" --quiet --preset=nightly --repetitions=3 --filter='^(limits/copy_d2d|conv2d/)' --json "$out/conv_nightly.json" --md "$out/conv_nightly.md" >"$out/conv_nightly.txt" 2>&1
echo "nightly conv2d (3 repetitions): exit $?, $(grep 'case(s):' "$out/conv_nightly.txt")"
sed -n '/Table 1/,/^$/p' "$out/conv_nightly.txt"

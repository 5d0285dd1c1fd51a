#!/usr/bin/env bash
# A/B of two benchmark binaries on one board, interleaved (A B A B ...) so drift and order affect both alike:
# the nightly preset over the cases FILTER selects, ROUNDS times each; then, per case, the median of A's
# run medians against B's. Binaries from device_pack.sh in .devlibs/; results under $OUT (or ./out).
# Usage: validation/ab_interleaved.sh A_BINARY B_BINARY FILTER [ROUNDS]   (default 3 rounds)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
a=$1 b=$2 filter=$3 rounds=${4:-3}
nvidia-smi --query-gpu=name,uuid,clocks.sm,temperature.gpu --format=csv,noheader
for ((r = 1; r <= rounds; r++)); do
  for side in a b; do
    bin=$a; [ "$side" = b ] && bin=$b
    "$bin" --preset=nightly --repetitions=3 --filter="$filter" --json "$out/ab_${side}_$r.json" >/dev/null 2>&1 || echo "$side round $r: exit $?"
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def medians(side):
    per = {}
    for r in range(1, rounds + 1):
        for row in json.load(open("%s/ab_%s_%d.json" % (out, side, r)))["benchmarks"]:
            if row.get("run_type") == "iteration" and row.get("real_time", 0) > 0:
                per.setdefault(row["name"], {}).setdefault(r, []).append(row["real_time"])
    return {k: [statistics.median(v[r]) for r in sorted(v)] for k, v in per.items()}
A, B = medians("a"), medians("b")
print("%-40s %12s %12s %8s  %s" % ("case", "A us", "B us", "B/A-1", "A runs | B runs"))
for k in sorted(A):
    if k in B:
        ma, mb = statistics.median(A[k]), statistics.median(B[k])
        print("%-40s %12.2f %12.2f %+7.1f%%  %s | %s" % (k, ma, mb, 100 * (mb / ma - 1),
              " ".join("%.2f" % x for x in A[k]), " ".join("%.2f" % x for x in B[k])))
PY

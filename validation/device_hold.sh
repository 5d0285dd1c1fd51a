#!/usr/bin/env bash
# One GPU call (binaries from validation/device_pack.sh in .devlibs/) that checks the held-stream timing
# (stream_blocker) and the worker threads' NVTX ranges; docs/validation.md and docs/profiling.md cite it.
#   1. GPU tests, CLI tests, the quick suite (validation/device_check.sh): the default suite with the stream held
#   2. the quick suite again with --no-blocking-kernel, and both again with --cache=hot: held against unheld
#   3. the NVTX recorder check over the quick suite (worker threads now open the case range again)
#   4. ./run_bench --ncu's path over the dot family (its worker threads' kernels must be found)
#   5. a nightly run with 6 repetitions, the candidate for the stored baseline
# Everything lands in $OUT/hold.tgz plus $OUT/summary.txt and $OUT/nightly.json.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
work=$(mktemp -d)

"$root/validation/device_check.sh" quick >"$work/check.txt" 2>&1
grep -E "PASSED|FAILED|passed|failed|wall time|case\(s\)" "$work/check.txt" | tee -a "$summary"
mv "$out/quick.json" "$work/held_declared.json"; mv "$out/quick.txt" "$out/gpu.txt" "$work/" 2>/dev/null
"$bench" --no-blocking-kernel --json "$work/unheld_declared.json" >"$work/unheld_declared.txt" 2>&1; note "unheld quick: exit $?"
"$bench" --cache=hot --json "$work/held_hot.json" >"$work/held_hot.txt" 2>&1; note "held hot quick: exit $?"
"$bench" --cache=hot --no-blocking-kernel --json "$work/unheld_hot.json" >"$work/unheld_hot.txt" 2>&1; note "unheld hot quick: exit $?"
python3 - "$work" <<'PY' | tee -a "$summary"
import json, sys
d = sys.argv[1]
def load(n): return {r["name"]: r for r in json.load(open("%s/%s.json" % (d, n)))["benchmarks"] if r.get("run_type") == "iteration"}
runs = {n: load(n) for n in ("held_declared", "unheld_declared", "held_hot", "unheld_hot")}
print("%-36s %-5s %5s | %10s %6s %10s %6s | %10s %6s %5s %10s %6s %5s" % ("case", "cache", "held", "declared", "cv%", "unheld", "cv%", "hot held", "cv%", "batch", "hot unheld", "cv%", "batch"))
for name, r in runs["held_declared"].items():
    if "real_time" not in r or r.get("cudabench", {}).get("sm_clock_mhz", 0) == 0: continue   # GPU cases only
    row = [runs[k].get(name, {}) for k in ("held_declared", "unheld_declared", "held_hot", "unheld_hot")]
    f = lambda x, k: x.get(k, float("nan"))
    print("%-36s %-5s %5s | %10.2f %6.2f %10.2f %6.2f | %10.2f %6.2f %5d %10.2f %6.2f %5d" % (
        name, r["cudabench"]["cache"], r["cudabench"].get("held"), f(row[0], "real_time"), f(row[0], "cv_pct"),
        f(row[1], "real_time"), f(row[1], "cv_pct"), f(row[2], "real_time"), f(row[2], "cv_pct"), row[2].get("batch", 1),
        f(row[3], "real_time"), f(row[3], "cv_pct"), row[3].get("batch", 1)))
notes = {n: r["cudabench"]["note"] for n, r in runs["held_declared"].items() if "held" in r.get("cudabench", {}).get("note", "")}
print("cases that fell back to unheld timing:", notes or "none")
PY

echo "== NVTX recorder, quick suite"
"$root/tests/nvtx/nvtx_test.sh" "$bench" "$root/.devlibs/lib/libnvtx_recorder.so" "$root" 2>&1 | tail -n 5 | tee -a "$summary"

echo "== ncu, dot family"
NCU_FILTER='^dot/' OUT="$work" NCU_TIMEOUT_S=120 "$root/validation/device_profilers.sh" ncu 2>&1 | tail -n 6 | tee -a "$summary"

echo "== nightly, 6 repetitions"
start=$(date +%s)
"$bench" --preset=nightly --repetitions=6 --json "$out/nightly.json" --benchmark_color=false >"$work/nightly.txt" 2>&1
note "nightly: exit $?, $(( $(date +%s) - start )) s, $(grep -E 'case\(s\)' "$work/nightly.txt" | tail -n 1)"
tar czf "$out/hold.tgz" -C "$work" .

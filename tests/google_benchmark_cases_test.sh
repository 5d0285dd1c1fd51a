#!/usr/bin/env bash
# Google Benchmark code in a cudabench binary: a binary of one family and two BENCHMARK() functions lists, filters
# and runs all of them into one results file, the BENCHMARK() ones as host cases with their names, iterations, times
# and counters as Google Benchmark gives them, and with two repetitions or more their noise; --benchmark_min_time
# reaches them as Google Benchmark applies it (against the same functions in a plain Google Benchmark binary).
# Usage: tests/google_benchmark_cases_test.sh BUILD_DIR
set -uo pipefail
build=$(cd "$1" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
bin="$build/tests/google_benchmark_cases"
cd "$tmp" || exit 1
fail_now() { echo "FAIL: $*"; exit 1; }

"$bin" --list >"$tmp/list" 2>&1 || { cat "$tmp/list"; fail_now "--list"; }
awk '{print $1}' "$tmp/list" | grep -v '^limits/' | paste -sd' ' | grep -qx 'mixed/sum BM_fill BM_count/64' \
  || { cat "$tmp/list"; fail_now "--list does not list the family's case and both BENCHMARK() functions"; }
grep -q '^BM_count/64 *cpu host-bound google-benchmark$' "$tmp/list" || { cat "$tmp/list"; fail_now "--list does not say BM_count/64 is Google Benchmark's"; }
"$bin" --list --filter=BM_count >"$tmp/list" 2>&1 && [ "$(awk '{print $1}' "$tmp/list" | paste -sd' ')" = "BM_count/64" ] \
  || { cat "$tmp/list"; fail_now "--filter=BM_count does not select BM_count/64 alone"; }
"$bin" --benchmark_list_tests --filter=-BM_ >"$tmp/list" 2>&1 && [ "$(grep -v '^limits/' "$tmp/list" | paste -sd' ')" = "mixed/sum" ] \
  || { cat "$tmp/list"; fail_now "a negated filter does not leave the BENCHMARK() functions out"; }
echo "ok   --list shows the family's case and the BENCHMARK() functions; --filter selects among them"

# check_run JSON REPETITIONS NAMES...: the results hold exactly NAMES, the BENCHMARK() ones as host cases with the
# iterations Google Benchmark ran (BM_fill's 1 KiB fill runs thousands of times in its half second), their counters,
# and a noise (the same on each row) where they have two repetitions or more
check_run() {
  python3 - "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
repetitions, want = int(sys.argv[2]), sys.argv[3:]
rows = [r for r in j["benchmarks"] if r.get("run_type") == "iteration"]
names = sorted({r["name"] for r in rows})
assert names == sorted(want), (names, want)
cases = j["context"]["cudabench"]["cases"]
for name in want:
    times = [r["real_time"] for r in rows if r["name"] == name]
    assert times and all(t > 0 for t in times), (name, times)
    if name.startswith("BM_"):
        assert cases[name]["on"] == "cpu" and cases[name]["bound"] == "host", cases[name]
        own = [r for r in rows if r["name"] == name]
        assert len(own) == repetitions and all(r["iterations"] > 1000 for r in own), own
        noise = {r.get("noise_pct") for r in own}
        assert (noise == {None}) if repetitions == 1 else (len(noise) == 1 and None not in noise and 0 <= noise.pop() < 100), own
fill = [r for r in rows if r["name"] == "BM_fill"]
if fill:
    assert fill[0]["bytes_per_second"] > 0, fill[0]
count = [r for r in rows if r["name"] == "BM_count/64"]
if count:
    assert count[0]["widgets"] == 64, count[0]
PY
}
"$bin" --json "$tmp/all.json" --repetitions=2 >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail_now "running every case"; }
check_run "$tmp/all.json" 2 mixed/sum BM_fill BM_count/64 || fail_now "the run's results"
grep -q '^BM_count/64 ' "$tmp/out" && grep -q '^mixed/sum ' "$tmp/out" || { cat "$tmp/out"; fail_now "the table does not show every case"; }
grep -Eq '^BM_count/64 +[0-9.]+ [a-z]+ +[0-9.]+%' "$tmp/out" || { cat "$tmp/out"; fail_now "the table shows no noise for BM_count/64"; }
grep -q '^3 case(s): 3 measured, 0 skipped, 0 failed$' "$tmp/out" || { cat "$tmp/out"; fail_now "the summary does not count the BENCHMARK() functions"; }
# one_total: every progress mark [I/N] of the run has one N, the family's cases and the BENCHMARK()s counted together.
one_total() { [ "$(grep -o '\[[0-9]*/[0-9]*\]' "$tmp/out" | sed 's|.*/||' | sort -u)" = "$1]" ]; }
one_total 3 || { cat "$tmp/out"; fail_now "the progress does not count the family's case and the BENCHMARK()s as one total"; }
"$bin" --watchdog=off --filter='mixed|BM_' >"$tmp/out" 2>&1 && one_total 3 \
  || { cat "$tmp/out"; fail_now "--watchdog=off: the progress does not count one total"; }
"$bin" --json "$tmp/bm.json" --filter=BM_ --watchdog=off >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail_now "running the BENCHMARK() functions alone"; }
check_run "$tmp/bm.json" 1 BM_fill BM_count/64 || fail_now "the BENCHMARK() functions' results"
"$bin" compare "$tmp/all.json" "$tmp/all.json" >"$tmp/out" 2>&1 && grep -q 'BM_count/64' "$tmp/out" || { cat "$tmp/out"; fail_now "compare of the mixed results"; }
echo "ok   the family's case and the BENCHMARK() functions run into one results file (supervised and here), with Google Benchmark's names, iterations and counters, and their noise"

# --benchmark_min_time reaches a BENCHMARK() as Google Benchmark applies it: BM_fill's iterations grow with it, and
# here as in a plain Google Benchmark binary given the same flag, the iterations run take at least that time
# (iterations x time per iteration, both of the one run: a busy host slows the iterations, not the rule) and not
# many times more, in that Google Benchmark's syntax (0.2s from 1.8 on, 0.2 before: 1.7 refuses the suffix).
alone="$build/tests/google_benchmark_alone" iters=()
# fill_run FILE: BM_fill's iterations, then the seconds they took (iterations x real time per iteration)
fill_run() {
  python3 -c 'import json, sys
r = next(r for r in json.load(open(sys.argv[1]))["benchmarks"] if r["name"] == "BM_fill")
print(r["iterations"], r["iterations"] * r["real_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[r["time_unit"]])' "$1"
}
for t in 0.01 0.2; do
  "$bin" --filter=BM_fill --benchmark_min_time="${t}s" --json "$tmp/min-$t.json" >"$tmp/out" 2>&1 \
    || { cat "$tmp/out"; fail_now "--benchmark_min_time=${t}s"; }
  "$alone" --benchmark_filter='^BM_fill$' --benchmark_min_time="${t}s" --benchmark_format=json >"$tmp/gb-$t.json" 2>"$tmp/err" \
    || "$alone" --benchmark_filter='^BM_fill$' --benchmark_min_time="$t" --benchmark_format=json >"$tmp/gb-$t.json" 2>"$tmp/err" \
    || { cat "$tmp/err"; fail_now "the plain Google Benchmark binary"; }
  read -r ours ours_s < <(fill_run "$tmp/min-$t.json") && read -r gb gb_s < <(fill_run "$tmp/gb-$t.json") \
    || fail_now "BM_fill's row at ${t}s"
  echo "--benchmark_min_time=${t}s: BM_fill ran $ours iterations in ${ours_s} s here, $gb in ${gb_s} s in the plain Google Benchmark binary"
  for side in "here $ours_s" "google_benchmark_alone $gb_s"; do
    set -- $side
    python3 -c "import sys; sys.exit(not (0.9 * $t <= $2 <= 20 * $t))" \
      || fail_now "BM_fill's iterations at ${t}s took $2 s ($1): not at least the minimum time, as Google Benchmark runs them"
  done
  iters+=("$ours")
done
python3 -c "import sys; sys.exit(not (${iters[1]} > 4 * ${iters[0]}))" \
  || fail_now "BM_fill's iterations did not grow with --benchmark_min_time (${iters[0]} at 0.01s, ${iters[1]} at 0.2s)"
echo "ok   --benchmark_min_time reaches a BENCHMARK() as Google Benchmark applies it"

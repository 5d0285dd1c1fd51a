#!/usr/bin/env bash
# End-to-end tests of fitting Google Benchmark's tools: its compare.py over runs whose medians straddle a unit
# boundary and over the stored H100 baseline, its flags (aggregates only, counters tabular, CSV, time unit, context,
# JSON on standard output and in a file, colour, the table to a file),
# the honest sampling record, and a first run's output (skipped cases grouped, --quiet, build progress).
# Usage: tests/cli_gbcompat_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
bench="$build/bench/cudabench" report="$build/app/cudabench-report"
compare_py="$src/tests/third_party/gbench/compare.py"
baseline="$src/reports/baselines/NVIDIA_H100_80GB_HBM3/nightly.json"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
# The runs these checks make are of a machine without a GPU (skipped GPU cases as rows without times), on a GPU
# machine too.
export CUDA_VISIBLE_DEVICES=
py=""
for p in python3 /usr/bin/python3; do
  if "$p" -c "import scipy" >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then echo "SKIPPED: no python3 with scipy (Debian's python3-scipy) for Google Benchmark's compare.py"; exit 77; fi

# compare.py pairs case by case (name and time unit) and prints OVERALL_GEOMEAN; every case measured in both
# files must have its line. The names measured in a file are its iteration rows without error or skip.
pairs_every_case() {  # pairs_every_case A.json B.json OUTPUT
  "$py" - "$1" "$2" "$3" <<'PY'
import json, re, sys
a, b, out = sys.argv[1:]
measured = lambda f: {r["name"] for r in json.load(open(f))["benchmarks"]
                      if r.get("run_type", "iteration") == "iteration" and not r.get("error_occurred") and not r.get("skipped")}
both = measured(a) & measured(b)
lines = {re.sub(r"\x1b\[[0-9;]*m", "", l).split()[0] for l in open(out) if l.strip()}
lost = sorted(both - lines)
assert both, "no case measured in both"
assert not lost, "compare.py dropped %s" % lost
assert "OVERALL_GEOMEAN" in lines, "no OVERALL_GEOMEAN"
print("paired %d case(s)" % len(both))
PY
}

# Two runs of one CPU case whose medians straddle 100 us (where the old rule switched from ns to us), with a
# skipped GPU case in each: every row in ns, the case paired, the geomean printed.
filter='^(histogram/cpu/65536|histogram/naive/65536)$'
s=$(run "$bench" --filter="$filter" --sizes=histogram=65536 --repetitions=3 --json "$tmp/fast.json")
check "a run of a small CPU case and a skipped GPU case" 0 "$s"
fast_us=$("$py" -c 'import json,sys; print(min(r["real_time"] for r in json.load(open(sys.argv[1]))["benchmarks"] if r["name"] == "histogram/cpu/65536") / 1e3)' "$tmp/fast.json")
pct=$("$py" -c "print(int(min(1000, max(50, 100 * (250 / $fast_us - 1)))))")  # to about 250 us
s=$(run "$bench" --filter="$filter" --sizes=histogram=65536 --repetitions=3 --inject-slowdown="histogram/cpu:$pct" --json "$tmp/slow.json")
check "the same case made slower" 0 "$s"
s=$(run "$py" - "$tmp/fast.json" "$tmp/slow.json" <<'PY'
import json, sys
rows = [r for f in sys.argv[1:] for r in json.load(open(f))["benchmarks"]]
medians = [r["real_time"] for r in rows if r["name"] == "histogram/cpu/65536_median"]
assert min(medians) < 100e3 < max(medians), medians  # in ns: one side of 100 us, then the other
assert {r.get("time_unit") for r in rows if "real_time" in r} == {"ns"}, "a unit other than ns"
skipped = [r for r in rows if r.get("skipped")]
assert len(skipped) == 2 and all(r["name"] == "histogram/naive/65536_skipped" and "real_time" not in r for r in skipped), skipped
PY
)
check "medians either side of 100 us, every row in ns, skipped rows without times" 0 "$s"
s=$(run "$py" "$compare_py" benchmarks "$tmp/fast.json" "$tmp/slow.json")
check "compare.py over them: the case paired, OVERALL_GEOMEAN printed" 0 "$s" 'pairs_every_case "$tmp/fast.json" "$tmp/slow.json" "$tmp/out"'
# The run's own comparison reads them alike.
s=$(run "$report" compare "$tmp/fast.json" "$tmp/slow.json")
# Both runs of one machine: the host-bound case is judged, not left ungated; 3 repetitions a side cannot make the
# rank test significant at 1%, so its large shift is inconclusive.
check "compare over them: the case compared and judged" 0 "$s" 'grep -q "^histogram/cpu/65536 .*inconclusive" "$tmp/out"'

# The stored H100 baseline and a run here (the nightly sizes of small CPU cases, and GPU cases skipped).
filter='^(dot/cpu/1048576|histogram/cpu/1048576|reduce/cpu/1048576|image/cpu|image/sync|conv2d/fast/4096)$'
s=$(run "$bench" --preset=nightly --rounds=1 --repetitions=2 --filter="$filter" --json "$tmp/here.json")
check "a nightly run of four CPU cases here" 0 "$s"
s=$(run "$py" "$compare_py" benchmarks "$baseline" "$tmp/here.json")
check "compare.py: the H100 baseline against this machine, every case measured in both paired" 0 "$s" \
  'pairs_every_case "$baseline" "$tmp/here.json" "$tmp/out"'

# Google Benchmark's flags.
filter='^(image/cpu|image/sync)$'
s=$(run "$bench" --filter="$filter" --repetitions=2 --benchmark_report_aggregates_only=true --json "$tmp/agg.json")
check "--benchmark_report_aggregates_only: aggregates only for a measured case" 0 "$s" \
  "$py -c 'import json,sys; r=json.load(open(sys.argv[1]))[\"benchmarks\"]; n=[x[\"name\"] for x in r]; assert sorted(n)==[\"image/cpu_cv\",\"image/cpu_mean\",\"image/cpu_median\",\"image/cpu_stddev\",\"image/sync_skipped\"], n' $tmp/agg.json" \
  '"$report" report "$tmp/agg.json" >/dev/null'
s=$(run "$bench" --filter="$filter" --repetitions=2 --benchmark_display_aggregates_only=true)
check "--benchmark_display_aggregates_only: one line per case" 0 "$s" '[ "$(grep -c "^image/cpu " "$tmp/out")" = 1 ]'
s=$(run "$bench" --filter="$filter" --benchmark_counters_tabular=true --benchmark_time_unit=us)
check "--benchmark_counters_tabular and --benchmark_time_unit=us: counter columns, the median in us" 0 "$s" \
  'grep -q "^case .* samples .*cv_pct.* note" "$tmp/out"' 'grep -Eq "^image/cpu +[0-9.]+ us " "$tmp/out"'
s=$(run "$bench" --filter="$filter" --benchmark_time_unit=ms)
check "--benchmark_time_unit=ms: the table's median in ms" 0 "$s" 'grep -Eq "^image/cpu +[0-9.]+ ms " "$tmp/out"'
s=$(run "$bench" --filter="$filter" --repetitions=2 --benchmark_out="$tmp/gb.csv" --benchmark_out_format=csv --csv "$tmp/ours.csv")
check "--benchmark_out_format=csv: Google Benchmark's CSV schema; --csv keeps ours" 0 "$s" \
  'head -1 "$tmp/gb.csv" | grep -q "^name,iterations,real_time,cpu_time,time_unit,bytes_per_second,items_per_second,label,error_occurred,error_message,"' \
  'grep -q "^\"image/cpu_median\",[0-9]*,[0-9.e+]*,[0-9.e+]*,ns," "$tmp/gb.csv"' \
  'grep -q "^\"image/sync\",,,,,,,,false,\"[a-z]" "$tmp/gb.csv"' \
  '[ "$(awk -F, "{ print NF }" "$tmp/gb.csv" | sort -u | wc -l)" = 1 ]' \
  'head -1 "$tmp/ours.csv" | grep -q "^name,status,median_us,"'
s=$(run "$bench" --filter="$filter" --benchmark_format=csv)
check "--benchmark_format=csv: Google Benchmark's CSV alone on standard output" 0 "$s" \
  'head -1 "$tmp/out" | grep -q "^name,iterations,real_time,"' '[ "$(grep -c "^\"image/cpu\"," "$tmp/out")" = 1 ]'

# --benchmark_context: top-level context keys, kept when read back, shown in the table, reports and comparisons;
# --benchmark_format=json with --benchmark_out=FILE: the JSON on standard output and in the file.
s=$(run "$bench" --filter="$filter" --benchmark_context=ci_run=17 --benchmark_context=runner=ci-a=b --benchmark_format=json \
  --benchmark_out="$tmp/ctx.json")
check "--benchmark_context and --benchmark_format=json with --benchmark_out: both written, the keys in the context" 0 "$s" \
  'py "assert j[\"context\"][\"ci_run\"] == \"17\" and j[\"context\"][\"runner\"] == \"ci-a=b\"" "$tmp/out"' \
  'py "assert j[\"context\"][\"ci_run\"] == \"17\" and [b[\"name\"] for b in j[\"benchmarks\"]]" "$tmp/ctx.json"' \
  'cmp -s <(py "print(sorted(b[\"name\"] for b in j[\"benchmarks\"]))" "$tmp/out") <(py "print(sorted(b[\"name\"] for b in j[\"benchmarks\"]))" "$tmp/ctx.json")' \
  'grep -q "^context: ci_run=17, runner=ci-a=b$" "$tmp/err"'
s=$(run "$report" report "$tmp/ctx.json")
check "report: the run's context read back and shown" 0 "$s" 'grep -q "^context: ci_run=17, runner=ci-a=b$" "$tmp/out"'
s=$(run "$report" compare "$tmp/agg.json" "$tmp/ctx.json" --md "$tmp/ctx.md")
check "compare: the current run's context in the header" 0 "$s" 'grep -q "^note: current context: ci_run=17, runner=ci-a=b$" "$tmp/out"' \
  '! grep -q "baseline context" "$tmp/out"' 'grep -q "current context: ci\\\\_run=17" "$tmp/ctx.md"'
for bad in novalue =x date=x; do
  s=$(run "$bench" --filter="$filter" --benchmark_context="$bad" --json "$tmp/bad.json")
  check "--benchmark_context=$bad: one line, exit 2, nothing written" 2 "$s" 'one_line "benchmark_context"' '[ ! -e "$tmp/bad.json" ]'
done
s=$(run "$bench" --filter="$filter" --benchmark_context=a=1 --benchmark_context=a=2)
check "--benchmark_context: a key given twice is one line, exit 2" 2 "$s" 'one_line "given twice"'

# --benchmark_color: colour in the table or none, whatever standard output is; --benchmark_out_format=console: the
# table, without colour, in the file.
s=$(run "$bench" --filter="$filter" --benchmark_color=true --benchmark_out="$tmp/table.txt" --benchmark_out_format=console)
check "--benchmark_color=true colours the table; --benchmark_out_format=console writes it plain" 0 "$s" \
  'grep -q $'"'"'\033\['"'"' "$tmp/out"' '! grep -q $'"'"'\033'"'"' "$tmp/table.txt"' \
  'grep -Eq "^image/cpu +[0-9.]+ [mun]?s " "$tmp/table.txt"' 'grep -q "^host: " "$tmp/table.txt"' \
  'grep -q "SKIPPED" "$tmp/table.txt"' 'grep -q "^2 case(s): 1 measured, 1 skipped, 0 failed" "$tmp/table.txt"'
s=$(run "$bench" --filter="$filter" --benchmark_color=false)
check "--benchmark_color=false: no colour" 0 "$s" '! grep -q $'"'"'\033'"'"' "$tmp/out"'
s=$(run "$bench" --filter="$filter" --benchmark_color=maybe)
check "--benchmark_color=maybe: one line, exit 2" 2 "$s" 'one_line "auto, true or false"'
s=$(run "$bench" --filter="$filter" --benchmark_out=- --benchmark_out_format=console)
check "--benchmark_out=- --benchmark_out_format=console: one line, exit 2" 2 "$s" 'one_line "standard output already"'

# The sampling record: iterations counts the runs a row covers.
s=$(run "$py" -c 'import json,sys
for r in json.load(open(sys.argv[1]))["benchmarks"]:
    if r["run_type"] == "iteration" and not r.get("skipped"):
        assert r["iterations"] == r["cudabench"]["samples"] * r["cudabench"]["batch"] > 1, r["name"]' "$tmp/here.json")
check "a row's iterations are its samples times its batch" 0 "$s"

# A first run: skipped cases grouped by reason, their names under --verbose; no [i/N] under --quiet.
s=$(run "$bench" --filter='^(histogram|image)/')
check "skipped cases: one line with the count and the reason" 0 "$s" \
  '[ "$(grep -c "SKIPPED" "$tmp/out")" = 1 ]' 'grep -Eq "^[0-9]+ case\(s\) +SKIPPED  [a-z]" "$tmp/out"' \
  '! grep -q "^histogram/naive" "$tmp/out"' 'grep -q "\[[0-9]*/[0-9]*\]" "$tmp/out"'
s=$(run "$bench" --filter='^(histogram|image)/' --verbose --quiet)
check "--verbose names them; --quiet leaves no [i/N] in the rows" 0 "$s" \
  'grep -q "^  histogram/naive/" "$tmp/out"' '! grep -q "\[[0-9]*/[0-9]*\]" "$tmp/out" "$tmp/err"'

# The build's progress line: steps done of all and the time, the output kept in the log.
printf '[1/4] a\n[2/4] b\nwarning: x\n' | "$src/ci/build_progress.sh" "$tmp/build.log" 2>"$tmp/progress"
check "build progress: steps done of all, elapsed, log kept" 0 $? 'grep -q "2 of 4 steps done, [0-9]* s elapsed" "$tmp/progress"' \
  'grep -q "build output ended: 2 of 4 steps done, after [0-9]* s" "$tmp/progress"' '! grep -q "built" "$tmp/progress"' '[ "$(wc -l <"$tmp/build.log")" = 3 ]'
printf '[ 42%%] Building CXX object x.o\n' | "$src/ci/build_progress.sh" "$tmp/build2.log" 2>"$tmp/progress"
check "build progress: make's percentage" 0 $? 'grep -q "42% of the targets done" "$tmp/progress"'

# The docs say what compare does with CPU (host-bound) cases: not gated without --host-threshold or a host gate of one host.
check "docs: host-bound cases gate only with --host-threshold or a host gate" 0 0 \
  'grep -q "^| \`bound\` .*gates them only where \`--host-threshold\` gives them a threshold, or a host gate" "$src/docs/reference.md"'
finish

#!/usr/bin/env bash
# End-to-end tests of the command line: exit statuses, messages, JSON shape, compare/report/trend.
# Usage: tests/cli_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
bench="$build/bench/cudabench" report="$build/app/cudabench-report" fx="$src/tests/fixtures"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

s=$(run "$bench" --frobnicate); check "unknown option" 2 "$s" 'grep -q "unknown option .--frobnicate." "$tmp/err"' '[ "$(wc -l <"$tmp/err")" = 1 ]'
s=$(run "$bench" --filter=no_such_case_xyz); check "filter matching nothing" 2 "$s" 'grep -q "no case matches --filter=no_such_case_xyz" "$tmp/err"'
s=$(run "$bench" --filter='('); check "invalid filter regex" 2 "$s" 'grep -q "invalid regular expression" "$tmp/err"'
s=$(run "$bench" --preset=huge); check "unknown preset" 2 "$s" 'grep -q "unknown preset .huge." "$tmp/err"'
s=$(run "$bench" --filter=image/cpu --json "$tmp/no/such/dir/out.json"); check "unwritable --json fails before any case" 2 "$s" \
  'grep -q "cannot write" "$tmp/err"' '! grep -q "case(s):" "$tmp/out"'
s=$(run "$bench" --help); check "help" 0 "$s" 'grep -q -- "--preset" "$tmp/out"'

s=$(run "$bench" --list); check "list shows every family and variant" 0 "$s" \
  'for v in image/sync image/async_pageable_streams/16 image/pinned_streams/1 image/kernel_only image/cpu image/rgb_sync image/rgb_pipelined_streams image/rgb_cpu histogram/naive histogram/atomic_global histogram/shared_cpu_merge histogram/shared_gpu_merge histogram/cub histogram/cpu conv2d/cpu_seq conv2d/cpu_par conv2d/naive conv2d/tiled conv2d/cudnn matmul/cpu matmul/naive matmul/tiled matmul/cublas vector/explicit vector/managed vector/managed_prefetch vector/cpu dot/shared dot/threads_streams dot/cpu reduce/shared_tree reduce/warp_shuffle reduce/recursive_tail reduce/cub reduce/cpu; do grep -q "^$v" "$tmp/out" || { echo "missing $v"; exit 1; }; done'

s=$(run "$bench" --list --filter=limits); check "list marks what is not gated and what is host-bound" 0 "$s" \
  'grep -Eq "^limits/launch +gpu not-gated$" "$tmp/out"' 'grep -Eq "^limits/bidir_pinned +gpu not-gated$" "$tmp/out"' \
  'grep -Eq "^limits/h2d_pinned +gpu$" "$tmp/out"' 'grep -Eq "^limits/h2d_pageable +gpu host-bound$" "$tmp/out"'

s=$(run "$bench" --filter=image --json "$tmp/image.json"); check "image family runs; JSON has the device and the skips" 0 "$s" \
  'python3 "$src/tests/check_result_json.py" "$tmp/image.json" image' '! ls "$tmp" | grep -q "gbench\|tmp\."'

s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_same.json"); check "compare identical: exit 0" 0 "$s" '! grep -q " regression " "$tmp/out"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_slowed.json" --md "$tmp/c.md" --html "$tmp/c.html" --verdict "$tmp/c.json"); check "compare slowed: exit 1, exactly that case" 1 "$s" \
  '[ "$(grep -c " regression " "$tmp/out")" = 1 ]' 'grep " regression " "$tmp/out" | grep -q conv2d/tiled/4096' \
  '[ -s "$tmp/c.md" ] && [ -s "$tmp/c.html" ] && [ -s "$tmp/c.json" ]'
s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_faster.json"); check "compare improvement: exit 0" 0 "$s" 'grep -q improvement "$tmp/out"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_other_gpu.json"); check "compare different GPUs: refused" 2 "$s" 'grep -q "different GPU models" "$tmp/err"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_other_gpu.json" --allow-device-mismatch); check "compare different GPUs: allowed" 0 "$s"
for bad in bad_invalid bad_not_benchmark bad_empty bad_negative_time bad_zero_time bad_unknown_unit bad_duplicate bad_nan_time does_not_exist; do
  s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/$bad.json" --md "$tmp/$bad.md")
  check "compare rejects $bad" 2 "$s" "grep -q '$bad.json' \"\$tmp/err\"" "[ \"\$(wc -l <\"\$tmp/err\")\" = 1 ]" "[ ! -e \"\$tmp/$bad.md\" ]"
done
s=$(run "$report" compare "$fx/synthetic_base.json"); check "compare with one file: usage" 2 "$s" 'grep -q "expects 2 file" "$tmp/err"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_same.json" --md "$tmp/nodir/x.md"); check "compare unwritable output" 2 "$s"
s=$(run "$report" report "$fx/synthetic_base.json" --md "$tmp/r.md" --html "$tmp/r.html"); check "report" 0 "$s" '[ -s "$tmp/r.md" ] && [ -s "$tmp/r.html" ]'
s=$(run "$report" trend "$fx/trend" --html "$tmp/t.html"); check "trend flags the sustained step only" 0 "$s" \
  'grep -q "conv2d/tiled/4096.*step +1[0-9]" "$tmp/out"' 'grep -q "^1 case(s) with a sustained shift" "$tmp/out"'
s=$(cd "$tmp" && run "$bench" --filter=image/cpu --save-baseline); check "--save-baseline stores reports/baselines/<gpu>/quick.json under the current directory" 0 "$s" \
  '[ "$(find "$tmp/reports/baselines" -name quick.json | wc -l)" = 1 ]'
stored=$(find "$tmp/reports/baselines" -name quick.json)
s=$(run "$report" store baseline "$stored" --baseline-dir="$tmp/reports/baselines"); check "store baseline names the file --save-baseline wrote" 0 "$s" '[ "$(cat "$tmp/out")" = "$stored" ]'
s=$(run "$bench" --filter=image/cpu --baseline-dir="$tmp/reports/baselines" --compare-to=auto --verdict "$tmp/v.json"); check "--compare-to=auto finds it under --baseline-dir" 0 "$s" \
  'grep -q "image/cpu" "$tmp/out"' '[ -s "$tmp/v.json" ]'
s=$(run "$bench" --filter=image/cpu --baseline-dir="$tmp/nowhere" --compare-to=auto); check "--compare-to=auto without a stored baseline: exit 2 before running" 2 "$s" \
  'grep -q "no stored baseline" "$tmp/err"' '! grep -q "case(s):" "$tmp/out"'
s=$(run "$bench" --list --sizes=vector=4096,65536 --filter=vector/cpu); check "--sizes chooses a family's sizes" 0 "$s" \
  'grep -q "^vector/cpu/4096 " "$tmp/out"' 'grep -q "^vector/cpu/65536 " "$tmp/out"' '[ "$(wc -l <"$tmp/out")" = 2 ]'
s=$(run "$bench" --list --sizes=nosuchfamily=4); check "--sizes naming no family: exit 2" 2 "$s" 'grep -q "no family named .nosuchfamily." "$tmp/err"'
s=$(run "$bench" --list --sizes=vector=0); check "--sizes with a size that is not positive: exit 2" 2 "$s" 'grep -q "not a positive whole number" "$tmp/err"'
s=$(run "$bench" --filter=image/cpu --inject-slowdown='image/cpu:1001'); check "--inject-slowdown outside 0-1000" 2 "$s" 'grep -q "inject-slowdown" "$tmp/err"'
s=$(run "$bench" --filter=image/cpu --inject-slowdown='image/(:5'); check "--inject-slowdown bad regex" 2 "$s" 'grep -q "invalid regular expression" "$tmp/err"'
if ! command -v nsys >/dev/null 2>&1; then
  s=$(env -u NSYS "$src/app/cudabench-run" "$bench" --nsys --filter=image/cpu >"$tmp/out" 2>"$tmp/err"; echo $?); check "--nsys without nsys: exit 2 before running" 2 "$s" 'grep -q "needs Nsight Systems" "$tmp/err"'
fi
# An nsys that exits 0 but leaves only its raw stream (as on a machine whose importer fails): not a success.
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --output ] && : >"$2.qdstrm"; shift; done\nexit 0\n' >"$tmp/fake-nsys"; chmod +x "$tmp/fake-nsys"
abs_bench="$(cd "$(dirname "$bench")" && pwd)/$(basename "$bench")" abs_src="$(cd "$src" && pwd)"
abs_report="$(cd "$(dirname "$report")" && pwd)/$(basename "$report")"
s=$(cd "$tmp" && NSYS="$tmp/fake-nsys" run "$abs_src/app/cudabench-run" "$abs_bench" --nsys --filter=image/cpu); check "--nsys that writes no report: exit 1, said" 1 "$s" \
  'grep -q "nsys wrote no report" "$tmp/err"' 'grep -q "only the raw cudabench-quick-.*qdstrm" "$tmp/err"'
# An nsys that writes its report: named after the run's --json file.
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --output ] && : >"$2.nsys-rep"; shift; done\nexit 0\n' >"$tmp/good-nsys"; chmod +x "$tmp/good-nsys"
s=$(cd "$tmp" && NSYS="$tmp/good-nsys" run "$abs_src/app/cudabench-run" "$abs_bench" --nsys --filter=image/cpu --json "$tmp/named.json"); check "--nsys: the report is named after the --json file" 0 "$s" \
  '[ -f "$tmp/named.nsys-rep" ]' 'grep -q "nsys report: $tmp/named.nsys-rep" "$tmp/err"'
# An nsys whose importer cannot load a library (as on the H100 machine without libdw.so.1): refused
# before profiling, in one line naming the library.
if command -v cc >/dev/null 2>&1; then
  mkdir -p "$tmp/nsys/target-linux-x64" "$tmp/nsys/host-x64"
  cp "$tmp/good-nsys" "$tmp/nsys/target-linux-x64/nsys"
  printf 'int f(void) { return 0; }\n' | cc -shared -fPIC -x c - -Wl,-soname,libnsys_test_missing.so.1 -o "$tmp/nsys/libnsys_test_missing.so.1"
  printf 'int f(void);\nint main(void) { return f(); }\n' | cc -x c - -x none -o "$tmp/nsys/host-x64/QdstrmImporter" "$tmp/nsys/libnsys_test_missing.so.1"
  rm "$tmp/nsys/libnsys_test_missing.so.1"
  s=$(cd "$tmp" && NSYS="$tmp/nsys/target-linux-x64/nsys" run "$abs_src/app/cudabench-run" "$abs_bench" --nsys --filter=image/cpu); check "--nsys whose importer lacks a library: exit 2, one line naming it" 2 "$s" \
    'grep -q "importer .* cannot load libnsys_test_missing.so.1" "$tmp/err"' '[ "$(wc -l <"$tmp/err")" = 1 ]' '! ls "$tmp" | grep -q "cudabench-quick-.*nsys-rep"'
fi
# --trace without a GPU still records the cases' host ranges, and says that no device activity was recorded.
s=$(run "$bench" --filter='^(image/cpu|histogram/cpu/1048576)$' --trace "$tmp/run.trace.json" --json "$tmp/traced.json"); check "--trace: Chrome trace of the cases' ranges, timelines in the JSON" 0 "$s" \
  'grep -q "^trace: $tmp/run.trace.json (2 traced case(s)" "$tmp/out"' 'grep -q "no device activity recorded" "$tmp/out"' \
  'python3 "$src/tests/check_trace_events.py" "$tmp/run.trace.json" --cases image/cpu histogram/cpu/1048576' \
  'python3 -c "import json,sys; rows=json.load(open(sys.argv[1]))[\"benchmarks\"]; t=[r[\"cudabench\"][\"timeline\"] for r in rows if \"timeline\" in r.get(\"cudabench\", {})]; assert len(t) == 2 and all(\"kernel_launches\" in x[\"metrics\"] and x[\"phases\"] for x in t), t" "$tmp/traced.json"'
s=$(run "$report" report "$tmp/traced.json" --html "$tmp/traced.html"); check "report draws the traced samples' timelines" 0 "$s" \
  'grep -q "Timelines of one traced sample" "$tmp/traced.html"' '[ "$(grep -o "class=\"lane\"" "$tmp/traced.html" | wc -l)" -ge 2 ]'
s=$(run "$report" compare "$tmp/traced.json" "$tmp/traced.json" --verdict "$tmp/tv.json"); check "compare shows timeline metrics, informational" 0 "$s" \
  'grep -q "timeline (2 case(s) traced on both sides; informational, not a verdict): no notable change" "$tmp/out"' \
  'python3 -c "import json,sys; c=json.load(open(sys.argv[1]))[\"cases\"]; assert all(\"timeline\" in x for x in c), c" "$tmp/tv.json"'
s=$(run "$bench" --filter=image/cpu --trace=); check "--trace without a file name: exit 2" 2 "$s" 'grep -q -- "--trace needs a file name" "$tmp/err"'
s=$(run "$bench" --filter=image/cpu --trace "$tmp/no/such/dir/t.json"); check "unwritable --trace fails before any case" 2 "$s" \
  'grep -q "cannot write" "$tmp/err"' '! grep -q "case(s):" "$tmp/out"'
# --json - : the document alone on standard output (the table goes to standard error), no file named "-".
s=$(cd "$tmp" && run "$abs_bench" --filter='^image/cpu$' --json -); check "--json - writes the results, and only them, to standard output" 0 "$s" \
  'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [r[\"name\"] for r in d[\"benchmarks\"]] == [\"image/cpu\"]" "$tmp/out"' \
  'grep -q "case(s):" "$tmp/err"' '[ ! -e "$tmp/-" ]'
s=$(run "$bench" --filter='^image/cpu$' --md "$tmp/own.md" --html "$tmp/own.html" --csv "$tmp/own.csv"); check "--md/--html/--csv without a comparison: the run's own report" 0 "$s" \
  'grep -q "^## Speedups" "$tmp/own.md"' 'grep -q "<svg" "$tmp/own.html"' 'grep -q "^image/cpu,ok," "$tmp/own.csv"'
s=$(run "$bench" --filter='^image/cpu$' --verdict "$tmp/v2.json"); check "--verdict without --compare-to: exit 2 before running" 2 "$s" \
  'grep -q "needs --compare-to" "$tmp/err"' '! grep -q "case(s):" "$tmp/out"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_slowed.json" --csv "$tmp/cmp.csv"); check "compare --csv: a row per case with its verdict" 1 "$s" \
  'python3 -c "import csv,sys; r={x[\"name\"]: x for x in csv.DictReader(open(sys.argv[1]))}; assert r[\"conv2d/tiled/4096\"][\"verdict\"] == \"regression\" and float(r[\"conv2d/tiled/4096\"][\"change_pct\"]) > 5, r" "$tmp/cmp.csv"'
s=$(run "$bench" --filter='^(image/cpu|histogram/cpu/1048576)$'); check "progress: a line per case on standard error, with the time left after the first" 0 "$s" \
  'grep -q "^\[1/2\] histogram/cpu/1048576$" "$tmp/err"' 'grep -q "^\[2/2\] image/cpu (about [0-9]* s left)$" "$tmp/err"' '! grep -q "^\[1/2\]" "$tmp/out"'
s=$(run "$bench" --filter='^image/cpu$' --quiet); check "--quiet: no progress lines" 0 "$s" '! grep -q "^\[1/1\]" "$tmp/err"'
# Google Benchmark's flags keep their meaning, or are refused.
s=$(cd "$tmp" && run "$abs_bench" --benchmark_list_tests --benchmark_filter='^image/(cpu|sync)$' --json "$tmp/lt.json"); check "--benchmark_list_tests: names only, nothing written" 0 "$s" \
  '[ "$(cat "$tmp/out")" = "$(printf "image/sync\nimage/cpu")" ]' '[ ! -e "$tmp/lt.json" ]' '! ls "$tmp" | grep -q gbench'
s=$(run "$bench" --benchmark_filter='^image/cpu$' --benchmark_repetitions=2 --benchmark_time_unit=ms --benchmark_out="$tmp/gb.json" --quiet); check "--benchmark_repetitions, _time_unit, _out honoured" 0 "$s" \
  'python3 -c "import json,sys; r=json.load(open(sys.argv[1]))[\"benchmarks\"]; it=[x for x in r if x[\"run_type\"]==\"iteration\"]; assert len(it)==2 and {x[\"time_unit\"] for x in r}=={\"ms\"} and any(x.get(\"aggregate_name\")==\"median\" for x in r), r" "$tmp/gb.json"' \
  'python3 -c "import json,sys; r=json.load(open(sys.argv[1]))[\"benchmarks\"][0]; assert 0.05 < r[\"cpu_time\"] / r[\"real_time\"] < 20, r  # the same unit (a mix-up is 1000x); a loaded host makes cpu less than real" "$tmp/gb.json"'
s=$(run "$bench" --benchmark_filter='^image/cpu$' --benchmark_format=json --quiet); check "--benchmark_format=json: the results on standard output" 0 "$s" \
  'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out"'
s=$(run "$bench" --benchmark_filter='^image/cpu$' --benchmark_format=csv --quiet); check "--benchmark_format=csv: Google Benchmark's CSV on standard output" 0 "$s" \
  '[ "$(head -n 1 "$tmp/out" | cut -d, -f1-3)" = "name,iterations,real_time" ]' 'grep -q "^\"image/cpu\",[0-9]*," "$tmp/out"'
s=$(run "$bench" --filter=image/cpu --benchmark_perf_counters=CYCLES); check "an unsupported --benchmark_ flag: exit 2, named" 2 "$s" 'grep -q -- "--benchmark_perf_counters is not supported" "$tmp/err"'
s=$(run "$bench" --filter=image/cpu --benchmark_min_time=100x); check "--benchmark_min_time in iterations: exit 2, says why" 2 "$s" 'grep -q "give seconds" "$tmp/err"'
s=$(run "$bench" --filter='^image/cpu$' --compare-to="$stored" --csv - --quiet); check "--csv - with --compare-to: the verdicts on standard output" 0 "$s" \
  'python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); assert len(r)==1 and r[0][\"verdict\"] in (\"unchanged\",\"inconclusive\",\"not gated\",\"improvement\",\"regression\") and r[0][\"baseline_median_us\"], r" "$tmp/out"'
# Dashboard exports, over the image run above (its GPU cases skipped here): measured cases only, unique names.
s=$(run "$report" report "$tmp/image.json" --format=gab); check "report --format=gab: github-action-benchmark customSmallerIsBetter" 0 "$s" \
  'python3 "$src/tests/check_exports.py" gab "$tmp/out" "$tmp/image.json"'
s=$(run "$report" report "$fx/synthetic_base.json" --format=bmf); check "report --format=bmf: Bencher Metric Format" 0 "$s" \
  'python3 "$src/tests/check_exports.py" bmf "$tmp/out" "$fx/synthetic_base.json"'
s=$(run "$report" report "$fx/synthetic_base.json" --format=csv); check "report --format with an unknown format: exit 2" 2 "$s" 'grep -q "expects text, gab or bmf" "$tmp/err"'
# ci/nightly.sh with a stand-in runner that "runs" by copying a recorded result: a GPU model with no stored
# baseline fails the job and says how to store one (job summary too); results kept in runs/ feed the trend.
printf '#!/bin/sh\ncase "$1" in compare|report|trend|store) exec "%s" "$@";; esac\nwhile [ $# -gt 0 ]; do [ "$1" = --json ] && cp "$NIGHT" "$2"; shift; done\n' "$abs_report" >"$tmp/fake-run"; chmod +x "$tmp/fake-run"
s=$(GITHUB_STEP_SUMMARY="$tmp/summary.md" NIGHT="$fx/synthetic_base.json" RUN_BENCH="$tmp/fake-run" CUDABENCH_BASELINE_DIR="$tmp/bl" run bash "$src/ci/nightly.sh" "$tmp/nights"); check "ci/nightly.sh without a stored baseline: exit 2, said in the job summary" 2 "$s" \
  'grep -q "no baseline is stored" "$tmp/err"' 'grep -q "^## Nightly benchmarks: no baseline" "$tmp/summary.md"' 'grep -q "ci/baseline.sh" "$tmp/summary.md"' \
  '[ -s "$tmp/nights/latest.json" ] && ls "$tmp/nights"/report-*.md >/dev/null'
sleep 1
bl=$("$report" store baseline "$fx/synthetic_base.json" --baseline-dir="$tmp/bl") && mkdir -p "$(dirname "$bl")" && cp "$fx/synthetic_base.json" "$bl"
s=$(GITHUB_STEP_SUMMARY="$tmp/summary.md" NIGHT="$fx/synthetic_base.json" RUN_BENCH="$tmp/fake-run" CUDABENCH_BASELINE_DIR="$tmp/bl" run bash "$src/ci/nightly.sh" "$tmp/nights"); check "ci/nightly.sh with the stored baseline: compared, and the trend over the kept nights" 0 "$s" \
  '[ "$(ls "$tmp/nights/runs" | wc -l)" = 2 ]' '[ -s "$tmp/nights/trend.html" ]' 'grep -q "^## Trend over 2 nights" "$tmp/summary.md"' 'ls "$tmp/nights"/verdict-*.json >/dev/null'
# Hostile result files: each one line and exit 2, or read correctly; never a crash.
Q="$fx/h100_quick.json"
python3 "$src/tests/hostile_results.py" "$Q" "$tmp/hostile"
for bad in overflow deep nounit huge_time; do
  s=$(run "$report" compare "$Q" "$tmp/hostile/$bad.json"); check "compare rejects hostile $bad.json in one line" 2 "$s" \
    "grep -q '$bad.json' \"\$tmp/err\"" "[ \"\$(wc -l <\"\$tmp/err\")\" = 1 ]"
done
s=$(run "$bench" --filter='^image/cpu$' --compare-to="$tmp/hostile/overflow.json"); check "--compare-to a file whose number overflows: exit 2 naming it, before running" 2 "$s" \
  'grep -q "overflow.json" "$tmp/err"' '! grep -q "case(s):" "$tmp/out"'
for ok in spaces longname; do
  s=$(run "$report" compare "$Q" "$tmp/hostile/$ok.json"); check "compare reads $ok.json (no regex over unbounded text)" 0 "$s"
done
start=$(date +%s)
s=$(run "$report" compare "$tmp/hostile/big.json" "$tmp/hostile/big.json" --allow-device-mismatch); check "compare of 100,000 rows a side within 30 s" 0 "$s" '[ $(( $(date +%s) - start )) -le 30 ]'
s=$("$report" compare "$Q" "$Q" >/dev/full 2>"$tmp/err"; echo $?); check "compare onto a full standard output: exit 2, one line" 2 "$s" \
  'grep -q "cannot write to standard output" "$tmp/err"' '[ "$(wc -l <"$tmp/err")" = 1 ]'
s=$("$report" compare "$Q" "$Q" >&- 2>"$tmp/err"; echo $?); check "compare with standard output closed: exit 2, one line" 2 "$s" \
  'grep -q "cannot write to standard output" "$tmp/err"'
# Outputs that would clobber an input or each other are refused before anything runs; special files and
# symbolic links are written through, never replaced.
cp "$fx/synthetic_slowed.json" "$tmp/cur.json"
s=$(run "$report" compare "$fx/synthetic_base.json" "$tmp/cur.json" --verdict "$tmp/cur.json"); check "compare --verdict onto its own input: exit 2, input untouched" 2 "$s" \
  'grep -q "same file as the input" "$tmp/err"' 'cmp -s "$tmp/cur.json" "$fx/synthetic_slowed.json"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$tmp/cur.json" --md "$tmp/x.out" --html "$tmp/x.out"); check "--md and --html onto one file: exit 2" 2 "$s" \
  'grep -q -- "--html .* is the same file as --md" "$tmp/err"' '[ ! -e "$tmp/x.out" ]'
s=$(run "$bench" --filter='^image/cpu$' --json "$tmp/same.json" --csv "$tmp/same.json"); check "runner outputs onto one file: exit 2 before running" 2 "$s" '! grep -q "case(s):" "$tmp/out"'
s=$(run "$report" report "$fx/synthetic_base.json" --md /dev/null); check "--md /dev/null: written in place, the device stays" 0 "$s" '[ -c /dev/null ]'
printf 'keep' >"$tmp/target.md"; ln -s "$tmp/target.md" "$tmp/link.md"
s=$(run "$report" report "$fx/synthetic_base.json" --md "$tmp/link.md"); check "--md through a symbolic link: the target written, the link kept" 0 "$s" \
  '[ -L "$tmp/link.md" ]' 'grep -q "^## Speedups" "$tmp/target.md"'
mkfifo "$tmp/fifo.md" && { cat "$tmp/fifo.md" >"$tmp/fifo.out" & reader=$!; }
s=$(run "$report" report "$fx/synthetic_base.json" --md "$tmp/fifo.md"); wait "$reader"; check "--md into a FIFO: written through it, the FIFO stays" 0 "$s" \
  '[ -p "$tmp/fifo.md" ]' 'grep -q "^## Speedups" "$tmp/fifo.out"'
# Messages that help: ranges as typed, accepted forms, the row and field of a type error, bytes escaped.
s=$(run "$report" compare "$Q" "$Q" --alpha=0); check "--alpha=0: the range as the user types it" 2 "$s" 'grep -q "from 1e-09 to 0.5, got .0." "$tmp/err"'
s=$(run "$bench" --devices=foo); check "--devices=foo names the accepted forms" 2 "$s" 'grep -q "expects .all. or a comma-separated list" "$tmp/err"'
s=$(run "$bench" frobnicate); check "an unknown command is named as one" 2 "$s" 'grep -q "unknown command .frobnicate." "$tmp/err"'
s=$(run "$bench" "$(printf -- '--x\001\033y')"); check "control bytes in an option are escaped" 2 "$s" 'grep -q "unknown option .--x.x01.x1by." "$tmp/err"' '! grep -q "$(printf "\033")" "$tmp/err"'
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['benchmarks'][2]['run_type']=5; json.dump(d, open(sys.argv[2], 'w'))" "$Q" "$tmp/typed.json"
s=$(run "$report" compare "$Q" "$tmp/typed.json"); check "a field of the wrong type: its row and name in the message" 2 "$s" \
  'grep -q "typed.json: row 3 (.*): field .run_type. is a number where a string is expected" "$tmp/err"'
# Loss cannot hide behind exit 0: a case that fails its check now, or is missing though selected.
python3 - "$fx/synthetic_same.json" "$tmp" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
d = json.load(open(src))
name = d["benchmarks"][0]["run_name"]
for r in d["benchmarks"]:
    if r["run_name"] == name:
        r["error_occurred"], r["error_message"] = True, "wrong result: element 3"
json.dump(d, open(out + "/failed_now.json", "w"))
d = json.load(open(src))
d["benchmarks"] = [r for r in d["benchmarks"] if r["run_name"] != name]
json.dump(d, open(out + "/lost_row.json", "w"))
canonical = lambda n: "/".join(p for p in n.split("/") if ":" not in p and p != "manual_time")
d["context"]["cudabench"]["cases"] = {canonical(r["run_name"]): {} for r in d["benchmarks"]}  # selected: all but it
json.dump(d, open(out + "/filtered_out.json", "w"))
PY
s=$(run "$report" compare "$fx/synthetic_base.json" "$tmp/failed_now.json"); check "compare: a case failing its check now fails the comparison" 1 "$s" 'grep -q "1 case(s) lost" "$tmp/out"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$tmp/lost_row.json"); check "compare: a selected case with no result fails the comparison" 1 "$s" 'grep -q "no result in the current run" "$tmp/out"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$tmp/filtered_out.json"); check "compare: a case the current run did not select is only reported" 0 "$s" 'grep -q "not selected by the current run" "$tmp/out"'
# trend: an unreadable file is named and left out; runs of two GPU models are refused unless allowed.
mkdir -p "$tmp/tr" && cp "$fx"/trend/*.json "$tmp/tr/" && printf '{"benchmarks": [' >"$tmp/tr/zz-broken.json"
s=$(run "$report" trend "$tmp/tr"); check "trend names an unreadable file and goes on" 0 "$s" \
  'grep -q "^left out (unreadable): .*zz-broken.json" "$tmp/out"' 'grep -q "sustained shift" "$tmp/out"'
rm "$tmp/tr/zz-broken.json" && cp "$fx/synthetic_other_gpu.json" "$tmp/tr/zz-other.json"
s=$(run "$report" trend "$tmp/tr"); check "trend over two GPU models: refused, both named" 2 "$s" 'grep -q "different GPU models" "$tmp/err"'
s=$(run "$report" trend "$tmp/tr" --allow-device-mismatch); check "trend over two GPU models with --allow-device-mismatch" 0 "$s"
# Interruption: the finished cases written and marked incomplete, no temporary file, one line, 128+signal;
# with nothing finished an existing file is left as it was.
mkdir -p "$tmp/int"
s=$(cd "$tmp/int" && timeout --preserve-status -s INT 6 "$abs_bench" --preset=nightly --rounds=1 --filter=cpu --quiet --json "$tmp/int/out.json" >"$tmp/out" 2>"$tmp/err"; echo $?)
check "SIGINT during a run: exit 130, the finished cases in the JSON marked incomplete, no debris" 130 "$s" \
  'grep -q "^run_bench: interrupted by SIGINT after [1-9][0-9]* of 22 case(s); the finished ones are in" "$tmp/err"' \
  'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d[\"context\"][\"cudabench\"]; assert m[\"incomplete\"] is True and m[\"interrupted_by\"] == \"SIGINT\" and d[\"benchmarks\"], m" "$tmp/int/out.json"' \
  '[ "$(ls "$tmp/int")" = out.json ]'
printf '{"kept": true}\n' >"$tmp/int/old.json"
# The signal goes once the first case has started (its progress line), however slowly the binary loads.
"$bench" --preset=nightly --filter=conv2d/cpu_seq --json "$tmp/int/old.json" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 400); do grep -q '^\[1/' "$tmp/err" && break; sleep 0.05; done
kill -TERM "$pid"; wait "$pid"; s=$?
check "SIGTERM before any case finished: exit 143, the old file left as it was" 143 "$s" \
  'grep -q "left as it was" "$tmp/err"' '[ "$(cat "$tmp/int/old.json")" = "{\"kept\": true}" ]' '[ "$(ls "$tmp/int" | wc -l)" = 2 ]'
# --devices: tests/cli_devices_test.sh
s=$(run "$bench" --watchdog=0); check "--watchdog=0: exit 2, the accepted forms named" 2 "$s" 'grep -q "watchdog (seconds, or off) expects a number from 1 to 86400" "$tmp/err"'
s=$(run "$bench" --filter='^image/cpu$' --watchdog=off --json "$tmp/inproc.json"); check "--watchdog=off: the cases run in this process" 0 "$s" \
  'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert [r[\"name\"] for r in d[\"benchmarks\"]] == [\"image/cpu\"]" "$tmp/inproc.json"'
s=$(run "$bench" --filter='^image/cpu$' --compare-to="$fx/synthetic_other_gpu.json"); check "--compare-to a baseline of another GPU: refused before the first case" 2 "$s" \
  'grep -q "refused before running" "$tmp/err"' '! grep -q "case(s):" "$tmp/out"'
# Runs of different presets: compare refuses them in one line as it refuses two GPU models, unless told; a run's
# --compare-to refuses a baseline of another preset before the first case.
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['context']['cudabench']['preset']='quick'; json.dump(d, open(sys.argv[2], 'w'))" \
  "$fx/synthetic_same.json" "$tmp/quick_same.json"
s=$(run "$report" compare "$fx/synthetic_base.json" "$tmp/quick_same.json"); check "compare of a nightly and a quick run: refused in one line" 2 "$s" \
  'one_line "refusing to compare runs of different presets (.nightly. vs .quick."' 'grep -q -- "--allow-preset-mismatch" "$tmp/err"'
s=$(run "$report" compare "$fx/synthetic_base.json" "$tmp/quick_same.json" --allow-preset-mismatch); check "compare of two presets with --allow-preset-mismatch: a note" 0 "$s" \
  'grep -q "^note: compared despite different presets" "$tmp/out"'
"$bench" --filter='^image/cpu$' --preset=quick --json "$tmp/quick_base.json" >/dev/null 2>&1
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['context']['cudabench']['preset']='nightly'; json.dump(d, open(sys.argv[1], 'w'))" "$tmp/quick_base.json"
s=$(run "$bench" --filter='^image/cpu$' --preset=quick --compare-to="$tmp/quick_base.json"); check "--compare-to a baseline of another preset: refused before the first case" 2 "$s" \
  'one_line "a baseline of preset .nightly., and this run is of preset .quick."' '! grep -q "case(s):" "$tmp/out"'
s=$(run "$bench" --filter='^image/cpu$' --preset=quick --compare-to="$tmp/quick_base.json" --allow-preset-mismatch); check "--compare-to another preset with --allow-preset-mismatch: compared" 0 "$s" \
  'grep -q "compared despite different presets" "$tmp/out"'
# Nightly runs of 13 H100 boards (a few cases of each, tests/fixtures/h100_boards): host-bound cases, whose steps
# trend once flagged, are kept apart, and no case shows a sustained shift.
mkdir -p "$tmp/boards" && for f in "$fx"/h100_boards/*.json.gz; do gzip -dc "$f" >"$tmp/boards/$(basename "$f" .gz)"; done
s=$(run "$report" trend "$tmp/boards"); check "trend over runs of 13 H100 boards: no host-bound case among its sustained shifts" 0 "$s" \
  '! grep -E "(cpu|pageable|managed|sync|merge|threads_streams).* step .*%" "$tmp/out" | grep -v "(returned)" | grep -q .' \
  'grep -q "^16 runs: " "$tmp/out"' 'grep -q "kept apart: host-bound or not gated" "$tmp/out"' \
  'grep -Eq "^ +conv2d/cpu_seq/2048 +last .* host-bound$" "$tmp/out"' 'grep -Eq "^ +image/sync +last .* host-bound$" "$tmp/out"' \
  'grep -q "^0 case(s) with a sustained shift" "$tmp/out"'
s=$(run "$bench" --filter='\66666666666666666666'); check "a back-reference number a backtracking compiler overflowed on: an RE2 octal escape, matching nothing" 2 "$s" 'grep -q "no case matches" "$tmp/err"'
s=$(run "$bench" --list --inject-slowdown='a{99999999999}:5'); check "a repetition count a backtracking compiler overflowed on: RE2 reads a literal brace" 0 "$s"
# Stand-in ncus: one that profiles nothing (the run must say so and fail), one that reports a kernel.
printf '#!/bin/sh\necho "\\"ID\\",\\"Kernel Name\\""\n' >"$tmp/ncu-none"
printf '#!/bin/sh\necho "\\"ID\\",\\"Kernel Name\\""\necho "\\"0\\",\\"k(int)\\""\necho "$*" >"%s/ncu-args"\n' "$tmp" >"$tmp/ncu-one"
chmod +x "$tmp/ncu-none" "$tmp/ncu-one"
s=$(NCU="$tmp/ncu-none" run "$src/app/cudabench-run" "$bench" --ncu --filter='^reduce/cub/1048576$' --json "$tmp/p.json"); check "--ncu that profiles no kernel: exit 1, said" 1 "$s" \
  'grep -q "ncu profiled no kernel of reduce/cub/1048576 under the NVTX range cudabench@reduce:cub:1048576/measure/kernel/" "$tmp/err"'
s=$(NCU="$tmp/ncu-one" run "$src/app/cudabench-run" "$bench" --ncu --filter '^reduce/cub/1048576$' --json "$tmp/p.json"); check "--ncu: CSV beside the JSON, one case at a time, the timed kernels' range" 0 "$s" \
  'grep -q "^\"reduce/cub/1048576\",\"0\",\"k(int)\"" "$tmp/p.ncu.csv"' 'grep -q -- "--nvtx-include cudabench@reduce:cub:1048576/measure/kernel/" "$tmp/ncu-args"' \
  'grep -qF -- "--profile --filter=^reduce/cub/1048576\$" "$tmp/ncu-args"' '! grep -q -- "--json" "$tmp/ncu-args"'
s=$(NCU=/no/such/ncu run "$src/app/cudabench-run" "$bench" --ncu --filter=image/cpu); check "--ncu with NCU naming no program: exit 2, named" 2 "$s" 'grep -q "needs Nsight Compute (/no/such/ncu)" "$tmp/err"'

# The table shows each case once, from Google Benchmark's run data: the median of several repetitions (reported
# to it in two calls, the repetitions and then their aggregates), a skipped case in the line of its reason at
# the end; here and in a worker.
for mode in --watchdog=off --watchdog=300; do
  s=$(run "$bench" --filter='^(histogram/cpu/1048576|vector/cpu/16777216|reduce/cub/1048576)$' --repetitions=3 "$mode" --json "$tmp/reps.json")
  check "one table line per case over 3 repetitions ($mode)" 0 "$s" \
    '[ "$(grep -c "^histogram/cpu/1048576 " "$tmp/out")" = 1 ] && [ "$(grep -c "^vector/cpu/16777216 " "$tmp/out")" = 1 ]' \
    '[ "$(grep -Ec "^reduce/cub/1048576 +[0-9]|^1 case\(s\) +SKIPPED" "$tmp/out")" = 1 ]' \
    'grep -q "^vector/cpu/16777216 .*\[3/3\]" "$tmp/out"' \
    'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert sum(r[\"run_type\"]==\"iteration\" for r in d[\"benchmarks\"] if r[\"run_name\"]==\"vector/cpu/16777216\")==3" "$tmp/reps.json"'
done
finish

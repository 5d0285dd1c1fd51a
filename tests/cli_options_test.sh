#!/usr/bin/env bash
# The command lines of every command, as the option table makes them: a usage error is one line naming the
# option and pointing at --help (exit 2), every --help exits 0 and lists its options, one meaning per option
# name (--verdict, not --json, for a comparison's verdicts), `-` as standard output, the profiling wrapper.
# Usage: tests/cli_options_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
bench="$build/bench/cudabench" report="$build/app/cudabench-report" fx="$src/tests/fixtures" wrapper="$src/app/cudabench-run"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
one_line='[ "$(wc -l <"$tmp/err")" = 1 ]'
base="$fx/synthetic_base.json" slowed="$fx/synthetic_slowed.json"

# A usage error: one line naming the option, pointing at the command's --help; nothing on standard output.
s=$(run "$bench" --frobnicate); check "run: an unknown option in one line" 2 "$s" "$one_line" \
  'grep -qx "run_bench: unknown option .--frobnicate. (see ./run_bench --help)" "$tmp/err"' '[ ! -s "$tmp/out" ]'
s=$(run "$bench" --repetitions); check "run: an option without its value" 2 "$s" "$one_line" 'grep -q -- "--repetitions needs a value" "$tmp/err"'
s=$(run "$wrapper" "$bench" --frobnicate); check "run through cudabench-run: the same line" 2 "$s" "$one_line" \
  'grep -q "unknown option .--frobnicate. (see ./run_bench --help)" "$tmp/err"'
s=$(run "$report" compare "$base" "$slowed" --frobnicate); check "compare: an unknown option in one line" 2 "$s" "$one_line" \
  'grep -qx "cudabench-report compare: unknown option .--frobnicate. (see cudabench-report compare --help)" "$tmp/err"'
s=$(run "$report" report "$base" --hold=3); check "report: an option of another command, named" 2 "$s" "$one_line" \
  'grep -q "cudabench-report report: --hold is not an option of report (see cudabench-report report --help)" "$tmp/err"'
s=$(run "$report" trend "$fx/trend" --md "$tmp/t.md"); check "trend: --md is not one of its options" 2 "$s" "$one_line" '[ ! -e "$tmp/t.md" ]'
s=$(run "$report" compare "$base"); check "compare with one file: one line" 2 "$s" "$one_line" 'grep -q "compare expects 2 file argument(s)" "$tmp/err"'
s=$(run "$report"); check "cudabench-report without a command: one line" 2 "$s" "$one_line" 'grep -q "expected compare, confirm, report, trend, gates, bisect, fleet or store" "$tmp/err"'
s=$(run "$report" frobnicate); check "cudabench-report with an unknown command: one line" 2 "$s" "$one_line" 'grep -q "unknown command .frobnicate." "$tmp/err"'
s=$(run "$bench" --filtr=conv2d); check "run: a mistyped option, its likely meaning named in one line" 2 "$s" "$one_line" \
  'grep -qx "run_bench: unknown option .--filtr.: did you mean --filter? (see ./run_bench --help)" "$tmp/err"'
s=$(run "$bench" compre "$base" "$slowed"); check "run: a mistyped command, its likely meaning named in one line" 2 "$s" "$one_line" \
  'grep -q "unknown command .compre.: did you mean compare?" "$tmp/err"'
s=$(run "$report" compre "$base" "$slowed"); check "cudabench-report: a mistyped command, its likely meaning named in one line" 2 "$s" \
  "$one_line" 'grep -q "unknown command .compre.: did you mean compare? (see .* --help)$" "$tmp/err"'

# Every --help exits 0, on standard output, and lists the options of its command.
for cmd in "" compare report trend; do
  s=$(run "$report" $cmd --help)
  [ -z "$cmd" ] && { check "cudabench-report --help: exit 0, the commands, named as itself" 0 "$s" \
    'grep -q "cudabench-report compare BASELINE.json CURRENT.json" "$tmp/out"' '! grep -q run_bench "$tmp/out"'; continue; }
  check "$cmd --help: exit 0" 0 "$s" 'grep -q "^usage: cudabench-report $cmd " "$tmp/out"' '[ ! -s "$tmp/err" ]'
done
s=$(run bash -c 'exec -a ./run_bench "$0" compare --frobnicate' "$report")
check "cudabench-report started by ./run_bench (argv[0] ./run_bench) is named so" 2 "$s" \
  'grep -qx "run_bench compare: unknown option .--frobnicate. (see ./run_bench compare --help)" "$tmp/err"'
s=$(run "$report" compare "$base" --frobnicate --help); check "--help wins over a bad option" 0 "$s" 'grep -q "^usage:" "$tmp/out"'
s=$(run "$report" trend --help); check "trend --help lists --threshold and --hold" 0 "$s" 'grep -q "^  --threshold=PCT" "$tmp/out"' 'grep -q "^  --hold=N" "$tmp/out"'
s=$(run "$report" report --help); check "report --help lists --csv and --format" 0 "$s" 'grep -q "^  --csv=FILE" "$tmp/out"' 'grep -q "^  --format=text|gab|bmf" "$tmp/out"'
s=$(run "$bench" --help); check "run --help: exit 0, its options and Google Benchmark's" 0 "$s" \
  'grep -q "^  --verdict=FILE" "$tmp/out"' 'grep -q "^  --benchmark_min_time=SECONDSs" "$tmp/out"' '! grep -q "^  --hold" "$tmp/out"'
s=$(run "$wrapper" "$bench" --help); check "run --help through cudabench-run" 0 "$s" 'grep -q "^usage: ./run_bench \[options\]" "$tmp/out"'

# One meaning per name: --json is a run's results file; a comparison's verdicts are --verdict everywhere.
s=$(run "$report" compare "$base" "$slowed" --json "$tmp/v.json"); check "compare --json: one line pointing at --verdict" 2 "$s" "$one_line" \
  'grep -q -- "--json is not an option of compare: .*--verdict FILE" "$tmp/err"' '[ ! -e "$tmp/v.json" ]'
s=$(run "$report" compare "$base" "$slowed" --verdict "$tmp/v.json"); check "compare --verdict writes the verdicts" 1 "$s" \
  'python3 -c "import json,sys; c=json.load(open(sys.argv[1]))[\"cases\"]; assert c, c" "$tmp/v.json"'

# `-` is standard output for any output of any command, for one output at most.
s=$(cd "$tmp" && run "$report" report "$base" --csv -); check "report --csv - is not refused" 0 "$s" '! grep -q "give output files a name" "$tmp/err"'
s=$(cd "$tmp" && run "$report" trend "$fx/trend" --html -); check "trend --html - is not refused" 0 "$s" '! grep -q "give output files a name" "$tmp/err"'
s=$(run "$report" compare "$base" "$slowed" --md - --verdict -); check "compare: two outputs on standard output, refused in one line" 2 "$s" "$one_line" \
  'grep -q -- "--md - and --verdict - cannot both use standard output" "$tmp/err"'
s=$(run "$report" report "$base" --format=gab --csv -); check "report --format=gab and --csv -: refused" 2 "$s" "$one_line" 'grep -q "cannot both use standard output" "$tmp/err"'
s=$(run "$bench" --filter=image/cpu --json - --md -); check "run --json - --md -: refused before running" 2 "$s" "$one_line" '[ ! -s "$tmp/out" ]'

# The profiling wrapper asks the binary's table what the arguments mean; it parses none itself.
s=$(run "$bench" --nsys --filter=image/cpu); check "the binary alone refuses --nsys, naming the wrapper" 2 "$s" "$one_line" 'grep -q "cudabench-run" "$tmp/err"'
s=$(run "$wrapper" "$bench" --nsys --ncu); check "cudabench-run --nsys --ncu: one profiler at a time" 2 "$s" "$one_line"
printf '#!/bin/sh\necho "\\"ID\\",\\"Kernel Name\\""\necho "\\"0\\",\\"k(int)\\""\necho "$*" >>"%s/ncu-args"\n' "$tmp" >"$tmp/ncu-one"; chmod +x "$tmp/ncu-one"
s=$(NCU="$tmp/ncu-one" run "$wrapper" "$bench" --ncu --filter '^reduce/cub/1048576$' --preset quick --json "$tmp/p.json" --md "$tmp/p.md" --csv="$tmp/p.csv" --save-baseline)
check "--ncu: each case's run gets the run's settings, not its filters, outputs or baseline" 0 "$s" \
  'grep -q "^\"reduce/cub/1048576\",\"0\",\"k(int)\"" "$tmp/p.ncu.csv"' 'grep -q -- "--preset quick" "$tmp/ncu-args"' \
  '! grep -q -- "--md\|--csv=\|--json\|--save-baseline\|--filter \^" "$tmp/ncu-args"' '[ ! -e "$tmp/p.md" ]'

# An option that needs a value does not take the next option as its value.
s=$(run "$bench" --filter=image/cpu --json --quiet); check "--json --quiet: --json needs a value" 2 "$s" \
  'grep -q "^run_bench: --json needs a value" "$tmp/err"' '[ "$(wc -l <"$tmp/err")" = 1 ]' '[ ! -e ./--quiet ]'
s=$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_same.json" --md --html); check "compare --md --html: --md needs a value" 2 "$s" \
  'grep -q "\-\-md needs a value" "$tmp/err"'
s=$(run "$bench" --list --filter -conv2d); check "a value that starts with - but is no option is taken (negated filter)" 0 "$s" \
  '! grep -q "^conv2d/" "$tmp/out"' 'grep -q "^image/" "$tmp/out"'

# The revision variables of a copy without .git: CUDABENCH_GIT_DIRTY is 1 or 0, nothing else recorded as clean.
s=$(CUDABENCH_GIT_REVISION=0123456789abcdef0123456789abcdef01234567 CUDABENCH_GIT_DIRTY=true run "$bench" --filter='^image/cpu$' --json "$tmp/rev.json")
check "CUDABENCH_GIT_DIRTY=true: refused in one line naming it, before any case runs" 2 "$s" "$one_line" \
  'grep -q "CUDABENCH_GIT_DIRTY: expects 1 (dirty) or 0 (clean), got .true." "$tmp/err"' '[ ! -e "$tmp/rev.json" ]'
s=$(CUDABENCH_GIT_REVISION=0123456789abcdef0123456789abcdef01234567 CUDABENCH_GIT_DIRTY=0 run "$bench" --filter='^image/cpu$' --json "$tmp/rev.json")
check "CUDABENCH_GIT_DIRTY=0: the revision recorded clean" 0 "$s" \
  'python3 -c "import json,sys; c=json.load(open(sys.argv[1]))[\"context\"][\"cudabench\"]; assert (c[\"git_revision\"], c[\"git_dirty\"]) == (\"0123456789abcdef0123456789abcdef01234567\", False), c" "$tmp/rev.json"'
# Only a full commit hash is recorded: a symbolic name or a short hash would resolve to another commit when read.
rm -f "$tmp/rev.json"
for rev in HEAD abc123 refs/heads/main 0123456789ABCDEF0123456789ABCDEF01234567; do
  s=$(CUDABENCH_GIT_REVISION=$rev CUDABENCH_GIT_DIRTY=0 run "$bench" --filter='^image/cpu$' --json "$tmp/rev.json")
  check "CUDABENCH_GIT_REVISION=$rev: refused in one line naming it, nothing written" 2 "$s" "$one_line" \
    'grep -q "CUDABENCH_GIT_REVISION: expects a full commit hash" "$tmp/err"' '[ ! -e "$tmp/rev.json" ]'
done

mkdir -p "$tmp/fresh" && git -C "$tmp/fresh" init -q . && cd "$tmp/fresh" || exit 1
s=$(run env -u CUDABENCH_GIT_REVISION -u CUDABENCH_GIT_DIRTY "$bench" --filter='^image/cpu$' --json "$tmp/rev.json")
check "in a repository without a commit: the revision recorded unknown, not HEAD" 0 "$s" 'grep -q "revision unknown" "$tmp/out"' \
  'python3 -c "import json,sys; assert json.load(open(sys.argv[1]))[\"context\"][\"cudabench\"][\"git_revision\"] == \"unknown\"" "$tmp/rev.json"'
cd - >/dev/null || exit 1

# A run asks git once (its revision, then whether it is dirty), however many worker processes it starts: the
# workers are handed what it found.
real_git=$(command -v git) && mkdir -p "$tmp/counting" && cd "$src" || exit 1
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$tmp/git.log" "$real_git" >"$tmp/counting/git" && chmod +x "$tmp/counting/git"
s=$(run env -u CUDABENCH_GIT_REVISION -u CUDABENCH_GIT_DIRTY PATH="$tmp/counting:$PATH" "$bench" --filter='^image/cpu$' \
    --rounds=3 --repetitions=3 --rounds-for=all --benchmark_min_time=0.01s --json "$tmp/rev.json")
check "three rounds in three workers: git asked once, by the run" 0 "$s" '[ "$(wc -l <"$tmp/git.log")" -le 2 ]' \
  'python3 -c "import json,sys; assert json.load(open(sys.argv[1]))[\"context\"][\"cudabench\"][\"git_revision\"] == sys.argv[2]" "$tmp/rev.json" "$("$real_git" rev-parse HEAD 2>/dev/null || echo unknown)"'
cd - >/dev/null || exit 1

# --benchmark_out beside --json: the same results in both files, written together (a write error on one replaces
# neither); Google Benchmark's CSV beside --benchmark_format=csv: refused, not one of them dropped.
s=$(run "$bench" --filter='^image/cpu$' --json "$tmp/ours.json" --benchmark_out="$tmp/gb.json")
check "--json with --benchmark_out: both files written, the same results" 0 "$s" \
  'python3 -c "import json,sys; a, b = (json.load(open(p)) for p in sys.argv[1:]); assert a == b and a[\"benchmarks\"], (a, b)" "$tmp/ours.json" "$tmp/gb.json"' \
  'grep -qx "results: .*ours.json" "$tmp/out"' 'grep -qx "results: .*gb.json" "$tmp/out"'
rm -f "$tmp/ours.json" "$tmp/gb.json"
s=$(run "$bench" --filter='^image/cpu$' --json "$tmp/ours.json" --benchmark_out=/dev/full)
check "--json with --benchmark_out on a full disk: neither written, one line saying so" 2 "$s" '[ ! -e "$tmp/ours.json" ]' \
  '[ "$(grep -c "run_bench:" "$tmp/err")" = 1 ] && grep -q "/dev/full: write failed.*no output was replaced" "$tmp/err"'
s=$(run "$bench" --filter='^image/cpu$' --benchmark_format=csv --benchmark_out="$tmp/gb.csv" --benchmark_out_format=csv)
check "--benchmark_format=csv with a CSV --benchmark_out: refused in one line naming both" 2 "$s" "$one_line" \
  'grep -q "both ask for Google Benchmark.s CSV" "$tmp/err"' '[ ! -e "$tmp/gb.csv" ] && [ ! -s "$tmp/out" ]'
s=$(run "$bench" --filter='^image/cpu$' --benchmark_format=json --benchmark_out="$tmp/gb.csv" --benchmark_out_format=csv)
check "--benchmark_format=json with a CSV --benchmark_out: JSON on standard output, the CSV file written" 0 "$s" \
  'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out"' 'head -1 "$tmp/gb.csv" | grep -q "^name,iterations,"'

# A Google Benchmark flag that takes a value, given bare: says it needs one (it was read as the value true).
s=$(run "$bench" --benchmark_time_unit); check "--benchmark_time_unit without a value: refused in one line asking for one" 2 "$s" "$one_line" \
  'grep -q "^run_bench: --benchmark_time_unit needs a value (--benchmark_time_unit=ns|us|ms|s)" "$tmp/err"'
s=$(run "$bench" --filter='^image/cpu$' --benchmark_list_tests); check "a bare true|false flag is still true" 0 "$s" 'grep -qx "image/cpu.*" "$tmp/out"' '! grep -q "^device:" "$tmp/out"'

# The profiling wrapper's own arguments: --help, none, a binary that is not there, a bare name in this folder.
s=$(run "$wrapper" --help); check "cudabench-run --help: exit 0, its usage" 0 "$s" 'grep -q "^Usage: cudabench-run BINARY" "$tmp/out"' '[ ! -s "$tmp/err" ]'
s=$(run "$wrapper"); check "cudabench-run alone: one line, exit 2" 2 "$s" "$one_line" 'grep -q "^cudabench-run: expected BINARY" "$tmp/err"'
s=$(run "$wrapper" "$tmp/no-such-bench" --list); check "cudabench-run with a missing binary: one line naming it, exit 2" 2 "$s" "$one_line" \
  'grep -qx "cudabench-run: $tmp/no-such-bench: not an executable file" "$tmp/err"'
s=$(cd "$build/bench" && run "$wrapper" cudabench --list --filter='^image/cpu$'); check "cudabench-run with a bare name: the binary in this folder" 0 "$s" 'grep -q "^image/cpu" "$tmp/out"'
s=$(cd "$tmp" && env -u NSYS NSYS=/no/such/nsys "$wrapper" "$bench" --nsys --filter=image/cpu 2>&1 >/dev/null)
check "cudabench-run's messages name the program as the binary does (run_bench for the suite)" 0 0 '[[ $s == "run_bench: --nsys needs Nsight Systems"* ]]'

finish

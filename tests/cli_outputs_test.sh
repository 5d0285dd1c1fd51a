#!/usr/bin/env bash
# End-to-end tests of where outputs go: closed pipes, full disks, symbolic links, standard output, outputs
# that would overwrite an input, and names escaped in Markdown and on the terminal.
# Usage: tests/cli_outputs_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
bench="$build/bench/cudabench" report="$build/app/cudabench-report" fx="$src/tests/fixtures"
Q="$fx/h100_quick.json"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
lines() { wc -l <"$1" | tr -d ' '; }

# A run of 3,000 cases: its comparison table (about 300 KB) is more than a pipe holds, so a reader that
# leaves after one line is certain to be gone before the last write.
python3 - "$tmp/many.json" <<'PY'
import json, sys
rows = [{"name": "fam/v/%d" % i, "run_name": "fam/v/%d" % i, "run_type": "iteration", "repetitions": 1,
         "repetition_index": 0, "threads": 1, "iterations": 1, "real_time": 10.0 + i % 7, "cpu_time": 10.0,
         "time_unit": "us"} for i in range(3000)]
json.dump({"context": {"date": "x"}, "benchmarks": rows}, open(sys.argv[1], "w"))
PY
"$report" compare "$tmp/many.json" "$tmp/many.json" --allow-device-mismatch 2>"$tmp/err" | head -1 >"$tmp/out"
s=${PIPESTATUS[0]}; check "compare | head -1: exit 2 and one line on standard error, not death by SIGPIPE" 2 "$s" \
  '[ "$(lines "$tmp/out")" = 1 ]' '[ "$(lines "$tmp/err")" = 1 ]' 'grep -q "cannot write to standard output: Broken pipe" "$tmp/err"'
# The same with the reader gone before the first byte, for the plain compare of a quick run (its whole output fits in a pipe).
check "compare Q Q into a pipe nobody reads: exit 2, one line" 2 "$(ERR="$tmp/err" python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
print(subprocess.run(sys.argv[1:], stdout=w, stderr=open(os.environ["ERR"], "w")).returncode)' "$report" compare "$Q" "$Q")" \
  '[ "$(lines "$tmp/err")" = 1 ]' 'grep -q "cannot write to standard output" "$tmp/err"'

# A full disk: one line naming the file, exit 2.
s=$(run "$report" report "$Q" --md /dev/full); check "--md /dev/full: exit 2, one line naming it" 2 "$s" \
  '[ "$(lines "$tmp/err")" = 1 ]' 'grep -q "/dev/full: .*No space left on device" "$tmp/err"'
s=$(run "$report" compare "$Q" "$Q" --json /dev/full); check "compare --json /dev/full: exit 2, one line" 2 "$s" '[ "$(lines "$tmp/err")" = 1 ]'

# A symbolic link whose target does not exist yet: the target is written, the link stays.
ln -s "$tmp/made-by-link.md" "$tmp/dangling.md"
s=$(run "$report" report "$Q" --md "$tmp/dangling.md"); check "--md through a dangling symbolic link: its target written, the link kept" 0 "$s" \
  '[ -L "$tmp/dangling.md" ]' 'grep -q "^## Speedups" "$tmp/made-by-link.md"'
mkdir -p "$tmp/sub" && ln -s "../rel-target.html" "$tmp/sub/rel.html"
s=$(run "$report" report "$Q" --html "$tmp/sub/rel.html"); check "a relative dangling link is followed from its own directory" 0 "$s" \
  '[ -L "$tmp/sub/rel.html" ]' 'grep -q "<svg" "$tmp/rel-target.html"'

# An output that is one of the command's inputs (a trend directory's files included) or another output.
cp -r "$fx/trend" "$tmp/trend"
first=$(ls "$tmp/trend"/*.json | head -1)
cp "$first" "$tmp/first.copy"
s=$(run "$report" trend "$tmp/trend" --html "$first"); check "trend DIR --html DIR/run.json: refused, the run unchanged" 2 "$s" \
  'grep -q "same file as the input" "$tmp/err"' 'cmp -s "$first" "$tmp/first.copy"' '! grep -q "runs:" "$tmp/out"'
ln -s "$first" "$tmp/alias.html"
s=$(run "$report" trend "$tmp/trend" --html "$tmp/alias.html"); check "trend --html through a link to one of its inputs: refused" 2 "$s" \
  'cmp -s "$first" "$tmp/first.copy"'
ln -s "$tmp/not-yet.md" "$tmp/to-not-yet.md"
s=$(run "$report" compare "$Q" "$Q" --md "$tmp/not-yet.md" --html "$tmp/to-not-yet.md"); check "two outputs onto one file that does not exist yet (one through a link): refused" 2 "$s" \
  'grep -q "is the same file as --md" "$tmp/err"' '[ ! -e "$tmp/not-yet.md" ]'
s=$(run "$report" compare "$Q" "$Q" --md /dev/null --html /dev/null --csv /dev/null --verdict /dev/null); check "/dev/null named four times: not the same file" 0 "$s"
s=$(run "$report" compare "$Q" "$Q" --md - --csv -); check "two outputs onto standard output: refused" 2 "$s" 'grep -q "cannot both use standard output" "$tmp/err"'

# "-" is standard output, the document alone there (the terminal text goes to standard error).
s=$(run "$report" compare "$Q" "$Q" --md -); check "compare --md -: the Markdown on standard output" 0 "$s" \
  '[ "$(head -1 "$tmp/out")" = "## Benchmark comparison" ]' 'grep -q "^baseline: " "$tmp/err"' '[ ! -e ./- ]'
s=$(run "$report" compare "$Q" "$Q" --csv -); check "compare --csv -: the CSV on standard output" 0 "$s" \
  '[ "$(head -1 "$tmp/out" | cut -d, -f1-3)" = "name,status,median_us" ]' '[ "$(lines "$tmp/out")" = 62 ]'
s=$(run "$report" report "$Q" --html -); check "report --html -: the page on standard output" 0 "$s" \
  '[ "$(head -c 15 "$tmp/out")" = "<!DOCTYPE html>" ]' '! grep -q "^conv2d (size" "$tmp/out"'
s=$(run "$report" report "$Q" --md -); check "report --md -: the Markdown on standard output" 0 "$s" '[ "$(head -1 "$tmp/out" | cut -c1-12)" = "## Speedups:" ]'
s=$(run "$report" trend "$fx/trend" --html -); check "trend --html -: the page on standard output" 0 "$s" \
  '[ "$(head -c 15 "$tmp/out")" = "<!DOCTYPE html>" ]' 'grep -q "sustained shift" "$tmp/err"'
s=$(cd "$tmp" && run "$bench" --filter='^image/cpu$' --md - --quiet); check "the runner's --md -: standard output, not a file named -" 0 "$s" \
  'grep -q "^## Speedups: this run" "$tmp/out"' '[ ! -e "$tmp/-" ]'

# Names that would break out of Markdown or command the terminal are shown escaped.
python3 - "$Q" "$tmp/names.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rename = {"conv2d/naive/1024": "conv2d/x`y|z/1024", "conv2d/tiled/1024": "conv2d/\x1b]0;pwned\x07/1024"}
for r in d["benchmarks"]:
    for k in ("name", "run_name"):
        for old, new in rename.items():
            if r[k].startswith(old): r[k] = new + r[k][len(old):]
json.dump(d, open(sys.argv[2], "w"))
PY
s=$(run "$report" compare "$tmp/names.json" "$tmp/names.json" --md "$tmp/names.md"); check "a backtick and a | in a name stay inside its code span and cell" 0 "$s" \
  'grep -qF "| \`\`conv2d/x\`y\\|z/1024\`\` | " "$tmp/names.md"' \
  '[ "$(grep -F "conv2d/x" "$tmp/names.md" | sed "s/\\\\|//g" | tr -cd "|" | wc -c)" = 11 ]'
s=$(run "$report" report "$tmp/names.json" --md "$tmp/names-report.md"); check "report: the odd variant stays in its cell" 0 "$s" \
  'grep -qF "| \`\`x\`y\\|z\`\` | " "$tmp/names-report.md"'
s=$(run "$report" compare "$tmp/names.json" "$tmp/names.json"); check "an ESC in a name is shown escaped on the terminal" 0 "$s" \
  'grep -qF "conv2d/\\x1b]0;pwned\\x07/1024" "$tmp/out"' '! grep -q "$(printf "\033")" "$tmp/out"' '! grep -q "$(printf "\007")" "$tmp/out"'
s=$(run "$report" report "$tmp/names.json"); check "report: an ESC in a variant is shown escaped on the terminal" 0 "$s" \
  'grep -qF "\\x1b]0;pwned\\x07" "$tmp/out"' '! grep -q "$(printf "\033")" "$tmp/out"'

# A descriptor's own name is that descriptor: /dev/stdout is standard output (a pipe, a redirected file),
# never reopened or replaced; it counts as standard output when another output is "-".
s=$(cd "$tmp" && "$report" compare "$Q" "$Q" --md /dev/stdout 2>"$tmp/err" | cat >"$tmp/piped.md"; echo "${PIPESTATUS[0]}")
check "--md /dev/stdout into a pipe: the Markdown there" 0 "$s" 'grep -q "^## Benchmark comparison" "$tmp/piped.md"'
printf 'kept\n' >"$tmp/redirected.txt"
s=$("$report" compare "$Q" "$Q" --md /dev/stdout >>"$tmp/redirected.txt" 2>"$tmp/err"; echo $?)
check "--md /dev/stdout onto a redirected file: appended, the file not replaced" 0 "$s" \
  '[ "$(head -n 1 "$tmp/redirected.txt")" = kept ]' 'grep -q "^## Benchmark comparison" "$tmp/redirected.txt"'
s=$(run "$report" compare "$Q" "$Q" --verdict - --md /dev/stdout); check "--verdict - with --md /dev/stdout: refused" 2 "$s" \
  'grep -q "cannot both use standard output" "$tmp/err"'
# A .json output inside a trend directory would be read by the next trend as one of its runs.
mkdir -p "$tmp/trdir" && cp "$src/tests/fixtures/trend/nightly-0.json" "$src/tests/fixtures/trend/nightly-1.json" "$tmp/trdir/"
s=$(run "$report" trend "$tmp/trdir" --html "$tmp/trdir/new.json"); check "trend DIR --html DIR/new.json: refused" 2 "$s" \
  '[ ! -e "$tmp/trdir/new.json" ]' 'grep -q "in the trend directory" "$tmp/err"'
# Messages quote what they were given with control characters shown escaped.
bad="$tmp/$(printf 'evil\033]0;pwn\007').json"
printf '{bad' >"$bad"
s=$(run "$report" report "$bad"); check "an ESC in a file name is shown escaped in the message" 2 "$s" \
  '! grep -q "$(printf "\033")" "$tmp/err"' 'grep -qF "\\x1b]0;pwn" "$tmp/err"'

# --json-lines: the run as it goes, one JSON object a line; each case's line as it finishes, from the worker
# process under the watchdog or from the runner itself, before the run's other outputs are written.
json_lines_ok() {  # json_lines_ok FILE CASE_LINES CASES: begin, the case lines counted 1.., end
  python3 - "$@" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
n, cases = int(sys.argv[2]), int(sys.argv[3])
assert [l["event"] for l in lines] == ["begin"] + ["case"] * n + ["end"], lines
assert [l["done"] for l in lines[1:-1]] == list(range(1, n + 1)), lines
assert all(l["status"] in ("ok", "skipped") and l["total"] >= l["done"] for l in lines[1:-1]), lines
assert lines[0]["cases"] == cases and lines[-1]["cases"] == cases and lines[-1]["failed"] == 0, lines
assert all(l["median_s"] > 0 for l in lines[1:-1] if l["status"] == "ok"), lines
PY
}
live_reader='import json, os, sys
first = None
out = open(sys.argv[2], "w")
for l in sys.stdin:
    if first is None and json.loads(l)["event"] == "case": first = os.path.exists(sys.argv[1])
    out.write(l)
print("the first case line came before the run ended" if first is False else "no case line before the end")'
jl_cases='^(image/cpu|histogram/cpu/1048576|reduce/cub/1048576)$'
for wd in 60 off; do
  s=$(cd "$tmp" && "$bench" --filter="$jl_cases" --watchdog=$wd --json-lines=- --json="$tmp/jl-$wd.json" 2>"$tmp/err" |
    python3 -c "$live_reader" "$tmp/jl-$wd.json" "$tmp/jl-$wd.txt" >"$tmp/out"; echo "${PIPESTATUS[0]}")
  check "--json-lines=- (--watchdog=$wd): begin, each case's line as it finishes, end; the table on standard error" 0 "$s" \
    'grep -q "came before the run ended" "$tmp/out"' "json_lines_ok '$tmp/jl-$wd.txt' 3 3" 'grep -q "3 case(s):" "$tmp/err"'
done
# Live: a reader that stops the run (SIGINT) on the first case line stops it before its last case (after the first,
# or on a loaded host a case or two later), not after all of them; the lines end with the stopped run's counts.
# Lines written only when the worker ends would hold every case.
stop_reader='import json, os, signal, sys
sent = False
for l in sys.stdin:
    print(l, end="")
    if not sent and json.loads(l)["event"] == "case": os.kill(int(sys.argv[1]), signal.SIGINT); sent = True'
mkfifo "$tmp/jl.fifo"
for wd in 60 off; do
  (cd "$tmp" && exec "$bench" --filter='^(histogram/cpu/1048576|image/cpu|vector/cpu/16777216|reduce/cub/1048576)$' \
    --watchdog=$wd --json-lines=- >"$tmp/jl.fifo" 2>"$tmp/err") & pid=$!
  python3 -c "$stop_reader" "$pid" <"$tmp/jl.fifo" >"$tmp/jl-stop.txt"; wait "$pid"; s=$?
  check "--json-lines=- (--watchdog=$wd): a reader stopping the run at the first case line stops it before its end" 130 "$s" \
    'python3 -c "import json, sys; l = [json.loads(x) for x in open(sys.argv[1])]; k = len(l) - 2; assert 1 <= k < 4 and [x[\"event\"] for x in l] == [\"begin\"] + [\"case\"] * k + [\"end\"] and l[-1][\"cases\"] == k and l[-1][\"incomplete\"], l" "$tmp/jl-stop.txt"' \
    'grep -Eq "after [123] of 4 case\(s\)" "$tmp/err"'
done
s=$(cd "$tmp" && run "$bench" --filter="$jl_cases" --repetitions=2 --rounds=2 --rounds-for=all --json-lines="$tmp/jl-rounds.txt" --quiet)
# Round 2 runs again the cases round 1 measured (reduce/cub is skipped there without a GPU): 6 lines with one, 5 without.
rounds_ok='import json, sys
cases = [json.loads(l) for l in open(sys.argv[1])][1:-1]
first = [c["name"] for c in cases if c["round"] == 1]
again = sorted(c["name"] for c in cases if c["round"] == 1 and c["status"] == "ok")
assert len(first) == 3 and [c["round"] for c in cases] == [1] * 3 + [2] * len(again), cases
assert sorted(c["name"] for c in cases if c["round"] == 2) == again, cases
print(len(cases))'
check "--json-lines=FILE with two rounds: a line per case and round, the file whole at the end" 0 "$s" \
  'json_lines_ok "$tmp/jl-rounds.txt" "$(python3 -c "$rounds_ok" "$tmp/jl-rounds.txt")" 3'
s=$(cd "$tmp" && run "$bench" --filter="$jl_cases" --json-lines="$tmp/same.json" --json="$tmp/same.json")
check "--json-lines onto the --json file: refused before any case" 2 "$s" 'one_line "same file"' '[ ! -e "$tmp/same.json" ]'

finish

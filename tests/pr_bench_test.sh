#!/usr/bin/env bash
# Pull-request benchmarks without a GPU: the comment body ci/pr_comment.py makes from compare's verdict for the
# synthetic pairs of tests/fixtures (the hidden marker first, the verdict, the table; bad input one line; a body
# over GitHub's limit in UTF-16 units cut; names and logs inert: a log holding ``` stays in its fence), ci/pr_bench.sh
# measure on a repository whose "binary" is a script (the merge base and a head 30% slower, measured by bisect --ends
# in alternating processes; the record of what was measured; a one-kernel change measuring that kernel's case, the
# controls and the cases of unknown code identity only, the rest skipped as same code and counted in the comment;
# CUDABENCH_PR_ALL_CASES=1 and CUDABENCH_FILTER measuring every case; a side that cannot identify its cases measured
# in full; --no-energy unless energy is asked for), and ci/pr_bench.sh report against a stand-in gh: the
# artifact checked as untrusted data, one comment posted, then found by its marker and its author (a COMMENT_AUTHOR
# holding a quote cannot widen the search) and updated in place, the status check of the approved head, the label
# removed after a push, and each forged record refused.
# Usage: tests/pr_bench_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
report="$(cd "$1" && pwd)/app/cudabench-report" src=$(cd "$2" && pwd)
source "$src/tests/cli_lib.sh"
fx="$src/tests/fixtures"
marker='<!-- cudabench-pr-benchmark -->'
base=1111111111111111111111111111111111111111 head=2222222222222222222222222222222222222222

# The synthetic pairs: compare's Markdown and verdict, then the comment.
"$report" compare "$fx/synthetic_base.json" "$fx/synthetic_slowed.json" --md "$tmp/slowed.md" --verdict "$tmp/slowed.json" >/dev/null
"$report" compare "$fx/synthetic_base.json" "$fx/synthetic_faster.json" --md "$tmp/faster.md" --verdict "$tmp/faster.json" >/dev/null
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/slowed.json" --base=$base --head=$head --processes=5 \
    --run-url=https://github.com/acme/x/actions/runs/1 --dashboard=https://acme.github.io/x/)
check "the comment for a slowed pair: the marker first, 1 regression, the table, the two commits, the dashboard linked" 0 "$s" \
  'grep -qF "[the dashboard](https://acme.github.io/x/)" "$tmp/out"' \
  '[ "$(head -n 1 "$tmp/out")" = "$marker" ]' '[ "$(grep -cF "$marker" "$tmp/out")" = 1 ]' \
  'sed -n 2p "$tmp/out" | grep -qx ":x: \*\*Benchmarks: fail\*\* (1 regression)"' \
  'grep -q "^| \`conv2d/tiled/4096\` | 143.73 us | 157.82 us | +9.8% | regression |" "$tmp/out"' \
  'grep -q "merge base \`111111111111\` (baseline) against the head \`222222222222\` (current), each built and measured in 5 fresh processes" "$tmp/out"' \
  'grep -q "^### Regressions" "$tmp/out"' 'grep -q "^<details><summary>All 4 cases" "$tmp/out"' 'grep -qF "(https://github.com/acme/x/actions/runs/1)" "$tmp/out"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/faster.json")
check "the comment for a faster pair: no regression" 0 "$s" 'sed -n 2p "$tmp/out" | grep -qx ":white_check_mark: \*\*Benchmarks: pass\*\* (no regression)"' \
  'grep -q "improvement" "$tmp/out"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$fx/synthetic_base.json"); check "not a verdict file: one line, exit 2" 2 "$s" 'one_line "not a verdict file"'
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/slowed.md"); check "a file without --verdict or --log: one line, exit 2" 2 "$s" 'one_line "unknown argument"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/slowed.json" --head='abc; rm'); check "a head that is no commit hash: one line, exit 2" 2 "$s" 'one_line "is not a commit hash"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/slowed.json" --run-url='javascript:x'); check "a run address that is not https: one line, exit 2" 2 "$s" 'one_line "not an https address"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/slowed.json" --dashboard='https://x/) ![i](https://y'); check "a dashboard address that is not a plain https address: one line, exit 2" 2 "$s" 'one_line "not an https address"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/slowed.json" --dashboard="https://x/$(printf '%02100d' 0)"); check "a dashboard address over 2000 characters: one line, exit 2" 2 "$s" 'one_line "not an https address"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/nope.json"); check "a missing file: one line, exit 2" 2 "$s" 'one_line "not a verdict file"'
# Names and notes from a results file are inert: code spans that no backtick in them can end, | escaped in a table.
python3 - "$tmp/slowed.json" "$tmp/hostile.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["cases"][0]["name"] = "x`` | [a](http://e) ![i](http://e/i.png) @team <b>"
j["notes"] = ["<!-- cudabench-pr-benchmark --> ``` @team [x](http://e)"]
json.dump(j, open(sys.argv[2], "w"))
PY
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/hostile.json")
check "a hostile case name and note: code spans longer than their backticks, one marker" 0 "$s" \
  'grep -qF "| \`\`\`x\`\` \| [a](http://e) ![i](http://e/i.png) @team <b>\`\`\` |" "$tmp/out"' \
  'grep -qF -- "- \`\`\`\`(marker) \`\`\` @team [x](http://e)\`\`\`\`" "$tmp/out"' '[ "$(grep -cF "$marker" "$tmp/out")" = 1 ]'
# The cases skipped as same code (bisect --skip-same-code's same_code.json): counted, listed as inert code spans.
printf '{"same_code": ["x`` [a](http://e) @team <b>", "y"], "note": ""}' >"$tmp/hostile_same.json"
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/slowed.json" --same-code="$tmp/hostile_same.json")
check "a same-code file: its cases counted and listed, a hostile name an inert code span" 0 "$s" \
  'grep -q "^\*\*2 cases skipped as same code\*\*" "$tmp/out"' 'grep -qxF -- "- \`\`\`x\`\` [a](http://e) @team <b>\`\`\`" "$tmp/out"'
printf '{"same_code": "all", "note": ""}' >"$tmp/bad_same.json"
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/slowed.json" --same-code="$tmp/bad_same.json")
check "a same-code file that is not one: one line, exit 2" 2 "$s" 'one_line "not a same-code file"'
# The build log of a side that could not be built: a line of ``` and a fake headline stay inside the fence.
printf 'cc: error\n```\n:white_check_mark: **Benchmarks: no regression**\n![x](http://e/x.png) @team <img src=x>\n' >"$tmp/evil.log"
s=$(run python3 "$src/ci/pr_comment.py" --log="$tmp/evil.log" --base=$base --head=$head)
check "a build log holding \`\`\` and a fake headline: all of it inside a longer fence" 0 "$s" \
  'sed -n 2p "$tmp/out" | grep -qx ":x: \*\*Benchmarks: not measured\*\*"' \
  'python3 - "$tmp/out" <<PY
import re, sys
lines = open(sys.argv[1]).read().split("\n")
opens = [i for i, l in enumerate(lines) if l == "\`\`\`\`"]
assert len(opens) == 2, opens
inside = lines[opens[0] + 1:opens[1]]
assert "\`\`\`" in inside and any("no regression" in l for l in inside) and any("@team" in l for l in inside), inside
assert not any("no regression" in l or "@team" in l or "<img" in l for l in lines[opens[1]:]), lines[opens[1]:]
PY'
printf '%s/.git/cudabench-bisect/wt/src/k.cu:3: error\n/tmp/tmp.abc/x/y.o: failed\n' "$tmp/repo" >"$tmp/paths.log"
s=$(run python3 "$src/ci/pr_comment.py" --log="$tmp/paths.log")
check "the log's paths: repository-relative, no temporary directory" 0 "$s" 'grep -qx "src/k.cu:3: error" "$tmp/out"' \
  'grep -qx "y.o: failed" "$tmp/out"' '! grep -q "/tmp/" "$tmp/out"'
# The notes name the compared files of the measuring job's temporary directory by their names in the artifact.
python3 - "$tmp/slowed.json" "$tmp/temp_paths.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["baseline"], j["current"] = "/home/runner/work/_temp/pr/good.json", "/home/runner/work/_temp/pr/bad.json"
j["notes"] = ["/home/runner/work/_temp/pr/good.json has no device description: compared without checking the GPUs",
              "warning from /tmp/tmp.x1/pr/bad.json"]
json.dump(j, open(sys.argv[2], "w"))
PY
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/temp_paths.json")
check "the notes' paths: the compared files by name, no temporary directory" 0 "$s" \
  'grep -qF -- "- \`good.json has no device description" "$tmp/out"' 'grep -qF -- "- \`warning from bad.json\`" "$tmp/out"' \
  '! grep -q "_temp\|/tmp/" "$tmp/out"'
# GitHub's limit counts UTF-16 code units: an emoji is 2. 3,000 cases named with emoji, a third of them regressions.
python3 - "$tmp/slowed.json" "$tmp/emoji.json" <<'PY'
import copy, json, sys
j = json.load(open(sys.argv[1]))
case = [c for c in j["cases"] if c["verdict"] == "regression"][0]
j["cases"] = []
for i in range(3000):
    c = copy.deepcopy(case)
    c["name"] = "\U0001F680" * 40 + "/%05d" % i
    c["verdict"] = "regression" if i % 3 == 0 else "unchanged"
    j["cases"].append(c)
json.dump(j, open(sys.argv[2], "w"))
PY
# Every verdict kind: pr_comment.py's list is the one a verdict file's counts name (compare's, all of them), and a
# verdict file holding each kind names each in the comment; unconfirmed and machine-differs rows have sections of
# their own; a not-gated case that moved is no plain green check, and says what gates it.
python3 - "$src/ci" "$tmp/slowed.json" "$tmp/every.json" "$tmp/moved.json" <<'PY' >"$tmp/py" 2>&1
import copy, json, sys
sys.path.insert(0, sys.argv[1])
import pr_comment
verdict = json.load(open(sys.argv[2]))
kinds = list(verdict["counts"])
assert tuple(kinds) == pr_comment.VERDICTS, "pr_comment.py's VERDICTS %s differ from compare's %s" % (pr_comment.VERDICTS, kinds)
every = copy.deepcopy(verdict)
every["failing"] = False
every["cases"] = [dict(verdict["cases"][0], name="kind/%d" % i, verdict=k, change=0.4) for i, k in enumerate(kinds) if k != "regression"]
json.dump(every, open(sys.argv[3], "w"))
moved = copy.deepcopy(every)
moved["cases"] = [dict(verdict["cases"][0], name="host/copy", verdict="not gated", change=0.4)]
json.dump(moved, open(sys.argv[4], "w"))
PY
check "pr_comment.py names the verdict kinds a verdict file's counts name, in their order" 0 $? 'cat "$tmp/py"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/every.json")
check "a verdict file holding every kind: each named in the counts, the unconfirmed and machine-differs sections, the word first" 0 "$s" \
  'sed -n 2p "$tmp/out" | grep -qx ":grey_question: \*\*Benchmarks: unconfirmed\*\* (1 change between different machines; no regression)"' \
  'grep -qxF "**11 cases: 1 improvement, 1 unchanged, 1 inconclusive, 1 not gated, 1 unconfirmed, 1 machine differs (same code), 1 machine differs, 1 new, 1 missing, 1 failed, 1 skipped**" "$tmp/out"' \
  'grep -q "^### Unconfirmed" "$tmp/out"' 'grep -q "^### Machine differs" "$tmp/out"' '! grep -q " ? |" "$tmp/out"' \
  'grep -q "| machine differs (same code) |$" "$tmp/out"' 'grep -q "^### Not gated, moved by 5.0% or more" "$tmp/out"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/moved.json")
check "a not-gated case 40% slower: a warning, not a green check, its section saying what gates it" 0 "$s" \
  'sed -n 2p "$tmp/out" | grep -qx ":warning: \*\*Benchmarks: pass\*\* (no regression; 1 case not gated moved: see below)"' \
  'grep -q "^### Not gated, moved by 5.0% or more" "$tmp/out"' 'grep -q "^Not gated: reported with its change, never failing the comparison; a host-bound case .* is gated only by --host-threshold or by a learned host gate" "$tmp/out"' \
  'grep -q "| \`host/copy\` .* +40.0% | not gated |" "$tmp/out"'
s=$(run python3 "$src/ci/pr_comment.py" --verdict="$tmp/emoji.json")
check "an emoji-heavy comparison: under 65,536 UTF-16 units, cut at a row, saying so" 0 "$s" \
  'python3 -c "import sys; t = open(sys.argv[1], encoding=\"utf-8\").read(); n = len(t.encode(\"utf-16-le\")) // 2; assert n <= 65536 and len(t) > 20000, n" "$tmp/out"' \
  'grep -q "too long for a comment" "$tmp/out"' '[ "$(head -n 1 "$tmp/out")" = "$marker" ]' '! grep -q "^<details>" "$tmp/out"' \
  '[ "$(grep "^| " "$tmp/out" | tail -n 1 | grep -c " |$")" = 1 ]'

# The bisect's section of the job summary: a commit subject and a case name are inert text (no link, image, mention
# or HTML), commits and files code spans.
python3 - "$tmp/bisect.json" <<'PY'
import json, sys
evil = "[x](http://e) ![i](http://e/i.png) @team <b>"
json.dump({"good": {"commit": "a" * 40}, "bad": {"commit": "b" * 40}, "outcome": "found", "stopped_by_time_limit": False,
           "first_bad": {"commit": "c" * 40, "subject": evil, "files": ["src/``k.cu"]}, "range": [],
           "cases": [{"name": evil + "|x", "change": 0.2, "first_bad_change": 0.2}]}, open(sys.argv[1], "w"))
PY
s=$(run python3 "$src/ci/nightly_bisect.py" markdown "$tmp/bisect.json")
check "nightly_bisect.py markdown: a subject and a case name of links, an image, a mention and HTML come out escaped" 0 "$s" \
  'grep -qF "\[x\]\(http\://e\) \!\[i\]\(http\://e/i\.png\) \@" "$tmp/out"' '! grep -q "@team\|<b>\|](\|!\[" "$tmp/out"' \
  'grep -qF "| \[x\]" "$tmp/out"' 'grep -qF "\<b\>\|x |" "$tmp/out"' 'grep -qF "Files: \`\`\` src/\`\`k.cu \`\`\`" "$tmp/out"'

# nightly_bisect.py over fields of the wrong type: one line naming the file, exit 2, no traceback.
bad_field() {  # bad_field COMMAND PYTHON_CHANGE DESCRIPTION: the bisect outcome above (or a verdict, a run) with a field changed
  python3 - "$tmp/bisect.json" "$tmp/slowed.json" "$tmp/field.json" "$2" <<'PY'
import json, sys
bisect, verdict = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
run = {"context": {"cudabench": {"git_revision": "a" * 40}}}
exec(sys.argv[4])
json.dump({"bisect": bisect, "verdict": verdict, "run": run}[sys.argv[4].split("[")[0]], open(sys.argv[3], "w"))
PY
  s=$(run python3 "$src/ci/nightly_bisect.py" "$1" "$tmp/field.json")
  check "nightly_bisect.py $1 with $3: one line, exit 2" 2 "$s" 'one_line "field.json is not"' '! grep -q Traceback "$tmp/err"' '[ ! -s "$tmp/out" ]'
}
bad_field markdown 'bisect["good"]["commit"] = 5' "a commit that is a number"
bad_field markdown 'bisect["first_bad"]["files"] = 7' "files that are a number"
bad_field markdown 'bisect["cases"][0]["change"] = "fast"' "a change that is a string"
bad_field markdown 'bisect["cases"] = {"a": 1}' "cases that are an object"
bad_field filter 'verdict["cases"][0]["name"], verdict["cases"][0]["verdict"] = 5, "regression"' "a case name that is a number"
bad_field filter 'verdict["cases"] = "all"' "cases that are a string"
bad_field revision 'run["context"]["cudabench"]["git_revision"] = 12345678' "a revision that is a number"
bad_field revision 'run["context"]["cudabench"] = []' "a cudabench section that is a list"

# measure: a repository whose binary is a script, the head 30% slower than the merge base.
repo="$tmp/repo"
git init -q "$repo" && git -C "$repo" config user.email t@example.com && git -C "$repo" config user.name test
git -C "$repo" config commit.gpgsign false
write_bench() {
  cat >"$repo/bench.sh" <<SH
#!/bin/sh
t=$1
for a in "\$@"; do case \$a in --json=*) out=\${a#--json=} ;; esac; done
{ printf '{"context": {"date": "2026-11-23T00:00:00+00:00", "host_name": "h", "executable": "bench"}, "benchmarks": ['
  for k in 0 1 2 3 4 5; do
    [ \$k = 0 ] || printf ','
    printf '{"name": "spin/loop", "run_name": "spin/loop", "run_type": "iteration", "repetitions": 6, "repetition_index": %s, '\
'"threads": 1, "iterations": 1, "real_time": %s, "cpu_time": %s, "time_unit": "ms"}' \$k "\$t\$k" "\$t\$k"
  done
  printf ']}\n'; } >"\$out"
SH
  chmod +x "$repo/bench.sh"
}
write_bench 1.000 && git -C "$repo" add -A && git -C "$repo" commit -qm "The case" && git -C "$repo" branch -q -M main
git -C "$repo" checkout -q -b topic && write_bench 1.300 && git -C "$repo" commit -qam "Slower" && echo n >"$repo/notes" \
  && git -C "$repo" add -A && git -C "$repo" commit -qm "A note"
git -C "$repo" checkout -q main && echo m >"$repo/main-notes" && git -C "$repo" add -A && git -C "$repo" commit -qm "Main moves on" \
  && git -C "$repo" checkout -q topic
mb=$(git -C "$repo" merge-base main topic)
s=$(cd "$repo" && GITHUB_STEP_SUMMARY="$tmp/summary.md" RUN_BENCH="$report" PR_NUMBER=7 PR_EVENT=labeled CUDABENCH_PR_PROCESSES=3 CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh --allow-device-mismatch" CUDABENCH_COMPARE_ARGS=--allow-device-mismatch \
    run bash "$src/ci/pr_bench.sh" measure main "$tmp/pr")
check "measure: the merge base against the head in 3 alternating processes each, a regression, the comment and the summary" 1 "$s" \
  'py "assert len([r for r in j[\"benchmarks\"] if r.get(\"run_type\") == \"iteration\"]) == 18, len(j[\"benchmarks\"])" "$tmp/pr/good.json"' \
  '[ "$(grep -o "measuring the [a-z]* end" "$tmp/pr/bisect.log" | cut -d" " -f3 | paste -sd" ")" = "good bad good bad good bad" ]' \
  'sed -n 2p "$tmp/pr/comment.md" | grep -qx ":x: \*\*Benchmarks: fail\*\* (1 regression)"' 'grep -q "| \`spin/loop\` .* +30.0% " "$tmp/pr/comment.md"' \
  'grep -q "merge base \`${mb:0:12}\`" "$tmp/pr/comment.md"' 'grep -qF "$marker" "$tmp/summary.md"' \
  'grep -qF "good.json has no device description" "$tmp/pr/comment.md"' '! grep -qF "$tmp" "$tmp/pr/comment.md"' \
  'py "assert j == {\"pr\": 7, \"event\": \"labeled\", \"head\": \"$(git -C "$repo" rev-parse HEAD)\", \"base\": \"$mb\", \"status\": 1, \"processes\": 3}, j" "$tmp/pr/pr.json"' \
  '[ "$(git -C "$repo" worktree list | wc -l)" = 1 ] && [ -z "$(git -C "$repo" status --porcelain)" ]' || { cat "$tmp/err"; tail -n 5 "$tmp/pr/bisect.log"; }
s=$(cd "$repo" && run "$report" bisect --good=main --bad=topic --filter=. --build=true --binary=bench.sh --ends="$tmp/pr" --json="$tmp/b.json")
check "bisect --ends with --json: one line, exit 2" 2 "$s" 'one_line "leave out --json"'
s=$(cd "$repo" && run "$report" bisect --good=main --bad=topic --filter=. --build=true --binary=bench.sh --ends="$tmp/no/such")
check "bisect --ends into no directory: one line, exit 2, nothing built" 2 "$s" 'one_line "not a directory"' '[ ! -e "$repo/.git/cudabench-bisect" ]'
s=$(cd "$repo" && RUN_BENCH="$report" run bash "$src/ci/pr_bench.sh" measure topic "$tmp/pr2")
check "measure with the head as its own base: one line, exit 2" 2 "$s" 'one_line "is the merge base itself"'
s=$(cd "$repo" && RUN_BENCH="$report" CUDABENCH_BISECT_ARGS="--build=false --binary=bench.sh" run bash "$src/ci/pr_bench.sh" measure main "$tmp/pr3")
check "measure when a side does not build: exit 2, a comment that says so" 2 "$s" 'sed -n 2p "$tmp/pr3/comment.md" | grep -q "not measured"' \
  'grep -q "the build failed" "$tmp/pr3/comment.md"'

s=$(cd "$repo" && PR_NUMBER='7 or 1' RUN_BENCH="$report" run bash "$src/ci/pr_bench.sh" measure main "$tmp/pr4")
check "measure with a PR_NUMBER that is no number: one line, exit 2" 2 "$s" 'one_line "is not a pull request number"'

# measure calibrates itself: both sides run on one machine (one board, one host), each process a sample. The binary
# of a commit takes T ms times a factor per process of its side: the next of FACTORS (from CUDABENCH_TEST_FACTORS,
# its count kept in $tmp/counters), then 1 once they are used up.
self_repo="$tmp/self_repo"
git init -q "$self_repo" && git -C "$self_repo" config user.email t@example.com && git -C "$self_repo" config user.name test
git -C "$self_repo" config commit.gpgsign false
write_self_bench() {
  cat >"$self_repo/bench.sh" <<SH
#!/bin/sh
t=$1
for a in "\$@"; do case \$a in --json=*) out=\${a#--json=} ;; esac; done
counter="$tmp/counters/\$t" && mkdir -p "$tmp/counters"
n=\$(cat "\$counter" 2>/dev/null || echo 0); echo \$((n + 1)) >"\$counter"
f=\$(echo "\${CUDABENCH_TEST_FACTORS:-1}" | awk -v n=\$n '{ print (n < NF) ? \$(n + 1) : 1 }')
time=\$(awk -v t=\$t -v f=\$f 'BEGIN { printf "%.6f", t * f }')
{ printf '{"context": {"date": "2026-11-23T00:00:00+00:00", "executable": "bench",'
  printf ' "device": {"available": true, "name": "Test GPU", "uuid": "GPU-aaaaaaaa-0000-0000-0000-000000000000"},'
  printf ' "cudabench": {"schema_version": 1, "preset": "quick", "host_name": "h"}}, "benchmarks": ['
  for k in 0 1; do
    [ \$k = 0 ] || printf ','
    printf '{"name": "spin/loop", "run_name": "spin/loop", "run_type": "iteration", "repetitions": 2, "repetition_index": %s, '\
'"threads": 1, "iterations": 1, "real_time": %s, "cpu_time": %s, "time_unit": "ms", "cudabench": {"round": 1}}' \$k "\$time" "\$time"
  done
  printf ']}\n'; } >"\$out"
SH
  chmod +x "$self_repo/bench.sh"
}
write_self_bench 1.000 && git -C "$self_repo" add -A && git -C "$self_repo" commit -qm "The case" && git -C "$self_repo" branch -q -M main
git -C "$self_repo" checkout -q -b small && write_self_bench 1.015 && git -C "$self_repo" commit -qam "1.5% slower"
git -C "$self_repo" checkout -q -b spread main && write_self_bench 1.050 && git -C "$self_repo" commit -qam "5% slower"
git -C "$self_repo" checkout -q -b same main && echo n >"$self_repo/notes" && git -C "$self_repo" add -A && git -C "$self_repo" commit -qm "A note"
self_measure() {  # self_measure BRANCH OUT FACTORS [EXTRA_TIME]
  rm -rf "$tmp/counters"
  (cd "$self_repo" && git checkout -q "$1" && RUN_BENCH="$report" CUDABENCH_TEST_FACTORS="$3" \
     CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh${4:+ --extra-time=$4}" run bash "$src/ci/pr_bench.sh" measure main "$2")
}
s=$(self_measure small "$tmp/self1" "1.003 0.997 1.000 1.002 0.998 1.001 0.999 1.000 1.002 0.998")
check "measure: a 1.5% change with 0.3% spread between processes, within the 5% default: a regression, self-calibrated" 1 "$s" \
  'py "c = j[\"cases\"][0]; assert c[\"verdict\"] == \"regression\" and c[\"method\"] == \"self-calibrated: medians of 5 vs 5 processes\" and c[\"gate\"] == 0.01 and c[\"detectable_change\"] < 0.015, c" "$tmp/self1/verdict.json"'
s=$(self_measure same "$tmp/self0" "1.003 0.997 1.000 1.002 0.998 1.001 0.999 1.000 1.002 0.998")
check "measure: nothing changed (the same binary on both sides), self-calibrated: no flag" 0 "$s" \
  'py "assert j[\"cases\"][0][\"verdict\"] == \"unchanged\", j[\"cases\"][0]" "$tmp/self0/verdict.json"'
spread="1.06 0.94 1.03 0.97 1.00"
s=$(self_measure spread "$tmp/self2" "$spread" 0)
check "measure: 5% with processes too spread to tell, no --extra-time: inconclusive, passing" 0 "$s" \
  'py "assert j[\"cases\"][0][\"verdict\"] == \"inconclusive\", j[\"cases\"][0]" "$tmp/self2/verdict.json"' \
  '! grep -q "undecided" "$tmp/self2/bisect.log"'
s=$(self_measure spread "$tmp/self3" "$spread")
check "measure: the same, with the default --extra-time: more pairs decide it, a regression" 1 "$s" \
  'py "assert j[\"cases\"][0][\"verdict\"] == \"regression\", j[\"cases\"][0]" "$tmp/self3/verdict.json"' \
  'grep -q "1 case(s) undecided; another pair of processes" "$tmp/self3/bisect.log"'

# measure what changed: the cases' code identities (run --identify, untimed) on both sides; a case is skipped only
# where both sides hold the same known identity and it is no control. The binary's four cases: a limits case (a
# control), two GPU cases whose digests each commit sets, and a CPU case (no identity). ARGS_LOG records each call.
ident_repo="$tmp/ident_repo"
git init -q "$ident_repo" && git -C "$ident_repo" config user.email t@example.com && git -C "$ident_repo" config user.name test
git -C "$ident_repo" config commit.gpgsign false
write_ident_bench() {  # write_ident_bench CONV_DIGEST: the conv2d case's code identity in this commit
  { printf '#!/bin/sh\nCONV=%s REDUCE=00000000000000e1 LIMITS=00000000000000a1\n' "$1"; cat <<'SH'
for a in "$@"; do case $a in --json=*) out=${a#--json=} ;; --identify=*) ids=${a#--identify=} ;; --filter=*) f=${a#--filter=} ;; esac; done
echo "$*" >>"$ARGS_LOG"
neg=; case $f in -*) neg=1; f=${f#-} ;; esac
selected() {
  for c in limits/empty_hot conv2d/naive/64 reduce/sum/64 host/copy; do
    if echo "$c" | grep -Eq -- "$f"; then [ -n "$neg" ] || echo "$c"; else [ -z "$neg" ] || echo "$c"; fi
  done
}
digest() { case $1 in limits/*) echo $LIMITS ;; conv2d/*) echo $CONV ;; reduce/*) echo $REDUCE ;; esac; }
if [ -n "${ids:-}" ]; then
  [ -z "${NO_IDENTIFY:-}" ] || { echo "bench: unknown option --identify" >&2; exit 2; }
  { printf '{"kind": "cudabench code identities", "schema_version": 1, "cases": ['; sep=
    for c in $(selected); do printf '%s{"name": "%s", "family": "%s", "digest": "%s"}' "$sep" "$c" "${c%%/*}" "$(digest "$c")"; sep=,; done
    printf ']}\n'; } >"$ids"
  exit 0
fi
{ printf '{"context": {"date": "2026-11-23T00:00:00+00:00", "host_name": "h", "executable": "bench"}, "benchmarks": ['; sep=
  for c in $(selected); do
    for k in 0 1; do
      printf '%s{"name": "%s", "run_name": "%s", "run_type": "iteration", "repetitions": 2, "repetition_index": %s, ' "$sep" "$c" "$c" $k
      printf '"threads": 1, "iterations": 1, "real_time": 1.00%s, "cpu_time": 1.00%s, "time_unit": "ms"}' $k $k; sep=,
    done
  done
  printf ']}\n'; } >"$out"
SH
  } >"$ident_repo/bench.sh"
  chmod +x "$ident_repo/bench.sh"
}
write_ident_bench 00000000000000c1 && git -C "$ident_repo" add -A && git -C "$ident_repo" commit -qm "The cases" && git -C "$ident_repo" branch -q -M main
git -C "$ident_repo" checkout -q -b kernel && write_ident_bench 00000000000000c2 && git -C "$ident_repo" commit -qam "The conv2d kernel changed"
ident_measure() {  # ident_measure OUT [VAR=VALUE...]: measure of the branch kernel against main
  rm -f "$tmp/args.log"
  (cd "$ident_repo" && env ARGS_LOG="$tmp/args.log" RUN_BENCH="$report" CUDABENCH_PR_PROCESSES=2 \
     CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh --extra-time=0 --allow-device-mismatch" \
     CUDABENCH_COMPARE_ARGS=--allow-device-mismatch "${@:2}" \
     bash "$src/ci/pr_bench.sh" measure main "$1" >"$tmp/out" 2>"$tmp/err"; echo $?)
}
names() { python3 -c "import json, sys; print(' '.join(sorted({b['run_name'] for b in json.load(open(sys.argv[1]))['benchmarks']})))" "$1"; }
s=$(ident_measure "$tmp/ident")
check "measure of a one-kernel change: that kernel's case, the controls and the case of unknown identity measured; one skipped as same code, said in the comment" 0 "$s" \
  '[ "$(names "$tmp/ident/good.json")" = "conv2d/naive/64 host/copy limits/empty_hot" ]' \
  '[ "$(names "$tmp/ident/bad.json")" = "conv2d/naive/64 host/copy limits/empty_hot" ]' \
  'py "assert j[\"same_code\"] == [\"reduce/sum/64\"] and j[\"changed\"] == 1 and j[\"unknown\"] == 1 and j[\"controls\"] == 1, j" "$tmp/ident/same_code.json"' \
  'grep -q "1 case(s) of the same code on both ends skipped; measuring 3" "$tmp/ident/bisect.log"' \
  'grep -q "^\*\*1 case skipped as same code\*\*" "$tmp/ident/comment.md"' 'grep -qx -- "- \`reduce/sum/64\`" "$tmp/ident/comment.md"' \
  '[ "$(grep -c -- "--identify=" "$tmp/args.log")" = 2 ]' '! grep -- "--json=" "$tmp/args.log" | grep -qv -- "--no-energy"' \
  || { cat "$tmp/err"; tail -n 5 "$tmp/ident/bisect.log"; }
s=$(ident_measure "$tmp/ident_all" CUDABENCH_PR_ALL_CASES=1 CUDABENCH_PR_ENERGY=1)
check "measure with CUDABENCH_PR_ALL_CASES=1 (a host-only change): every case measured, nothing identified or skipped; with energy" 0 "$s" \
  '[ "$(names "$tmp/ident_all/bad.json")" = "conv2d/naive/64 host/copy limits/empty_hot reduce/sum/64" ]' '[ ! -e "$tmp/ident_all/same_code.json" ]' \
  '! grep -q "skipped as same code" "$tmp/ident_all/comment.md"' '! grep -q -- "--identify=\|--no-energy" "$tmp/args.log"' || cat "$tmp/err"
s=$(ident_measure "$tmp/ident_named" CUDABENCH_FILTER=reduce)
check "measure with CUDABENCH_FILTER: every case it names measured, though of the same code" 0 "$s" \
  '[ "$(names "$tmp/ident_named/bad.json")" = "reduce/sum/64" ]' '[ ! -e "$tmp/ident_named/same_code.json" ]' || cat "$tmp/err"
s=$(ident_measure "$tmp/ident_none" NO_IDENTIFY=1 CUDABENCH_COMPARE_ARGS="--allow-device-mismatch --gate-energy")
check "measure where a side cannot identify its cases (a binary without --identify): every case measured, the comment says why" 0 "$s" \
  '[ "$(names "$tmp/ident_none/good.json")" = "conv2d/naive/64 host/copy limits/empty_hot reduce/sum/64" ]' \
  'py "assert j[\"same_code\"] == [] and \"every case measured: the good end\" in j[\"note\"], j" "$tmp/ident_none/same_code.json"' \
  'grep -q "every case measured: the good end.s cases could not be identified" "$tmp/ident_none/comment.md"' \
  '! grep -q -- "--no-energy" "$tmp/args.log"' || cat "$tmp/err"
s=$(cd "$ident_repo" && run "$report" bisect --good=main --bad=kernel --filter=. --build=true --binary=bench.sh --skip-same-code)
check "bisect --skip-same-code without --ends: one line, exit 2" 2 "$s" 'one_line "give --ends=DIR"'

# report: a stand-in gh. The run's artifact is $ARTIFACT (copied by run download); the pull request's comments are
# one of mallory's and, once posted, the bot's, both starting with the marker; its commits are the measured head.
# --jq is applied by jq as gh would; each call is logged.
topic=$(git -C "$repo" rev-parse topic)
mkdir -p "$tmp/bin"
cat >"$tmp/bin/gh" <<'SH'
#!/bin/bash
echo "$*" >>"$GH_LOG"
jq_expr=.
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[i]}" = --jq ] && jq_expr=${args[i + 1]}; done
reply() { jq -r "$jq_expr"; }
# The artifact as the API serves it: $ARTIFACT zipped (a link kept as a link); ARTIFACT_BOMB adds a file of that many
# zeros (a few hundred KiB zipped).
zipped() {
  python3 - "$ARTIFACT" "${ARTIFACT_BOMB:-0}" <<'PY'
import io, os, sys, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(sys.argv[1])):
        path = os.path.join(sys.argv[1], name)
        if os.path.islink(path):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o120777 << 16
            z.writestr(info, os.readlink(path))
        elif os.path.isfile(path):
            z.write(path, name)
    if int(sys.argv[2]):
        with z.open("bomb.bin", "w", force_zip64=True) as f:
            for _ in range(int(sys.argv[2]) >> 20):
                f.write(bytes(1 << 20))
sys.stdout.buffer.write(buf.getvalue())
PY
}
case "$*" in
  *"actions/runs/"*"/artifacts"*) printf '{"artifacts": [{"id": 555, "name": "pr-benchmark", "size_in_bytes": %s}]}\n' "${ARTIFACT_SIZE:-2000}" | reply ;;
  *"actions/artifacts/555/zip"*) zipped ;;
  "run download"*) dir=${args[-1]}; cp -R "$ARTIFACT"/. "$dir/"; [ "${ARTIFACT_BOMB:-0}" = 0 ] || truncate -s "$ARTIFACT_BOMB" "$dir/bomb.bin" ;;
  *"--paginate repos/acme/x/pulls/"[78]"/commits"*) printf '[{"sha": "%s"}, {"sha": "%s"}]\n' "$PR_COMMIT" 3333333333333333333333333333333333333333 | reply ;;
  *"repos/acme/x/pulls/7") printf '{"number": 7, "head": {"ref": "topic", "repo": {"full_name": "acme/x"}}}\n' | reply ;;
  *"repos/acme/x/pulls/8") printf '{"number": 8, "head": {"ref": "topic", "repo": {"full_name": "mallory/x"}}}\n' | reply ;;
  *"repos/acme/x/issues/comments/31") jq -n --arg sha "$PR_COMMIT" '{id: 31, issue_url: "https://api.github.com/repos/acme/x/issues/7",
      author_association: "MEMBER", body: ("/benchmark " + $sha + "\r\nplease")}' | reply ;;
  *"--paginate repos/acme/x/issues/"[78]"/comments"*)
    { printf '[{"id": 1313, "user": {"login": "mallory"}, "body": "<!-- cudabench-pr-benchmark -->\\nfake"}'
      [ -f "$GH_POSTED" ] && printf ', {"id": 4242, "user": {"login": "github-actions[bot]"}, "body": "<!-- cudabench-pr-benchmark -->\\n"}'
      printf ']\n'; } | reply ;;
  *"-X POST repos/acme/x/issues/"[78]"/comments"*) touch "$GH_POSTED" ;;
esac
exit 0
SH
chmod +x "$tmp/bin/gh"
# report_run ARTIFACT [VAR=VALUE...]: ci/pr_bench.sh report of run 99 into a new directory, the event that of a label.
report_run() {
  local artifact=$1; shift; rm -rf "$tmp/report"; : >"$tmp/gh.log"
  env PATH="$tmp/bin:$PATH" GH_LOG="$tmp/gh.log" GH_POSTED="$tmp/posted" ARTIFACT="$artifact" PR_COMMIT="$topic" GH_TOKEN=t \
    GITHUB_REPOSITORY=acme/x RUN_EVENT=pull_request RUN_HEAD_SHA="$topic" RUN_HEAD_REPO=acme/x RUN_HEAD_BRANCH=topic RUN_URL=https://github.com/acme/x/actions/runs/99 "$@" \
    bash "$src/ci/pr_bench.sh" report 99 "$tmp/report" >"$tmp/out" 2>"$tmp/err"; echo $?
}
s=$(report_run "$tmp/pr")
check "report: the artifact checked, the comment made anew and posted (mallory's marked comment left alone), the head's check fails" 0 "$s" \
  'grep -q "^api -X POST repos/acme/x/issues/7/comments -F body=@$tmp/report/comment.txt" "$tmp/gh.log"' '! grep -q "1313" "$tmp/gh.log"' \
  'grep -q "^api -X POST repos/acme/x/statuses/$topic -f state=failure -f context=cudabench" "$tmp/gh.log"' 'grep -q "comment posted" "$tmp/out"' \
  'sed -n 2p "$tmp/report/comment.txt" | grep -qx ":x: \*\*Benchmarks: fail\*\* (1 regression)"' 'grep -qF "(https://github.com/acme/x/actions/runs/99)" "$tmp/report/comment.txt"' \
  || { cat "$tmp/err"; cat "$tmp/gh.log"; }
s=$(report_run "$tmp/pr")
check "report again: the bot's marked comment is updated in place, none posted" 0 "$s" \
  'grep -q "^api -X PATCH repos/acme/x/issues/comments/4242 -F body=@" "$tmp/gh.log"' '! grep -q "issues/7/comments -F" "$tmp/gh.log"'
rm -rf "$tmp/same" && cp -R "$tmp/pr" "$tmp/same" && cp "$tmp/ident/same_code.json" "$tmp/same/"
s=$(report_run "$tmp/same")
check "report of an artifact holding same_code.json: the comment counts and lists the cases skipped as same code" 0 "$s" \
  'grep -q "^\*\*1 case skipped as same code\*\*" "$tmp/report/comment.txt"' 'grep -qx -- "- \`reduce/sum/64\`" "$tmp/report/comment.txt"' || cat "$tmp/err"
s=$(report_run "$tmp/pr" 'COMMENT_AUTHOR=github-actions[bot]" or .user.login == "mallory')
check "a COMMENT_AUTHOR holding a quote is a login, not a part of the jq program: mallory's comment is not edited" 0 "$s" \
  '! grep -q "comments/1313" "$tmp/gh.log"' 'grep -q "^api -X POST repos/acme/x/issues/7/comments" "$tmp/gh.log"'
# forged PR_RECORD_CHANGE MESSAGE: the measured artifact with pr.json changed (a jq program), refused in one line, nothing posted.
forged() {
  rm -rf "$tmp/forged" && cp -R "$tmp/pr" "$tmp/forged" && jq "$1" "$tmp/pr/pr.json" >"$tmp/forged/pr.json"
  s=$(report_run "$tmp/forged" "${@:3}")
  check "report refuses $2" 2 "$s" 'one_line' '! grep -q "POST\|PATCH" "$tmp/gh.log"' || cat "$tmp/err"
}
forged '.pr = "7; rm -rf /"' "a pull request number that is a string"
forged '.pr = 7.5' "a pull request number that is no integer"
forged '.head = "HEAD"' "a head that is no 40-hex commit"
forged '.status = 0' "a status the verdict file contradicts"
forged '.status = 3' "a status outside 0, 1, 2"
forged '.event = "push"' "an event outside the fixed set"
forged '.head = "3333333333333333333333333333333333333333"' "a head other than the labelled event's"
forged '.event = "comment"' "a comment's record from a pull_request run"
forged '.' "a commit not of the pull request" PR_COMMIT=4444444444444444444444444444444444444444
printf 'x' >"$tmp/forged/verdict.json" && cp "$tmp/pr/pr.json" "$tmp/forged/pr.json"
s=$(report_run "$tmp/forged"); check "report refuses a verdict file that does not parse" 2 "$s" 'one_line "verdict.json"'
s=$(report_run "$tmp/pr" ARTIFACT_SIZE=999999999999); check "report refuses an artifact over 256 MiB, downloading nothing" 2 "$s" \
  'one_line "at most 256 MiB"' '! grep -q "run download" "$tmp/gh.log"'
# A side that could not be built: the comment from the end of the log, fenced; the status error.
jq --arg h "$topic" '.pr = 7 | .event = "labeled" | .head = $h' "$tmp/pr3/pr.json" >"$tmp/pr3/x" && mv "$tmp/pr3/x" "$tmp/pr3/pr.json"
s=$(report_run "$tmp/pr3")
check "report of a side not built: the log's end fenced in the comment, the status error" 0 "$s" 'grep -q "state=error" "$tmp/gh.log"' \
  'sed -n 2p "$tmp/report/comment.txt" | grep -q "not measured"' 'grep -q "the build failed" "$tmp/report/comment.txt"' || cat "$tmp/err"
# A push: the label removed, nothing posted; a comment's record from an issue_comment run.
mkdir -p "$tmp/push" && jq -n --arg h "$topic" '{pr: 7, event: "synchronize", head: $h}' >"$tmp/push/pr.json"
s=$(report_run "$tmp/push")
check "report of a push: the label benchmark removed (a new approval needed), nothing posted" 0 "$s" \
  'grep -q "^api -X DELETE repos/acme/x/issues/7/labels/benchmark" "$tmp/gh.log"' '! grep -q "POST\|PATCH" "$tmp/gh.log"'
rm -rf "$tmp/comment" && cp -R "$tmp/pr" "$tmp/comment" && jq '.event = "comment"' "$tmp/pr/pr.json" >"$tmp/comment/pr.json"
comment_run() { report_run "$1" RUN_EVENT=issue_comment RUN_HEAD_SHA=5555555555555555555555555555555555555555 RUN_HEAD_BRANCH=main "${@:2}"; }
s=$(comment_run "$tmp/comment" "RUN_TITLE=pr-benchmark 7 comment 31")
check "report of a /benchmark SHA comment: the named commit, one of the pull request's, gets the status" 0 "$s" \
  'grep -q "statuses/$topic -f state=failure" "$tmp/gh.log"' || cat "$tmp/err"
jq '.head = "3333333333333333333333333333333333333333"' "$tmp/pr/pr.json" >"$tmp/comment/pr.json.x" && jq '.event = "comment"' "$tmp/comment/pr.json.x" >"$tmp/comment/pr.json"
s=$(comment_run "$tmp/comment" "RUN_TITLE=pr-benchmark 7 comment 31")
check "report refuses a comment's record naming another commit of the pull request than the comment named" 2 "$s" \
  'one_line "not the commit the comment"' '! grep -q "statuses\|POST\|PATCH" "$tmp/gh.log"'
jq '.event = "comment"' "$tmp/pr/pr.json" >"$tmp/comment/pr.json"
s=$(comment_run "$tmp/comment" "RUN_TITLE=pr-benchmark 8 comment 31")
check "report refuses a comment's run of another pull request than the record's" 2 "$s" 'one_line "not the run'"'"'s"' '! grep -q "statuses\|POST\|PATCH" "$tmp/gh.log"'
s=$(comment_run "$tmp/comment" "RUN_TITLE=pr-benchmark 7")
check "report refuses a comment's run whose title names no comment" 2 "$s" 'one_line "names no pull request and comment"' '! grep -q "statuses\|POST\|PATCH" "$tmp/gh.log"'

# The hand-off binds what it posts: each reproducer refused in one line, nothing posted, no status set.
forged '.pr = 8' "a pull request number other than the run's (a pull request with another head branch)"
mkdir -p "$tmp/push8" && jq -n --arg h "$topic" '{pr: 8, event: "synchronize", head: $h}' >"$tmp/push8/pr.json"
s=$(report_run "$tmp/push8"); check "report refuses a push's record naming another pull request: no label removed" 2 "$s" 'one_line' '! grep -q "DELETE" "$tmp/gh.log"'
forged '.head = .head + "\n"' "a head with a trailing newline"
# A base with a trailing newline would shift the fields read takes: no status, so the comment made from the log tail.
rm -rf "$tmp/forged" && cp -R "$tmp/pr" "$tmp/forged" && jq '.base = .base + "\n" | .status = 0' "$tmp/pr/pr.json" >"$tmp/forged/pr.json" \
  && cp "$tmp/faster.json" "$tmp/forged/verdict.json" && echo "planted log" >"$tmp/forged/log-tail.txt"
s=$(report_run "$tmp/forged"); check "report refuses a base with a trailing newline (no comment from the log tail)" 2 "$s" 'one_line "not a record"' \
  '! grep -q "POST\|PATCH" "$tmp/gh.log"'
rm -rf "$tmp/forged" && cp -R "$tmp/pr" "$tmp/forged" && jq '.status = 0' "$tmp/pr/pr.json" >"$tmp/forged/pr.json" \
  && jq '.failing = false | .regression = false' "$tmp/pr/verdict.json" >"$tmp/forged/verdict.json"
s=$(report_run "$tmp/forged"); check "report refuses a verdict that says failing: false and lists a regression" 2 "$s" 'one_line "contradicts itself"' \
  '! grep -q "POST\|PATCH" "$tmp/gh.log"'
# Status 3 (not judged, a side mostly throttled): an error status, and only with a verdict file that says so.
rm -rf "$tmp/forged" && cp -R "$tmp/pr" "$tmp/forged" && jq '.status = 3' "$tmp/pr/pr.json" >"$tmp/forged/pr.json" \
  && jq '.failing = false | .regression = false | .cases = [] | .exit_status = 3' "$tmp/pr/verdict.json" >"$tmp/forged/verdict.json"
s=$(report_run "$tmp/forged"); check "report of a status 3 (not judged): the status is an error saying so" 0 "$s" \
  'grep -q "state=error -f context=cudabench -f description=not judged" "$tmp/gh.log"'
jq '.exit_status = 0' "$tmp/forged/verdict.json" >"$tmp/forged/v.x" && mv "$tmp/forged/v.x" "$tmp/forged/verdict.json"
s=$(report_run "$tmp/forged"); check "report refuses a status 3 whose verdict file does not say it" 2 "$s" 'one_line "status 3"' \
  '! grep -q "POST\|PATCH" "$tmp/gh.log"'
echo "keep me" >"$tmp/victim" && rm -rf "$tmp/forged" && cp -R "$tmp/pr3" "$tmp/forged" && rm -f "$tmp/forged/log-tail.txt" \
  && ln -s "$tmp/victim" "$tmp/forged/log-tail.txt"
s=$(report_run "$tmp/forged"); check "report refuses an artifact whose log-tail.txt is a link, writing nothing through it" 2 "$s" \
  'one_line "log-tail.txt twice, or as a link"' '[ "$(cat "$tmp/victim")" = "keep me" ]' '! grep -q "POST\|PATCH" "$tmp/gh.log"'
rm -rf "$tmp/forged" && cp -R "$tmp/pr" "$tmp/forged" && ln -s "$tmp/victim" "$tmp/forged/comment.txt"
s=$(report_run "$tmp/forged"); check "report writes its comment into no link the artifact holds" 0 "$s" '[ "$(cat "$tmp/victim")" = "keep me" ]' || cat "$tmp/err"
s=$(report_run "$tmp/pr" ARTIFACT_BOMB=$((300 << 20)))
check "report refuses an artifact that unzips to over 256 MiB, writing none of it" 2 "$s" 'one_line "unzips to"' '! grep -q "POST\|PATCH" "$tmp/gh.log"' \
  '[ "$(du -sk "$tmp/report" | cut -f1)" -lt 10240 ]'
for repository in o/.. ./x o/. 'o/x y' -o/x; do
  s=$(report_run "$tmp/pr" GITHUB_REPOSITORY="$repository")
  check "report refuses GITHUB_REPOSITORY=$repository" 2 "$s" 'one_line "is not owner/name"' '[ ! -s "$tmp/gh.log" ]'
done
finish

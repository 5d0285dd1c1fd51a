#!/usr/bin/env bash
# run_bench bisect without building anything real: bad input refused with one line, and the search over a
# repository whose "binary" is a script writing Google Benchmark JSON with a time set per commit (a known
# first bad commit, one that does not build, nothing to bisect, --time-limit, the worktree removed).
# Also ci/nightly.sh on that repository with a stand-in runner: the culprit of a regression in the job summary
# and the report, the nightly's exit status unchanged.
# Usage: tests/cli_bisect_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
report="$(cd "$1" && pwd)/app/cudabench-report" src=$2
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
one_line='[ "$(wc -l <"$tmp/err")" = 1 ]'
repo="$tmp/repo"
git init -q "$repo" && git -C "$repo" config user.email t@example.com && git -C "$repo" config user.name test
git -C "$repo" config commit.gpgsign false

# bench.sh: the benchmark binary of each commit; its case takes about $1 ms (6 repetitions, 0.01% apart), when
# the last --filter matches its name.
write_bench() {
  cat >"$repo/bench.sh" <<SH
#!/bin/sh
t=$1
for a in "\$@"; do case \$a in --json=*) out=\${a#--json=} ;; --filter=*) f=\${a#--filter=} ;; esac; done
reps=; echo spin/loop | grep -Eq -- "\${f:-.}" && reps="0 1 2 3 4 5"
{ printf '{"context": {"date": "2026-11-23T00:00:00+00:00", "host_name": "h", "executable": "bench"}, "benchmarks": ['
  for k in \$reps; do
    [ \$k = 0 ] || printf ','
    printf '{"name": "spin/loop", "run_name": "spin/loop", "run_type": "iteration", "repetitions": 6, "repetition_index": %s, '\
'"threads": 1, "iterations": 1, "real_time": %s, "cpu_time": %s, "time_unit": "ms"}' \$k "\$t\$k" "\$t\$k"
  done
  printf ']}\n'; } >"\$out"
SH
  chmod +x "$repo/bench.sh"
}
commit() { git -C "$repo" add -A && git -C "$repo" commit -qm "$1"; }
mkdir -p "$repo/ci" && cp "$src/ci/nightly.sh" "$src/ci/defaults.sh" "$src/ci/nightly_bisect.py" "$repo/ci/"
write_bench 1.000; echo "int main() {}" >"$repo/main.c"; commit "A case that sweeps 10 times"
for k in $(seq 1 16); do
  case $k in
    11) write_bench 1.300; commit "Sweep 13 times" ;;
    12) echo "broken" >"$repo/broken"; commit "Break the build" ;;
    13) rm "$repo/broken"; commit "Fix the build" ;;
    *) echo "note $k" >>"$repo/notes"; commit "Note $k" ;;
  esac
done
culprit=$(git -C "$repo" rev-parse HEAD~5)
build='[ ! -e broken ] || { echo "broken is in the tree" >&2; exit 1; }'
bisect() { (cd "$repo" && "$report" bisect "$@"); }
no_worktree='[ ! -e "$repo/.git/cudabench-bisect" ] && [ "$(git -C "$repo" worktree list | wc -l)" = 1 ]'

s=$(run bisect --help); check "bisect --help exits 0" 0 "$s" 'grep -q "usage: cudabench-report bisect" "$tmp/out"'
s=$(run bisect --bad=HEAD --filter=spin); check "no --good: one line" 2 "$s" "$one_line" 'grep -q "needs --good=REV and --bad=REV" "$tmp/err"'
s=$(run bisect --good=HEAD~1 --bad=HEAD); check "no --filter: one line" 2 "$s" "$one_line" 'grep -q "needs --filter=REGEX" "$tmp/err"'
s=$(run bisect --good=nope --bad=HEAD --filter=spin); check "a --good that is not a commit: one line" 2 "$s" "$one_line" \
  'grep -q "\-\-good: .nope. is not a commit" "$tmp/err"'
s=$(run bisect --good=HEAD~1 --bad=HEAD~99 --filter=spin); check "a --bad that is not a commit: one line" 2 "$s" "$one_line" 'grep -q "\-\-bad:" "$tmp/err"'
s=$(run bisect --good=HEAD --bad=HEAD~3 --filter=spin); check "good not an ancestor of bad: one line" 2 "$s" "$one_line" \
  'grep -q "is not an ancestor of --bad" "$tmp/err"'
s=$(run bisect --good=HEAD --bad=HEAD --filter=spin); check "good and bad the same: one line" 2 "$s" "$one_line"
s=$(run bisect --good=HEAD~1 --bad=HEAD --filter=spin stray); check "a stray argument: one line" 2 "$s" "$one_line" 'grep -q "follow --" "$tmp/err"'
s=$(run bisect --good=HEAD~1 --bad=HEAD --filter=spin --time-limit=soon); check "a malformed --time-limit: one line" 2 "$s" "$one_line"
s=$(run bisect --good=HEAD~1 --bad=HEAD --filter=spin --processes=0); check "--processes=0: one line" 2 "$s" "$one_line"
s=$(run bisect --good=HEAD~1 --bad=HEAD --filter=spin --html="$tmp/x.html"); check "--html is not bisect's" 2 "$s" "$one_line"
s=$(cd "$tmp" && run "$report" bisect --good=HEAD~1 --bad=HEAD --filter=spin); check "outside a git repository: one line" 2 "$s" "$one_line" \
  'grep -q "is not in a git repository" "$tmp/err"'
s=$(run bisect --good=HEAD~1 --bad=HEAD --filter=spin --build=true --binary=bench.sh --json="$tmp/no/such/dir/out.json")
check "an unwritable --json is refused before anything is built" 2 "$s" 'grep -q "out.json" "$tmp/err"' '! grep -q building "$tmp/err"' "$no_worktree"
s=$(run bisect --good=HEAD~2 --bad=HEAD --filter=spin --build='echo "no compiler here" >&2; exit 3' --binary=bench.sh)
check "a good end that does not build: one line naming the build's exit status and last lines, worktree removed" 2 "$s" \
  'tail -n 1 "$tmp/err" | grep -q "the good end .* cannot be measured: the build failed (exit 3): no compiler here"' "$no_worktree"
s=$(run bisect --good=HEAD~2 --bad=HEAD --filter=spin --build='exit 3' --binary=bench.sh)
check "a build that fails silently: its exit status, and no output said" 2 "$s" \
  'tail -n 1 "$tmp/err" | grep -q "the build failed (exit 3): no output"'
s=$(run bisect --good=HEAD~2 --bad=HEAD --filter=spin --build=true --binary="$repo/bench.sh")
check "an absolute --binary: refused, the help says relative to the worktree" 2 "$s" "$one_line" \
  'grep -q "relative to the worktree" "$tmp/err"' "$no_worktree"
printf '{"kind": "cudabench gates", "schema_version": 1}' >"$tmp/g.gates.json"
s=$(run bisect --good=HEAD~2 --bad=HEAD --filter=spin --build=true --binary=bench.sh --gates="$tmp/g.gates.json" --json="$tmp/g.gates.json")
check "bisect --json over its --gates file: refused, the gates file kept" 2 "$s" "$one_line" 'grep -q "same file" "$tmp/err"' \
  'grep -q "cudabench gates" "$tmp/g.gates.json"' "$no_worktree"
s=$(run bisect --good=HEAD~2 --bad=HEAD --filter=spin --build=true --binary=no/binary)
check "a build that makes no binary" 2 "$s" 'tail -n 1 "$tmp/err" | grep -q "the build made no no/binary"'

git -C "$repo" status --porcelain >"$tmp/status.before"; head_before=$(git -C "$repo" rev-parse HEAD)
s=$(run bisect --good=HEAD~16 --bad=HEAD --filter=spin --build="$build" --binary=bench.sh --allow-device-mismatch --json="$tmp/b.json")
check "bisect names the first bad commit, stepping around one that does not build" 0 "$s" \
  'grep -q "^first bad commit: $culprit Sweep 13 times" "$tmp/out"' 'grep -q "bench.sh" "$tmp/out"' \
  'grep -q "^spin/loop .* +30.0% .* +30.0%" "$tmp/out"' 'grep -q "skipping .*broken is in the tree" "$tmp/err"' \
  'grep -q "at most 4 more tests" "$tmp/err"' "$no_worktree" \
  '[ "$(git -C "$repo" rev-parse HEAD)" = "$head_before" ]' 'git -C "$repo" status --porcelain | cmp -s - "$tmp/status.before"'
python3 - "$tmp/b.json" "$culprit" <<'PY' >"$tmp/py" 2>&1; check "bisect's JSON: the commit, its files, the cases, the tested revisions" 0 $? 'cat "$tmp/py"'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema_version"] == 1 and j["outcome"] == "found", j["outcome"]
assert j["first_bad"]["commit"] == sys.argv[2] and j["first_bad"]["subject"] == "Sweep 13 times", j["first_bad"]
assert j["first_bad"]["files"] == ["bench.sh"], j["first_bad"]["files"]
assert [r["commit"] for r in j["range"]] == [sys.argv[2]]
(c,) = j["cases"]
assert c["name"] == "spin/loop" and abs(c["change"] - 0.3) < 1e-3 and abs(c["first_bad_change"] - 0.3) < 1e-3, c
results = [t["result"] for t in j["tested"]]
assert results.count("skipped") == 1 and results.count("bad") == 3 and results.count("good") == 2, results
assert not j["stopped_by_time_limit"] and j["binary_arguments"] == []
PY

s=$(run bisect --good=HEAD~16 --bad=HEAD --filter=spin --build="$build" --binary=bench.sh --allow-device-mismatch --json -)
check "--json -: the JSON alone on standard output, the text on standard error" 0 "$s" \
  'python3 -c "import json,sys; assert json.load(open(sys.argv[1]))[\"outcome\"]==\"found\"" "$tmp/out"' 'grep -q "^first bad commit: $culprit" "$tmp/err"' \
  '[ ! -e "$repo/.git/cudabench-bisect" ]'
s=$(run bisect --good=HEAD~16 --bad=HEAD~8 --filter=spin --build="$build" --binary=bench.sh --allow-device-mismatch --json="$tmp/n.json")
check "nothing to bisect: said, exit 1, no guess" 1 "$s" 'grep -q "^nothing to bisect" "$tmp/out"' '! grep -q "first bad" "$tmp/out"' \
  'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j[\"outcome\"]==\"nothing_to_bisect\" and j[\"first_bad\"] is None" "$tmp/n.json"'
s=$(run bisect --good=HEAD~8 --bad=HEAD --filter=spin --build="$build" --binary=bench.sh --allow-device-mismatch --time-limit=0 --json="$tmp/t.json")
check "--time-limit spent: the narrowest range, exit 1" 1 "$s" 'grep -q "one of these 8" "$tmp/out"' \
  'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j[\"outcome\"]==\"range\" and j[\"stopped_by_time_limit\"] and len(j[\"range\"])==8" "$tmp/t.json"'
s=$(run bisect --good=HEAD~16 --bad=HEAD --filter=other --build="$build" --binary=bench.sh --allow-device-mismatch -- --filter=spin)
check "arguments after -- reach the binary (its own --filter wins)" 0 "$s" 'grep -q "^first bad commit: $culprit" "$tmp/out"'

# ci/nightly.sh: the stand-in runner "runs" the checkout's bench.sh and describes the run as the suite would
# (a device, the nightly preset, the revision); the baseline is the good end's run. bench.sh run by bisect
# describes no device, hence --allow-device-mismatch.
cat >"$tmp/fake-run" <<SH
#!/bin/sh
case "\$1" in compare|report|trend|bisect|store) exec "$report" "\$@" ;; esac
while [ \$# -gt 0 ]; do [ "\$1" = --json ] && out=\$2; shift; done
sh "\${BENCH:-$repo/bench.sh}" --json="\$out" --filter=spin && python3 "$tmp/describe.py" "\$out" "\${REVISION:-\$(git -C "$repo" rev-parse HEAD)}"
SH
chmod +x "$tmp/fake-run"
cat >"$tmp/describe.py" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["context"]["device"] = {"available": True, "name": "Test GPU", "compute_capability": "9.0", "sm_count": 1}
j["context"]["cudabench"] = {"schema_version": 1, "preset": "nightly", "repetitions": 6, "git_revision": sys.argv[2],
                             "git_dirty": False, "families": {}, "cases": {}}
json.dump(j, open(sys.argv[1], "w"))
PY
good=$(git -C "$repo" rev-parse HEAD~16)
git -C "$repo" show "$good:bench.sh" >"$tmp/good-bench.sh"
mkdir -p "$tmp/bl/Test_GPU"
BENCH="$tmp/good-bench.sh" REVISION=$good "$tmp/fake-run" --json "$tmp/bl/Test_GPU/nightly.json"
nightly() { GITHUB_STEP_SUMMARY="$tmp/summary.md" RUN_BENCH="$tmp/fake-run" CUDABENCH_BASELINE_DIR="$tmp/bl" \
  CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh --allow-device-mismatch" run bash "$repo/ci/nightly.sh" "$tmp/nights"; }
rm -f "$tmp/summary.md"; s=$(CUDABENCH_BISECT_BUDGET=0 nightly)
check "nightly with CUDABENCH_BISECT_BUDGET=0: the regression, no bisect" 1 "$s" '! grep -q "Bisect" "$tmp/summary.md"' \
  '! ls "$tmp/nights"/bisect-* 2>/dev/null'
sleep 1; rm -f "$tmp/summary.md"; s=$(nightly)
check "nightly: the culprit of the regression in the job summary and the report; its exit status still 1" 1 "$s" \
  'grep -q "^## Bisect: which commit" "$tmp/summary.md"' 'grep -q "First bad commit.*$culprit.* Sweep 13 times" "$tmp/summary.md"' \
  'grep -q "^| spin/loop | +30.0% | +30.0% |" "$tmp/summary.md"' 'grep -q "$culprit" "$(ls -t "$tmp/nights"/report-*.md | head -n 1)"' \
  'ls "$tmp/nights"/bisect-*.json >/dev/null'
python3 - "$tmp/bl/Test_GPU/nightly.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); j["context"]["cudabench"]["git_revision"] = "1" * 40; json.dump(j, open(sys.argv[1], "w"))
PY
sleep 1; rm -f "$tmp/summary.md"; s=$(nightly)
check "nightly with a baseline whose revision is not an ancestor of HEAD: no bisect, said" 1 "$s" '! grep -q "Bisect" "$tmp/summary.md"' \
  'grep -q "not an ancestor of HEAD; no bisect" "$tmp/err"'

# The bisect gets the comparison's options: a +3% step, under the default threshold, flagged by
# CUDABENCH_COMPARE_ARGS=--threshold=2; the bisect must find it too, so the summary and the bisect's log agree.
write_bench 1.340; commit "Sweep 13.4 times"
step=$(git -C "$repo" rev-parse HEAD)
git -C "$repo" show HEAD~1:bench.sh >"$tmp/prev-bench.sh"
BENCH="$tmp/prev-bench.sh" REVISION=$(git -C "$repo" rev-parse HEAD~1) "$tmp/fake-run" --json "$tmp/bl/Test_GPU/nightly.json"
sleep 1; rm -f "$tmp/summary.md"; s=$(CUDABENCH_COMPARE_ARGS="--threshold=2 --gate-energy --energy-threshold 7" nightly)
log=$(ls -t "$tmp/nights"/bisect-*.log | head -n 1)
check "nightly with CUDABENCH_COMPARE_ARGS: the bisect summary and its log agree (the step found by both)" 1 "$s" \
  'grep -q "First bad commit.*$step.* Sweep 13.\{1,2\}4 times" "$tmp/summary.md"' '! grep -q "nothing to bisect" "$tmp/summary.md"' \
  'grep -q "^first bad commit: $step Sweep 13.4 times" "$log"' \
  'grep -q "^nightly: left out of the bisect (compare.s alone): --gate-energy --energy-threshold 7$" "$log"'
finish

#!/usr/bin/env bash
# run_bench bisect without building anything real: bad input refused with one line, and the search over a
# repository whose "binary" is a script writing Google Benchmark JSON with a time set per commit (a known
# first bad commit, one that does not build, nothing to bisect, --time-limit, the worktree removed).
# Usage: tests/cli_bisect_test.sh BUILD_DIR
set -uo pipefail
report="$(cd "$1" && pwd)/app/cudabench-report"
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
case spin/loop in *"\$f"*) reps="0 1 2 3 4 5" ;; *) reps= ;; esac
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
no_worktree='[ ! -e "$repo/.git/cudabench-bisect/tree" ] && [ "$(git -C "$repo" worktree list | wc -l)" = 1 ]'

s=$(run bisect --help); check "bisect --help exits 0" 0 "$s" 'grep -q "usage: ./run_bench bisect" "$tmp/out"'
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
check "a good end that does not build: one line naming the build's last line, worktree removed" 2 "$s" \
  'tail -n 1 "$tmp/err" | grep -q "the good end .* cannot be measured: the build failed: no compiler here"' "$no_worktree"
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

s=$(run bisect --good=HEAD~16 --bad=HEAD~8 --filter=spin --build="$build" --binary=bench.sh --allow-device-mismatch --json="$tmp/n.json")
check "nothing to bisect: said, exit 1, no guess" 1 "$s" 'grep -q "^nothing to bisect" "$tmp/out"' '! grep -q "first bad" "$tmp/out"' \
  'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j[\"outcome\"]==\"nothing_to_bisect\" and j[\"first_bad\"] is None" "$tmp/n.json"'
s=$(run bisect --good=HEAD~8 --bad=HEAD --filter=spin --build="$build" --binary=bench.sh --allow-device-mismatch --time-limit=0 --json="$tmp/t.json")
check "--time-limit spent: the narrowest range, exit 1" 1 "$s" 'grep -q "one of these 8" "$tmp/out"' \
  'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j[\"outcome\"]==\"range\" and j[\"stopped_by_time_limit\"] and len(j[\"range\"])==8" "$tmp/t.json"'
s=$(run bisect --good=HEAD~16 --bad=HEAD --filter=other --build="$build" --binary=bench.sh --allow-device-mismatch -- --filter=spin)
check "arguments after -- reach the binary (its own --filter wins)" 0 "$s" 'grep -q "^first bad commit: $culprit" "$tmp/out"'
finish

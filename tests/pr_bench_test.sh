#!/usr/bin/env bash
# Pull-request benchmarks without a GPU: the comment body ci/pr_comment.py makes from compare's Markdown and verdict
# for the synthetic pairs of tests/fixtures (the hidden marker first, the verdict, the table; bad input one line;
# a body that would pass GitHub's limit cut), ci/pr_bench.sh measure on a repository whose "binary" is a script
# (the merge base and a head 30% slower, measured by bisect --ends in alternating processes), and ci/pr_bench.sh
# post against a stand-in gh: one comment posted, then found by its marker and updated in place, and the status check.
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
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/slowed.md" --verdict="$tmp/slowed.json" --base=$base --head=$head --processes=5 \
    --run-url=https://github.com/acme/x/actions/runs/1)
check "the comment for a slowed pair: the marker first, 1 regression, the table, the two commits" 0 "$s" \
  '[ "$(head -n 1 "$tmp/out")" = "$marker" ]' '[ "$(grep -cF "$marker" "$tmp/out")" = 1 ]' \
  'sed -n 2p "$tmp/out" | grep -qx ":x: \*\*Benchmarks: 1 regression\*\*"' \
  'grep -q "^| \`conv2d/tiled/4096\` | 143.73 us | 157.82 us | +9.8% |.* regression |" "$tmp/out"' \
  'grep -q "merge base \`111111111111\` (baseline) against the head \`222222222222\` (current), each built and measured in 5 fresh processes" "$tmp/out"' \
  'grep -q "^### Regressions" "$tmp/out"' '! grep -q "^## Benchmark comparison" "$tmp/out"' 'grep -qF "(https://github.com/acme/x/actions/runs/1)" "$tmp/out"'
cp "$tmp/out" "$tmp/slowed.comment"
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/faster.md" --verdict="$tmp/faster.json")
check "the comment for a faster pair: no regression" 0 "$s" 'sed -n 2p "$tmp/out" | grep -qx ":white_check_mark: \*\*Benchmarks: no regression\*\*"' \
  'grep -q "improvement" "$tmp/out"'
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/slowed.md"); check "without the verdict file: the verdict from the counts line" 0 "$s" \
  'sed -n 2p "$tmp/out" | grep -qx ":x: \*\*Benchmarks: 1 regression\*\*"'
s=$(run python3 "$src/ci/pr_comment.py" "$fx/synthetic_base.json"); check "not compare's Markdown: one line, exit 2" 2 "$s" 'one_line "not the Markdown of compare --md"'
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/slowed.md" --verdict="$fx/synthetic_base.json"); check "not a verdict file: one line, exit 2" 2 "$s" 'one_line "not a verdict file"'
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/slowed.md" --head='abc; rm'); check "a head that is no commit hash: one line, exit 2" 2 "$s" 'one_line "is not a commit hash"'
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/slowed.md" --run-url='javascript:x'); check "a run address that is not https: one line, exit 2" 2 "$s" 'one_line "not an https address"'
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/nope.md"); check "a missing file: one line, exit 2" 2 "$s" 'one_line "cannot be read"'
printf '%s\n' "$marker" >"$tmp/marked.md" && cat "$tmp/slowed.md" >>"$tmp/marked.md"
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/marked.md"); check "a marker inside the comparison is dropped: one marker, first" 0 "$s" \
  '[ "$(grep -cF "$marker" "$tmp/out")" = 1 ] && [ "$(head -n 1 "$tmp/out")" = "$marker" ]'
python3 - "$tmp/slowed.md" "$tmp/long.md" <<'PY'
import sys
md = open(sys.argv[1]).read()
row = [l for l in md.splitlines() if l.startswith("| `image/sync`")][0]
rows = "\n".join(row.replace("image/sync", "image/sync%05d" % i) for i in range(3000))
open(sys.argv[2], "w").write(md.replace("<details><summary>All 4 cases</summary>\n", "<details><summary>All 4 cases</summary>\n\n" + rows + "\n")
                             .replace("### Regressions\n", "### Regressions\n\n" + rows + "\n"))
PY
s=$(run python3 "$src/ci/pr_comment.py" "$tmp/long.md"); check "a comparison too long for a comment: cut under GitHub's limit, saying so" 0 "$s" \
  '[ "$(wc -c <"$tmp/out")" -le 60000 ]' 'grep -q "too long for a comment" "$tmp/out"' '[ "$(head -n 1 "$tmp/out")" = "$marker" ]'

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
s=$(cd "$repo" && GITHUB_STEP_SUMMARY="$tmp/summary.md" RUN_BENCH="$report" CUDABENCH_PR_PROCESSES=3 CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh --allow-device-mismatch" CUDABENCH_COMPARE_ARGS=--allow-device-mismatch \
    run bash "$src/ci/pr_bench.sh" measure main "$tmp/pr")
check "measure: the merge base against the head in 3 alternating processes each, a regression, the comment and the summary" 1 "$s" \
  'py "assert len([r for r in j[\"benchmarks\"] if r.get(\"run_type\") == \"iteration\"]) == 18, len(j[\"benchmarks\"])" "$tmp/pr/good.json"' \
  '[ "$(grep -o "measuring the [a-z]* end" "$tmp/pr/bisect.log" | cut -d" " -f3 | paste -sd" ")" = "good bad good bad good bad" ]' \
  'sed -n 2p "$tmp/pr/comment.md" | grep -qx ":x: \*\*Benchmarks: 1 regression\*\*"' 'grep -q "| \`spin/loop\` .* +30.0% " "$tmp/pr/comment.md"' \
  'grep -q "merge base \`${mb:0:12}\`" "$tmp/pr/comment.md"' 'grep -qF "$marker" "$tmp/summary.md"' \
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

# post: a stand-in gh that records its calls; the comments list holds the marked comment once one was posted.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/gh" <<'SH'
#!/bin/sh
echo "$*" >>"$GH_LOG"
case "$*" in
  *"--paginate repos/acme/x/issues/7/comments"*) [ -f "$GH_POSTED" ] && echo 4242; exit 0 ;;
  *"-X POST repos/acme/x/issues/7/comments"*) touch "$GH_POSTED" ;;
esac
exit 0
SH
chmod +x "$tmp/bin/gh"
post() { PATH="$tmp/bin:$PATH" GH_LOG="$tmp/gh.log" GH_POSTED="$tmp/posted" GH_TOKEN=t GITHUB_REPOSITORY=acme/x PR_NUMBER=7 \
           HEAD_SHA=$head RUN_URL=https://github.com/acme/x/actions/runs/1 run bash "$src/ci/pr_bench.sh" "$@"; }
s=$(post post "$tmp/pr" 1)
check "post: no comment yet, so one is posted; the status check fails" 0 "$s" 'grep -q "^api -X POST repos/acme/x/issues/7/comments -F body=@$tmp/pr/comment.md" "$tmp/gh.log"' \
  'grep -q "^api -X POST repos/acme/x/statuses/$head -f state=failure -f context=cudabench" "$tmp/gh.log"' 'grep -q "comment posted" "$tmp/out"'
: >"$tmp/gh.log"
s=$(post post "$tmp/pr" 0)
check "post again (the next push): the marked comment is updated in place, none posted; the check passes" 0 "$s" \
  'grep -q "^api -X PATCH repos/acme/x/issues/comments/4242 -F body=@" "$tmp/gh.log"' '! grep -q "issues/7/comments -F" "$tmp/gh.log"' \
  'grep -q "state=success" "$tmp/gh.log"' 'grep -q "select(.user.login == \"github-actions\[bot\]\" and (.body | startswith(\"$marker\")))" "$tmp/gh.log"'
s=$(post pending); check "pending: the status check set to pending" 0 "$s" 'grep -q "state=pending" "$tmp/gh.log"'
s=$(post post "$tmp/pr" 1 extra); check "post with a stray argument: one line, exit 2" 2 "$s" 'one_line "usage"'
mkdir -p "$tmp/nomarker" && printf 'no marker\n' >"$tmp/nomarker/comment.md"
s=$(post post "$tmp/nomarker" 0); check "post of a body without the marker: refused (it could never be found again)" 2 "$s" 'one_line "does not start with the marker"'
finish

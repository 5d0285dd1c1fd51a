#!/usr/bin/env bash
# Pull-request benchmarks, as .github/workflows/pr-benchmark.yml runs them (and as a person can, in a checkout of
# the pull request's head with its base branch fetched):
#   ci/pr_bench.sh measure BASE OUT_DIR
#       the merge base of BASE (a branch, e.g. origin/main, or a commit) and HEAD, and HEAD, each built in a worktree
#       apart and measured in fresh processes alternating with the other's (run_bench bisect --ends), compared
#       (compare --md --verdict: OUT_DIR/compare.md, verdict.json; the base's run as the baseline), and the pull
#       request's comment written (OUT_DIR/comment.md, ci/pr_comment.py); the comparison also into the job summary.
#       Exit status: the comparison's (0 no regression, 1 a regression or a failed case, 2 it could not be made).
#   ci/pr_bench.sh post OUT_DIR STATUS
#       posts OUT_DIR/comment.md as the pull request's one benchmark comment (the one holding its hidden marker is
#       updated in place; else a new one) and sets the head commit's status check `cudabench` by STATUS
#       (0 success, 1 failure, else error). GitHub CLI (gh) with GH_TOKEN, GITHUB_REPOSITORY, PR_NUMBER, HEAD_SHA;
#       RUN_URL links the run. COMMENT_AUTHOR: the login whose comment is updated (default github-actions[bot]).
#   ci/pr_bench.sh pending
#       sets the status check `cudabench` of HEAD_SHA to pending while the benchmarks run.
# RUN_BENCH names the runner (default this checkout's run_bench); CUDABENCH_FILTER the cases (default every case of
# the preset), CUDABENCH_PRESET the preset (default quick), CUDABENCH_PR_PROCESSES the processes per side (default 5),
# CUDABENCH_BISECT_ARGS a project's own --build=CMD --binary=PATH, CUDABENCH_COMPARE_ARGS options of compare.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
die() { echo "ci/pr_bench.sh: $*" >&2; exit 2; }
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi; }
marker='<!-- cudabench-pr-benchmark -->'

measure() {
  [ $# = 2 ] || die "usage: ci/pr_bench.sh measure BASE OUT_DIR"
  local base head out=$2 processes=${CUDABENCH_PR_PROCESSES:-5} status
  [[ "$processes" =~ ^[1-9][0-9]?$ ]] || die "CUDABENCH_PR_PROCESSES=$processes is not a count of processes (1 to 99)"
  head=$(git rev-parse --verify -q HEAD^{commit}) || die "not in a git checkout"
  base=$(git merge-base "$1" HEAD) || die "no merge base of $1 and HEAD (is the base branch fetched? fetch-depth: 0)"
  [ "$base" != "$head" ] || die "HEAD $head is the merge base itself: nothing to compare"
  mkdir -p "$out" || die "cannot make $out"
  echo "pr: merge base ${base:0:12} against head ${head:0:12}, $processes processes each" >&2
  # shellcheck disable=SC2086  # CUDABENCH_BISECT_ARGS is a list of options
  "${RUN_BENCH:-$root/run_bench}" bisect --good="$base" --bad="$head" --filter="${CUDABENCH_FILTER:-.}" --ends="$out" \
      --processes="$processes" ${CUDABENCH_BISECT_ARGS:-} -- --preset="${CUDABENCH_PRESET:-quick}" >"$out/bisect.log" 2>&1
  status=$?
  if [ "$status" != 0 ] || [ ! -s "$out/good.json" ] || [ ! -s "$out/bad.json" ]; then
    echo "ci/pr_bench.sh: the two sides could not be measured: $(tail -n 1 "$out/bisect.log")" >&2
    printf '%s\n:x: **Benchmarks: not measured**\n\nThe merge base `%s` and the head `%s` could not both be built and measured:\n\n```\n%s\n```\n' \
      "$marker" "${base:0:12}" "${head:0:12}" "$(tail -n 5 "$out/bisect.log" | cut -c1-300)" >"$out/comment.md"
    summary <"$out/comment.md"
    return 2
  fi
  # shellcheck disable=SC2086  # CUDABENCH_COMPARE_ARGS is a list of options
  "${RUN_BENCH:-$root/run_bench}" compare "$out/good.json" "$out/bad.json" ${CUDABENCH_COMPARE_ARGS:-} --md "$out/compare.md" \
      --verdict "$out/verdict.json" --html "$out/compare.html" >"$out/compare.txt"
  status=$?
  [ -f "$out/compare.md" ] || return 2
  python3 "$here/pr_comment.py" "$out/compare.md" --verdict="$out/verdict.json" --base="$base" --head="$head" \
      --processes="$processes" ${RUN_URL:+--run-url="$RUN_URL"} >"$out/comment.md" || return 2
  summary <"$out/comment.md"
  return "$status"
}

need_gh() {
  command -v gh >/dev/null 2>&1 || die "the GitHub CLI (gh) is not installed on this runner (apt-get install gh)"
  local v
  for v in GITHUB_REPOSITORY HEAD_SHA "$@"; do [ -n "${!v:-}" ] || die "$v is not set"; done
  [[ "$HEAD_SHA" =~ ^[0-9a-f]{40}$ ]] || die "HEAD_SHA=$HEAD_SHA is not a commit hash"
}

set_status() {  # set_status STATE DESCRIPTION
  gh api -X POST "repos/$GITHUB_REPOSITORY/statuses/$HEAD_SHA" -f state="$1" -f context=cudabench -f description="$2" \
    ${RUN_URL:+-f target_url="$RUN_URL"} >/dev/null
}

post() {
  [ $# = 2 ] || die "usage: ci/pr_bench.sh post OUT_DIR STATUS"
  local out=$1 status=$2 id state description
  need_gh PR_NUMBER
  [[ "$PR_NUMBER" =~ ^[1-9][0-9]*$ ]] || die "PR_NUMBER=$PR_NUMBER is not a pull request number"
  [ -s "$out/comment.md" ] || die "$out/comment.md: no comment to post"
  head -n 1 "$out/comment.md" | grep -qxF "$marker" || die "$out/comment.md does not start with the marker $marker"
  id=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" \
         --jq ".[] | select(.user.login == \"${COMMENT_AUTHOR:-github-actions[bot]}\" and (.body | startswith(\"$marker\"))) | .id" | head -n 1)
  if [ -n "$id" ]; then
    gh api -X PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F body=@"$out/comment.md" >/dev/null || exit 1
    echo "pr: comment $id updated"
  else
    gh api -X POST "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -F body=@"$out/comment.md" >/dev/null || exit 1
    echo "pr: comment posted"
  fi
  case $status in
    0) state=success description="no regression" ;;
    1) state=failure description="a regression (see the pull request's benchmark comment)" ;;
    *) state=error description="the benchmarks could not be compared" ;;
  esac
  set_status "$state" "$description" || exit 1
  echo "pr: status cudabench of ${HEAD_SHA:0:12}: $state"
}

case "${1:-}" in
  measure) shift; measure "$@" ;;
  post) shift; post "$@" ;;
  pending) need_gh; set_status pending "measuring the merge base and the head" || exit 1 ;;
  *) die "usage: ci/pr_bench.sh measure BASE OUT_DIR | post OUT_DIR STATUS | pending" ;;
esac

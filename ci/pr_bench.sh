#!/usr/bin/env bash
# Pull-request benchmarks, as the two workflows run them (.github/workflows/pr-benchmark.yml measures, without a
# token; pr-benchmark-report.yml posts, with one, running the default branch's code only):
#   ci/pr_bench.sh measure BASE OUT_DIR
#       the merge base of BASE (a branch, e.g. origin/main, or a commit) and HEAD, and HEAD, each built in a worktree
#       apart and measured in fresh processes alternating with the other's (run_bench bisect --ends), compared
#       (compare --md --verdict: OUT_DIR/compare.md, verdict.json; the base's run as the baseline); OUT_DIR/pr.json
#       records what was measured (pr: PR_NUMBER, event: PR_EVENT, head, base, status, processes), OUT_DIR/log-tail.txt
#       the end of the build log when a side could not be measured; the comment (ci/pr_comment.py) into
#       OUT_DIR/comment.md and the job summary. Runs in a checkout of the pull request's head; needs no token.
#       Both sides' cases are identified first (run --identify: one untimed run of each) and only those whose code
#       identity differs or is unknown on either side, and the limits family as controls, are measured (bisect
#       --skip-same-code); the rest are skipped as the same code, listed in OUT_DIR/same_code.json and counted in the
#       comment. The code identity sees device code, launches and copies, not host code: CUDABENCH_PR_ALL_CASES=1
#       measures every case (a change of host code: the harness, a CPU case, a reference), as does CUDABENCH_FILTER
#       (every case it names is measured). The processes run with --no-energy unless CUDABENCH_PR_ENERGY=1 or
#       CUDABENCH_COMPARE_ARGS holds --gate-energy.
#       Both sides ran here, so cases without a learned gate are judged by their own processes (self-calibrated); where
#       one stays undecided, bisect measures more pairs of it for up to --extra-time (60 s here, so that the flow answers
#       in minutes; CUDABENCH_BISECT_ARGS may set it). Exit status: the comparison's (0 no regression, 1 a regression or a failed case, 2 it could not be
#       made, 3 a case it could not judge because a side was measured mostly throttled).
#   ci/pr_bench.sh report RUN_ID DIR
#       the artifact `pr-benchmark` of the measuring run RUN_ID downloaded into DIR (a new directory) as untrusted
#       data: its zip (at most 256 MiB, unzipped too), of which only pr.json, verdict.json, log-tail.txt and same_code.json are
#       written, into DIR/artifact/; pr.json checked (a pull request number, whole 40-hex commits, an event and a
#       status from fixed sets), the pull request and the head bound to the run's event (RUN_EVENT, RUN_HEAD_SHA,
#       RUN_HEAD_REPO, RUN_HEAD_BRANCH; for a comment RUN_TITLE, the run's title naming the pull request and the
#       comment, whose commit is the head) and the head a commit of the pull request; the verdict file against the
#       status and itself). A `synchronize` record removes the label `benchmark` (a new push needs a
#       new approval); a measurement's comment is made anew by this checkout's ci/pr_comment.py, posted as the pull
#       request's one benchmark comment (the one of COMMENT_AUTHOR, default github-actions[bot], holding the hidden
#       marker is updated in place; else a new one, from DIR/comment.txt), and the status check `cudabench` of the
#       measured head set.
#       GitHub CLI (gh) and jq, with GH_TOKEN and GITHUB_REPOSITORY; RUN_URL links the run, CUDABENCH_DASHBOARD_URL
#       (an https address) the dashboard of the history store.
# RUN_BENCH names the runner (default this checkout's run_bench); CUDABENCH_FILTER the cases (default every case of
# the preset), CUDABENCH_PRESET the preset (default quick), CUDABENCH_PR_PROCESSES the processes per side (default 5),
# CUDABENCH_BISECT_ARGS a project's own --build=CMD --binary=PATH, CUDABENCH_COMPARE_ARGS options of compare.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/defaults.sh"
die() { echo "ci/pr_bench.sh: $*" >&2; exit 2; }
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi; }
marker='<!-- cudabench-pr-benchmark -->'

measure() {
  [ $# = 2 ] || die "usage: ci/pr_bench.sh measure BASE OUT_DIR"
  local base head out=$2 processes=${CUDABENCH_PR_PROCESSES:-5} status pr=${PR_NUMBER:-0} event=${PR_EVENT:-local}
  [[ "$processes" =~ ^[1-9][0-9]?$ ]] || die "CUDABENCH_PR_PROCESSES=$processes is not a count of processes (1 to 99)"
  [[ "$pr" =~ ^(0|[1-9][0-9]{0,8})$ ]] || die "PR_NUMBER=$pr is not a pull request number"
  [[ "$event" =~ ^(labeled|comment|local)$ ]] || die "PR_EVENT=$event is not labeled, comment or local"
  head=$(git rev-parse --verify -q "HEAD^{commit}") || die "not in a git checkout"
  base=$(git merge-base "$1" HEAD) || die "no merge base of $1 and HEAD (fetch the base branch and both histories: git fetch --unshallow origin +refs/heads/BRANCH:refs/remotes/origin/BRANCH)"
  [ "$base" != "$head" ] || die "HEAD $head is the merge base itself: nothing to compare"
  mkdir -p "$out" || die "cannot make $out"
  out=$(cd "$out" && pwd)
  echo "pr: merge base ${base:0:12} against head ${head:0:12}, $processes processes each" >&2
  run_bench=$(cb_runner) || exit 2
  local selection=(--skip-same-code) energy=(--no-energy)
  { [ "${CUDABENCH_PR_ALL_CASES:-0}" = 1 ] || [ -n "${CUDABENCH_FILTER:-}" ]; } && selection=()
  { [ "${CUDABENCH_PR_ENERGY:-0}" = 1 ] || [[ " ${CUDABENCH_COMPARE_ARGS:-} " = *" --gate-energy "* ]]; } && energy=()
  rm -f "$out/same_code.json"
  # shellcheck disable=SC2086  # CUDABENCH_BISECT_ARGS is a list of options
  "$run_bench" bisect --good="$base" --bad="$head" --filter="${CUDABENCH_FILTER:-.}" --ends="$out" "${selection[@]}" \
      --processes="$processes" --extra-time=60 ${CUDABENCH_BISECT_ARGS:-} -- --preset="${CUDABENCH_PRESET:-quick}" "${energy[@]}" >"$out/bisect.log" 2>&1
  status=$?
  if [ "$status" != 0 ] || [ ! -s "$out/good.json" ] || [ ! -s "$out/bad.json" ]; then
    echo "ci/pr_bench.sh: the two sides could not be measured: $(tail -n 1 "$out/bisect.log")" >&2
    status=2
  else
    # shellcheck disable=SC2086  # CUDABENCH_COMPARE_ARGS is a list of options
    "$run_bench" compare "$out/good.json" "$out/bad.json" ${CUDABENCH_COMPARE_ARGS:-} --md "$out/compare.md" \
        --verdict "$out/verdict.json" --html "$out/compare.html" >"$out/compare.txt"
    status=$?
    [ -f "$out/verdict.json" ] || status=2
  fi
  # The end of the log, its paths relative to the checkout and to OUT_DIR (literal prefixes, not patterns).
  local line top
  top=$(git rev-parse --show-toplevel)
  tail -n 5 "$out/bisect.log" | while IFS= read -r line; do line=${line//"$top/"/}; printf '%s\n' "${line//"$out/"/}"; done >"$out/log-tail.txt"
  jq -n --argjson pr "$pr" --arg event "$event" --arg head "$head" --arg base "$base" --argjson status "$status" \
     --argjson processes "$processes" '{pr: $pr, event: $event, head: $head, base: $base, status: $status, processes: $processes}' \
     >"$out/pr.json" || die "cannot write $out/pr.json"
  comment "$out" "$base" "$head" "$status" "$processes" >"$out/comment.md" || return 2
  summary <"$out/comment.md"
  return "$status"
}

# comment DIR BASE HEAD STATUS PROCESSES: the comment's body, by this checkout's ci/pr_comment.py, from DIR's verdict
# file (status 0 or 1) or the end of its log (else).
comment() {
  local dashboard=${CUDABENCH_DASHBOARD_URL:-}  # linked only where it is a plain https address
  cb_https_address "$dashboard" || dashboard=""
  if [ "$4" = 0 ] || [ "$4" = 1 ] || [ "$4" = 3 ]; then
    local same=()
    [ -f "$1/same_code.json" ] && same=(--same-code="$1/same_code.json")
    python3 "$here/pr_comment.py" --verdict="$1/verdict.json" --base="$2" --head="$3" --processes="$5" ${RUN_URL:+--run-url="$RUN_URL"} \
      ${dashboard:+--dashboard="$dashboard"} "${same[@]}"
  else
    python3 "$here/pr_comment.py" --log="$1/log-tail.txt" --base="$2" --head="$3" ${RUN_URL:+--run-url="$RUN_URL"} \
      ${dashboard:+--dashboard="$dashboard"}
  fi
}

need_gh() {
  command -v gh >/dev/null 2>&1 || die "the GitHub CLI (gh) is not installed on this runner (apt-get install gh)"
  command -v jq >/dev/null 2>&1 || die "jq is not installed on this runner"
  # GitHub's owner (letters, digits, inner hyphens) and repository name (letters, digits, '.', '_', '-'; not . or ..)
  local owner='[A-Za-z0-9]([A-Za-z0-9-]{0,37}[A-Za-z0-9])?' name='[A-Za-z0-9._-]{1,100}'
  { [[ "${GITHUB_REPOSITORY:-}" =~ ^$owner/$name$ ]] && [[ ! "$GITHUB_REPOSITORY" =~ /\.\.?$ ]]; } \
    || die "GITHUB_REPOSITORY=${GITHUB_REPOSITORY:-} is not owner/name"
}

# small FILE LIMIT: FILE is a regular file (no link) of at most LIMIT bytes.
small() { [ -f "$1" ] && [ ! -L "$1" ] && [ "$(stat -c %s "$1")" -le "$2" ]; }

artifact_limit=$((256 << 20))  # the artifact's size, zipped and unzipped

# fetch RUN_ID DIR: the run's artifact pr-benchmark (refused above 256 MiB, zipped or not) downloaded into the new
# directory DIR as DIR/artifact.zip, and of it only pr.json, verdict.json, log-tail.txt and same_code.json written into DIR/artifact/,
# each a regular file within its bound (a link, another name or a duplicate is never written).
fetch() {
  local listing id size
  listing=$(gh api "repos/$GITHUB_REPOSITORY/actions/runs/$1/artifacts" \
              | jq -c '[.artifacts[] | select(.name == "pr-benchmark")][0] // {} | [.id // "none", .size_in_bytes // "none"]') \
    || die "cannot list the artifacts of run $1"
  id=$(jq -r '.[0] | tostring' <<<"$listing") size=$(jq -r '.[1] | tostring' <<<"$listing")
  [ "$id" != none ] || { echo "pr: run $1 left no artifact pr-benchmark: nothing to report"; exit 0; }
  [[ "$id" =~ ^[1-9][0-9]{0,19}$ ]] || die "the artifact pr-benchmark of run $1 has no artifact id"
  { [[ "$size" =~ ^[0-9]{1,12}$ ]] && [ "$size" -le "$artifact_limit" ]; } || die "the artifact pr-benchmark of run $1 is $size bytes (at most 256 MiB)"
  mkdir "$2" || die "$2: cannot make it (it must be new)"
  gh api "repos/$GITHUB_REPOSITORY/actions/artifacts/$id/zip" | head -c $((artifact_limit + 1)) >"$2/artifact.zip" \
    || die "cannot download the artifact of run $1"
  small "$2/artifact.zip" "$artifact_limit" || die "the artifact pr-benchmark of run $1 is over 256 MiB"
  python3 - "$2/artifact.zip" "$2/artifact" "$artifact_limit" <<'PY'
import os, stat, sys, zipfile

LIMITS = {"pr.json": 4 << 10, "verdict.json": 64 << 20, "log-tail.txt": 64 << 10, "same_code.json": 16 << 20}  # what report reads, each bounded


def refuse(why):
    sys.exit("ci/pr_bench.sh: the artifact %s" % why)


try:
    archive = zipfile.ZipFile(sys.argv[1])
    entries = archive.infolist()
except (OSError, zipfile.BadZipFile, ValueError, EOFError):
    refuse("is not a zip archive")
if len(entries) > 10000 or sum(e.file_size for e in entries) > int(sys.argv[3]):
    refuse("unzips to %d bytes in %d files (at most 256 MiB, 10,000 files)" % (sum(e.file_size for e in entries), len(entries)))
os.mkdir(sys.argv[2], 0o700)
names = [e.filename for e in entries]
for e in entries:
    if e.filename not in LIMITS:
        continue
    mode = e.external_attr >> 16
    if names.count(e.filename) > 1 or e.is_dir() or (mode and not stat.S_ISREG(mode)):
        refuse("holds %s twice, or as a link or other file that is not a regular file" % e.filename)
    if e.file_size > LIMITS[e.filename]:
        refuse("holds %s of %d bytes (at most %d)" % (e.filename, e.file_size, LIMITS[e.filename]))
    try:
        with archive.open(e) as f:
            data = f.read(LIMITS[e.filename] + 1)  # stops at the size the entry declares; its CRC checked there
    except (OSError, zipfile.BadZipFile, ValueError, EOFError, NotImplementedError) as x:
        refuse("holds %s, which does not unzip (%s)" % (e.filename, x))
    fd = os.open(os.path.join(sys.argv[2], e.filename), os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data[:LIMITS[e.filename]])
PY
  [ $? = 0 ] || exit 2
}

# record DIR: pr.json checked, its fields as the words "PR EVENT HEAD BASE STATUS PROCESSES".
record() {
  small "$1/pr.json" 4096 || die "the artifact's pr.json is missing, not a regular file, or over 4 KiB"
  # Whole strings: jq's test() reads ^ and $ at line ends, so "<sha>\n" would pass a pattern.
  jq -er '
    def count(lo; hi): type == "number" and . == floor and . >= lo and . <= hi;
    def sha: type == "string" and length == 40 and all(explode[]; (. >= 48 and . <= 57) or (. >= 97 and . <= 102));
    if type == "object" and (.pr | count(1; 999999999)) and (.event | IN("labeled", "comment", "synchronize")) and (.head | sha)
       and (.event == "synchronize" or ((.base | sha) and (.status | IN(0, 1, 2, 3)) and (.processes | count(1; 99))))
    then [.pr, .event, .head, .base // "-", .status // "-", .processes // "-"] | map(tostring) | join(" ")
    else error("pr.json is not a record of the measuring job (pr, event, head, base, status, processes)") end' "$1/pr.json" 2>/dev/null \
    || die "the artifact's pr.json is not a record of the measuring job (pr, event, head, base, status, processes)"
}

# approved PR EVENT HEAD: PR and HEAD are those of the run's event, never the artifact's word alone: for a label or
# a push, HEAD is the run's head commit and PR the pull request whose head branch is the run's (RUN_HEAD_REPO,
# RUN_HEAD_BRANCH); for a comment, PR and the comment are those the run's title names (RUN_TITLE, "pr-benchmark PR
# comment ID", set by the default branch's workflow) and HEAD the commit that comment names; HEAD a commit of PR.
approved() {
  case "$2:${RUN_EVENT:-}" in
    labeled:pull_request|synchronize:pull_request)
      [ "$3" = "${RUN_HEAD_SHA:-}" ] || die "the artifact's head $3 is not the head of the run's event (${RUN_HEAD_SHA:-none})"
      [ "$(gh api "repos/$GITHUB_REPOSITORY/pulls/$1" | jq -r '[.head.repo.full_name, .head.ref] | map(tostring) | join(":")')" \
        = "${RUN_HEAD_REPO:-}:${RUN_HEAD_BRANCH:-}" ] && [ -n "${RUN_HEAD_REPO:-}" ] && [ -n "${RUN_HEAD_BRANCH:-}" ] \
        || die "pull request $1 is not the run's: its head branch is not ${RUN_HEAD_REPO:-}:${RUN_HEAD_BRANCH:-}" ;;
    comment:issue_comment) commented "$1" "$3" ;;
    *) die "the artifact's event $2 does not match the run's event ${RUN_EVENT:-(RUN_EVENT not set)}" ;;
  esac
  gh api --paginate "repos/$GITHUB_REPOSITORY/pulls/$1/commits" | jq -r '.[].sha' | grep -qxF "$3" \
    || die "$3 is not a commit of pull request $1"
}

# commented PR HEAD: the run's title names pull request PR and a comment on it, by an owner, member or collaborator,
# whose first line is "/benchmark HEAD".
commented() {
  local named
  [[ "${RUN_TITLE:-}" =~ ^pr-benchmark\ ([1-9][0-9]{0,8})\ comment\ ([1-9][0-9]{0,19})$ ]] \
    || die "the run's title names no pull request and comment (pr-benchmark PR comment ID)"
  [ "${BASH_REMATCH[1]}" = "$1" ] || die "the artifact's pull request $1 is not the run's (${BASH_REMATCH[1]})"
  named=$(gh api "repos/$GITHUB_REPOSITORY/issues/comments/${BASH_REMATCH[2]}" | jq -r --arg pr "$1" '
    if (.issue_url | tostring | endswith("/issues/" + $pr)) and (.author_association | IN("OWNER", "MEMBER", "COLLABORATOR"))
    then .body | tostring | split("\n")[0] | capture("^/benchmark[[:space:]]+(?<sha>[0-9a-f]{40})[[:space:]]*$").sha // ""
    else "" end' 2>/dev/null)
  [ -n "$named" ] && [ "$named" = "$2" ] || die "the artifact's head $2 is not the commit the comment ${BASH_REMATCH[2]} names (${named:-none})"
}

set_status() {  # set_status HEAD STATE DESCRIPTION
  gh api -X POST "repos/$GITHUB_REPOSITORY/statuses/$1" -f state="$2" -f context=cudabench -f description="$3" \
    ${RUN_URL:+-f target_url="$RUN_URL"} >/dev/null
}

# post PR FILE: FILE as the pull request's one benchmark comment.
post() {
  local id
  id=$(gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$1/comments" \
         | jq -r --arg author "${COMMENT_AUTHOR:-github-actions[bot]}" --arg marker "$marker" \
             '.[] | select(.user.login == $author and (.body | startswith($marker))) | .id' | head -n 1)
  [[ "$id" =~ ^[0-9]*$ ]] || die "the comments of pull request $1 could not be read"
  if [ -n "$id" ]; then
    gh api -X PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F body=@"$2" >/dev/null || exit 1
    echo "pr: comment $id updated"
  else
    gh api -X POST "repos/$GITHUB_REPOSITORY/issues/$1/comments" -F body=@"$2" >/dev/null || exit 1
    echo "pr: comment posted"
  fi
}

report() {
  [ $# = 2 ] || die "usage: ci/pr_bench.sh report RUN_ID DIR"
  [[ "$1" =~ ^[1-9][0-9]{0,19}$ ]] || die "RUN_ID=$1 is not a run id"
  need_gh
  fetch "$1" "$2"
  local rec pr event head base status processes state description art=$2/artifact
  rec=$(record "$art") || exit 2
  read -r pr event head base status processes <<<"$rec"
  approved "$pr" "$event" "$head"
  if [ "$event" = synchronize ]; then  # a push: the approval was of another commit
    gh api -X DELETE "repos/$GITHUB_REPOSITORY/issues/$pr/labels/benchmark" >/dev/null 2>&1 \
      && echo "pr: label benchmark removed from pull request $pr (a new push needs a new approval)" \
      || echo "pr: pull request $pr is not labelled benchmark"
    return 0
  fi
  if [ "$status" != 2 ]; then  # the verdict file must be one, and say what the status says
    local failing=false
    [ "$status" = 1 ] && failing=true
    { small "$art/verdict.json" $((64 << 20)) && [ "$(jq -r '.failing' "$art/verdict.json" 2>/dev/null)" = "$failing" ]; } \
      || die "the artifact's verdict.json is missing, over 64 MiB, or does not say what its status $status says"
    # Status 3 (the comparison could not judge, a side mostly throttled) only with a verdict file that says so.
    if [ "$status" = 3 ]; then
      jq -e '.exit_status == 3' "$art/verdict.json" >/dev/null 2>&1 \
        || die "the artifact's verdict.json does not say what its status 3 says (exit_status 3)"
    fi
    # Not failing, and yet a regression or a lost case listed: the comment would say both.
    jq -e '.failing or ([.cases[]? | select(.verdict == "regression" or .lost == true)] | length == 0)' "$art/verdict.json" >/dev/null 2>&1 \
      || die "the artifact's verdict.json contradicts itself: not failing, with a regression or a lost case listed"
  else
    [ -e "$art/log-tail.txt" ] || : >"$art/log-tail.txt"  # a new file in the directory fetch made
  fi
  comment "$art" "$base" "$head" "$status" "$processes" >"$2/comment.txt" || die "the comment could not be made from the artifact"
  post "$pr" "$2/comment.txt"
  case $status in
    0) state=success description="no regression" ;;
    1) state=failure description="a regression (see the pull request's benchmark comment)" ;;
    3) state=error description="not judged: a side was mostly throttled (see the pull request's benchmark comment)" ;;
    *) state=error description="the benchmarks could not be compared" ;;
  esac
  set_status "$head" "$state" "$description" || exit 1
  echo "pr: status cudabench of ${head:0:12} (pull request $pr): $state"
}

case "${1:-}" in
  measure) shift; measure "$@" ;;
  report) shift; report "$@" ;;
  *) die "usage: ci/pr_bench.sh measure BASE OUT_DIR | report RUN_ID DIR" ;;
esac

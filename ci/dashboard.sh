#!/usr/bin/env bash
# The dashboard of the history store, as the nightly workflow publishes it: `run_bench trend STORE --site OUT_DIR`
# (static pages: an index, each GPU model and preset's trend across commits with its verdicts and gates, the
# models side by side), each run's commit linked to the repository (CUDABENCH_REPOSITORY_URL, default the one the
# GitHub workflow runs in: GITHUB_SERVER_URL/GITHUB_REPOSITORY; none outside a workflow), and a line in the job
# summary saying where it is: CUDABENCH_DASHBOARD_URL (e.g. the GitHub Pages site), else this workflow run's
# artifact CUDABENCH_DASHBOARD_ARTIFACT (default dashboard), whose CUDABENCH_DASHBOARD_INDEX (default index.html)
# is the site's index (the action's artifact holds the site in its folder dashboard/).
# Usage: ci/dashboard.sh STORE OUT_DIR    (RUN_BENCH names the runner, as in ci/nightly.sh; installed with the
# package, its cudabench-report by default)
# Exit status: the trend command's (0 written, 2 bad input or no runs in the store).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# = 2 ] || { echo "ci/dashboard.sh: usage: ci/dashboard.sh STORE OUT_DIR" >&2; exit 2; }
store=$1 out=$2
repository=${CUDABENCH_REPOSITORY_URL:-}
if [ -z "$repository" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then repository="${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY"; fi
source "$root/ci/defaults.sh"
bench=$(cb_runner report) || exit 2
"$bench" trend "$store" --site="$out" ${repository:+"--repository=$repository"} || exit
[ -n "${GITHUB_STEP_SUMMARY:-}" ] || exit 0
url=${CUDABENCH_DASHBOARD_URL:-}
if [ -n "$url" ] && ! cb_https_address "$url"; then
  echo "ci/dashboard.sh: CUDABENCH_DASHBOARD_URL is not a plain https address; the summary names the artifact instead" >&2
  url=""
fi
index=${CUDABENCH_DASHBOARD_INDEX:-index.html}
[[ "$index" =~ ^[A-Za-z0-9._/-]+$ ]] || index=index.html
artifact=${CUDABENCH_DASHBOARD_ARTIFACT-dashboard}
# Never a path of the runner, which no reader of the summary can open.
if [ -n "$url" ]; then
  where="<$url>"
elif [[ "$artifact" =~ ^[A-Za-z0-9._-]+$ ]] && [[ "${GITHUB_RUN_ID:-}" =~ ^[0-9]+$ ]] && [ -n "$repository" ]; then
  where="the artifact \`$artifact\` of [this run]($repository/actions/runs/$GITHUB_RUN_ID) (open its $index)"
elif [[ "$artifact" =~ ^[A-Za-z0-9._-]+$ ]]; then
  where="the artifact \`$artifact\` of this run (open its $index)"
else
  where="not published and not uploaded (publish it on GitHub Pages: docs/ci.md, \"The dashboard\")"
fi
printf '\n**Dashboard** of the history store (every GPU model and preset across commits, and side by side): %s\n' "$where" >>"$GITHUB_STEP_SUMMARY"

#!/usr/bin/env bash
# The history store: results, verdicts and learned gates kept on a git branch of the repository (default
# cudabench-history, a branch with no common history with the code, as github-action-benchmark keeps gh-pages),
# so that every runner of a GPU model reads and adds to one history, and a replaced runner loses nothing.
# Its layout, one directory per GPU model and preset, is a nightly results directory:
#   <model>/<preset>/runs/nightly-<time>.json   each run (what trend and gates read: DIR/<model>/<preset>/runs)
#   <model>/<preset>/verdict-<time>.json        its verdict against the baseline (what fleet reads beside the run)
#   <model>/<preset>/gates.json                 the gates learned from the kept runs (run_bench gates)
# <model> is the GPU model as baselines are stored (ci/baseline_path.py), e.g. NVIDIA_H100_80GB_HBM3.
#
# Usage:
#   ci/history.sh fetch DIR [--repo=PATH] [--remote=NAME] [--branch=NAME]
#       DIR becomes a worktree of the repository (default: the one the current directory is in) holding the
#       branch's newest commit, fetched from the remote (default origin; only its newest commit is fetched); a
#       branch not there yet starts empty. A DIR fetched before is brought up to date, losing what was not pushed.
#   ci/history.sh add DIR RUN.json [VERDICT.json]
#       files a run (and its verdict) under DIR/<model>/<preset>/ and learns that directory's gates again from its
#       runs (RUN_BENCH gates, where RUN_BENCH is set; a failure to learn them is said and leaves the old ones).
#   ci/history.sh push DIR [--keep=N] [--message=TEXT]
#       keeps the N newest runs of each model and preset (default 60; their verdicts with them), commits and
#       pushes. Another runner's push in between is taken in and this one's files put on top of it (tried 5 times).
# Exit status: 0 done (push: also when there was nothing to push), 2 usage or input error, 1 git failed (said).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { echo "ci/history.sh: $*" >&2; exit 2; }
author=(-c user.name="cudabench-history" -c user.email="cudabench-history@users.noreply.github.com" -c commit.gpgsign=false)
[ $# -ge 2 ] || die "usage: ci/history.sh fetch|add|push DIR [options] (see its header)"
cmd=$1 dir=$(realpath -m -- "$2")
shift 2

# state_file: where a fetched DIR records its remote, branch and the commit it started from (in its own git dir).
# Only a DIR that is the top of a worktree has one (not a folder inside another checkout).
state_file() {
  local top git_dir
  top=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null) && [ "$(realpath "$top")" = "$(realpath "$dir")" ] \
    && git_dir=$(git -C "$dir" rev-parse --absolute-git-dir 2>/dev/null) || { echo "$dir/.git/not-a-history-store"; return; }
  echo "$git_dir/cudabench-history"
}
read_state() {
  [ -d "$dir" ] && git -C "$dir" rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -f "$(state_file)" ] \
    || die "$dir is not a history store fetched with ci/history.sh fetch"
  # shellcheck disable=SC1090  # written by fetch: remote=, branch=, base=
  . "$(state_file)"
}

# fetch_tip REPO REMOTE BRANCH: the remote branch's newest commit into refs/cudabench-history/tip; 1 when absent.
fetch_tip() {
  git -C "$1" ls-remote --exit-code --heads "$2" "refs/heads/$3" >/dev/null 2>&1 || return 1
  git -C "$1" fetch -q --depth=1 "$2" "+refs/heads/$3:refs/cudabench-history/tip" || { echo "ci/history.sh: cannot fetch $3 from $2" >&2; exit 1; }
}

do_fetch() {
  local repo="" remote=origin branch=cudabench-history a tip
  for a in "$@"; do
    case "$a" in
      --repo=*) repo=${a#--repo=} ;;
      --remote=*) remote=${a#--remote=} ;;
      --branch=*) branch=${a#--branch=} ;;
      *) die "fetch: unknown argument '$a'" ;;
    esac
  done
  repo=$(git -C "${repo:-.}" rev-parse --show-toplevel 2>/dev/null) || die "fetch: ${repo:-the current directory} is not in a git repository (--repo=PATH)"
  git check-ref-format "refs/heads/$branch" || die "fetch: --branch=$branch is not a branch name"
  git -C "$repo" remote get-url "$remote" >/dev/null 2>&1 || die "fetch: the repository has no remote '$remote' (--remote=NAME)"
  if fetch_tip "$repo" "$remote" "$branch"; then
    tip=$(git -C "$repo" rev-parse refs/cudabench-history/tip)
  else  # not there yet: an empty first commit to start it from
    tip=$(git "${author[@]}" -C "$repo" commit-tree "$(git -C "$repo" hash-object -t tree /dev/null)" -m "cudabench history store") || exit 1
  fi
  if [ -e "$dir" ] && [ -f "$(state_file)" ]; then  # fetched before: brought up to date in place
    git -C "$dir" checkout -q -f --detach "$tip" && git -C "$dir" clean -q -fdx || exit 1
  else
    [ ! -e "$dir" ] || [ -z "$(ls -A "$dir" 2>/dev/null)" ] || die "fetch: $dir exists and is not empty (nor a history store fetched before)"
    rmdir "$dir" 2>/dev/null
    git -C "$repo" worktree prune
    git -C "$repo" worktree add -q --detach "$dir" "$tip" || exit 1
  fi
  printf 'remote=%q\nbranch=%q\nbase=%q\n' "$remote" "$branch" "$tip" >"$(state_file)"
  echo "history: $branch of $remote in $dir ($(find "$dir" -path '*/runs/*.json' | wc -l) run(s))"
}

do_add() {
  [ $# -ge 1 ] && [ $# -le 2 ] || die "add: usage: ci/history.sh add DIR RUN.json [VERDICT.json]"
  read_state
  local run=$1 verdict=${2:-} dest at name
  [ -f "$run" ] || die "add: $run: no such file"
  [ -z "$verdict" ] || [ -f "$verdict" ] || die "add: $verdict: no such file"
  dest=$(python3 "$here/baseline_path.py" "$run" "$dir") || exit 2
  at=${dest%.json}
  name=$(basename "$run")
  case "$name" in nightly-*.json) ;; *) name="nightly-$(date -u +%Y%m%dT%H%M%SZ).json" ;; esac
  mkdir -p "$at/runs" || exit 2
  cp "$run" "$at/runs/$name.tmp" && mv "$at/runs/$name.tmp" "$at/runs/$name" || exit 2
  if [ -n "$verdict" ]; then
    local v="verdict-${name#nightly-}"
    cp "$verdict" "$at/$v.tmp" && mv "$at/$v.tmp" "$at/$v" || exit 2
  fi
  echo "history: ${at#"$dir"/}/runs/$name${verdict:+ and its verdict}"
  [ -n "${RUN_BENCH:-}" ] || return 0
  if "$RUN_BENCH" gates "$at/runs" --out "$at/gates.json.new" >"$at/gates.log" 2>&1; then
    mv "$at/gates.json.new" "$at/gates.json" && tail -n 1 "$at/gates.log" | sed 's|gates\.json\.new|gates.json|'
  else
    echo "history: the gates of ${at#"$dir"/} were not learned again: $(tail -n 1 "$at/gates.log")" >&2
    rm -f "$at/gates.json.new"
  fi
  rm -f "$at/gates.log"
}

# retain N: the N newest runs of each <model>/<preset>/runs (by name: the times sort), the verdicts of the rest gone.
retain() {
  python3 - "$dir" "$1" <<'PY'
import os, re, sys
root, keep = sys.argv[1], int(sys.argv[2])
for top, dirs, files in os.walk(root):
    dirs[:] = [d for d in dirs if d != ".git"]
    if os.path.basename(top) != "runs":
        continue
    runs = sorted(f for f in files if f.endswith(".json"))
    kept = set(runs[-keep:])
    for f in runs:
        if f not in kept:
            os.remove(os.path.join(top, f))
    at = os.path.dirname(top)
    for f in os.listdir(at):  # a verdict goes with its run
        m = re.fullmatch(r"verdict-(.+)\.json", f)
        if m and "nightly-%s.json" % m.group(1) not in kept:
            os.remove(os.path.join(at, f))
PY
}

# commit MESSAGE: everything in DIR committed; 1 when nothing changed.
commit() {
  git -C "$dir" add -A . || exit 1
  git -C "$dir" diff --cached --quiet && return 1
  git "${author[@]}" -C "$dir" commit -q -m "$1" || exit 1
}

do_push() {
  local keep=60 message="" a attempt saved
  for a in "$@"; do
    case "$a" in
      --keep=*) keep=${a#--keep=}; [[ "$keep" =~ ^[1-9][0-9]{0,5}$ ]] || die "push: --keep=$keep is not a count of runs (1 or more)" ;;
      --message=*) message=${a#--message=} ;;
      *) die "push: unknown argument '$a'" ;;
    esac
  done
  read_state
  log=$(mktemp) || exit 2
  trap 'rm -f "$log"' EXIT
  if [ -z "$message" ]; then  # the models and presets this push adds runs to
    message="History: $(find "$dir" -path '*/runs/*.json' -newer "$(state_file)" | sed 's|.*/\([^/]*/[^/]*\)/runs/.*|\1|' | sort -u | paste -sd' ')"
    [ "$message" != "History: " ] || message="History: update"
  fi
  retain "$keep" || exit 2
  if ! commit "$message" && [ "$(git -C "$dir" rev-parse HEAD)" = "$base" ]; then
    echo "history: nothing new to push"; return 0
  fi
  for attempt in 1 2 3 4 5; do
    if git -C "$dir" push -q "$remote" "HEAD:refs/heads/$branch" 2>"$log"; then
      base=$(git -C "$dir" rev-parse HEAD)
      printf 'remote=%q\nbranch=%q\nbase=%q\n' "$remote" "$branch" "$base" >"$(state_file)"
      echo "history: pushed to $branch of $remote (keeping $keep run(s) a model and preset)"
      return 0
    fi
    # Another runner pushed first: its tip taken, this push's changes since the fetch put back on top of it.
    saved=$(mktemp -d)
    git -C "$dir" diff --name-status --no-renames "$base" HEAD >"$saved/changes" || exit 1
    while IFS=$'\t' read -r status path; do
      [ "$status" = D ] && continue
      mkdir -p "$saved/files/$(dirname "$path")" && cp "$dir/$path" "$saved/files/$path"
    done <"$saved/changes"
    fetch_tip "$dir" "$remote" "$branch" || { echo "ci/history.sh: push to $branch of $remote refused: $(tail -n 1 "$log")" >&2; exit 1; }
    base=$(git -C "$dir" rev-parse refs/cudabench-history/tip)
    git -C "$dir" checkout -q -f --detach "$base" && git -C "$dir" clean -q -fdx || exit 1
    while IFS=$'\t' read -r status path; do
      if [ "$status" = D ]; then rm -f "$dir/$path"; else mkdir -p "$dir/$(dirname "$path")" && cp "$saved/files/$path" "$dir/$path"; fi
    done <"$saved/changes"
    rm -rf "$saved"
    retain "$keep" || exit 2
    commit "$message" || { echo "history: nothing new to push after taking in the other push"; return 0; }
    echo "history: $branch moved on (another push); trying again ($attempt)" >&2
  done
  echo "ci/history.sh: could not push to $branch of $remote after 5 tries: $(tail -n 1 "$log")" >&2
  exit 1
}

case "$cmd" in
  fetch) do_fetch "$@" ;;
  add) do_add "$@" ;;
  push) do_push "$@" ;;
  *) die "unknown command '$cmd' (fetch, add or push)" ;;
esac

#!/usr/bin/env bash
# The history store: results, verdicts and learned gates kept on a git branch of the repository (default
# cudabench-history, a branch with no common history with the code, as github-action-benchmark keeps gh-pages),
# so that every runner of a GPU model reads and adds to one history, and a replaced runner loses nothing.
# Its layout, one directory per GPU model and preset, is a nightly results directory (analysis/run_store.hpp):
#   <model>/<preset>/runs/nightly-<time>.json   each run (what trend and gates read: DIR/<model>/<preset>/runs)
#   <model>/<preset>/verdict-<time>.json        its verdict against the baseline (what fleet reads beside the run)
#   <model>/<preset>/gates.json                 the gates learned from the kept runs (run_bench gates)
# <model> is the GPU model as baselines are stored (RUN_BENCH store slot), e.g. NVIDIA_H100_80GB_HBM3; <time> is
# YYYYMMDDTHHMMSSZ. Nothing else may be on the branch or in DIR: a symbolic link, a submodule, any file that is
# not a regular file or a name outside the layout, a run that does not parse or says no recorded time, a run
# recorded in the future (more than a day ahead: retention by time would keep it forever), and on the branch a
# verdict or gates file that is not a JSON object, are refused (one line, exit 2) before anything is written.
#
# Usage:
#   ci/history.sh fetch DIR [--repo=PATH] [--remote=NAME] [--branch=NAME]
#       DIR becomes a worktree of the repository (default: the one the current directory is in) holding the
#       branch's commit, fetched from the remote (default origin; push keeps the branch at one commit, so a fetch
#       is of the kept runs alone, and no shallow fetch is needed, which would make the repository shallow); a
#       branch not there yet starts empty. A DIR fetched before
#       is brought up to date, losing what was not pushed.
#   ci/history.sh add DIR RUN.json [VERDICT.json]
#       files a run (and its verdict) under DIR/<model>/<preset>/ (named by its own name where that is
#       nightly-<time>.json, else by the time it was recorded) and learns that directory's gates again.
#   ci/history.sh push DIR [--keep=N] [--message=TEXT] [--keep-gates]
#       keeps the N runs of each model and preset recorded last (default 60; their verdicts with them; the time
#       is the run's own, context.cudabench.started_utc or else context.date, never its file name), learns the
#       gates of each directory whose runs changed again, and pushes the store as the branch's one commit (no
#       parent, so what retention removed is in no commit: the branch's size is bounded by --keep), in place of the
#       commit it was fetched at. Another runner's push in between is taken in, this one's files put on top of it,
#       the gates learned again from the runs of both, and the push tried again after a random wait that grows
#       with each try (10 tries). --keep-gates: no gates learned again, those of the branch and this store kept.
# Gates are learned with RUN_BENCH gates (default: the run_bench beside ci/; RUN_BENCH set empty: not learned);
# a failure to learn them is said and leaves the old ones. Where the store keeps a file, and which names its layout
# holds, are asked of RUN_BENCH store (set empty: the default).
# Exit status: 0 done (push: also when there was nothing to push), 2 usage or input error, 1 git failed (said).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/defaults.sh"
die() { echo "ci/history.sh: $*" >&2; exit 2; }
author=(-c user.name="cudabench-history" -c user.email="cudabench-history@users.noreply.github.com" -c commit.gpgsign=false)
tries=10
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
  # shellcheck disable=SC1090  # written by fetch: remote=, branch=, base=, lease=
  . "$(state_file)"
  lease=${lease-$base}
}

# bench: the runner asked where the store keeps a file (RUN_BENCH store; RUN_BENCH unset or empty: the default).
bench() { if [ -n "${RUN_BENCH:-}" ]; then echo "$RUN_BENCH"; else cb_runner report; fi; }

# placed DIR [TEST...]: the place (RUN_BENCH store place: KIND FOLDER STAMP) of each file under DIR but its .git that
# passes find's TESTs, one a line.
placed() {
  local at=$1 b
  shift
  b=$(bench) || exit 2
  (cd "$at" && find . -path ./.git -prune -o -type f "$@" -printf '%P\0') | "$b" store place -
}

# store WHAT [ARGS]: the store's rules, each a refusal in one line and exit 2 naming the first entry that breaks them.
#   tree REPO REV  every entry of REV's tree (in REPO) a regular file named as the layout says
#   folder         every entry of DIR (but its .git) a directory or regular file named so, each run with a
#                  recorded time
#   run FILE       FILE a run with a recorded time, printed as <time>
#   retain N       the folder checked, then the N runs of each <model>/<preset> recorded last kept, the rest and
#                  the verdicts of the rest removed
store() {
  local b
  b=$(bench) || exit 2
  python3 - "$b" "$dir" "$@" <<'PY'
import json, os, re, subprocess, sys
from datetime import datetime, timedelta, timezone

bench, root, what, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
FILES, DIRS = ("run", "verdict", "learned"), ("model", "folder", "runs")


def places(paths):
    """What each path (under the store's top) is in its layout, as RUN_BENCH store place says: (kind, folder, stamp),
    or ("outside", the layout, "")."""
    if not paths:
        return []
    answer = subprocess.run([bench, "store", "place", "-"], input=b"".join(os.fsencode(p) + b"\0" for p in paths),
                            stdout=subprocess.PIPE)
    lines = answer.stdout.decode("utf-8", "replace").splitlines()
    if answer.returncode != 0 or len(lines) != len(paths):
        print("ci/history.sh: %s store place did not say where the store's files go" % bench, file=sys.stderr)
        sys.exit(2)
    found = []
    for line in lines:
        kind, rest = line.split(" ", 1)
        found.append((kind, rest, "") if kind == "outside" else tuple([kind] + rest.split(" ")))
    return found


def outside(place):
    return "a name outside its layout (%s)" % place[1]


def refuse(path, why):
    print("ci/history.sh: the history store holds %s, %s: refused, nothing written" % (ascii(path)[1:-1], why), file=sys.stderr)
    sys.exit(2)


NO_TIME = "a run that says no time it was recorded (context.cudabench.started_utc or context.date)"
SKEW = timedelta(days=1)  # a runner's clock ahead of this one's by up to a day is not the future


def recorded(text):
    """When the run in text (bytes) was recorded, in UTC, as gates and trend order runs (context.cudabench.started_utc,
    else context.date); None where it says no time."""
    try:
        context = json.loads(text)["context"]
        when = datetime.fromisoformat(re.sub(r"Z$", "+00:00", (context.get("cudabench") or {}).get("started_utc") or context["date"]))
        return when.astimezone(timezone.utc) if when.tzinfo else when.replace(tzinfo=timezone.utc)
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError, RecursionError, UnicodeDecodeError):
        return None


def unkept(text):
    """Why the run in text (bytes) cannot be kept ("" where it can): it does not parse, says no time, or a time in
    the future, which retention by time would keep forever."""
    if not parses(text):
        return "a run that does not parse (not a JSON object)"
    when = recorded(text)
    if when is None:
        return NO_TIME
    if when > datetime.now(timezone.utc) + SKEW:
        return "a run recorded in the future (%s)" % when.strftime("%Y-%m-%dT%H:%M:%SZ")
    return ""


def read(path):
    with open(path, "rb") as f:
        return f.read()


def tree(repo, rev):
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "-z", "--full-tree", rev], stdout=subprocess.PIPE)
    if listing.returncode != 0:
        print("ci/history.sh: cannot read the tree of %s" % rev, file=sys.stderr)
        sys.exit(1)
    entries = [entry.split(b"\t", 1) for entry in filter(None, listing.stdout.split(b"\0"))]
    paths = [os.fsdecode(path) for _, path in entries]
    for (meta, _), path, place in zip(entries, paths, places(paths)):
        mode = meta.split(b" ")[0]
        if mode not in (b"100644", b"100755"):
            refuse(path, {b"120000": "a symbolic link", b"160000": "a submodule"}.get(mode, "not a regular file") + " on its branch")
        if place[0] not in FILES:
            refuse(path, outside(place) + " on its branch")
        blob = subprocess.run(["git", "-C", repo, "cat-file", "blob", "%s:%s" % (rev, path)], stdout=subprocess.PIPE).stdout
        if place[0] == "run" and unkept(blob):
            refuse(path, unkept(blob) + " on its branch")
        if place[0] != "run" and not parses(blob):
            refuse(path, "a file that is not a JSON object on its branch")


def parses(text):
    try:
        return isinstance(json.loads(text), dict)
    except (ValueError, RecursionError, UnicodeDecodeError):
        return False


def folder():
    """The store's files (paths under root, each with its place) and the recorded time of each run, every entry
    checked."""
    files, pending, times = {}, [""], {}
    while pending:
        rel = pending.pop()
        listed = [e for e in sorted(os.scandir(os.path.join(root, rel)), key=lambda e: e.name) if rel + e.name != ".git"]
        for e, place in zip(listed, places([rel + e.name for e in listed])):
            path = rel + e.name
            if e.is_symlink():
                refuse(path, "a symbolic link")
            is_dir = e.is_dir(follow_symlinks=False)
            if not is_dir and not e.is_file(follow_symlinks=False):
                refuse(path, "neither a regular file nor a directory")
            if place[0] not in (DIRS if is_dir else FILES):
                refuse(path, outside(place))
            if is_dir:
                pending.append(path + "/")
            else:
                files[path] = place
    for path, place in files.items():
        if place[0] == "run":
            text = read(os.path.join(root, path))
            if unkept(text):
                refuse(path, unkept(text))
            times[path] = recorded(text)
    return files, times


def retain(keep):
    files, times = folder()
    kept, by_dir = set(), {}
    for path in times:
        by_dir.setdefault(files[path][1], []).append(path)
    for runs in by_dir.values():
        runs.sort(key=lambda p: (times[p], p))
        kept.update(files[p][1:] for p in runs[-keep:])
        for path in runs[:-keep]:
            os.remove(os.path.join(root, path))
    for path, place in files.items():  # a verdict goes with its run
        if place[0] == "verdict" and place[1:] not in kept:
            os.remove(os.path.join(root, path))


if what == "tree":
    tree(*args)
elif what == "folder":
    folder()
elif what == "retain":
    retain(int(args[0]))
else:
    text = read(args[0])
    if unkept(text):
        print("ci/history.sh: %s is %s" % (ascii(args[0])[1:-1], unkept(text)), file=sys.stderr)
        sys.exit(2)
    when = recorded(text)
    print("%04d%02d%02dT%02d%02d%02dZ" % (when.year, when.month, when.day, when.hour, when.minute, when.second))
PY
}

# hide_credentials: standard input with the user and password of every URL in it (a token) replaced by ***.
hide_credentials() { sed -E 's#(://)[^/@[:space:]]*@#\1***@#g'; }

# git_failed REPO REMOTE WHAT LOG: what failed and at which URL, git's whole message (credentials hidden) and what
# to check; exit 1.
git_failed() {
  local url access=write
  url=$(git -C "$1" remote get-url "$2" 2>/dev/null || echo "$2")
  case $3 in *fetch*) access=read ;; esac
  {
    echo "ci/history.sh: $3 ($2: $(printf '%s' "$url" | hide_credentials)); git said:"
    hide_credentials <"$4" | sed 's/^/  /'
    echo "  check: the remote's URL (git remote get-url $2); that the job's token may $access the repository (GitHub"
    echo "  Actions: permissions: contents: write, and actions/checkout's persist-credentials left on); that the branch"
    echo "  is not protected against this push (a history branch is replaced by one commit: force pushes must be allowed)"
  } >&2
  exit 1
}

# fetch_tip REPO REMOTE BRANCH: the remote branch into refs/cudabench-history/tip (with its history: a shallow
# fetch would make REPO shallow); 1 when absent.
fetch_tip() {
  local err
  git -C "$1" ls-remote --exit-code --heads "$2" "refs/heads/$3" >/dev/null 2>&1 || return 1
  err=$(mktemp) || exit 2
  git -C "$1" fetch -q --no-tags "$2" "+refs/heads/$3:refs/cudabench-history/tip" 2>"$err" || git_failed "$1" "$2" "cannot fetch $3" "$err"
  rm -f "$err"
}

do_fetch() {
  local repo="" remote=origin branch=cudabench-history a tip lease
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
    tip=$(git -C "$repo" rev-parse refs/cudabench-history/tip) lease=$tip
    store tree "$repo" "$tip" || exit
  else  # not there yet: an empty first commit to start it from, and a push that expects no branch
    tip=$(git "${author[@]}" -C "$repo" commit-tree "$(git -C "$repo" hash-object -t tree /dev/null)" -m "cudabench history store") || exit 1
    lease=""
  fi
  if [ -e "$dir" ] && [ -f "$(state_file)" ]; then  # fetched before: brought up to date in place
    git -C "$dir" checkout -q -f --detach "$tip" && git -C "$dir" clean -q -fdx || exit 1
  else
    [ ! -e "$dir" ] || [ -z "$(ls -A "$dir" 2>/dev/null)" ] || die "fetch: $dir exists and is not empty (nor a history store fetched before)"
    rmdir "$dir" 2>/dev/null
    git -C "$repo" worktree prune
    git -C "$repo" worktree add -q --detach "$dir" "$tip" || exit 1
  fi
  printf 'remote=%q\nbranch=%q\nbase=%q\nlease=%q\n' "$remote" "$branch" "$tip" "$lease" >"$(state_file)"
  echo "history: $branch of $remote in $dir ($(placed "$dir" | grep -c '^run ') run(s))"
}

# learn_gates AT: AT's gates learned again from its runs (see the header for RUN_BENCH).
learn_gates() {
  local at=$1 bench runs learned said
  if [ -n "${RUN_BENCH+set}" ]; then bench=$RUN_BENCH; else bench=$(cb_runner report) || return 0; fi
  [ -n "$bench" ] || return 0
  runs=$("$bench" store runs "$at") && learned=$("$bench" store learned "$at") || return 0
  if "$bench" gates "$runs" --out "$learned.new" >"$at/gates.log" 2>&1; then
    said=$(tail -n 1 "$at/gates.log")
    mv "$learned.new" "$learned" && echo "${said//"$learned.new"/"$learned"}"
  else
    echo "history: the gates of ${at#"$dir"/} were not learned again: $(tail -n 1 "$at/gates.log")" >&2
    rm -f "$learned.new"
  fi
  rm -f "$at/gates.log"
}

do_add() {
  [ $# -ge 1 ] && [ $# -le 2 ] || die "add: usage: ci/history.sh add DIR RUN.json [VERDICT.json]"
  read_state
  local run=$1 verdict=${2:-} bench at runs name when
  [ -f "$run" ] || die "add: $run: no such file"
  [ -z "$verdict" ] || [ -f "$verdict" ] || die "add: $verdict: no such file"
  store folder || exit
  bench=$(bench) || exit 2
  at=$("$bench" store history "$run" --history-dir="$dir") || exit 2
  when=$(store run "$run") || exit  # a time, not in the future
  name=$(basename "$run")
  [[ "$name" =~ ^nightly-[0-9]{8}T[0-9]{6}Z\.json$ ]] || name="nightly-$when.json"
  mkdir -p "$at" && runs=$("$bench" store runs "$at") && mkdir -p "$runs" || exit 2
  cp "$run" "$runs/$name.tmp" && mv "$runs/$name.tmp" "$runs/$name" || exit 2
  if [ -n "$verdict" ]; then
    local v="verdict-${name#nightly-}"
    cp "$verdict" "$at/$v.tmp" && mv "$at/$v.tmp" "$at/$v" || exit 2
  fi
  echo "history: ${runs#"$dir"/}/$name${verdict:+ and its verdict}"
  learn_gates "$at"
}

# settle MESSAGE: retention, the gates of each directory whose runs differ from the base learned again (unless
# --keep-gates), and everything in DIR committed as the branch's only commit; 1 when nothing changed.
settle() {
  local at
  store retain "$keep" || exit
  git -C "$dir" add -A . || exit 1
  if [ "$learn" = 1 ]; then
    while IFS= read -r at; do
      learn_gates "$dir/$at"
    done < <(git -C "$dir" diff -z --cached --name-only "$base" | "$(bench)" store place - | awk '$1 == "run" { print $2 }' | sort -u)
  fi
  git -C "$dir" add -A . || exit 1
  git -C "$dir" diff --cached --quiet && return 1
  # One commit with no parent: the branch holds the store as it is now, and what retention removed is in no commit.
  local tree commit
  tree=$(git -C "$dir" write-tree) && commit=$(git "${author[@]}" -C "$dir" commit-tree "$tree" -m "$1") \
    && git -C "$dir" update-ref --no-deref HEAD "$commit" || exit 1
}

# backoff TRY: a random wait before try TRY+1, between half and all of 0.25 s x 2^(TRY-1), at most 8 s.
backoff() {
  local cap=$((250 << ($1 - 1))) ms
  [ "$cap" -le 8000 ] || cap=8000
  ms=$((cap / 2 + RANDOM % (cap / 2 + 1)))
  sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
}

# rebase: the remote branch's newest commit checked out (its tree checked first), this push's changes since the
# last base put back on top of it.
rebase() {
  local saved status path
  saved=$(mktemp -d) || exit 2
  git -C "$dir" diff --name-status --no-renames "$base" HEAD >"$saved/changes" || exit 1
  while IFS=$'\t' read -r status path; do
    [ "$status" = D ] && continue
    mkdir -p "$saved/files/$(dirname "$path")" && cp "$dir/$path" "$saved/files/$path" || exit 2
  done <"$saved/changes"
  fetch_tip "$dir" "$remote" "$branch" || git_failed "$dir" "$remote" "push to $branch refused, and the branch is gone" "$log"
  store tree "$dir" refs/cudabench-history/tip || exit
  base=$(git -C "$dir" rev-parse refs/cudabench-history/tip) lease=$base
  git -C "$dir" checkout -q -f --detach "$base" && git -C "$dir" clean -q -fdx || exit 1
  while IFS=$'\t' read -r status path; do
    if [ "$status" = D ]; then rm -f "$dir/$path"; else mkdir -p "$dir/$(dirname "$path")" && cp "$saved/files/$path" "$dir/$path" || exit 2; fi
  done <"$saved/changes"
  rm -rf "$saved"
}

do_push() {
  local keep=60 message="" learn=1 a attempt
  for a in "$@"; do
    case "$a" in
      --keep-gates) learn=0 ;;
      --keep=*) keep=${a#--keep=}; [[ "$keep" =~ ^[1-9][0-9]{0,5}$ ]] || die "push: --keep=$keep is not a count of runs (1 or more)" ;;
      --message=*) message=${a#--message=} ;;
      *) die "push: unknown argument '$a'" ;;
    esac
  done
  read_state
  store folder || exit
  log=$(mktemp) || exit 2
  trap 'rm -f "$log"' EXIT
  if [ -z "$message" ]; then  # the models and presets this push adds runs to
    message="History: $(placed "$dir" -newer "$(state_file)" | awk '$1 == "run" { print $2 }' | sort -u | paste -sd' ')"
    [ "$message" != "History: " ] || message="History: update"
  fi
  if ! settle "$message" && [ "$(git -C "$dir" rev-parse HEAD)" = "$base" ]; then
    echo "history: nothing new to push"; return 0
  fi
  for ((attempt = 1; ; attempt++)); do
    # It replaces the branch only where the branch is still the commit this store was fetched from (or rebased
    # onto): another runner's push in between is refused here ("stale info") and taken in below.
    if git -C "$dir" push -q --force-with-lease="refs/heads/$branch:$lease" "$remote" "HEAD:refs/heads/$branch" 2>"$log"; then
      base=$(git -C "$dir" rev-parse HEAD) lease=$base
      printf 'remote=%q\nbranch=%q\nbase=%q\nlease=%q\n' "$remote" "$branch" "$base" "$lease" >"$(state_file)"
      echo "history: pushed to $branch of $remote (keeping $keep run(s) a model and preset)"
      return 0
    fi
    # Another runner's push: the branch moved on since the fetch ("! [rejected] ... (stale info)"), or the remote
    # was updating it at that moment (its ref locked or changed under it). A hook's refusal, a protected branch or
    # a token that may not write is this push's failure.
    grep -qE '! \[rejected\]|\[remote rejected\].*(cannot lock ref|failed to update ref|incorrect old value)' "$log" \
      || git_failed "$dir" "$remote" "cannot push to $branch" "$log"
    [ "$attempt" -lt "$tries" ] || break
    # Another runner pushed first: after a wait, its commit taken in and this push's changes put on top of it.
    backoff "$attempt"
    rebase
    settle "$message" || { echo "history: nothing new to push after taking in the other push"; return 0; }
    echo "history: $branch moved on (another push); trying again ($attempt)" >&2
  done
  git_failed "$dir" "$remote" "could not push to $branch after $tries tries (other runners' pushes in between)" "$log"
}

case "$cmd" in
  fetch) do_fetch "$@" ;;
  add) do_add "$@" ;;
  push) do_push "$@" ;;
  *) die "unknown command '$cmd' (fetch, add or push)" ;;
esac

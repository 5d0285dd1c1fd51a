#!/usr/bin/env bash
# The nightly job, as the nightly workflow and SLURM script run it (and as a person can run it locally):
# the nightly preset, compared against the stored baseline for this GPU model, with every report written,
# then the trend over every night kept in the results directory.
# Usage: ci/nightly.sh [RESULTS_DIR]    (default: $CUDABENCH_RESULTS_DIR, else results/)
# (the layout of analysis/run_store.hpp; its folders, newest run, baseline and gates asked of RUN_BENCH store)
#   RESULTS_DIR/runs/nightly-<time>.json   each night's results (what `trend` reads); latest.json links the newest
#   RESULTS_DIR/report-<time>.md|.html, verdict-<time>.json, trend.html
# CUDABENCH_BASELINE_DIR: where baselines are stored (default: reports/baselines of this checkout; installed with the
# package, it must be set, and the results go to results/ of the current directory).
# RUN_BENCH names the runner (default: this checkout's run_bench; a project's own binary built with
# cudabench::main also works, with cudabench-report for compare/report/trend). CUDABENCH_NIGHTLY_ARGS: options added
# to the run after --preset=nightly (a --preset there wins), e.g. "--filter=cpu --preset=quick" to try the jobs quickly.
# CUDABENCH_PRESET: the preset (default nightly); CUDABENCH_FILTER: a --filter pattern, passed as one argument.
# CUDABENCH_COMPARE_ARGS: options added to compare, confirm and the bisect (e.g. --threshold=PCT), so that the bisect
# looks for what the comparison flagged (the energy gate's and --allow-preset-mismatch are compare's alone: left out
# of the bisect, which says so in its log); CUDABENCH_GATES: a gates file for compare and the bisect (one argument,
# whatever its characters; default those stored beside the baseline).
# CUDABENCH_NIGHT_FILES=DIR: on exit, this night's files are also copied there in the same layout (latest.json a
# copy, not a link), e.g. for an upload that holds that night only.
# CUDABENCH_HISTORY_DIR=DIR: a history store fetched with ci/history.sh fetch: the run and its verdict are filed
# there too (ci/history.sh add, which learns the store's gates again), and the trend is over the runs it keeps of
# this GPU model and preset. Once its gates of this model and preset were learned from CUDABENCH_GATES_MIN_RUNS runs
# (default 5) and hold a case, the comparison, confirm and bisect use them (a copy: RESULTS_DIR/gates-<time>.json)
# unless CUDABENCH_GATES names a file.
# When a case regressed and the baseline's revision is an ancestor of HEAD, `run_bench bisect` looks for the
# commit that did it between the two, over the regressed cases, within CUDABENCH_BISECT_BUDGET seconds (default
# 3600; 0: no bisect); CUDABENCH_BISECT_ARGS adds options (a project's own --build=CMD --binary=PATH). Its
# outcome goes to the job summary and the end of the Markdown report; RESULTS_DIR/bisect-<time>.json|.log keep it.
# When the baseline is of another machine (compare exits 3: unconfirmed flags), `run_bench confirm` builds the
# baseline's revision and HEAD (CUDABENCH_BISECT_ARGS: a project's own --build/--binary) and measures the flagged
# cases in alternating processes here: confirmed flags stand, the others are the machine's. With --gate-energy in
# CUDABENCH_COMPARE_ARGS, unconfirmed energy flags (another machine's, or one window a side beyond the gate) are
# confirmed too, in 5 processes a revision at least (what an energy flag's rank test needs at alpha 0.01). Its log:
# RESULTS_DIR/confirm-<time>.log; the report says the time it took.
# CUDABENCH_NO_BASELINE=candidate: where no baseline is stored, the run passes as the candidate
# (RESULTS_DIR/baseline-candidate-<time>.json) instead of failing with status 2.
# Exit status: 0 no regression; 1 a regression (or a case failed its check); 2 usage or input error, or no
# baseline stored for this GPU model (the results and the speedup report are still written); 3 unconfirmed flags
# that could not be confirmed here, or cases that could not be judged because they were measured throttled. The
# bisect never changes it.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/ci/defaults.sh"
results_default=$root/results
cb_installed && results_default=$PWD/results  # never into the package's prefix
dir="${1:-${CUDABENCH_RESULTS_DIR:-$results_default}}"
run_bench=$(cb_runner) || exit 2
baselines=$(cb_baselines) || exit 2
mkdir -p "$dir" && night_runs=$("$run_bench" store runs "$dir") && mkdir -p "$night_runs" || exit 2
stamp=$(date -u +%Y%m%dT%H%M%SZ)
json="$night_runs/nightly-$stamp.json"
# The repository a regression is bisected in: this checkout, or (scripts installed with the package) the one the
# job runs in.
repo=$(git -C "$root" rev-parse --show-toplevel 2>/dev/null || git rev-parse --show-toplevel 2>/dev/null || echo "$root")
filter=()
[ -n "${CUDABENCH_FILTER:-}" ] && filter=(--filter="$CUDABENCH_FILTER")
# keep_night_files: copies this night's files (those named with $stamp, the trend) to $CUDABENCH_NIGHT_FILES.
keep_night_files() {
  local to=${CUDABENCH_NIGHT_FILES:-} f to_runs
  [ -n "$to" ] || return 0
  mkdir -p "$to" && to_runs=$("$run_bench" store runs "$to") && mkdir -p "$to_runs" || return 0
  [ -f "$json" ] && cp "$json" "$to_runs/" && cp "$json" "$("$run_bench" store latest "$to")"
  for f in "$dir"/*-"$stamp".* "$dir/trend.html" "$dir/trend.txt"; do
    [ -f "$f" ] && cp "$f" "$to/"
  done
  return 0
}
trap keep_night_files EXIT
summary() { if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi; }
# bisect_regressions BASELINE VERDICT REPORT_MD: the commit between the baseline's revision and HEAD that made
# the regressed cases slower, said in the job summary and appended to the report. Whatever happens, it
# returns 0: the nightly's status is the comparison's.
bisect_regressions() {
  local budget=${CUDABENCH_BISECT_BUDGET:-3600} good filter out="$dir/bisect-$stamp" section gates_args=() beside
  case $budget in ''|*[!0-9]*) echo "nightly: CUDABENCH_BISECT_BUDGET=$budget is not a number of seconds; no bisect" >&2; return 0 ;; esac
  [ "$budget" -gt 0 ] || return 0
  filter=$(python3 "$root/ci/nightly_bisect.py" filter "$2") || return 0
  if ! good=$(python3 "$root/ci/nightly_bisect.py" revision "$1"); then
    echo "nightly: the baseline records no git revision; no bisect" >&2; return 0
  fi
  if ! git -C "$repo" merge-base --is-ancestor "$good" HEAD 2>/dev/null; then
    echo "nightly: the baseline's revision ${good:0:12} is not an ancestor of HEAD; no bisect" >&2; return 0
  fi
  # The gates the comparison used (else those stored beside the baseline), so bisect flags what the nightly flagged.
  if [ -n "$gates" ]; then gates_args=(--gates="$gates")
  elif beside=$("$run_bench" store gates "$1") && [ -f "$beside" ]; then gates_args=(--gates="$beside"); fi
  echo "nightly: bisecting ${good:0:12}..HEAD over $filter (budget ${budget}s; log: $out.log)" >&2
  local settings=() left=() word skip_next=0
  : >"$out.log"
  # The comparison's options, so that bisect flags what compare flagged; those of the energy gate and the preset
  # check are compare's alone (bisect looks for the commit of a time regression, both ends measured by one command).
  # shellcheck disable=SC2086  # CUDABENCH_COMPARE_ARGS is a list of options
  for word in ${CUDABENCH_COMPARE_ARGS:-}; do
    if [ "$skip_next" = 1 ]; then left+=("$word"); skip_next=0; continue; fi
    case $word in
      --energy-threshold) left+=("$word"); skip_next=1 ;;
      --energy-threshold=*|--gate-energy|--allow-preset-mismatch) left+=("$word") ;;
      *) settings+=("$word") ;;
    esac
  done
  [ ${#left[@]} -eq 0 ] || echo "nightly: left out of the bisect (compare's alone): ${left[*]}" | tee -a "$out.log" >&2
  # --time-limit stops before a revision is tested; the hard limit also bounds the ends and the last step.
  # shellcheck disable=SC2086  # CUDABENCH_BISECT_ARGS is a list of options
  (cd "$repo" && timeout --kill-after=60 "$((2 * budget + 600))" "$run_bench" bisect --good="$good" --bad=HEAD --filter="$filter" \
      --time-limit="$budget" --json "$out.json" "${gates_args[@]}" ${settings[@]+"${settings[@]}"} ${CUDABENCH_BISECT_ARGS:-}) >>"$out.log" 2>&1
  if [ -f "$out.json" ] && section=$(python3 "$root/ci/nightly_bisect.py" markdown "$out.json"); then
    printf '\n%s\n' "$section" | summary
    [ -f "$3" ] && printf '\n%s\n' "$section" >>"$3"
  else
    printf '\n## Bisect: which commit\n\nThe bisect between %s and HEAD ended without an answer; its log: %s.\n' "\`${good:0:12}\`" "\`$out.log\`" | summary
  fi
  return 0
}
# shellcheck disable=SC2086  # CUDABENCH_NIGHTLY_ARGS is a list of options
"$run_bench" --preset="${CUDABENCH_PRESET:-nightly}" "${filter[@]}" ${CUDABENCH_NIGHTLY_ARGS:-} --json "$json" || run_status=$?
run_status=${run_status:-0}
[ -f "$json" ] || exit "$run_status"   # refused before running (usage or input error)
ln -sfn "${json#"$dir"/}" "$("$run_bench" store latest "$dir")"
baseline=$("$run_bench" store baseline "$json" --baseline-dir="$baselines") || exit 2
status=$run_status
# The gates: CUDABENCH_GATES; else, once the history store keeps enough runs of this model and preset, the gates it
# learned from them (refreshed by each run it files); else those stored beside the baseline (compare's default).
gates=${CUDABENCH_GATES:-}
if [ -z "$gates" ] && [ -n "${CUDABENCH_HISTORY_DIR:-}" ] \
   && kept=$("$run_bench" store history "$json" --history-dir="$CUDABENCH_HISTORY_DIR" 2>/dev/null) \
   && learned=$("$run_bench" store learned "$kept" 2>/dev/null) && [ -f "$learned" ] \
   && python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if len(j["runs"]) >= int(sys.argv[2]) and j["cases"] else 1)' \
        "$learned" "${CUDABENCH_GATES_MIN_RUNS:-5}" 2>/dev/null; then
  cp "$learned" "$dir/gates-$stamp.json" && gates="$dir/gates-$stamp.json"
  echo "nightly: comparing with the gates the history store learned from its runs ($gates)" >&2
fi
if [ -f "$baseline" ]; then
  # shellcheck disable=SC2086  # CUDABENCH_COMPARE_ARGS is a list of options
  "$run_bench" compare "$baseline" "$json" ${gates:+"--gates=$gates"} ${CUDABENCH_COMPARE_ARGS:-} --md "$dir/report-$stamp.md" --html "$dir/report-$stamp.html" --verdict "$dir/verdict-$stamp.json"
  cmp=$?
  # Exit 3 is also a comparison that could not judge cases measured throttled: said, never confirmed away.
  # Unconfirmed flags are time's, or energy's under --gate-energy (a change of too few windows included).
  if [ "$cmp" = 3 ] && ! python3 -c 'import json,sys; j = json.load(open(sys.argv[1])); sys.exit(0 if j["counts"].get("unconfirmed", 0) or j.get("energy", {}).get("counts", {}).get("energy unconfirmed", 0) else 1)' \
       "$dir/verdict-$stamp.json" 2>/dev/null; then
    echo "nightly: some cases could not be judged (measured throttled; see the report); exit 3" >&2
  elif [ "$cmp" = 3 ]; then
    # Some flags are unconfirmed (another machine's baseline, or energy of too few windows): both revisions
    # measured here settle them (the same outputs, rewritten), and only a confirmed regression fails the night.
    echo "nightly: some flags are unconfirmed (the baseline of another machine, or energy of too few windows); confirming them on this one" >&2
    started=$SECONDS
    # shellcheck disable=SC2086  # CUDABENCH_COMPARE_ARGS and CUDABENCH_BISECT_ARGS are lists of options
    (cd "$repo" && "$run_bench" confirm "$baseline" "$json" ${gates:+"--gates=$gates"} ${CUDABENCH_COMPARE_ARGS:-} ${CUDABENCH_BISECT_ARGS:-} --md "$dir/report-$stamp.md" \
        --html "$dir/report-$stamp.html" --verdict "$dir/verdict-$stamp.json") >"$dir/confirm-$stamp.log" 2>&1
    cmp=$?
    echo "nightly: confirmation took $((SECONDS - started)) s (exit $cmp; log: $dir/confirm-$stamp.log)" >&2
    printf '\nConfirmation on this machine took %s s.\n' "$((SECONDS - started))" >>"$dir/report-$stamp.md"
  fi
  [ "$cmp" -gt "$status" ] && status=$cmp
  [ -f "$dir/report-$stamp.md" ] && summary <"$dir/report-$stamp.md"
  [ "$cmp" = 1 ] && [ -f "$dir/verdict-$stamp.json" ] && bisect_regressions "$baseline" "$dir/verdict-$stamp.json" "$dir/report-$stamp.md"
else
  preset=${CUDABENCH_PRESET:-nightly} where=${baseline#"$repo"/}
  if [ "${CUDABENCH_NO_BASELINE:-fail}" = candidate ]; then
    cp "$json" "$dir/baseline-candidate-$stamp.json" || exit 2
    msg="no baseline is stored for this GPU model and the $preset preset (\`$where\`), so nothing was compared: this run passes as its candidate (\`baseline-candidate-$stamp.json\`)."
    title="a baseline candidate"
  else
    # The command that stores it, as it is named where this runs: ci/baseline.sh of a checkout, or the installed one
    store="bash ci/baseline.sh"
    [ "$root" = "$repo" ] || store="CUDABENCH_BASELINE_DIR=$(printf %q "$baselines") bash $(printf %q "$root/ci/baseline.sh")"
    how="\`$store --preset=$preset $(printf %q "$json")\`"
    [ -f "$repo/.github/workflows/baseline.yml" ] && how="the baseline workflow (Actions > baseline > Run workflow) or $how"
    msg="no baseline is stored for this GPU model and the $preset preset ($where), so nothing was compared. Store one with $how, and commit it."
    title="no baseline"
    status=2
  fi
  echo "nightly: $msg" >&2
  "$run_bench" report "$json" --md "$dir/report-$stamp.md" --html "$dir/report-$stamp.html" >/dev/null
  printf '## Nightly benchmarks: %s\n\n%s\n\n' "$title" "$msg" | summary
fi
runs=$night_runs
if [ -n "${CUDABENCH_HISTORY_DIR:-}" ]; then  # filed in the store too; the trend over what it keeps
  verdict=()
  [ -f "$dir/verdict-$stamp.json" ] && verdict=("$dir/verdict-$stamp.json")
  if RUN_BENCH=$run_bench bash "$root/ci/history.sh" add "$CUDABENCH_HISTORY_DIR" "$json" ${verdict[@]+"${verdict[@]}"} >&2 \
     && kept=$("$run_bench" store runs "$json" --history-dir="$CUDABENCH_HISTORY_DIR"); then
    runs=$kept  # <store>/<model>/<preset>/runs
  fi
fi
nights=$(find "$runs" -maxdepth 1 -name 'nightly-*.json' | wc -l)
if [ "$nights" -ge 2 ]; then
  if "$run_bench" trend "$runs" --html "$dir/trend.html" >"$dir/trend.txt"; then
    # in a fence longer than any run of backticks in the trend (its case names come from the results)
    trend=$(tail -n 40 "$dir/trend.txt")
    fence=$(printf '%s\n' "$trend" | grep -o '`*' | awk '{ if (length > m) m = length } END { n = m < 3 ? 3 : m + 1; while (n--) printf "`" }')
    printf '\n## Trend over %s nights\n\n%s\n%s\n%s\n' "$nights" "$fence" "$trend" "$fence" | summary
  fi
fi
exit "$status"

#!/usr/bin/env bash
# Stores a baseline: runs the preset with --save-baseline, or files an existing result (e.g. a nightly
# artifact) under BASELINE_DIR/<gpu-model>/<preset>.json. With --history or --history-store, also learns the gates
# from those runs (run_bench gates) and stores them beside it as <gpu-model>/<preset>.gates.json; without, a gates
# file already there is kept.
# Usage: ci/baseline.sh [--preset=NAME] [--history=DIR|RUN.json]... [--history-store=DIR] [RESULT.json]
#   --preset: the preset to run, default nightly; with RESULT.json, the preset it must be of (a result of another
#   preset is refused; without --preset it is filed under its own preset).
#   --history: a directory of runs (its *.json, as trend reads them, e.g. the nightly results kept on the
#   runner) or one result file; repeat it for several. The runs must be of the baseline's GPU model and preset.
#   --history-store: a history store fetched by ci/history.sh fetch: the runs of the baseline's GPU model and
#   preset kept there (<model>/<preset>/runs); where it holds none, the gates are not learned and it says so.
# RUN_BENCH names the runner (default: this checkout's run_bench, as in ci/nightly.sh; installed, the package's
# cudabench-report where a result is given); CUDABENCH_BASELINE_DIR where baselines are stored (default:
# reports/baselines of this checkout; installed, it must be set).
# Exit status: 0 stored, 2 usage or input error (nothing stored); a run's own failure status otherwise.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/defaults.sh"
preset="" from="" history=() store=""
for a in "$@"; do
  case "$a" in
    --preset=*) preset=${a#--preset=} ;;
    --history=*) history+=("${a#--history=}") ;;
    --history-store=*) store=${a#--history-store=} ;;
    -*) echo "ci/baseline.sh: unknown option '$a'" >&2; exit 2 ;;
    *) [ -z "$from" ] || { echo "ci/baseline.sh: one result file at most ('$from' and '$a')" >&2; exit 2; }; from=$a ;;
  esac
done
case "$preset" in *[!A-Za-z0-9_.-]*) echo "ci/baseline.sh: --preset=$preset is not a preset name" >&2; exit 2 ;; esac
for h in ${history[@]+"${history[@]}"} ${store:+"$store"}; do
  [ -e "$h" ] || { echo "ci/baseline.sh: $h: no such file or directory" >&2; exit 2; }
done
baselines=$(cb_baselines) || exit 2
run_bench=$(cb_runner ${from:+report}) || exit 2
if [ -z "$from" ] && [ ${#history[@]} -eq 0 ] && [ -z "$store" ]; then
  exec "$run_bench" --preset="${preset:-nightly}" --save-baseline --baseline-dir="$baselines"
fi
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
# Learns the gates of the history into $work, refused unless of the GPU model and preset of result $1.
learn_gates() {
  "$run_bench" gates "${history[@]}" --out "$work/learned-gates.json" || return 2
  python3 - "$1" "$work/learned-gates.json" <<'PY' || return 2
import json, sys
ctx = json.load(open(sys.argv[1]))["context"]
gates = json.load(open(sys.argv[2]))
model = (ctx.get("device") or {}).get("name") or "no GPU"
preset = ctx.get("cudabench", {}).get("preset", "")
if (gates["device"], gates["preset"]) != (model, preset):
    sys.exit("ci/baseline.sh: the history is of %s / %s and the baseline of %s / %s: gates are stored beside a "
             "baseline of their GPU model and preset only" % (gates["device"], gates["preset"], model, preset))
PY
}
if [ -z "$from" ]; then  # a run with history: stored only once its gates are learned
  "$run_bench" --preset="${preset:-nightly}" --json="$work/run.json" || exit $?
  from="$work/run.json"
fi
[ -f "$from" ] || { echo "ci/baseline.sh: $from: no such file" >&2; exit 2; }
"$run_bench" compare "$from" "$from" --gates none >/dev/null || { echo "ci/baseline.sh: $from: not a usable result" >&2; exit 2; }
dest=$("$run_bench" store baseline "$from" --baseline-dir="$baselines" ${preset:+--of-preset="$preset"}) || exit 2
if [ -n "$store" ]; then  # the store's runs of this model and preset: <store>/<model>/<preset>/runs
  kept=$("$run_bench" store runs "$from" --history-dir="$store") || exit 2
  if compgen -G "$kept/*.json" >/dev/null; then
    history+=("$kept")
  else
    echo "ci/baseline.sh: the history store $store keeps no runs of this GPU model and preset (${kept#"$store"/}); gates not learned from it" >&2
  fi
fi
if [ ${#history[@]} -gt 0 ]; then learn_gates "$from" || exit 2; fi  # nothing stored
mkdir -p "$(dirname "$dest")"
cp "$from" "$dest.tmp.$$" && mv "$dest.tmp.$$" "$dest"
echo "baseline saved: $dest"
[ ${#history[@]} -eq 0 ] && exit 0
gates=$("$run_bench" store gates "$dest") || exit 2
cp "$work/learned-gates.json" "$gates.tmp.$$" && mv "$gates.tmp.$$" "$gates" && echo "gates saved: $gates"

#!/usr/bin/env bash
# The fleet's job scripts without a cluster: ci/slurm/fleet.sh's reading of its configuration and the sbatch calls
# it makes (a stand-in sbatch records them), ci/slurm/fleet_report.sbatch's worst status (a stand-in scontrol),
# ci/fleet_summary.sh, and ci/nightly.sh's CUDABENCH_NIGHTLY_ARGS and CUDABENCH_NIGHT_FILES (a stand-in runner).
# tests/slurm_test.sh runs the same scripts on real SLURM daemons.
# Usage: tests/cli_fleet_jobs_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report" fx="$src/tests/fixtures"
. "$src/tests/cli_lib.sh"

# Stand-ins on PATH: sbatch records each call (arguments, then CUDABENCH_RESULTS_DIR and CUDABENCH_FLEET_MODEL)
# and answers ids 101, 102, ...; with --wait it exits with $WAIT_STATUS. scontrol answers from $tmp/jobs/ID.
mkdir -p "$tmp/bin" "$tmp/jobs"
cat >"$tmp/bin/sbatch" <<'EOF'
#!/usr/bin/env bash
n=$(( $(ls "$SBATCH_LOG" 2>/dev/null | wc -l) + 101 ))
mkdir -p "$SBATCH_LOG"
{ printf '%s\n' "$@"; echo "RESULTS=${CUDABENCH_RESULTS_DIR:-}"; echo "MODEL=${CUDABENCH_FLEET_MODEL:-}"; } >"$SBATCH_LOG/$n"
[ "$n" = "${REFUSE_AT:-0}" ] && { echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2; exit 1; }
echo "$n;cluster"
for a in "$@"; do [ "$a" = --wait ] && exit "${WAIT_STATUS:-0}"; done
exit 0
EOF
cat >"$tmp/bin/scontrol" <<'EOF'
#!/usr/bin/env bash
[ -f "$JOBS/$4" ] || { echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1; }
cat "$JOBS/$4"
EOF
printf '#!/bin/sh\necho "$@" >>"$SBATCH_LOG.cancelled"\n' >"$tmp/bin/scancel"
chmod +x "$tmp/bin/sbatch" "$tmp/bin/scontrol" "$tmp/bin/scancel"
export PATH="$tmp/bin:$PATH" SBATCH_LOG="$tmp/calls" JOBS="$tmp/jobs"
fleet() { rm -rf "$tmp/calls" "$tmp/calls.cancelled"; CUDABENCH_RESULTS_DIR="$tmp/results" run bash "$src/ci/slurm/fleet.sh" "$@"; }

# A bad configuration: one line naming the file and line, exit 2, nothing submitted.
bad_config() {  # bad_config NAME LINE-2-OF-THE-CONFIG MESSAGE-REGEX
  printf 'h100 gpu gres=gpu:h100:1\n%s\n' "$2" >"$tmp/bad.conf"
  local s re=${3//\'/.}; s=$(fleet "$tmp/bad.conf")
  check "fleet.sh: $1: exit 2, one line naming bad.conf:2, nothing submitted" 2 "$s" '[ "$(wc -l <"$tmp/err")" = 1 ]' \
    "grep -Eq \"bad.conf:2: $re\" \"\$tmp/err\"" '[ ! -e "$tmp/calls" ]'
}
bad_config "too few fields" "h200 gpu" "want MODEL PARTITION RESOURCE"
bad_config "a model that is no directory name" "../h200 gpu -" "model '../h200' is not a directory name"
bad_config "the model named fleet" "fleet gpu -" "model 'fleet' is not a directory name"
bad_config "a model listed twice" "h100 gpu2 -" "model 'h100' is listed twice"
bad_config "an unknown resource" "h200 gpu gpus=1" "resource 'gpus=1' is not gres=SPEC, constraint=EXPR or -"
bad_config "an sbatch option that is not --name=value" "h200 gpu - -t 10" "sbatch option '-t' is not --name=value"
bad_config "an sbatch option moving the job's log" "h200 gpu - --output=/tmp/x.out" "sbatch option '--output=/tmp/x.out' is refused"
bad_config "an sbatch option dropping the environment" "h200 gpu - --export=NONE" "sbatch option '--export=NONE' is refused"
printf '# nothing here\n\n' >"$tmp/empty.conf"
s=$(fleet "$tmp/empty.conf"); check "fleet.sh: a config with no model: exit 2" 2 "$s" 'grep -q "lists no model" "$tmp/err"'
s=$(fleet "$tmp/none.conf"); check "fleet.sh: no such config: exit 2" 2 "$s" 'grep -q "none.conf: no such file" "$tmp/err"'
s=$(fleet --frob "$tmp/none.conf"); check "fleet.sh: an unknown option: exit 2" 2 "$s" 'grep -q "unknown option .--frob." "$tmp/err"'
s=$(fleet --help); check "fleet.sh --help: exit 0, the config's format" 0 "$s" 'grep -q "MODEL PARTITION RESOURCE" "$tmp/out"'

cat >"$tmp/fleet.conf" <<'EOF'
# model  partition  resource          sbatch options
h100     gpu        gres=gpu:h100:1   --time=03:00:00  # the reference
h200     gpu-new    constraint=h200
a100     gpu        -                 --export=ALL,EXTRA=1
EOF
s=$(fleet "$tmp/fleet.conf"); check "fleet.sh: a job per model into its own directory, then the report job after all (afterany)" 0 "$s" \
  '[ "$(ls "$tmp/calls" | wc -l)" = 4 ]' \
  'grep -qx -- "--partition=gpu" "$tmp/calls/101"' 'grep -qx -- "--gres=gpu:h100:1" "$tmp/calls/101"' \
  'grep -qx -- "--time=03:00:00" "$tmp/calls/101"' 'grep -qx "ci/slurm/nightly.sbatch" "$tmp/calls/101"' \
  'grep -qx "RESULTS=$tmp/results/h100" "$tmp/calls/101"' 'grep -qx "MODEL=h100" "$tmp/calls/101"' \
  'grep -qx -- "--output=$tmp/results/h100/slurm-%j.out" "$tmp/calls/101"' \
  'grep -qx -- "--partition=gpu-new" "$tmp/calls/102"' 'grep -qx -- "--constraint=h200" "$tmp/calls/102"' \
  '! grep -q -- "--gres" "$tmp/calls/102"' '! grep -q -- "--gres\|--constraint" "$tmp/calls/103"' \
  'grep -qx -- "--dependency=afterany:101:102:103" "$tmp/calls/104"' 'grep -qx "ci/slurm/fleet_report.sbatch" "$tmp/calls/104"' \
  'tail -n 6 "$tmp/calls/104" | head -n 4 | tr "\n" " " | grep -qx "$tmp/results h100=101 h200=102 a100=103 "' \
  '! grep -qx -- "--wait" "$tmp/calls/104"' 'grep -q "fleet report: job 104" "$tmp/out"' '[ -d "$tmp/results/fleet" ]'
s=$(WAIT_STATUS=1 fleet --wait "$tmp/fleet.conf"); check "fleet.sh --wait: waits on the report job and exits with its status" 1 "$s" \
  'grep -qx -- "--wait" "$tmp/calls/104"' 'grep -qx -- "--dependency=afterany:101:102:103" "$tmp/calls/104"'
s=$(REFUSE_AT=104 fleet --wait "$tmp/fleet.conf"); check "fleet.sh --wait: the report job refused: 2 (not a regression's 1), the models' jobs cancelled" 2 "$s" \
  'grep -q "refused the fleet report job" "$tmp/err"' 'grep -qx "101 102 103" "$tmp/calls.cancelled"'
s=$(REFUSE_AT=102 fleet "$tmp/fleet.conf"); check "fleet.sh: a model's job refused: 2, the jobs already submitted cancelled" 2 "$s" \
  'grep -q "refused the job of h200" "$tmp/err"' 'grep -qx "101" "$tmp/calls.cancelled"' '[ ! -e "$tmp/calls/103" ]'
printf 'h100 gpu gres=gpu:h100:1 --time=03:00:00\r\nh200 gpu-new constraint=h200\r\n' >"$tmp/crlf.conf"
s=$(fleet "$tmp/crlf.conf"); check "fleet.sh: a CONFIG with CRLF line ends: no carriage return reaches sbatch" 0 "$s" \
  'grep -qx -- "--time=03:00:00" "$tmp/calls/101"' 'grep -qx -- "--constraint=h200" "$tmp/calls/102"' '! grep -q "$(printf "\r")" "$tmp/calls/"*'

# fleet_report.sbatch: the worst of the models' jobs and the report; a model without a run is left out.
job() { echo "JobId=$1 JobName=x JobState=$2 Reason=None Dependency=(null) ExitCode=$3 RunTime=00:00:01" >"$tmp/jobs/$1"; }
printf '#!/bin/sh\n[ "$1" = store ] && exec "%s" "$@"\necho "$@" >"%s/fleet-args"\nexit "${FLEET_STATUS:-0}"\n' "$report" "$tmp" >"$tmp/fake-fleet"; chmod +x "$tmp/fake-fleet"
mkdir -p "$tmp/r/a" "$tmp/r/b" "$tmp/r/c" "$tmp/r/fleet" && touch "$tmp/r/a/latest.json" "$tmp/r/b/latest.json"
report_job() { (cd "$src" && RUN_BENCH="$tmp/fake-fleet" run bash ci/slurm/fleet_report.sbatch "$tmp/r" "$@"); }
job 1 COMPLETED 0:0; job 2 COMPLETED 0:0
s=$(report_job a=1 b=2); check "fleet_report.sbatch: every job passed, the report over both directories: 0" 0 "$s" \
  'grep -q "^fleet $tmp/r/a $tmp/r/b --md $tmp/r/fleet/fleet-[0-9TZ]*.md --html $tmp/r/fleet/fleet-[0-9TZ]*.html --csv $tmp/r/fleet/fleet-[0-9TZ]*.csv$" "$tmp/fleet-args"'
job 2 FAILED 1:0
s=$(report_job a=1 b=2); check "fleet_report.sbatch: a model's regression: 1" 1 "$s"
s=$(FLEET_STATUS=2 report_job a=1 b=1); check "fleet_report.sbatch: the report failed: 2" 2 "$s"
job 3 CANCELLED 0:15
s=$(report_job a=1 b=2 c=3); check "fleet_report.sbatch: a cancelled job: 2, its model (no run) left out of the report" 2 "$s" \
  'grep -q "^fleet $tmp/r/a $tmp/r/b --md" "$tmp/fleet-args"' 'grep -q "c has no run" "$tmp/err"'
job 4 TIMEOUT 0:0; job 5 FAILED 127:0
s=$(report_job a=4); check "fleet_report.sbatch: a timed-out job: 2" 2 "$s"
s=$(report_job a=5); check "fleet_report.sbatch: an exit code above 2: 2" 2 "$s"
s=$(report_job a=99); check "fleet_report.sbatch: a job the controller no longer knows: 2" 2 "$s"
echo "JobId=6 JobName=x JobState=COMPLETED Reason=None ExitCode=0:0 StartTime=$(date +%Y-%m-%dT%H:%M:%S) EndTime=Unknown" >"$tmp/jobs/6"
mkdir -p "$tmp/r/d" && touch -d "2 days ago" "$tmp/r/d/latest.json"
s=$(report_job a=1 d=6); check "fleet_report.sbatch: a run older than its model's job (an earlier night's): left out, 2" 2 "$s" \
  'grep -q "^fleet $tmp/r/a --md" "$tmp/fleet-args"' 'grep -q "d.s latest run predates its job 6" "$tmp/err"'
touch "$tmp/r/d/latest.json"
s=$(report_job a=1 d=6); check "fleet_report.sbatch: a run of this job: in the report" 0 "$s" 'grep -q "^fleet $tmp/r/a $tmp/r/d --md" "$tmp/fleet-args"'

# ci/fleet_summary.sh: the models' downloaded artifacts, each a directory with a latest.json.
mkdir -p "$tmp/nights/nightly-h100" "$tmp/nights/nightly-h200" "$tmp/nights/other" && touch "$tmp/nights/nightly-h100/latest.json" "$tmp/nights/nightly-h200/latest.json"
printf '#!/bin/sh\n[ "$1" = store ] && exec "%s" "$@"\necho "$@" >"%s/fleet-args"\nfor a; do case "$a" in *.md) echo "## Fleet" >"$a";; esac; done\n' "$report" "$tmp" >"$tmp/fake-fleet"
s=$(GITHUB_STEP_SUMMARY="$tmp/summary.md" RUN_BENCH="$tmp/fake-fleet" run bash "$src/ci/fleet_summary.sh" "$tmp/nights" "$tmp/fleet-out")
check "ci/fleet_summary.sh: fleet over the models' directories, the Markdown in the job summary" 0 "$s" \
  'grep -q "^fleet $tmp/nights/nightly-h100 $tmp/nights/nightly-h200 --md $tmp/fleet-out/fleet.md --html $tmp/fleet-out/fleet.html --csv $tmp/fleet-out/fleet.csv$" "$tmp/fleet-args"' \
  'grep -q "^## Fleet" "$tmp/summary.md"'
s=$(RUN_BENCH="$tmp/fake-fleet" run bash "$src/ci/fleet_summary.sh" "$tmp/jobs" "$tmp/fleet-out"); check "ci/fleet_summary.sh: no model's results: exit 2" 2 "$s" 'grep -q "no model.s results" "$tmp/err"'

# ci/nightly.sh: CUDABENCH_NIGHTLY_ARGS reach the run; CUDABENCH_NIGHT_FILES holds that night's files only.
printf '#!/bin/sh\ncase "$1" in compare|report|trend|store) exec "%s" "$@";; esac\necho "$@" >"%s/run-args"\nwhile [ $# -gt 0 ]; do [ "$1" = --json ] && cp "$NIGHT" "$2"; shift; done\n' "$report" "$tmp" >"$tmp/fake-run"; chmod +x "$tmp/fake-run"
bl=$("$report" store baseline "$fx/synthetic_base.json" --baseline-dir="$tmp/bl") && mkdir -p "$(dirname "$bl")" && cp "$fx/synthetic_base.json" "$bl"
night() { NIGHT="$fx/synthetic_base.json" RUN_BENCH="$tmp/fake-run" CUDABENCH_BASELINE_DIR="$tmp/bl" CUDABENCH_NIGHT_FILES="$tmp/night$1" \
  CUDABENCH_NIGHTLY_ARGS="--filter=cpu --repetitions=1" run bash "$src/ci/nightly.sh" "$tmp/kept"; }
s=$(night 1); sleep 1; s=$(night 2)
check "ci/nightly.sh: CUDABENCH_NIGHTLY_ARGS after the preset; CUDABENCH_NIGHT_FILES holds that night's files only" 0 "$s" \
  'grep -q "^--preset=nightly --filter=cpu --repetitions=1 --json " "$tmp/run-args"' '[ "$(ls "$tmp/kept/runs" | wc -l)" = 2 ]' \
  '[ "$(ls "$tmp/night2/runs" | wc -l)" = 1 ]' '[ -f "$tmp/night2/latest.json" ] && [ ! -L "$tmp/night2/latest.json" ]' \
  'cmp -s "$tmp/night2/latest.json" "$tmp/night2/runs/$(ls "$tmp/night2/runs")"' \
  '[ "$(ls "$tmp/night2" | grep -c "^report-.*\.md$")" = 1 ] && [ "$(ls "$tmp/night2" | grep -c "^verdict-")" = 1 ]' \
  '[ -f "$tmp/night2/trend.html" ]' '[ "$(ls "$tmp/kept" | grep -c "^verdict-")" = 2 ]'
finish

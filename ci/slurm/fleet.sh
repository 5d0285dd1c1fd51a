#!/usr/bin/env bash
# The nightly of a fleet of GPU models on a SLURM cluster: one nightly job per model, then a job that writes the
# fleet report once they have all ended. Run from anywhere:  ci/slurm/fleet.sh [--wait] CONFIG
# CONFIG lists the models, one a line: MODEL PARTITION RESOURCE [SBATCH_OPTION...]; `#` starts a comment.
#   MODEL      the model's name, also its results directory: letters, digits, . _ - (e.g. h100)
#   PARTITION  the partition its job goes to
#   RESOURCE   gres=SPEC (sbatch --gres=SPEC, e.g. gres=gpu:h100:1), constraint=EXPR (--constraint=EXPR, with
#              ci/slurm/nightly.sbatch's --gres=gpu:1), or - (nightly.sbatch's own --gres=gpu:1)
#   SBATCH_OPTION  more sbatch options for that model's job, each --name=value (e.g. --time=04:00:00); not
#              --output, --dependency or --array, and --export only as --export=ALL,...
# Each model's job runs ci/slurm/nightly.sbatch (ci/nightly.sh against that model's own stored baseline) into
# $CUDABENCH_RESULTS_DIR/MODEL/ (default: results/ in the repository) with CUDABENCH_FLEET_MODEL=MODEL in its
# environment; then a job that depends on them all (afterany) runs ci/slurm/fleet_report.sbatch, which writes
# `run_bench fleet` over their directories (the first model is the reference) to $CUDABENCH_RESULTS_DIR/fleet/
# fleet-<time>.md|.html|.csv and ends with the worst status of the nightly jobs and the report.
# The environment reaches every job (sbatch's default): RUN_BENCH, CUDABENCH_NIGHTLY_ARGS (options added to the
# nightly run, e.g. --filter=cpu --preset=quick), CUDABENCH_BASELINE_DIR and the other variables of ci/nightly.sh.
# CUDABENCH_FLEET_SBATCH_ARGS: sbatch options for the report job (e.g. --partition=cpu; default: the
# cluster's default partition).
# --wait: wait for the report job (sbatch --wait) and exit with its status: 0 every model passed, 1 a regression
# (or a failed check), 2 a job failed otherwise, a model had no baseline or no run of this night, or the report
# could not be written.
# Without --wait: print the job ids and exit 0 once submitted. A bad CONFIG: one line naming the line, exit 2.
# A job sbatch refuses: exit 2, the jobs already submitted cancelled (scancel).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
me=ci/slurm/fleet.sh
wait=0 config=""
for a in "$@"; do
  case "$a" in
    --wait) wait=1 ;;
    -h|--help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "$me: unknown option '$a'" >&2; exit 2 ;;
    *) [ -z "$config" ] || { echo "$me: one CONFIG only ('$config' and '$a')" >&2; exit 2; }; config=$a ;;
  esac
done
[ -n "$config" ] || { echo "$me: usage: $me [--wait] CONFIG" >&2; exit 2; }
[ -f "$config" ] || { echo "$me: $config: no such file" >&2; exit 2; }

# Reads CONFIG into models[], and per model: its sbatch options (NUL-separated in opts[MODEL]).
models=()
declare -A opts=()
n=0
while IFS= read -r line || [ -n "$line" ]; do
  n=$((n + 1))
  line=${line%$'\r'}   # a CONFIG saved with CRLF line ends
  line=${line%%#*}
  read -r -a f <<<"$line"
  [ ${#f[@]} -gt 0 ] || continue
  where="$me: $config:$n"
  [ ${#f[@]} -ge 3 ] || { echo "$where: want MODEL PARTITION RESOURCE [SBATCH_OPTION...], got '${line% }'" >&2; exit 2; }
  model=${f[0]} partition=${f[1]} resource=${f[2]}
  [[ $model =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] && [ "$model" != fleet ] \
    || { echo "$where: model '$model' is not a directory name (letters, digits, . _ -; not 'fleet')" >&2; exit 2; }
  [ -z "${opts[$model]+x}" ] || { echo "$where: model '$model' is listed twice" >&2; exit 2; }
  list=(--partition="$partition")
  case "$resource" in
    gres=?*) list+=(--gres="${resource#gres=}") ;;
    constraint=?*) list+=(--constraint="${resource#constraint=}") ;;
    -) ;;
    *) echo "$where: resource '$resource' is not gres=SPEC, constraint=EXPR or -" >&2; exit 2 ;;
  esac
  for o in "${f[@]:3}"; do
    [[ $o =~ ^--[a-z][a-z-]*=.+$ ]] || { echo "$where: sbatch option '$o' is not --name=value" >&2; exit 2; }
    # These would move the job's log or results from where the report looks, or change what a job id stands for.
    case "$o" in
      --output=*|--dependency=*|--array=*|--export=[!A]*)
        echo "$where: sbatch option '$o' is refused: fleet.sh sets the log, the dependency and the environment of each job" >&2
        exit 2 ;;
    esac
    list+=("$o")
  done
  models+=("$model")
  opts[$model]=$(printf '%s\0' "${list[@]}" | base64 -w0)
done <"$config"
[ ${#models[@]} -gt 0 ] || { echo "$me: $config lists no model" >&2; exit 2; }
command -v sbatch >/dev/null 2>&1 || { echo "$me: sbatch is not on PATH (this runs on a SLURM submit host)" >&2; exit 2; }

results="${CUDABENCH_RESULTS_DIR:-$root/results}"
mkdir -p "$results/fleet" || exit 2
results=$(cd "$results" && pwd)
cd "$root" || exit 2   # nightly.sbatch runs from the directory it was submitted from
ids=() pairs=()
# refused WHAT: says sbatch refused WHAT and cancels the jobs already submitted, which nothing would report on.
refused() {
  echo "$me: sbatch refused $1" >&2
  [ ${#ids[@]} = 0 ] || { echo "$me: cancelling the jobs already submitted: ${ids[*]}" >&2; scancel "${ids[@]}"; }
}
for model in "${models[@]}"; do
  mapfile -d '' list < <(base64 -d <<<"${opts[$model]}")
  mkdir -p "$results/$model" || exit 2
  id=$(CUDABENCH_RESULTS_DIR="$results/$model" CUDABENCH_FLEET_MODEL="$model" sbatch --parsable \
        --job-name="cudabench-nightly-$model" --output="$results/$model/slurm-%j.out" "${list[@]}" \
        ci/slurm/nightly.sbatch) || { refused "the job of $model"; exit 2; }
  id=${id%%;*}   # --parsable prints ID[;CLUSTER]
  echo "$model: job $id ($results/$model)"
  ids+=("$id") pairs+=("$model=$id")
done
dependency="afterany:$(IFS=:; echo "${ids[*]}")"
# shellcheck disable=SC2206  # CUDABENCH_FLEET_SBATCH_ARGS is a list of options
report_opts=(--parsable --job-name=cudabench-fleet --dependency="$dependency" --output="$results/fleet/slurm-%j.out"
             ${CUDABENCH_FLEET_SBATCH_ARGS:-})
if [ "$wait" = 0 ]; then
  id=$(sbatch "${report_opts[@]}" ci/slurm/fleet_report.sbatch "$results" "${pairs[@]}") \
    || { refused "the fleet report job"; exit 2; }
  echo "fleet report: job ${id%%;*} ($results/fleet), after $dependency"
  exit 0
fi
echo "fleet report: after $dependency ($results/fleet); waiting"
# sbatch --wait exits 1 both when it refuses the job and when the job ends with 1 (a regression); the job id it
# prints on submission tells the two apart.
id=$(sbatch --wait "${report_opts[@]}" ci/slurm/fleet_report.sbatch "$results" "${pairs[@]}")
status=$?
[ -n "$id" ] || { refused "the fleet report job"; exit 2; }
echo "fleet report: job ${id%%;*} ended"
echo "fleet: exit status $status (log: $results/fleet/slurm-*.out)"
exit "$status"

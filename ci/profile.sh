#!/usr/bin/env bash
# Runs the benchmark binary, under Nsight Systems (--nsys) or Nsight Compute (--ncu) when asked.
# Usage: ci/profile.sh BINARY [--nsys|--ncu] [runner options...]
#   --nsys  nsys profile --trace=cuda,nvtx,osrt, one report named after the preset and time
#   --ncu   ncu --nvtx --nvtx-include "cudabench@CASE/measure/kernel/" per selected case: the kernels of the
#           timed work (not set-up, checks, warm-up or the harness's probes; NCU_RANGES=case widens it to
#           everything inside the case's range); kernel duration and DRAM throughput go to a CSV beside the
#           --json file (or ncu-<preset>-<time>.csv)
# Profiled runs pass --profile to the binary: a few clean samples per case instead of thousands.
# NSYS and NCU name the profilers' executables where they are not on PATH (default: nsys, ncu).
set -uo pipefail
bin=$1; shift
mode=""
args=()
for a in "$@"; do
  case "$a" in
    --nsys) mode=nsys ;;
    --ncu) mode=ncu ;;
    *) args+=("$a") ;;
  esac
done
[ -z "$mode" ] && exec "$bin" "${args[@]}"

# One pass over the options: the preset and --json name the outputs; `plain` is what each per-case ncu run
# gets (not --filter, which that run replaces, nor the outputs and baseline options of the whole run).
preset=quick json="" plain=()
for ((i = 0; i < ${#args[@]}; i++)); do
  a=${args[$i]} next=${args[$((i + 1))]:-}
  case "$a" in
    --preset=*) preset=${a#--preset=}; plain+=("$a") ;;
    --preset) preset=${next:-quick}; plain+=("$a" "$next"); i=$((i + 1)) ;;
    --json=*) json=${a#--json=} ;;
    --json) json=$next; i=$((i + 1)) ;;
    --filter|--compare-to) i=$((i + 1)) ;;
    --filter=*|--compare-to=*|--save-baseline) ;;
    *) plain+=("$a") ;;
  esac
done
stamp=$(date -u +%Y%m%dT%H%M%SZ)

nsys=${NSYS:-nsys} ncu=${NCU:-ncu}
if [ "$mode" = nsys ]; then
  if ! command -v "$nsys" >/dev/null 2>&1; then
    echo "run_bench: --nsys needs Nsight Systems ($nsys), which is not installed or not on PATH (set NSYS=/path/to/nsys)" >&2
    exit 2
  fi
  "$bin" --list "${args[@]}" >/dev/null || exit $?   # bad options fail before the profiler starts
  report="cudabench-$preset-$stamp"
  "$nsys" profile --trace=cuda,nvtx,osrt --output "$report" "$bin" --profile "${args[@]}"
  status=$?
  # nsys can exit 0 having written only its raw .qdstrm stream when its importer fails: say so.
  if [ ! -f "$report.nsys-rep" ]; then
    echo "run_bench: nsys wrote no report ($report.nsys-rep)${status:+ (nsys exit $status)}$( [ -f "$report.qdstrm" ] && echo "; only the raw $report.qdstrm, which its importer could not convert")" >&2
    exit 1
  fi
  echo "nsys report: $report.nsys-rep" >&2
  exit $status
fi

if ! command -v "$ncu" >/dev/null 2>&1; then
  echo "run_bench: --ncu needs Nsight Compute ($ncu), which is not installed or not on PATH (set NCU=/path/to/ncu)" >&2
  exit 2
fi
# Each case runs alone, selected by name and by its NVTX range.
cases=$("$bin" --list "${args[@]}") || exit $?
csv=${json:+${json%.json}.ncu.csv}
csv=${csv:-ncu-$preset-$stamp.csv}
tmp="$csv.tmp.$$"
: >"$tmp"
status=0
while read -r name kind _; do
  [ "$kind" = gpu ] || continue
  regex="^$(printf '%s' "$name" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
  echo "ncu: $name" >&2
  range="cudabench@${name//\//:}/"
  [ "${NCU_RANGES:-measured}" = case ] || range="${range}measure/kernel/"
  CUDABENCH_NVTX_SEPARATOR=: "$ncu" --clock-control none --nvtx --nvtx-include "$range" --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
      --csv --page raw "$bin" --profile --filter="$regex" "${plain[@]}" 2>/dev/null | grep -E '^"' | sed "s|^|\"$name\",|" >>"$tmp" || status=1
  if ! grep -q "^\"$name\",\"[0-9]" "$tmp"; then
    echo "run_bench: ncu profiled no kernel of $name under the NVTX range $range" >&2
    status=1
  fi
done <<<"$cases"
mv "$tmp" "$csv"
echo "ncu results: $csv" >&2
exit $status

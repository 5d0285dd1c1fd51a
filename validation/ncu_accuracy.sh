#!/usr/bin/env bash
# On a GPU machine (binaries from validation/device_pack.sh): for every cold kernel-only case of a result file whose
# median is at least MIN_US (20), profiles the case alone with Nsight Compute, selecting its kernels by the
# case's NVTX range, and compares the harness median with ncu's gpu__time_duration per run.
# Usage: validation/ncu_accuracy.sh RESULT.json [MIN_US]      (writes $OUT/ncu_accuracy.csv and prints a table)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
result=$1 min_us=${2:-20}
command -v ncu >/dev/null || { echo "ncu not found" >&2; exit 2; }
cases=$(python3 - "$result" "$min_us" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); meta = j["context"]["cudabench"]["cases"]
for r in j["benchmarks"]:
    m = meta.get(r["name"], {})
    # cuDNN's algorithm search runs thousands of kernels inside the case under ncu: left out (docs/validation.md).
    if r.get("run_type") == "iteration" and m.get("on") == "gpu" and m.get("cache") == "cold" and r.get("real_time", 0) >= float(sys.argv[2]) and "cudnn" not in r["name"]:
        print(r["name"], r["real_time"])
PY
)
: >"$out/ncu_raw.csv"
: >"$out/ncu_stderr.log"
: >"$out/ncu_stdout.log"
# Nsight Compute reads '/' in --nvtx-include as range nesting; our case names contain '/', so the case
# ranges are named with ':' for profiling (CUDABENCH_NVTX_SEPARATOR) and the filter names domain@range/.
export CUDABENCH_NVTX_SEPARATOR=:
filter_for() {  # the --nvtx-include expression for a case, in the form chosen below
  case "$form" in
    domain) echo "cudabench@${1//\//:}/" ;;
    regex) echo "regex:cudabench@${1//\//:}/" ;;
    plain) echo "${1//\//:}/" ;;
  esac
}
first=$(head -n 1 <<<"$cases" | awk '{print $1}')
form=""
for f in domain regex plain; do  # which spelling of the filter this ncu accepts
  form=$f
  n=$(ncu --clock-control none --nvtx --nvtx-include "$(filter_for "$first")" --metrics gpu__time_duration.sum --csv --page raw \
        "$bench" --profile --filter="^$first\$" 2>>"$out/ncu_stderr.log" | grep -c -E '^"[0-9]')
  echo "filter form $f on $first: $n kernel rows" | tee -a "$out/ncu_stderr.log"
  [ "$n" -gt 0 ] && break
done
while read -r name median; do
  [ -n "$name" ] || continue
  regex="^$(printf '%s' "$name" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
  range=$(filter_for "$name")
  echo "== $name ($range)" >>"$out/ncu_stderr.log"
  ncu --clock-control none --nvtx --nvtx-include "$range" --metrics gpu__time_duration.sum --csv --page raw --print-units base \
      "$bench" --profile --filter="$regex" 2>>"$out/ncu_stderr.log" | tee -a "$out/ncu_stdout.log" | grep -E '^"[0-9]' | sed "s|^|\"$name\",\"$median\",|" >>"$out/ncu_raw.csv"
done <<<"$cases"
python3 "$root/validation/ncu_parse.py" "$out/ncu_stdout.log" "$out/ncu_accuracy.csv" "$result"

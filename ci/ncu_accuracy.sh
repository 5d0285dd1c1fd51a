#!/usr/bin/env bash
# On a GPU machine (binaries from ci/device_pack.sh): for every cold kernel-only case of a result file whose
# median is at least MIN_US (20), profiles the case alone with Nsight Compute, selecting its kernels by the
# case's NVTX range, and compares the harness median with ncu's gpu__time_duration per run.
# Usage: ci/ncu_accuracy.sh RESULT.json [MIN_US]      (writes $OUT/ncu_accuracy.csv and prints a table)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$root/out}"
result=$1 min_us=${2:-20}
export LD_LIBRARY_PATH="$root/.devlibs/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" CUDABENCH_SOURCE_DIR="$root"
bench="$root/.devlibs/bench/cudabench"
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
python3 - "$out/ncu_stdout.log" "$out/ncu_accuracy.csv" "$result" <<'PY'
import csv, json, statistics, sys
# ncu's raw CSV: a header row per run, then one row per kernel; the NVTX push/pop stack of the kernel is a
# column ("cudabench:<case>:...:ASCII:<case>" then the phase ranges), the duration is gpu__time_duration.sum.
medians = {r["name"]: r["real_time"] for r in json.load(open(sys.argv[3]))["benchmarks"] if "real_time" in r}
hdr, per_case = None, {}
for line in open(sys.argv[1]):
    if line.startswith('"ID"'):
        hdr = next(csv.reader([line])); continue
    if not (hdr and line.startswith('"') and line[1:2].isdigit()):
        continue
    r = next(csv.reader([line]))
    stack = r[4]
    if "ASCII:" not in stack:
        continue
    case = stack.split("ASCII:")[1].split('"')[0].replace(":", "/")
    phase = stack.split("ASCII:")[-1].split('"')[0]
    kernel = r[hdr.index("Kernel Name")]
    ns = float(r[hdr.index("gpu__time_duration.sum")].replace(",", ""))
    per_case.setdefault(case, []).append((phase, kernel, ns))
w = csv.writer(open(sys.argv[2], "w"))
w.writerow(["case", "harness_median_us", "ncu_median_us_per_run", "ratio", "kernels_per_run"])
print("%-34s %11s %11s %7s  %s" % ("case", "harness us", "ncu us", "ratio", "kernels (phase 'kernel' of the case's NVTX range)"))
for case, ks in per_case.items():
    # Kernels of the timed work run inside the 'kernel' phase; the harness's clock probe runs outside it.
    runs, current = [], []
    for phase, kernel, ns in ks:
        if phase != "kernel" or "clock_probe" in kernel or "spin_kernel" in kernel:
            if current: runs.append(current); current = []
            continue
        current.append(ns)
    if current: runs.append(current)
    if not runs:
        print("%-34s no kernels under its NVTX range" % case); continue
    per_run = statistics.median(sum(r) for r in runs) / 1e3
    h = medians.get(case, 0)
    w.writerow([case, h, "%.3f" % per_run, "%.4f" % (h / per_run), len(runs[-1])])
    names = sorted({k.split("(")[0][-28:] for p, k, n in ks if p == "kernel"})
    print("%-34s %11.2f %11.2f %7.3f  %d: %s" % (case, h, per_run, h / per_run, len(runs[-1]), ", ".join(names)[:60]))
PY

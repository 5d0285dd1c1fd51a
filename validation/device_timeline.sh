#!/usr/bin/env bash
# Timeline checks on a GPU machine, from the repository root, with the binaries (and Debian's libdw/libelf)
# that device_pack.sh packed into .devlibs/. Two parts, each one device call:
#   validation/device_timeline.sh main   GPU and CLI tests; --nsys without and with the carried
#       libraries, `nsys stats` NVTX ranges (every case, its stages nested in it) and the CUDA GPU trace of
#       image/pinned_streams/4; --trace over the quick suite (trace format, overlap of pinned_streams/1 and
#       /4); quick suite plain, traced, plain again, compared (medians with --trace against without)
#   validation/device_timeline.sh ncu    traced kernel durations of the single-kernel cases against
#       Nsight Compute's gpu__time_duration (needs quick_trace.json from `main` in $OUT, or runs --trace)
# Results under $OUT (or ./out); each part ends with a short summary.
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
part=${1:-main}
NSYS=${NSYS:-$(command -v nsys || ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | tail -n 1)}
export NSYS

main_part() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv | tee -a "$summary"
  echo "== GPU tests"
  "$root/.devlibs/tests/gpu_tests" >"$out/gpu_tests.txt" 2>&1
  note "gpu tests: exit $?, $(grep -E '^\[  PASSED  \]|FAILED TEST|SKIPPED \]' "$out/gpu_tests.txt" | tr '\n' ' ')"
  grep -A8 "Failure" "$out/gpu_tests.txt" | head -n 30
  echo "== CLI tests"
  "$root/tests/cli_test.sh" "$root/.devlibs" "$root" >"$out/cli.txt" 2>&1
  note "cli tests: exit $?, $(tail -n 1 "$out/cli.txt")"; grep FAIL "$out/cli.txt"

  echo "== --nsys ($NSYS)"
  cd "$out" || exit 2
  "$root/app/cudabench-run" "$bench" --nsys --filter='^image/pinned_streams/4$' --json "$out/nolib.json" >/dev/null 2>"$out/nsys_nolib.err"
  note "--nsys without libdw on LD_LIBRARY_PATH: exit $?, $(tail -n 1 "$out/nsys_nolib.err")"
  sel='^(image/pinned_streams/(1|4)|conv2d/tiled/4096|histogram/shared_gpu_merge/1048576|reduce/cub/16777216|matmul/tiled/1024|vector/explicit/16777216|dot/shared/16777216)$'
  LD_LIBRARY_PATH="$nsys_lib:$LD_LIBRARY_PATH" "$root/app/cudabench-run" "$bench" --nsys --filter="$sel" --json "$out/nsys_run.json" >"$out/nsys_run.txt" 2>&1
  note "--nsys over 8 cases of 8 families: exit $?, $(grep 'nsys report' "$out/nsys_run.txt")"
  LD_LIBRARY_PATH="$nsys_lib:$LD_LIBRARY_PATH" "$root/app/cudabench-run" "$bench" --nsys --filter='^image/pinned_streams/4$' --json "$out/ps4.json" >"$out/ps4.txt" 2>&1
  note "--nsys over image/pinned_streams/4: exit $?, $(grep 'nsys report' "$out/ps4.txt")"
  for r in nvtx_sum nvtx_pushpop_trace; do
    LD_LIBRARY_PATH="$nsys_lib:$LD_LIBRARY_PATH" "$NSYS" stats --report "$r" --format csv --output - "$out/nsys_run.nsys-rep" >"$out/$r.csv" 2>"$out/$r.err"
    note "nsys stats --report $r: exit $?, $(wc -l <"$out/$r.csv") lines"
  done
  LD_LIBRARY_PATH="$nsys_lib:$LD_LIBRARY_PATH" "$NSYS" stats --report nvtx_sum "$out/nsys_run.nsys-rep" >"$out/nvtx_sum.txt" 2>&1
  LD_LIBRARY_PATH="$nsys_lib:$LD_LIBRARY_PATH" "$NSYS" stats --report cuda_gpu_trace --format csv --output - "$out/ps4.nsys-rep" >"$out/ps4_gpu_trace.csv" 2>"$out/ps4_gpu_trace.err"
  LD_LIBRARY_PATH="$nsys_lib:$LD_LIBRARY_PATH" "$NSYS" stats --report cuda_gpu_trace "$out/ps4.nsys-rep" >"$out/ps4_gpu_trace.txt" 2>&1
  note "nsys stats --report cuda_gpu_trace (image/pinned_streams/4): $(wc -l <"$out/ps4_gpu_trace.csv") lines"
  python3 - "$out/nvtx_pushpop_trace.csv" "$out/nvtx_sum.csv" "$out/nsys_run.json" "$out/ps4_gpu_trace.csv" <<'PY' | tee -a "$summary"
import csv, io, json, sys
def rows(path):
    text = open(path).read()
    start = text.find('"') if text.find('"') >= 0 else 0
    lines = [l for l in text.splitlines() if "," in l]
    return list(csv.DictReader(io.StringIO("\n".join(lines))))
cases = [r["run_name"] for r in json.load(open(sys.argv[3]))["benchmarks"] if not r.get("skipped")]
push = rows(sys.argv[1])
print("nvtx_pushpop_trace columns:", list(push[0].keys()) if push else "none")
by_id = {r.get("RangeId"): r for r in push}
missing = []
for case in cases:
    ids = [r.get("RangeId") for r in push if r.get("Name", "").endswith(case)]
    kids = {r.get("Name", "").split(":")[-1] for r in push if r.get("ParentId") in ids}
    want = {"setup", "verify", "warmup", "measure"}
    if not ids or not want <= kids:
        missing.append((case, sorted(kids)))
print("nsys NVTX: %d cases, each with setup/verify/warmup/measure nested: %s" % (len(cases), "yes" if not missing else "NO %s" % missing))
names = {r.get("Range", r.get("Name", "")) for r in rows(sys.argv[2])}
print("nvtx_sum ranges naming a case: %d of %d" % (sum(any(n.endswith(c) for n in names) for c in cases), len(cases)))
# The GPU trace of image/pinned_streams/4: the last sample's 12 operations, overlap by the metric's definition.
g = rows(sys.argv[4])
print("cuda_gpu_trace columns:", list(g[0].keys())[:12] if g else "none")
def col(r, *names):
    for n in names:
        if n in r: return r[n]
ops = []
for r in g:
    start, dur, name = float(col(r, "Start (ns)", "Start")), float(col(r, "Duration (ns)", "Duration")), col(r, "Name")
    ops.append((start, start + dur, name, col(r, "Strm", "Stream")))
last = ops[-12:]
def merged(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]: out[-1][1] = max(out[-1][1], b)
        else: out.append([a, b])
    return out
k = merged([(a, b) for a, b, n, s in last if "memcpy" not in n.lower() and "memset" not in n.lower()])
c = merged([(a, b) for a, b, n, s in last if "memcpy" in n.lower()])
inter = sum(max(0, min(b1, b2) - max(a1, a2)) for a1, b1 in k for a2, b2 in c)
ln = lambda v: sum(b - a for a, b in v)
print("nsys, image/pinned_streams/4, last sample: %d ops on streams %s, copy/compute overlap %.1f%%" % (
    len(last), sorted({s for *_, s in last}), 100 * inter / max(1, min(ln(k), ln(c)))))
PY
  cd "$root" || exit 2

  echo "== quick suite: plain, with --trace, plain again"
  "$bench" --json "$out/quick_plain1.json" >"$out/quick_plain1.txt" 2>&1; note "quick plain 1: exit $?, $(grep 'case(s):' "$out/quick_plain1.txt")"
  start=$(date +%s)
  "$bench" --json "$out/quick_trace.json" --trace "$out/quick.trace.json" >"$out/quick_trace.txt" 2>&1
  note "quick --trace: exit $?, $(grep 'case(s):' "$out/quick_trace.txt"), $(( $(date +%s) - start )) s; $(grep '^trace:' "$out/quick_trace.txt")"
  "$bench" --json "$out/quick_plain2.json" >"$out/quick_plain2.txt" 2>&1; note "quick plain 2: exit $?, $(grep 'case(s):' "$out/quick_plain2.txt")"
  note "trace format: $(python3 "$root/tests/check_trace_events.py" "$out/quick.trace.json" --gpu --cases image/pinned_streams/4 conv2d/tiled/4096 image/cpu | tail -n 3 | tr '\n' ' ')"
  for pair in "quick_plain1 quick_plain2" "quick_plain1 quick_trace" "quick_plain2 quick_trace"; do
    set -- $pair
    "$report" compare "$out/$1.json" "$out/$2.json" --verdict "$out/cmp_$1_$2.json" >"$out/cmp_$1_$2.txt" 2>&1
    note "compare $1 -> $2: exit $?, $(grep -E '^[0-9]+ regression' "$out/cmp_$1_$2.txt")"
  done
  python3 - "$out/quick_plain1.json" "$out/quick_trace.json" "$out/quick_plain2.json" <<'PY' | tee -a "$summary"
import json, sys, statistics
def medians(p):
    out = {}
    for r in json.load(open(p))["benchmarks"]:
        if r.get("run_type") == "iteration" and not r.get("skipped") and not r.get("error_occurred"):
            out.setdefault(r["run_name"], []).append(r["real_time"])
    return {k: statistics.median(v) for k, v in out.items()}
a, t, b = (medians(p) for p in sys.argv[1:4])
bound = {k: v.get("bound") for k, v in json.load(open(sys.argv[1]))["context"]["cudabench"]["cases"].items()}
common = sorted(set(a) & set(t) & set(b))
dev = [k for k in common if bound.get(k) == "device"]
for label, ks in (("device-bound", dev),):
    print("%s medians over %d cases: |plain2/plain1-1| median %.2f%% max %.1f%%; |trace/mean(plain1,plain2)-1| median %.2f%% max %.1f%%; trace outside [min,max] of the plain runs by more than 2%%: %d" % (
        label, len(ks), 100 * statistics.median([abs(b[k] / a[k] - 1) for k in ks]), 100 * max(abs(b[k] / a[k] - 1) for k in ks),
        100 * statistics.median([abs(2 * t[k] / (a[k] + b[k]) - 1) for k in ks]), 100 * max(abs(2 * t[k] / (a[k] + b[k]) - 1) for k in ks),
        sum(t[k] > 1.02 * max(a[k], b[k]) or t[k] < 0.98 * min(a[k], b[k]) for k in ks)))
aa = [abs(b[k] / a[k] - 1) for k in common]
at = [abs(t[k] / a[k] - 1) for k in common]
tb = [abs(t[k] / b[k] - 1) for k in common]
print("medians over %d cases: |plain2/plain1-1| median %.2f%% max %.1f%%; |trace/plain1-1| median %.2f%% max %.1f%%; |trace/plain2-1| median %.2f%% max %.1f%%" % (
    len(common), 100 * statistics.median(aa), 100 * max(aa), 100 * statistics.median(at), 100 * max(at), 100 * statistics.median(tb), 100 * max(tb)))
worst = sorted(common, key=lambda k: -abs(t[k] / ((a[k] + b[k]) / 2) - 1))[:5]
for k in worst:
    print("  %-44s plain1 %10.2f  trace %10.2f  plain2 %10.2f us" % (k, a[k], t[k], b[k]))
rows = json.load(open(sys.argv[2]))["benchmarks"]
for r in rows:
    tl = r.get("cudabench", {}).get("timeline")
    if tl and r["run_name"].startswith(("image/pinned_streams", "image/sync", "image/async_pageable_streams/4", "image/rgb_pipelined", "vector/explicit")):
        m = tl["metrics"]
        print("  %-36s first GPU op at %7.1f us of a %7.1f us sample (GPU clock %s, shift %s us)" % (r["run_name"], tl["ops"][0]["start_us"], tl["sample_us"], tl.get("gpu_clock"), tl.get("gpu_shift_us", "-")))
        print("  %-36s overlap %6s  busy %6s  H2D %8s  D2H %8s  kernels %3d  gap %8s  span %9s" % (r["run_name"],
              "%.1f%%" % (100 * m["copy_compute_overlap"]) if "copy_compute_overlap" in m else "-",
              "%.1f%%" % (100 * m.get("gpu_busy_fraction", 0)),
              "%.1f GB/s" % (m["h2d_bytes_per_second"] / 1e9) if "h2d_bytes_per_second" in m else "-",
              "%.1f GB/s" % (m["d2h_bytes_per_second"] / 1e9) if "d2h_bytes_per_second" in m else "-",
              m.get("kernel_launches", 0), "%.1f us" % m.get("largest_gap_us", 0), "%.1f us" % m.get("gpu_span_us", 0)))
PY
  "$report" report "$out/quick_trace.json" --html "$out/quick_trace.html" >/dev/null 2>&1
  (cd "$out" && gzip -9 -f quick.trace.json && tar czf nsys.tgz nvtx_sum.csv nvtx_sum.txt nvtx_pushpop_trace.csv ps4_gpu_trace.csv ps4_gpu_trace.txt nsys_nolib.err nsys_run.txt ps4.txt ps4.json \
     && tar czf logs.tgz gpu_tests.txt cli.txt quick_plain1.txt quick_trace.txt quick_plain2.txt cmp_*.txt quick_plain1.json quick_plain2.json \
     && rm -f *.nsys-rep *.qdstrm *.sqlite nvtx_* ps4* nsys_* gpu_tests.txt cli.txt quick_plain*.txt quick_trace.txt cmp_* quick_plain1.json quick_plain2.json nolib.json)
}

ncu_part() {
  ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
  [ -f "$out/quick_trace.json" ] || "$bench" --json "$out/quick_trace.json" --trace "$out/ncu_run.trace.json" >/dev/null 2>&1
  python3 - "$out/quick_trace.json" >"$out/single_kernel_cases.txt" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["benchmarks"]:
    tl = r.get("cudabench", {}).get("timeline")
    if tl and tl["metrics"].get("device_ops") == 1 and tl["metrics"].get("kernel_launches") == 1:
        print(r["run_name"], r["cudabench"]["cache"], tl["ops"][0]["dur_us"], r["real_time"], tl["metrics"].get("sm_clock_mhz", 0))
PY
  note "single-kernel cases: $(wc -l <"$out/single_kernel_cases.txt")"
  : >"$out/ncu_vs_trace.txt"
  while read -r name cache traced_us median_us clock; do
    regex="^$(printf '%s' "$name" | sed 's/[][\.*^$+?(){}|]/\\&/g')\$"
    cc=all; [ "$cache" = hot ] && cc=none
    CUDABENCH_NVTX_SEPARATOR=: timeout 120 "$ncu" --clock-control none --cache-control "$cc" --nvtx --nvtx-include "cudabench@${name//\//:}/measure/kernel/" \
        --metrics gpu__time_duration.sum --print-units base --csv --page raw "$bench" --profile --filter="$regex" 2>/dev/null \
      | python3 -c '
import csv, sys, statistics
rows = [r for r in csv.DictReader(l for l in sys.stdin if l.startswith("\""))]
def num(x):
    try: return float(x.replace(",", ""))
    except (AttributeError, ValueError): return None
v = [num(r.get("gpu__time_duration.sum")) / 1e3 for r in rows if num(r.get("gpu__time_duration.sum")) is not None]
name, cache, traced, median, clock = sys.argv[1:6]
if not v:
    print("%-40s %-4s no kernel profiled" % (name, cache)); sys.exit()
n = statistics.median(v)
print("%-40s %-4s ncu %10.2f us (%2d kernels)  traced %10.2f us  %+6.1f%%  timed median %10.2f us  traced at %4.0f MHz" % (name, cache, n, len(v), float(traced), 100 * (float(traced) / n - 1), float(median), float(clock)))
' "$name" "$cache" "$traced_us" "$median_us" "$clock" >>"$out/ncu_vs_trace.txt"
  done <"$out/single_kernel_cases.txt"
  cat "$out/ncu_vs_trace.txt"
  # The same cases traced without holding the stream (--no-blocking-kernel), twice: is a difference the hold's?
  sel="^($(awk '{print $1}' "$out/single_kernel_cases.txt" | sed 's/[][\.*^$+?(){}|]/\\&/g' | paste -sd '|'))\$"
  for k in 1 2; do
    "$bench" --filter="$sel" --json "$out/held$k.json" --trace "$out/held$k.trace.json" >/dev/null 2>&1
    "$bench" --filter="$sel" --json "$out/unheld$k.json" --trace "$out/unheld$k.trace.json" --no-blocking-kernel >/dev/null 2>&1
  done
  python3 - "$out"/held1.json "$out"/held2.json "$out"/unheld1.json "$out"/unheld2.json <<'PY' | tee -a "$summary"
import json, sys
runs = []
for p in sys.argv[1:]:
    d = {}
    for r in json.load(open(p))["benchmarks"]:
        tl = r.get("cudabench", {}).get("timeline")
        if tl and tl["ops"]:
            d[r["run_name"]] = (tl["ops"][0]["dur_us"], r["real_time"])
    runs.append(d)
print("%-40s %9s %9s %9s %9s   (traced kernel us: held x2, unheld x2; timed medians held/unheld)" % ("case", "held1", "held2", "unheld1", "unheld2"))
for k in sorted(runs[0]):
    v = [r.get(k, (float("nan"), float("nan"))) for r in runs]
    print("%-40s %9.2f %9.2f %9.2f %9.2f   %9.2f %9.2f" % (k, v[0][0], v[1][0], v[2][0], v[3][0], v[0][1], v[2][1]))
PY
  rm -f "$out"/held*.json "$out"/unheld*.json "$out"/*.trace.json
  python3 - "$out/ncu_vs_trace.txt" <<'PY' | tee -a "$summary"
import re, sys
# Not comparable: recursive_tail's kernel launches its own tail (CUPTI records the host-launched kernel
# only); managed-memory kernels are page-fault bound and ncu's replay changes their faults.
rows = [(l.split()[0], float(m.group(1))) for l in open(sys.argv[1]) for m in [re.search(r"([+-]\d+\.\d)%", l)] if m]
for label, sel in (("all", rows), ("host-launched, no managed memory", [r for r in rows if "recursive_tail" not in r[0] and "managed" not in r[0]])):
    d = [x for _, x in sel]
    if d:
        print("traced vs ncu, %s: %d single-kernel cases, %d within 3%%, largest difference %.1f%% (%s)" % (
            label, len(d), sum(abs(x) <= 3 for x in d), max(d, key=abs), max(sel, key=lambda r: abs(r[1]))[0]))
PY
}

case "$part" in
  main) main_part ;;
  ncu) ncu_part ;;
  *) echo "usage: $0 main|ncu" >&2; exit 2 ;;
esac
echo "== summary"; cat "$summary"

#!/usr/bin/env bash
# Energy, clocks and throttling on one GPU (about 8 minutes on an H100), from the repository root: builds the
# suite (Release, ci/build.sh into build/) unless .devlibs/ holds the packed binaries, then
#   1. the nightly preset's device cases of at least 1 ms (chosen from a kept H100 nightly run) with --limits,
#      energy on, one round: a table of case, time, energy per operation, power, clocks and throttled samples,
#      and the device's energy limits (J/byte of limits/read, J/FLOP and J/FMA of limits/fma);
#   2. an A/A pair and a CUDABENCH_EXTRA_WORK=2 run of reduce's device cases (5 repetitions in 5 rounds each: 5 energy windows), each compared
#      with the first of the pair with --gate-energy (the A/A should flag no energy change, the extra work about
#      +2% energy per declared byte);
#   3. a sustained load of its own (matmul/cublas with a 60 s energy window) while nvidia-smi samples the power
#      every 100 ms, to try to induce throttling and to compare the counter's mean power with the sampled power
#      over the same window. The card's clocks and power limit are never changed.
# Everything under $OUT (or ./out); the text printed is what docs/reference.md and docs/validation.md need.
# Usage: validation/energy_h100.sh [WINDOW_S] [reduce]   (the sustained load's energy window, default 60; "reduce": the
#   limits and part 2 only). ENERGY_MIN_RUN: --energy-min-run of part 1 (default 0.0002, so that limits/read has a window).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -x "$root/.devlibs/bench/cudabench" ]; then
  . "$root/validation/device_env.sh"
else
  out="${OUT:-$root/out}"
  mkdir -p "$out"
  cd "$root" || exit 2
  bash ci/build.sh cudabench cudabench-report >"$out/build.txt" 2>&1 || { tail -n 30 "$out/build.txt"; exit 2; }
  bench="$root/build/bench/cudabench"
  report="$root/build/app/cudabench-report"
fi
load_s=${1:-60}
started=$SECONDS
stamp() { echo "--- $1 ($((SECONDS - started)) s)"; }

nvidia-smi --query-gpu=name,uuid,driver_version,power.limit,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,clocks_event_reasons.active \
  --format=csv 2>/dev/null || nvidia-smi --query-gpu=name,uuid,driver_version,power.limit,clocks.sm,clocks.max.sm,temperature.gpu --format=csv

# 1. The nightly's device cases of at least 1 ms (by a kept H100 nightly run's medians), and the limits.
runs=("$root"/validation/runs/h100/nightly-board-*.json.gz)
kept=""
[ -f "${runs[0]}" ] && kept=${runs[0]}
filter=$(python3 - "$kept" <<'EOF'
import gzip, json, re, sys
names = set()
if sys.argv[1]:
    doc = json.load(gzip.open(sys.argv[1]))
    cases = doc["context"]["cudabench"]["cases"]
    for row in doc["benchmarks"]:
        c = cases.get(row.get("run_name", ""), {})
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}.get(row.get("time_unit"), 0)
        if row.get("aggregate_name") == "median" and c.get("on") == "gpu" and c.get("bound") == "device" and row["real_time"] * scale >= 1e-3:
            names.add(row["run_name"])
print("^(" + "|".join(re.escape(n) + "$" for n in sorted(names)) + ")" if names else "^(matmul|conv2d)/")
EOF
)
[ "${2:-}" = reduce ] && filter='^limits/(read|fma)$'
stamp "nightly device cases of 1 ms or more, with the limits"
timeout 300 "$bench" --quiet --preset=nightly --rounds=1 --limits --energy-min-run="${ENERGY_MIN_RUN:-0.0002}" --filter="$filter" --json "$out/energy_nightly.json" \
  --md "$out/energy_nightly.md" --csv "$out/energy_nightly.csv" >"$out/energy_nightly.txt" 2>&1
echo "exit $?: $(grep 'case(s):' "$out/energy_nightly.txt")"
python3 - "$out/energy_nightly.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
cases = doc["context"]["cudabench"]["cases"]
def si(v, unit):
    for s, p in ((1, ""), (1e-3, "m"), (1e-6, "u"), (1e-9, "n"), (1e-12, "p"), (1e-15, "f")):
        if v >= s: return f"{v / s:.3g} {p}{unit}"
    return f"{v:.3g} {unit}"
print(f"{'case':44} {'time':>10} {'energy/op':>14} {'W':>5} {'u':>6} {'window':>7} {'SM':>5} {'mem':>5} {'throttled':>10}  why no energy / throttle time")
flagged = kept = 0
for row in doc["benchmarks"]:
    if row.get("run_type") != "iteration" or "cudabench" not in row: continue
    c = cases.get(row["run_name"], {})
    e = row["cudabench"].get("energy")
    if e is None: continue
    unit = "FLOP" if c.get("flops") else "byte" if c.get("bytes") else "item" if c.get("items") else "run"
    per = row.get(f"joules_per_{unit}", row.get("energy_j") if unit == "run" else None)
    kept += row["cudabench"].get("samples", 0); flagged += e.get("throttled_samples", 0)
    busy = {k: round(v, 3) for k, v in e.get("throttle_s", {}).items() if v > 0}
    print(f"{row['run_name'][:44]:44} {row['real_time'] / 1e6:8.3f}ms {si(per, 'J/' + unit) if per else '-':>14} "
          f"{row.get('power_w', 0):5.0f} {100 * e.get('uncertainty', 0):5.2f}% {e.get('window_s', 0):6.2f}s "
          f"{row.get('sm_clock_mhz', 0):5.0f} {row.get('mem_clock_mhz', 0):5.0f} {e.get('throttled_samples', 0):>10}  "
          f"{e.get('absent', '')} {busy if busy else ''} busy {e.get('busy_fraction', 0):.2f}")
print(f"throttled samples: {flagged} of {kept}")
for name, l in doc["context"]["cudabench"].get("limits", {}).items():
    j = l.get("joules_per_unit")
    if j: print(f"energy limit {name}: {si(j, 'J/' + ('FLOP' if l['unit'] == 'FLOP/s' else 'byte' if l['unit'] == 'B/s' else 'item'))}"
                + (f" ({si(2 * j, 'J/FMA')})" if l["unit"] == "FLOP/s" else ""))
EOF
sed -n '/^Energy limits/,/^$/p' "$out/energy_nightly.txt"

# 2. A/A and 2% extra work on reduce, each compared with --gate-energy.
reduce='^reduce/(shared_tree|warp_shuffle|recursive_tail|cub|fast)/268435456$'
for run in a1 a2 extra; do
  stamp "reduce $run"
  if [ "$run" = extra ]; then export CUDABENCH_EXTRA_WORK=2; fi
  timeout 150 "$bench" --quiet --preset=nightly --rounds=5 --repetitions=5 --energy-min-run=0.0002 --filter="$reduce" --json "$out/reduce_$run.json" \
    >"$out/reduce_$run.txt" 2>&1
  echo "exit $?: $(grep 'case(s):' "$out/reduce_$run.txt")"
  unset CUDABENCH_EXTRA_WORK
done
for run in a2 extra; do
  stamp "compare reduce a1 -> $run --gate-energy"
  "$report" compare "$out/reduce_a1.json" "$out/reduce_$run.json" --gates none --gate-energy --verdict "$out/verdict_$run.json" \
    >"$out/compare_$run.txt" 2>&1
  echo "compare exit $? (1: a regression of time or, with --gate-energy, of energy)"
  sed -n '/^Energy per operation/,$p' "$out/compare_$run.txt"
done

[ "${2:-}" = reduce ] && { stamp done; exit 0; }
# 3. A sustained load, with power sampled by nvidia-smi over the same time.
stamp "sustained load: matmul/cublas, ${load_s} s energy window"
nvidia-smi --query-gpu=timestamp,power.draw,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader,nounits -lms 100 \
  >"$out/smi_power.csv" 2>/dev/null &
smi=$!
timeout $((load_s + 120)) "$bench" --quiet --preset=quick --repetitions=1 --energy-window="$load_s" --energy-min-run=0 --filter='^matmul/cublas/2048$' \
  --json "$out/sustained.json" >"$out/sustained.txt" 2>&1
echo "exit $?: $(grep 'case(s):' "$out/sustained.txt")"
kill "$smi" 2>/dev/null
wait "$smi" 2>/dev/null
python3 - "$out/sustained.json" "$out/smi_power.csv" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
w = []
for line in open(sys.argv[2]):
    parts = [p.strip() for p in line.split(",")]
    try: w.append((float(parts[1]), float(parts[2]), float(parts[4])))
    except (ValueError, IndexError): pass
busy = [x for x in w if x[0] > 0.5 * max(p for p, _, _ in w)] if w else []
for row in doc["benchmarks"]:
    if row.get("run_type") != "iteration" or "cudabench" not in row: continue
    e = row["cudabench"].get("energy", {})
    print(f"{row['run_name']}: counter {row.get('power_w', 0):.1f} W over {e.get('window_s', 0):.1f} s (u {100 * e.get('uncertainty', 0):.2f}%), "
          f"SM {row.get('sm_clock_mhz', 0):.0f} MHz, mem {row.get('mem_clock_mhz', 0):.0f} MHz, "
          f"throttled {e.get('throttled_samples', 0)} of {row['cudabench'].get('samples', 0)} samples, time under reasons {e.get('throttle_s', {})} "
          f"({e.get('throttle_source', '-')}) {e.get('absent', '')}")
if busy:
    print(f"nvidia-smi sampled (100 ms, readings over half the peak): {sum(p for p, _, _ in busy) / len(busy):.1f} W mean of {len(busy)}, "
          f"SM {sum(s for _, s, _ in busy) / len(busy):.0f} MHz, max temperature {max(t for _, _, t in busy):.0f} C")
EOF
stamp "done"

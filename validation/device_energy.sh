#!/usr/bin/env bash
# Energy's cost and verdicts on one GPU machine, with the binaries device_pack.sh packed into .devlibs/. Results
# under $OUT (or ./out); each step's line goes to OUT/energy-summary.txt, printed at the end.
# Usage: validation/device_energy.sh STEP...   (in the order given; KEPT=FILE for `other`)
#   A         the nightly share with energy alone (A of `cost`, the baseline of `aa` and `busy`) (about 1.5 minutes)
#   nightly   the whole nightly preset with energy: its wall time, its GPU cases with energy per operation and the
#             windows' own time (about 4.5 minutes)
#   none      the whole nightly preset with --no-energy (about 4 minutes)
#   cost      the nightly share (--preset=nightly over ^(limits|reduce|dot)/, 39 cases, five rounds) with energy (A)
#             and with --no-energy: their wall times and the cases with energy per operation (about 2.5 minutes)
#   aa        ci/nightly.sh over the share with A stored as its baseline and --gate-energy (B: the same code, the same
#             board), its confirmation where the comparison leaves flags unconfirmed (up to 5 minutes)
#   busy      the same with a host-memory load beside it (BUSY=1 of device_machine.sh) (up to 5 minutes)
#   other     B compared with KEPT, another board's run of the share, with --gate-energy
#   change    commit C's 2% more work in reduce and matmul (device_machine.sh change, --gate-energy) over
#             ^(limits/(read|fma)|reduce/) (CHANGED=REGEX: another filter), against a baseline measured first here
#             (up to 5 minutes)
#   windows   the A/A spread of energy per operation over 5 processes of 2 cases with windows of 0.1 s (the
#             presets'), 0.3 s (confirm's) and 1 s (about 1.5 minutes)
#   coverage  the nightly's cases with energy per operation (--rounds=1 --repetitions=1: energy is measured in a
#             run's first round only) (about 1.5 minutes)
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/device_env.sh"
[ $# -gt 0 ] || { echo "usage: validation/device_energy.sh STEP... (A, nightly, none, cost, aa, busy, other, change, windows, coverage)" >&2; exit 2; }
share='^(limits|reduce|dot)/'
summary="$out/energy-summary.txt"
uuid=$(nvidia-smi --query-gpu=uuid --format=csv,noheader | head -n 1)
echo "$(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1) $uuid, revision $CUDABENCH_GIT_REVISION, $(nproc) CPUs" | tee "$summary"

# timed NAME ARGS...: a run of the packed binary, its wall time and its GPU cases with energy per operation.
timed() {
  local name=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$bench" --quiet "$@" --json "$out/$name.json" >"$out/$name.txt" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  python3 - "$out/$name.json" "$name" "$rc" "$t0" "$t1" <<'PY' | tee -a "$summary"
import json, sys
path, name, rc, t0, t1 = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
try:
    d = json.load(open(path))
except (OSError, ValueError):
    print(f"{name}: exit {rc}, {t1 - t0:.1f} s, no results"); sys.exit()
cases = d["context"]["cudabench"]["cases"]
gpu = {n for n, c in cases.items() if c.get("on") == "gpu"}
with_energy, extra, windows, absent = set(), 0.0, [], {}
for b in d["benchmarks"]:
    e = (b.get("cudabench") or {}).get("energy") or {}
    if b.get("run_type") != "iteration" or not e or "window_s" not in e and "absent" not in e: continue
    if e.get("absent"):
        if "first" not in e["absent"]: absent[b["run_name"]] = e["absent"][:90]
        continue
    with_energy.add(b["run_name"]); extra += e.get("extra_s", 0); windows.append(e.get("window_s", 0))
line = f"{name}: exit {rc}, {t1 - t0:.1f} s, {len(cases)} cases, {len(with_energy & gpu)} of {len(gpu)} GPU cases with energy per operation"
if windows: line += f", windows {min(windows):.3f}-{max(windows):.3f} s, their extra time {extra:.1f} s"
print(line)
for n, why in sorted(absent.items()): print(f"  no energy: {n}: {why}")
PY
}

# energy_verdicts NAME VERDICT.json: the energy verdicts' counts and each case's that is not "unchanged".
energy_verdicts() {
  python3 - "$2" "$1" <<'PY' | tee -a "$summary"
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print(f"{sys.argv[2]}: no verdict ({e})"); sys.exit()
e = j.get("energy") or {}
print(f"{sys.argv[2]}: time {dict((k, n) for k, n in j['counts'].items() if n)}; energy {dict((k, n) for k, n in (e.get('counts') or {}).items() if n)}")
changes = []
for c in j.get("cases", []):
    x = c.get("energy") or {}
    if x.get("change") is not None: changes.append(abs(x["change"]))
    if x.get("verdict") not in (None, "energy unchanged", "energy not judged", "energy unmeasured"):
        ch = x.get("change")
        print(f"  {c['name']:40s} {x['verdict']:24s} {'' if ch is None else f'{100 * ch:+.2f}%':>8s} {x.get('note', '')[:100]}")
if changes:
    changes.sort()
    print(f"  |energy change| of {len(changes)} cases: median {100 * changes[len(changes) // 2]:.2f}%, largest {100 * changes[-1]:.2f}%")
PY
}

for step in "$@"; do
  case "$step" in
    A) timed share-energy-A --preset=nightly --filter="$share" ;;
    nightly) timed nightly-energy --preset=nightly ;;
    none) timed nightly-none --preset=nightly --no-energy ;;
    cost)
      timed share-energy-A --preset=nightly --filter="$share"
      timed share-none --preset=nightly --filter="$share" --no-energy
      ;;
    aa | busy)
      start=$SECONDS
      [ "$step" = busy ] && export BUSY=1
      NIGHTLY_ONLY=1 CUDABENCH_FILTER="$share" CUDABENCH_COMPARE_ARGS=--gate-energy CUDABENCH_BISECT_BUDGET=0 \
        timeout "${FLOW_TIMEOUT:-300}" bash "$root/validation/device_machine.sh" nightly "$step" "$out/share-energy-A.json" \
        >"$out/flow-$step.txt" 2>&1
      echo "ci/nightly.sh over the share, baseline A, --gate-energy ($step): exit $?, $((SECONDS - start)) s; $(grep -m1 '^nightly: confirmation' "$out/nightly-job-$step.txt")" | tee -a "$summary"
      unset BUSY
      energy_verdicts "$step, after any confirmation" "$(ls "$out/nightly-$step"/verdict-*.json 2>/dev/null | head -n 1)"
      run_json=$(ls "$out/nightly-$step"/runs/nightly-*.json 2>/dev/null | head -n 1)
      [ -n "$run_json" ] && cp "$run_json" "$out/share-energy-$step.json"
      ;;
    other)
      "$report" compare "${KEPT:?KEPT=FILE: another board run of the share}" "$out/share-energy-aa.json" --gate-energy \
        --verdict "$out/verdict-other-board.json" --md "$out/compare-other-board.md" >"$out/compare-other-board.txt" 2>&1
      echo "B against another board's share ($KEPT), --gate-energy: exit $?" | tee -a "$summary"
      energy_verdicts "other board" "$out/verdict-other-board.json"
      ;;
    change)
      changed=${CHANGED:-'^(limits/(read|fma)|reduce/)'}
      timed change-base --preset=nightly --filter="$changed"
      start=$SECONDS
      CUDABENCH_COMPARE_ARGS=--gate-energy CUDABENCH_BISECT_BUDGET=0 timeout "${FLOW_TIMEOUT:-300}" \
        bash "$root/validation/device_machine.sh" change more "$out/change-base.json" "$changed" >"$out/flow-change.txt" 2>&1
      echo "ci/nightly.sh with 2% more work in reduce, --gate-energy: exit $?, $((SECONDS - start)) s" | tee -a "$summary"
      tar -xzf "$out/change-dir-more.tgz" -C "$out" 2>/dev/null
      energy_verdicts "2% more work, after confirm" "$(ls "$out/change-more"/verdict-*.json 2>/dev/null | head -n 1)"
      ;;
    windows)
      two='^(limits/read|reduce/fast/268435456)$'
      windows=(0.1 0.3 1)   # the presets' window, confirm's, and a long one
      for w in "${windows[@]}"; do
        for k in 1 2 3 4 5; do
          "$bench" --quiet --preset=nightly --rounds=1 --repetitions=1 --energy-window="$w" --filter="$two" \
            --json "$out/window-$w-$k.json" >"$out/window-$w-$k.txt" 2>&1
        done
      done
      python3 - "$out" "${windows[@]}" <<'PY' | tee -a "$summary"
import glob, json, os, statistics, sys
out = sys.argv[1]
for w in sys.argv[2:]:
    per = {}
    for f in sorted(glob.glob(os.path.join(out, f"window-{w}-*.json"))):
        d = json.load(open(f))
        for b in d["benchmarks"]:
            if b.get("run_type") != "iteration": continue
            v = next((b[k] for k in ("joules_per_byte", "joules_per_flop", "joules_per_item") if k in b), None)
            if v: per.setdefault(b["run_name"], []).append(v)
    for n, v in sorted(per.items()):
        m = statistics.median(v)
        print(f"window {w:>4s} s  {n:32s} {len(v)} processes  median {m * 1e12:8.2f} pJ  spread (max-min)/median {100 * (max(v) - min(v)) / m:5.2f}%  "
              f"robust CV {100 * 1.4826 * statistics.median([abs(x - m) for x in v]) / m:5.2f}%")
PY
      ;;
    coverage)
      timed nightly-round-1 --preset=nightly --rounds=1 --repetitions=1
      ;;
    *) echo "validation/device_energy.sh: no step '$step' (A, nightly, none, cost, aa, busy, other, change, windows, coverage)" >&2; exit 2 ;;
  esac
done
cat "$summary"

#!/usr/bin/env bash
# What a verdict costs on one GPU machine, with the binaries device_pack.sh packed into .devlibs/ (from the
# checkout's root): start-up to first case (a fresh run of one case, 3 times, and each worker's start-up phases,
# CUDABENCH_STARTUP_TIMES=1), the quick preset with and without energy, a share of the nightly with its rounds,
# with and without energy, and `confirm` of 1 and of 10 flags (the share's run without energy as the current run;
# as the baseline, the same run with its 1 or 10 smallest gated device cases 30% faster, another board's uuid and
# no code identity; both revisions build the packed binary, so confirm measures the flagged cases alternately and
# finds them unchanged). Which cases have energy, their rounds and the checks' time come from the runs. Prints
# one Markdown table with the date, the board's uuid and the revision, and writes it to FILE (default
# $OUT/cost.md); the runs' JSON and logs go to $OUT/cost-runs.tar.gz.
# Sized for under 9 minutes on an H200: the nightly share is --nightly-filter (default ^(limits|reduce|dot)/, 37
# cases, a fifth of the time a kept H200 nightly spent in its cases); each step has a time limit within a budget
# of 530 s (CUDABENCH_COST_BUDGET_S), and the table says which ran out. --dry-run checks the arguments and the tools and prints the plan, without a GPU or the binaries.
# Usage: validation/cost.sh [--dry-run] [--out=FILE] [--nightly-filter=REGEX] [--processes=N]
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { echo "cost.sh: $*" >&2; exit 2; }
dry=0 table="" nightly_filter='^(limits|reduce|dot)/' processes=2
for arg in "$@"; do
  case "$arg" in
    --dry-run) dry=1 ;;
    --out=?*) table=${arg#--out=} ;;
    --nightly-filter=?*) nightly_filter=${arg#--nightly-filter=} ;;
    --processes=?*) processes=${arg#--processes=} ;;
    *) die "unknown argument '${arg:0:60}' (usage: validation/cost.sh [--dry-run] [--out=FILE] [--nightly-filter=REGEX] [--processes=N])" ;;
  esac
done
[[ "$processes" =~ ^[1-9]$ ]] || die "--processes=${processes:0:20} is not a count of processes from 1 to 9"
command -v python3 >/dev/null || die "python3 is needed (the timings and the table)"
python3 -c 'import re, sys; re.compile(sys.argv[1])' "$nightly_filter" 2>/dev/null || die "--nightly-filter is not a regular expression"
if [ "$dry" = 1 ]; then
  out="${OUT:-$(pwd)/out}"
  table=${table:-$out/cost.md}
  [ -d "$(dirname "$table")" ] || [ "$(dirname "$table")" = "$out" ] || die "$(dirname "$table"): no such folder for the table"
  echo "cost.sh (dry run): table to $table, runs to $out/cost-runs.tar.gz"
  echo "  start-up: 3 x --preset=nightly --rounds=1 --repetitions=1 --filter='^limits/launch\$', to its first progress line"
  echo "  quick: the preset, then --no-energy"
  echo "  nightly share: --preset=nightly --filter='$nightly_filter', then --no-energy"
  echo "  confirm: 1 and 10 flags of the nightly share, --processes=$processes"
  exit 0
fi
. "$here/device_env.sh"
table=${table:-$out/cost.md}
[ -x "$bench" ] || die "$bench is missing: run 'bash ci/build.sh && validation/device_pack.sh' and carry .devlibs"
work=$(mktemp -d) || die "no temporary folder"
trap 'rm -rf "$work"' EXIT
rows="$work/rows.tsv"
began=$SECONDS budget=${CUDABENCH_COST_BUDGET_S:-530}  # the whole script's seconds; a step gets what is left
left() { local l=$(( budget - (SECONDS - began) )); [ "$1" -lt "$l" ] && echo "$1" || echo "$l"; }
: >"$rows"
row() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$rows"; echo "cost: $1: $2 ($3)" >&2; }
wall() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' "$1" "$(date +%s.%N)"; }
counts() { grep -h 'case(s):' "$1" | tail -n 1 | sed 's/^ *//'; }

# Start-up: seconds from starting the runner to its worker's first progress line (the case starting).
startup() {
  python3 - "$bench" "$work" <<'PY'
import os, re, statistics, subprocess, sys, time
bench, work = sys.argv[1], sys.argv[2]
env = dict(os.environ, CUDABENCH_STARTUP_TIMES="1")
firsts, totals, phases = [], [], []
for i in range(3):
    t0 = time.monotonic()
    p = subprocess.Popen([bench, "--preset=nightly", "--rounds=1", "--repetitions=1", "--filter=^limits/launch$",
                          "--json", f"{work}/startup-{i}.json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True, env=env)
    first = None
    with open(f"{work}/startup-{i}.txt", "w") as log:
        for line in p.stderr:
            log.write(line)
            if first is None and line.startswith("[1/"):
                first = time.monotonic() - t0
            if line.startswith("startup:"):
                phases.append(line.strip())
    p.wait()
    totals.append(time.monotonic() - t0)
    if first is not None and p.returncode == 0:
        firsts.append(first)
def last(event):
    said = [p[len("startup: "):] for p in phases if f" to {event} (" in p]
    return said[-1] if said else "no startup line"
if not firsts:
    print("no run reached its first case\t-")
else:
    print(f"{statistics.median(firsts):.2f} s (median of {len(firsts)}; runs {min(totals):.1f}-{max(totals):.1f} s)\t"
          f"worker: {last('its first case')}; supervisor: {last('its first worker')}")
PY
}
s=$(startup)
row "start-up to first case" "${s%%$'\t'*}" "3 fresh runs of limits/launch; the last run's ${s#*$'\t'}"

# One timed run: NAME LIMIT ARGS...; its wall time, or what stopped it.
timed() {
  local name=$1 limit; limit=$(left "$2"); shift 2
  [ "$limit" -ge 10 ] || { echo "not run (the script's time budget is spent)"; return; }
  local start; start=$(date +%s.%N)
  timeout "$limit" "$bench" --quiet "$@" --json "$work/$name.json" >"$work/$name.txt" 2>&1
  local rc=$? took; took=$(wall "$start")
  if [ "$rc" = 124 ]; then echo "over ${limit} s (stopped)"; else echo "$took s, exit $rc, $(counts "$work/$name.txt")"; fi
}
row "quick, energy" "$(timed quick-energy 150)" "cudabench"
row "quick, --no-energy" "$(timed quick-none 120)" "cudabench --no-energy"
row "nightly share, rounds, energy" "$(timed nightly-energy 170 --preset=nightly --filter="$nightly_filter")" \
  "--preset=nightly --filter='$nightly_filter'"
row "nightly share, rounds, --no-energy" "$(timed nightly-none 150 --preset=nightly --filter="$nightly_filter" --no-energy)" \
  "the same, --no-energy"

# Which cases have energy, and in which rounds their windows were taken.
coverage() {  # RUN.json
  python3 - "$1" <<'PY' 2>/dev/null || echo "no run"
import collections, json, sys
d = json.load(open(sys.argv[1]))
gpu = {n for n, c in d["context"]["cudabench"].get("cases", {}).items() if c.get("on") == "gpu"}
with_energy, rounds, extra = set(), collections.Counter(), 0.0
for r in d["benchmarks"]:
    e = (r.get("cudabench") or {}).get("energy") or {}
    if r.get("run_type") == "iteration" and e and not e.get("absent"):
        with_energy.add(r["run_name"]); rounds[(r.get("cudabench") or {}).get("round", 1)] += 1
        extra += e.get("extra_s", 0)
checks = collections.defaultdict(float)  # a case's check: the longest of its repetitions' (the others reuse it)
for r in d["benchmarks"]:
    if r.get("run_type") == "iteration":
        checks[r["run_name"]] = max(checks[r["run_name"]], (r.get("cudabench") or {}).get("check_s", 0))
print(f"{len(with_energy)} of {len(gpu)} GPU cases with energy per operation; windows by round {dict(sorted(rounds.items()))}; "
      f"energy phases {extra:.1f} s; checks {sum(checks.values()):.1f} s"
      + (f" (limits/copy_d2d {checks['limits/copy_d2d']:.2f} s)" if "limits/copy_d2d" in checks else ""))
PY
}
row "quick, energy and checks" "$(coverage "$work/quick-energy.json")" "from the quick run's JSON"
row "nightly share, energy and checks" "$(coverage "$work/nightly-energy.json")" "from the nightly share's JSON"

# confirm of N flags: the nightly share's run as the current run, and as the baseline with another board's uuid,
# no code identity (as an older baseline) and N gated GPU cases 30% faster, so N flags stand unconfirmed.
repo="$work/repo"
git init -q "$repo" && git -C "$repo" config user.email cost@example.com && git -C "$repo" config user.name cost
printf '#!/bin/sh\nmkdir -p build/bench && cp "%s" build/bench/cudabench\n' "$bench" >"$repo/build.sh" && chmod +x "$repo/build.sh"
echo A >"$repo/notes" && git -C "$repo" add -A && git -C "$repo" commit -qm A && a=$(git -C "$repo" rev-parse HEAD)
echo B >>"$repo/notes" && git -C "$repo" commit -qam B && b=$(git -C "$repo" rev-parse HEAD)
confirm() {  # N LIMIT
  local n=$1 limit; limit=$(left "$2")
  [ "$limit" -ge 10 ] || { echo "not run (the script's time budget is spent)"; return; }
  python3 - "$work/nightly-none.json" "$n" "$a" "$b" "$work/confirm-$n" <<'PY' || { echo "no inputs (the nightly share did not run)"; return; }
import json, sys
src, n, a, b, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
cur = json.load(open(src))
cases = cur["context"]["cudabench"].get("cases", {})
rows = [r for r in cur["benchmarks"] if r.get("run_type") == "iteration" and not r.get("error_occurred")]
meta = lambda name: cases.get(name) or {}
gated = [name for name in dict.fromkeys(r["run_name"] for r in rows)
         if not name.startswith("limits/") and meta(name).get("on") == "gpu" and meta(name).get("bound") == "device"
         and meta(name).get("gated", True)]
gated = sorted(gated, key=lambda name: (meta(name).get("bytes", 0), name))[:n]  # the smallest: confirm fits the budget
if len(gated) < n:
    sys.exit(1)
base = json.loads(json.dumps(cur))
base["context"]["cudabench"]["git_revision"], cur["context"]["cudabench"]["git_revision"] = a, b
base["context"]["device"]["uuid"] = "GPU-00000000-0000-0000-0000-00000000c057"
for r in base["benchmarks"]:
    (r.get("cudabench") or {}).pop("code", None)
    if r.get("run_name", r["name"]) in gated:
        for k in ("real_time", "cpu_time"):
            if isinstance(r.get(k), (int, float)):
                r[k] = r[k] / 1.3
json.dump(base, open(dst + "-base.json", "w"))
json.dump(cur, open(dst + "-cur.json", "w"))
PY
  local start rc; start=$(date +%s.%N)
  (cd "$repo" && timeout "$limit" "$bench" confirm "$work/confirm-$n-base.json" "$work/confirm-$n-cur.json" \
     --build="$repo/build.sh" --binary=build/bench/cudabench --processes="$processes" \
     --verdict "$work/confirm-$n-verdict.json") >"$work/confirm-$n.txt" 2>&1
  rc=$?
  if [ "$rc" = 124 ]; then echo "over ${limit} s (stopped)"; else echo "$(wall "$start") s, exit $rc"; fi
}
row "confirm, 1 flag" "$(confirm 1 90)" "confirm BASE CUR --processes=$processes"
row "confirm, 10 flags" "$(confirm 10 150)" "the same, 10 flags"

revision=${CUDABENCH_GIT_REVISION:-$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)}
board=$(nvidia-smi --query-gpu=name,uuid --format=csv,noheader 2>/dev/null | head -n 1)
python3 - "$rows" "$table.tmp" "$(date -u +%Y-%m-%dT%H:%MZ)" "${board:-unknown board}" "$revision" <<'PY'
import sys
rows, dst, date, board, rev = sys.argv[1:6]
lines = [f"Measured {date} on {board}, revision {rev[:12]} (`validation/cost.sh`).", "",
         "| figure | value | how |", "|---|---|---|"]
for line in open(rows):
    figure, value, command = (line.rstrip("\n").split("\t") + ["", ""])[:3]
    cell = lambda t: t.replace("|", "\\|")
    lines.append(f"| {cell(figure)} | {cell(value)} | {cell(command)} |")
open(dst, "w").write("\n".join(lines) + "\n")
PY
mv "$table.tmp" "$table"
tar -czf "$out/cost-runs.tar.gz" -C "$work" --exclude=repo . 2>/dev/null
cat "$table"

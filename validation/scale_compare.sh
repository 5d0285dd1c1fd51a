#!/usr/bin/env bash
# compare at a million rows a side, all four outputs, in both shapes (100,000 cases of ten rows; a million cases of
# one row), on a quiet machine: the inputs made by tools/scale/make_results.py (the current side 10% slower), then
# `compare` timed alone. One line a shape: the input (MiB, both files), CPU (user + system, s), wall (s), peak
# resident (MiB) and peak / input. Needs python3 and about 12 GB of free space in TMPDIR.
# Usage: validation/scale_compare.sh REPORT_BINARY [ROWS]   (ROWS: default 1000000)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
report=${1:?usage: validation/scale_compare.sh REPORT_BINARY [ROWS]}
rows=${2:-1000000}
[ -x "$report" ] || { echo "scale_compare.sh: $report is not an executable" >&2; exit 2; }
[[ "$rows" =~ ^[1-9][0-9]{0,7}$ ]] || { echo "scale_compare.sh: ROWS '${rows:0:20}' is not a count of rows" >&2; exit 2; }
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
echo "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
for reps in 10 1; do
  d="$work/r$reps" && mkdir -p "$d"
  python3 "$root/tools/scale/make_results.py" --rows "$rows" --repetitions "$reps" --out "$d/base.json" &
  python3 "$root/tools/scale/make_results.py" --rows "$rows" --repetitions "$reps" --slower 10 --seed 2 \
    --date 2026-11-23T04:43:46+00:00 --out "$d/cur.json"
  wait
  # CPU and peak memory of the compare alone, from the kernel's accounting of the child
  python3 - "$report" "$d" "$rows" "$reps" <<'PY'
import os, resource, subprocess, sys, time
report, d, rows, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
inputs = (os.path.getsize(f"{d}/base.json") + os.path.getsize(f"{d}/cur.json")) / 2**20
t = time.time()
with open(f"{d}/c.txt", "w") as out:
    rc = subprocess.run([report, "compare", f"{d}/base.json", f"{d}/cur.json", "--md", f"{d}/c.md", "--html", f"{d}/c.html",
                         "--csv", f"{d}/c.csv", "--verdict", f"{d}/v.json"], stdout=out, stderr=subprocess.STDOUT).returncode
wall = time.time() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
peak = u.ru_maxrss / 1024
shape = f"{rows // reps:,} cases of {reps}"
print(f"| {rows:,} | {shape} | {inputs:,.0f} | {u.ru_utime + u.ru_stime:.1f} ({u.ru_utime:.1f} + {u.ru_stime:.1f}) | {wall:.1f} | "
      f"{peak:,.0f} | {peak / inputs:.2f} | exit {rc}")
PY
  rm -rf "$d"
done

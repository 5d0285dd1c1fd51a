#!/usr/bin/env python3
"""Reads ncu raw CSV output (ncu_stdout.log) and compares per-run kernel time with the harness medians.
Usage: validation/ncu_parse.py NCU_STDOUT_LOG OUT_CSV RESULT_JSON"""
import csv, json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_check import nvtx_ranges
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
    names = nvtx_ranges(r[4])
    if not names:
        continue
    case, phase = names[0].replace(":", "/"), names[-1]
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

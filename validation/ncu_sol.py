#!/usr/bin/env python3
"""Prints one line per kernel from `ncu --csv --page raw --print-units base` output (the SpeedOfLight section
and any extra metrics): time, the throughputs of each unit as % of its peak, DRAM bytes, and the unit with
the highest throughput (the limiter in Nsight Compute's speed-of-light sense).
Usage: validation/ncu_sol.py NCU_CSV"""
import csv, sys

UNITS = [("dram", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"),
         ("L2", "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
         ("L1/shared", "l1tex__throughput.avg.pct_of_peak_sustained_active"),
         ("SM", "sm__throughput.avg.pct_of_peak_sustained_elapsed")]
rows = list(csv.reader(open(sys.argv[1])))
hdr = next((r for r in rows if r and r[0] == "ID"), None)
if hdr is None:
    sys.exit("no kernel profiled")
num = lambda s: float(s.replace(",", "")) if s.replace(",", "").replace(".", "", 1).isdigit() else float("nan")
for r in rows:
    if not r or not r[0].isdigit():
        continue
    d = dict(zip(hdr, r))
    units = [(name, num(d[m])) for name, m in UNITS if m in d]
    limiter = max(units, key=lambda u: u[1])[0] if units else "?"
    fma = d.get("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active")
    extra = " (FMA pipe busy %.1f%%)" % num(fma) if fma and num(fma) >= 5 else ""
    print("%-28s %9.1f us | %s | read %.3f GB write %.3f GB | limiter %s%s" % (
        d.get("Kernel Name", "?")[:28], num(d["gpu__time_duration.sum"]) / 1e3,
        " ".join("%s %.1f%%" % u for u in units),
        num(d.get("dram__bytes_read.sum", "nan")) / 1e9, num(d.get("dram__bytes_write.sum", "nan")) / 1e9, limiter, extra))

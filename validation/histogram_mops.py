#!/usr/bin/env python3
"""Prints the histogram family's throughput as the source material reports it (million operations per
second: input elements / median time), and how many counts histogram/naive lost, from a result JSON.
Usage: validation/histogram_mops.py RESULT.json"""
import json, math, sys

rows = json.load(open(sys.argv[1]))["benchmarks"]
# With repetitions, the median aggregate rows; with one repetition, the iteration rows.
med = {r["run_name"]: r for r in rows if r.get("aggregate_name") == "median"}
if not med:
    med = {r["run_name"]: r for r in rows if r.get("run_type") == "iteration"}
hist = {k: v for k, v in med.items() if k.startswith("histogram/") and "items_per_second" in v}
variants = list(dict.fromkeys(k.split("/")[1] for k in hist))
sizes = sorted({int(k.split("/")[2]) for k in hist})
label = lambda n: "2^%d" % int(math.log2(n)) if n & (n - 1) == 0 else str(n)
print("| variant | " + " | ".join(label(n) for n in sizes) + " |")
print("|---|" + "---:|" * len(sizes))
for v in variants:
    cells = []
    for n in sizes:
        r = hist.get("histogram/%s/%d" % (v, n))
        cells.append("{:,.0f}".format(r["items_per_second"] / 1e6) if r else "-")
    print("| `%s` | %s |" % (v, " | ".join(cells)))
# The repetitions that counted them (with rounds, those of the round that checked its result).
def lost_fraction(n):
    fr = sorted(r["lost_fraction"] for r in rows
                if r.get("run_type") == "iteration" and r.get("run_name") == "histogram/naive/%d" % n and "lost_fraction" in r and r.get("cudabench", {}).get("checked", True))
    return fr[(len(fr) - 1) // 2] if fr else None
lost = ["%s: %.1f%% of the counts lost" % (label(n), 100 * lost_fraction(n)) for n in sizes if lost_fraction(n) is not None]
if lost:
    print("\n`histogram/naive` is wrong by design; its `lost_counts` counter (median over the repetitions that checked "
          "their result) says how wrong: " + "; ".join(lost) + ".")

#!/usr/bin/env python3
"""Prints each case's median from one or more results files of the same selection (--json of a run): the
median of every file in microseconds, then the first file's % of limit and bandwidth, and the cases that
failed. With --floor=LIMIT:BYTES, also each case's best median over the time BYTES take at LIMIT's rate
(averaged over the files), with the cases sorted by it.
Usage: validation/medians.py [--floor=LIMIT:BYTES] RESULTS.json [RESULTS.json ...]"""
import collections, json, sys

SCALE = {"ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6}

args = sys.argv[1:]
floor_of = None
if args and args[0].startswith("--floor="):
    limit, size = args.pop(0)[len("--floor="):].rsplit(":", 1)
    floor_of = (limit, float(size))
if not args:
    sys.exit(__doc__)
medians = collections.OrderedDict()
first = {}
rates = []
for path in args:
    doc = json.load(open(path))
    limits = doc["context"]["cudabench"].get("limits", {})
    if path == args[0]:
        print("limits:", {k: "%.4g %s" % (v["rate"], v["unit"]) for k, v in limits.items()})
    if floor_of and floor_of[0] in limits:
        rates.append(limits[floor_of[0]]["rate"])
    for r in doc["benchmarks"]:
        if r.get("aggregate_name") == "median":
            medians.setdefault(r["run_name"], []).append(r["real_time"] * SCALE[r["time_unit"]])
            first.setdefault(r["run_name"], r)
        elif r.get("error_message"):
            print("%-36s ERROR %s" % (r["name"], r["error_message"]))
floor = floor_of[1] / (sum(rates) / len(rates)) * 1e6 if rates else None
if floor_of:
    print("%s per file: %s; floor %s" % (floor_of[0], ["%.4g" % r for r in rates], "%.1f us" % floor if floor else "unknown"))
names = list(medians)
if floor:
    names.sort(key=lambda n: min(medians[n]))
for name in names:
    r = first[name]
    line = "%-36s %s us  %6.1f%% of limit  %8.1f GB/s" % (name, " ".join("%9.1f" % v for v in medians[name]),
                                                          100 * (r.get("limit_fraction") or 0), r.get("bytes_per_second", 0) / 1e9)
    if floor:
        line += "  best %.3fx floor" % (min(medians[name]) / floor)
    print(line)

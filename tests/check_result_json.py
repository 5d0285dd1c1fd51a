#!/usr/bin/env python3
"""Checks the shape of a cudabench JSON result: Google Benchmark's schema plus our context and rows."""
import json
import sys

path, family = sys.argv[1], sys.argv[2]
j = json.load(open(path))
ctx = j["context"]
dev = ctx["device"]
meta = ctx["cudabench"]
assert meta["schema_version"] == 2 and meta["preset"] == "quick", meta
for key in ("git_revision", "git_dirty", "host_name", "families", "cases"):
    assert key in meta, key
assert family in meta["families"] and meta["families"][family]["references"], meta["families"]
rows = j["benchmarks"]
assert rows, "no rows"
names = {r["name"] for r in rows}
assert all(n.startswith(family + "/") for n in names), names
assert not any(":" in n for n in names), "Google Benchmark suffixes left in names"
for r in rows:
    case = meta["cases"][r["run_name"]]
    if r.get("error_occurred"):
        raise AssertionError("case failed: %s: %s" % (r["name"], r.get("error_message")))
    if case["on"] == "gpu" and not dev["available"]:
        assert r.get("skipped") is True and r["skip_message"] == dev["unavailable_reason"], r
        continue
    assert r["real_time"] > 0 and r["time_unit"] in ("ns", "us", "ms", "s"), r
    assert r["bytes_per_second"] > 0 and r["samples"] >= 1, r
    assert r["cudabench"]["stop"] in ("noise", "time_cap"), r
    if case["on"] == "gpu":
        assert 0 < r["bw_peak_fraction"] < 1.5, r
        for key in ("name", "compute_capability", "sm_count", "memory_clock_mhz", "memory_bus_width_bits", "driver_version", "runtime_version"):
            assert key in dev, key
print("ok: %d rows, device available: %s" % (len(rows), dev["available"]))

#!/usr/bin/env python3
"""Writes hostile variants of a result file for the reader tests.
usage: hostile_results.py Q.json OUT_DIR
  overflow.json   a real_time of 1e400 (overflows a double)
  deep.json       150,000 nested arrays inside context (valid JSON)
  spaces.json     30,000 spaces after a colon
  longname.json   names with 30,000 digits after iterations: and min_time:
  nounit.json     a row without time_unit
  huge_time.json  a real_time of 1e308 us
  big.json        100,000 rows
"""
import json
import os
import sys

q, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
text = open(q).read()
doc = json.loads(text)


def write(name, s):
    with open(os.path.join(out, name), "w") as f:
        f.write(s)


first = json.dumps(doc["benchmarks"][0]["real_time"])
d = json.loads(text)
d["benchmarks"][0]["real_time"] = "OVERFLOW"
write("overflow.json", json.dumps(d).replace('"OVERFLOW"', "1e400", 1))
d = json.loads(text)
d["context"]["deep"] = "DEEP"
write("deep.json", json.dumps(d).replace('"DEEP"', "[" * 150000 + "]" * 150000, 1))
write("spaces.json", text.replace('"benchmarks":', '"benchmarks":' + " " * 30000, 1))
d = json.loads(text)
for r in d["benchmarks"]:
    r["name"] += "/iterations:" + "9" * 30000
    r["run_name"] += "/min_time:" + "1" * 30000
write("longname.json", json.dumps(d))
d = json.loads(text)
del d["benchmarks"][0]["time_unit"]
write("nounit.json", json.dumps(d))
d = json.loads(text)
d["benchmarks"][0]["real_time"] = 1e308
write("huge_time.json", json.dumps(d))
rows = [{"name": "fam/v/%d" % i, "run_name": "fam/v/%d" % i, "run_type": "iteration", "repetitions": 1,
         "repetition_index": 0, "threads": 1, "iterations": 1, "real_time": 10.0 + i % 7, "cpu_time": 10.0,
         "time_unit": "us"} for i in range(100000)]
write("big.json", json.dumps({"context": {"date": "x"}, "benchmarks": rows}))

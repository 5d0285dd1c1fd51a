#!/usr/bin/env python3
"""Checks a dashboard export against its format's documented shape and against the run it came from.

usage: check_exports.py gab|bmf EXPORT.json RESULT.json
  gab  github-action-benchmark `customSmallerIsBetter`: an array of {name, unit, value[, range, extra]}
       with string name/unit/range/extra and a number value
  bmf  Bencher Metric Format (its JSON schema, https://bencher.dev/bmf.json): an object of benchmarks, each
       an object of measures, each an object with a number `value` and optional number lower/upper_value
Both: one entry per measured case of RESULT.json (skipped and failed ones left out), values positive.
"""
import json
import sys


def measured_cases(result):
    names = []
    for r in json.load(open(result))["benchmarks"]:
        if r.get("run_type", "iteration") != "iteration":
            continue
        if r.get("skipped") or r.get("error_occurred"):
            continue
        # Google Benchmark's own suffixes (/iterations:1, /repeats:10, /manual_time) are not part of a case name
        name = "/".join(p for p in r["run_name"].split("/") if ":" not in p and p not in ("manual_time", "real_time", "process_time"))
        if name not in names:
            names.append(name)
    return names


def main(kind, export, result):
    doc = json.load(open(export))
    want = measured_cases(result)
    problems = []
    if kind == "gab":
        if not isinstance(doc, list):
            return ["not a JSON array"]
        for e in doc:
            if not isinstance(e, dict) or not isinstance(e.get("name"), str) or not isinstance(e.get("unit"), str):
                problems.append("entry without a string name and unit: %r" % (e,))
                continue
            if not isinstance(e.get("value"), (int, float)) or isinstance(e.get("value"), bool) or not e["value"] > 0:
                problems.append("%s: value is not a positive number" % e["name"])
            for key in ("range", "extra"):
                if key in e and not isinstance(e[key], str):
                    problems.append("%s: %s is not a string" % (e["name"], key))
        names = [e.get("name") for e in doc if isinstance(e, dict)]
    else:
        if not isinstance(doc, dict):
            return ["not a JSON object"]
        for name, measures in doc.items():
            if not name or not isinstance(measures, dict) or not measures:
                problems.append("%r: not an object of measures" % name)
                continue
            for m, metric in measures.items():
                if not isinstance(metric, dict) or not isinstance(metric.get("value"), (int, float)):
                    problems.append("%s/%s: no number value" % (name, m))
                    continue
                for key in ("lower_value", "upper_value"):
                    if key in metric and not isinstance(metric[key], (int, float)):
                        problems.append("%s/%s: %s is not a number" % (name, m, key))
                lo, hi = metric.get("lower_value", metric["value"]), metric.get("upper_value", metric["value"])
                if not (0 < lo <= metric["value"] <= hi):
                    problems.append("%s/%s: not 0 < lower <= value <= upper" % (name, m))
            if "latency" not in measures:
                problems.append("%s: no latency" % name)
        names = list(doc)
    if len(set(names)) != len(names):
        problems.append("duplicate names")
    if sorted(names) != sorted(want):
        problems.append("cases %s, want the measured ones %s" % (sorted(names), sorted(want)))
    return problems


if __name__ == "__main__":
    problems = main(*sys.argv[1:4])
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)

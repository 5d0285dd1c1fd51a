#!/usr/bin/env python3
"""Reads the verdict files of injected-slowdown comparisons (run_bench compare BASE.json INJECTED.json --gates G
--verdict V.json) and prints, per file, how many gated device cases of at least MIN_US qualify (their gate below
the measured change) and how many of those were flagged, then every qualifying case not flagged.
Usage: validation/inject_table.py [--min-us=20] LABEL=VERDICT.json..."""
import json
import sys


def main(argv):
    min_us = 20.0
    pairs = []
    for a in argv:
        if a.startswith("--min-us="):
            min_us = float(a.split("=", 1)[1])
        elif "=" in a:
            pairs.append(a.split("=", 1))
        else:
            sys.exit(f"inject_table.py: '{a}' is not LABEL=VERDICT.json")
    if not pairs:
        sys.exit(__doc__)
    print(f"| injected | gated device cases | of {min_us:g} us or more | gate below the change | flagged |")
    print("|---|---:|---:|---:|---:|")
    misses = []
    for label, path in pairs:
        cases = json.load(open(path))["cases"]
        gated = [c for c in cases if c["verdict"] not in ("not gated", "new", "missing", "failed", "skipped")]
        long_ = [c for c in gated if c["baseline_median_s"] >= min_us * 1e-6]
        qualify = [c for c in long_ if c.get("gate") is not None and c["gate"] < c["change"]]
        flagged = [c for c in qualify if c["verdict"] == "regression"]
        print(f"| {label} | {len(gated)} | {len(long_)} | {len(qualify)} ({100 * len(qualify) / len(gated):.0f}% of gated) "
              f"| {len(flagged)} of {len(qualify)} |")
        misses += [(label, c) for c in qualify if c["verdict"] != "regression"]
    for label, c in misses:
        print(f"not flagged ({label}): {c['name']} {100 * c['change']:+.1f}%, gate {100 * c['gate']:.1f}% "
              f"({c.get('gate_source')}), verdict {c['verdict']}, p {c.get('p_value')}")


if __name__ == "__main__":
    main(sys.argv[1:])

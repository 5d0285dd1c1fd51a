#!/usr/bin/env python3
"""Fails when a test skipped that must run here: every label may skip only where its hardware is missing.

Usage: ci/skipped_tests.py BUILD_DIR TEST_LOG [LABEL...]   (the labels that may skip; default: gpu)
Reads the tests' labels from `ctest --show-only=json-v1` and the skipped tests from ctest's log.
"""
import json
import re
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: ci/skipped_tests.py BUILD_DIR TEST_LOG [LABEL...]", file=sys.stderr)
        return 2
    build, log = sys.argv[1], sys.argv[2]
    may_skip = set(sys.argv[3:] or ["gpu"])
    listing = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, capture_output=True, text=True, check=True)
    labels = {}
    for test in json.loads(listing.stdout)["tests"]:
        for prop in test.get("properties", []):
            if prop["name"] == "LABELS":
                labels[test["name"]] = set(prop["value"])
    try:
        text = open(log, encoding="utf-8", errors="replace").read()
    except OSError as e:
        print(f"ci/skipped_tests.py: {log}: {e.strerror}", file=sys.stderr)
        return 2
    skipped = re.findall(r"^\s*\d+ - (\S+) \(Skipped\)\s*$", text, re.MULTILINE)
    wrong = [name for name in skipped if not labels.get(name, set()) & may_skip]
    for name in wrong:
        print(f"ci: {name} (labels: {', '.join(sorted(labels.get(name, set()))) or 'none'}) skipped, and under CI only "
              f"tests labelled {', '.join(sorted(may_skip))} may skip")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Prints where the stored baseline for a result lives: BASELINE_DIR/<gpu-model>/<preset>.json, with the
model named as the runner's device_info::model_slug() names it (the layout of --baseline-dir).
Usage: ci/baseline_path.py RESULT.json BASELINE_DIR"""
import json
import re
import sys

ctx = json.load(open(sys.argv[1]))["context"]
name = ctx.get("device", {}).get("name") or "no-gpu"
slug = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9.-]", "_", name)).strip("_")
print("%s/%s/%s.json" % (sys.argv[2], slug, ctx.get("cudabench", {}).get("preset", "nightly")))

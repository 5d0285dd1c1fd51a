#!/usr/bin/env python3
"""Prints where the stored baseline for a result lives: reports/baselines/<gpu-model>/<preset>.json under
ROOT, with the model named as the runner's device_info::model_slug() names it.
Usage: ci/baseline_path.py RESULT.json ROOT"""
import json
import re
import sys

ctx = json.load(open(sys.argv[1]))["context"]
name = ctx.get("device", {}).get("name") or "no-gpu"
slug = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9.-]", "_", name)).strip("_")
print("%s/reports/baselines/%s/%s.json" % (sys.argv[2], slug, ctx.get("cudabench", {}).get("preset", "nightly")))

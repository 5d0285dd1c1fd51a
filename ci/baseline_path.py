#!/usr/bin/env python3
"""Prints where the stored baseline for a result lives: BASELINE_DIR/<gpu-model>/<preset>.json, with the
model named as the runner's device_info::model_slug() names it (the layout of --baseline-dir; a history store
keeps the same model's runs under <gpu-model>/<preset>/).
Usage: ci/baseline_path.py RESULT.json BASELINE_DIR [--preset=NAME]
  --preset: the preset the result must be of; a result of another preset is refused (exit 2, one line)."""
import json
import re
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--preset=")]
want = [a[len("--preset="):] for a in sys.argv[1:] if a.startswith("--preset=")]
if len(args) != 2:
    sys.exit(__doc__)
try:
    ctx = json.load(open(args[0]))["context"]
    name = (ctx.get("device") or {}).get("name") or "no-gpu"
    preset = (ctx.get("cudabench") or {}).get("preset") or "nightly"
except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
    print("ci/baseline_path.py: %s: not a results file (%s)" % (args[0], e), file=sys.stderr)
    sys.exit(2)
if want and want[-1] != preset:
    print("ci/baseline_path.py: %s is a run of preset '%s', not '%s': a baseline is stored under the preset its run was made with "
          "(run the '%s' preset, or give --preset=%s)" % (args[0], preset, want[-1], want[-1], preset), file=sys.stderr)
    sys.exit(2)
if not re.fullmatch(r"[A-Za-z0-9_.-]+", preset) or preset in (".", ".."):
    print("ci/baseline_path.py: %s: its preset '%s' is not a preset name" % (args[0], preset), file=sys.stderr)
    sys.exit(2)
slug = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9.-]", "_", name)).strip("_")
if slug in ("", ".", ".."):
    print("ci/baseline_path.py: %s: its GPU model '%s' names no directory" % (args[0], name), file=sys.stderr)
    sys.exit(2)
print("%s/%s/%s.json" % (args[1], slug, preset))

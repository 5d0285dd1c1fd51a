#!/usr/bin/env python3
"""Prints, per board, the limits its kept nightly runs measured (the rates in context.cudabench.limits):
read and device-to-device copy in TB/s, pinned host copies in GB/s, ranges where a board has several runs.
Usage: validation/boards_limits.py [RUN.json[.gz]...]   (default: validation/runs/h100/*.json.gz)"""
import glob
import gzip
import json
import os
import sys

COLUMNS = [("limits/read", 1e12, "read TB/s"), ("limits/copy_d2d", 1e12, "copy TB/s"),
           ("limits/h2d_pinned", 1e9, "h2d pinned GB/s"), ("limits/d2h_pinned", 1e9, "d2h pinned GB/s")]


def main(paths):
    if not paths:
        paths = sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs", "h100", "*.json.gz")))
    boards = {}
    for path in paths:
        with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
            ctx = json.load(f)["context"]
        board = ctx["device"].get("uuid", "?")[:12]
        limits = ctx["cudabench"].get("limits", {})
        rates = boards.setdefault(board, [])
        rates.append([limits.get(name, {}).get("rate", float("nan")) / scale for name, scale, _ in COLUMNS])
    print("| board | runs | " + " | ".join(title for _, _, title in COLUMNS) + " |")
    print("|---|---:|" + "---:|" * len(COLUMNS))
    for board, runs in sorted(boards.items()):
        cells = []
        for i, (_, scale, _) in enumerate(COLUMNS):
            values = [run[i] for run in runs]
            digits = 3 if scale == 1e12 else 2
            lo, hi = min(values), max(values)
            cells.append(f"{lo:.{digits}f}" if f"{lo:.{digits}f}" == f"{hi:.{digits}f}" else f"{lo:.{digits}f}-{hi:.{digits}f}")
        print(f"| {board} | {len(runs)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""The CI scripts ask the run store where its files are (RUN_BENCH store; analysis/run_store.hpp), never spell its
layout themselves: no code line of a script under ci/ (shell, Python, SLURM batch) names a gates file beside a
baseline (.gates.json), a results folder's runs folder (runs/, /runs), its newest run (latest.json) or learned gates
(gates.json), joins a GPU model and a preset into a slot ($model/$preset), or names a baseline by its preset
($preset.json, $X/nightly.json). Comments may describe the layout: comment lines and a line's trailing comment are
skipped.
Usage: store_layout_lint.py SOURCE_DIR   (exit 1, naming each file and line, when one does)
       store_layout_lint.py --self-test  (planted literals must be caught, a clean tree must pass)"""
import os
import re
import sys
import tempfile

from lint_main import lint_main

SCANNED_DIR = "ci"
SCANNED_EXTS = (".sh", ".py", ".sbatch")
VAR = r"\$\{?\w+\}?"  # a shell variable's expansion, $x or ${x}
LITERALS = [
    ("a gates file beside a baseline", re.compile(r"\.gates\.json")),
    # GitHub's actions/runs/ID addresses are no folder of the store.
    ("a runs folder", re.compile(r"(?<!actions/)(?<![\w.${-])runs/|(?<!actions)/runs(?![\w.-])")),
    ("the newest run's or the learned gates' name", re.compile(r"(?<![\w.-])(?:latest|gates)\.json")),
    ("a <model>/<preset> slot", re.compile(r"\$\{?\w*model\w*\}?/\$\{?\w*preset|\{\w*model\w*\}/\{\w*preset")),
    ("a baseline named by its preset", re.compile(r"\$\{?\w*preset\w*\}?\.json|" + VAR + r"/nightly\.json")),
]
# A comment: the whole line, or what follows a '#' that stands alone after code.
COMMENT = re.compile(r"(?:^|\s)#(?:\s.*)?$")


def scanned_files(root):
    for folder, _, files in os.walk(os.path.join(root, SCANNED_DIR)):
        for name in sorted(files):
            if name.endswith(SCANNED_EXTS):
                yield os.path.join(folder, name)


def literals(root):
    found = []
    for path in scanned_files(root):
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
        for number, line in enumerate(lines, 1):
            code = COMMENT.sub("", line.rstrip("\n"))
            for what, pattern in LITERALS:
                if pattern.search(code):
                    found.append(f"{os.path.relpath(path, root)}:{number}: {what}: {line.strip()}")
    return found


def self_test():
    clean = [
        "# <model>/<preset>/runs/nightly-<time>.json: the layout, described",
        'runs=$("$run_bench" store runs "$dir")  # <store>/<model>/<preset>/runs',
        'echo "[this run]($repository/actions/runs/$GITHUB_RUN_ID)"',
        'gh api "repos/$GITHUB_REPOSITORY/actions/runs/$1/artifacts"',
        'cp "$learned" "$dir/gates-$stamp.json"',
        'log="$dir/confirm-$stamp.log"  # reruns/ are not runs/',
        'printf "## Trend over %s runs\\n" "$n"',
        'cp "$run" "$runs/$name.tmp" && mv "${runs}/$name.tmp" "$runs/$name"',
    ]
    planted = [
        'gates="${baseline%.json}.gates.json"',
        'mkdir -p "$dir/runs"',
        'ln -sfn "runs/$name" "$dir/x"',
        'FILE = re.compile(r"{0}/{0}/(?:runs/nightly-{1})")',
        '[ -e "$d/latest.json" ]',
        'cp "$at/gates.json" "$out"',
        'slot="$model/$preset"',
        'slot = f"{model}/{preset}"',
        'baseline="$baselines/$slug/${preset}.json"',
        'baseline="$baselines/$slug/nightly.json"',
    ]
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, SCANNED_DIR, "slurm"))
        with open(os.path.join(root, SCANNED_DIR, "clean.sh"), "w") as f:
            f.write("\n".join(clean) + "\n")
        with open(os.path.join(root, SCANNED_DIR, "notes.md"), "w") as f:
            f.write("\n".join(planted) + "\n")  # not a script
        if literals(root):
            sys.exit("self-test: a clean tree was reported:\n" + "\n".join(literals(root)))
        for ext in SCANNED_EXTS:
            for line in planted:
                path = os.path.join(root, SCANNED_DIR, "slurm", "planted" + ext)
                with open(path, "w") as f:
                    f.write(line + "\n")
                if len(literals(root)) != 1:
                    sys.exit(f"self-test: {line!r} in a {ext} script was not caught once")
                os.remove(path)
    print(f"ok   {len(planted)} literals of the store's layout are caught in each kind of script; comments pass")


if __name__ == "__main__":
    lint_main(sys.argv[1:], __doc__, self_test, literals,
              f"scripts under {SCANNED_DIR}/ spell the run store's layout (ask RUN_BENCH store instead):",
              f"ok   no script under {SCANNED_DIR}/ spells the run store's layout")

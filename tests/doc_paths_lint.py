#!/usr/bin/env python3
"""Every path of the repository that README.md and docs/*.md name in backticks exists: a token with a slash and a
file extension (`docs/reference.md`, `tests/fixtures/synthetic_base.json`, or a public header as it is included,
`cudabench/fixture.hpp`), or one ending in a slash that starts with a top-level folder of the tree
(`tests/fuzz/corpus/`). Left alone: absolute paths, URLs, paths under build/, an output folder or the install
prefix, the placeholder family `foo` and patterns (<...>, *, $VARIABLES, {a,b}). An anchor (#...) is dropped.
Usage: doc_paths_lint.py SOURCE_DIR   (exit 1, naming each file, line and path, when one is missing)
       doc_paths_lint.py --self-test"""
import glob
import os
import re
import sys
import tempfile

from lint_main import lint_main

CODE = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"^[\w.-]+(/[\w.@+-]+)*(/|\.[A-Za-z0-9]+)$")
SKIPPED_PREFIXES = ("build/", "build-", "out/", "OUT/", "$", "P/", "DIR/", "RUNS_DIR/", "OUTDIR/", ".devlibs/",
                    "lib/cmake/")  # the last: a path in the install prefix
# Paths of other trees the docs name: Google Benchmark's own comparison tool.
ELSEWHERE = {"tools/compare.py"}
# Where a path may also be found: public headers are named as they are included (`cudabench/fixture.hpp`).
SEARCHED = ("", "include")


def candidates(line):
    for token in CODE.findall(line):
        token = token.split("#", 1)[0].strip()
        if " " in token or "/" not in token or token.startswith(("/", "~", "http", "file:")):
            continue
        if any(c in token for c in "<>*${}|=:") or token.startswith(SKIPPED_PREFIXES):
            continue
        if PATH.match(token) and token not in ELSEWHERE and not os.path.basename(token).startswith("foo"):
            yield token  # (foo: the placeholder family of the docs' walk-throughs)


def missing(root):
    top = {name for name in os.listdir(root) if not name.startswith(".")} | {".github", ".ci"}
    found = []
    for doc in [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        with open(doc, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                for path in candidates(line):
                    if path.endswith("/") and path.split("/")[0] not in top:
                        continue  # a folder of the user's (`mybench/`), not of this tree
                    if not any(os.path.exists(os.path.join(root, where, path)) for where in SEARCHED):
                        found.append(f"{os.path.relpath(doc, root)}:{number}: `{path}` does not exist")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs"))
        os.makedirs(os.path.join(root, "tests"))
        open(os.path.join(root, "tests", "a.sh"), "w").close()
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write("`tests/a.sh`, `tests/`, `build/app/x.txt`, `<model>/runs/a.json`, `/dev/zero`, `docs/x.md#a`\n")
        with open(os.path.join(root, "docs", "x.md"), "w") as f:
            f.write("`tests/gone.sh` and `docs/x.md`\n")
        found = missing(root)
        if len(found) != 1 or "tests/gone.sh" not in found[0]:
            sys.exit(f"self-test: expected only tests/gone.sh reported, got {found}")
    print("ok   a named path that does not exist is caught; build outputs and patterns are left alone")


if __name__ == "__main__":
    lint_main(sys.argv[1:], __doc__, self_test, missing,
              "paths named in README.md and docs/*.md that are not in the tree:",
              "ok   every path README.md and docs/*.md name exists")

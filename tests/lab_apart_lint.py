#!/usr/bin/env python3
"""The product stands apart from the lab: no file of the product or of its tests names the top-level folder of
validation scripts and kept runs (only the docs and the top-level Markdown files may point readers to it).
Usage: lab_apart_lint.py SOURCE_DIR   (exit 1, naming each file and line, when one does)
       lab_apart_lint.py --self-test  (a planted reference must be caught, a clean tree must pass)"""
import os
import re
import sys
import tempfile

from lint_main import lint_main

LAB = "validation"
# A path into the lab: the folder name followed by a slash, not part of a longer name (docs/validation.md is fine).
REFERENCE = re.compile(r"(?<![\w.-])" + LAB + "/")
SKIPPED_DIRS = {".git", LAB, "docs", ".devlibs", ".tools", "out"}


def scanned_files(root):
    for folder, dirs, files in os.walk(root):
        top = folder == root
        dirs[:] = [d for d in dirs if not (top and (d in SKIPPED_DIRS or d.startswith("build")))]
        for name in files:
            if top and name.endswith(".md"):
                continue
            yield os.path.join(folder, name)


def references(root):
    found = []
    for path in scanned_files(root):
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
        except (UnicodeDecodeError, OSError):
            continue  # binary files (compressed fixtures, images)
        for number, line in enumerate(lines, 1):
            if REFERENCE.search(line):
                found.append(f"{os.path.relpath(path, root)}:{number}: {line.strip()}")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "tests"))
        os.makedirs(os.path.join(root, LAB))
        os.makedirs(os.path.join(root, "docs"))
        with open(os.path.join(root, "tests", "a_test.sh"), "w") as f:
            f.write("# reads docs/validation.md only\n")
        with open(os.path.join(root, "docs", "validation.md"), "w") as f:
            f.write(f"`{LAB}/aa_pairs.sh`\n")
        with open(os.path.join(root, LAB, "x.sh"), "w") as f:
            f.write(f"{LAB}/x.sh\n")
        if references(root):
            sys.exit("self-test: a clean tree was reported")
        with open(os.path.join(root, "tests", "b_test.sh"), "w") as f:
            f.write(f'kept="$src/{LAB}/runs/h100"\n')
        if len(references(root)) != 1:
            sys.exit("self-test: a test reading the lab's kept runs was not caught")
    print("ok   a test that reads the lab is caught; docs may point to it")


if __name__ == "__main__":
    lint_main(sys.argv[1:], __doc__, self_test, references,
              f"the product or its tests name the lab's folder {LAB}/ (the product must not depend on it):",
              f"ok   nothing outside the docs names {LAB}/")

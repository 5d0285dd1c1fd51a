#!/usr/bin/env python3
"""Every C++ and CUDA source of the product is laid out as .clang-format says: clang-format changes nothing.

Usage: format_check.py SOURCE_DIR      (exit 1 and one line per file clang-format would change)
       format_check.py --self-test     (a planted badly laid out file is found, a well laid out one is not)
The product's folders and source suffixes are the function-length lint's. CLANG_FORMAT names the binary
(default clang-format); without it the check is skipped (exit 77), saying why. Hand-laid tables sit between
`// clang-format off` and `// clang-format on`.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from function_length_lint import FOLDERS, SOURCES  # noqa: E402  (the product's folders, one list)

TOOL = os.environ.get("CLANG_FORMAT", "clang-format")


def product_sources(root):
    for folder in FOLDERS:
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if name.endswith(SOURCES):
                    yield os.path.join(dirpath, name)


def would_change(root, path):
    with open(path, "rb") as f:
        before = f.read()
    after = subprocess.run([TOOL, "--style=file:" + os.path.join(root, ".clang-format"), path],
                           check=True, capture_output=True).stdout
    return before != after


def check(root):
    changed = [os.path.relpath(p, root) for p in product_sources(root) if would_change(root, p)]
    for path in changed:
        print(f"{path}: not in the house format (ci/format.sh {path} lays it out)")
    print(f"{len(changed)} file(s) not in the house format")
    return 1 if changed else 0


def self_test(source_root):
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(os.path.join(source_root, ".clang-format"), d)
        os.makedirs(os.path.join(d, "io"))
        good = os.path.join(d, "io", "good.cpp")
        with open(good, "w") as f:
            f.write("int* f(int* a) { return a; }\n")
        if check(d) != 0:
            print("self-test: a file in the house format was reported")
            return 1
        with open(os.path.join(d, "io", "bad.cpp"), "w") as f:
            f.write("int  *f( int *a ){\nreturn a ;}\n")
        if check(d) != 1:
            print("self-test: a planted badly laid out file was not found")
            return 1
    print("self-test: passed")
    return 0


def main():
    if shutil.which(TOOL) is None:
        print(f"SKIPPED: {TOOL} not found (Debian/Ubuntu: apt-get install clang-format)")
        return 77
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if sys.argv[1:] == ["--self-test"]:
        return self_test(here)
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2])
        return 2
    return check(sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())

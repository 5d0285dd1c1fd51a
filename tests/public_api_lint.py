#!/usr/bin/env python3
"""Fails when include/cudabench/ (the installed, public headers) reaches past what a user calls.

  - a public header includes only public headers of the project (cudabench/...), never io/, results/, measure/, analysis/, api/, reports/, cli/,
    app/, bench/, kernels/ or support/ (those are not installed);
  - every exception type a public header names (cudabench's *_error types and skip_case, in code or in a
    comment saying what is thrown) is declared in a public header;
  - the harness's NVTX bookkeeping (the range observer, the driving and mirrored ranges) is not public.
Usage: public_api_lint.py SOURCE_DIR      (exit 1 and one line per problem)
       public_api_lint.py --self-test     (plants problems in a scratch tree; exit 0 when all are caught)
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
PROJECT = ("io/", "results/", "measure/", "analysis/", "api/", "reports/", "cli/", "app/", "bench/", "kernels/",
           "support/", "limits/")
EXCEPTION = re.compile(r"(?<![\w:])(?:cudabench::)?(\w+_error|skip_case)\b")
DECLARED = re.compile(r"\bclass\s+(\w+)\s*(?:final\s*)?:\s*public\s+std::")
INTERNAL = ("range_observer", "current_range_observer", "driving_ranges", "worker_ranges", "mirrored_ranges", "open_ranges")


def lint(root):
    folder = os.path.join(root, "include", "cudabench")
    texts = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith((".hpp", ".h", ".cuh")):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                texts["include/cudabench/" + name] = f.read()
    declared = {m.group(1) for text in texts.values() for m in DECLARED.finditer(text)}
    found = []
    for rel, text in texts.items():
        line_of = lambda pos: text.count("\n", 0, pos) + 1
        for m in INCLUDE.finditer(text):
            if m.group(1).startswith(PROJECT):
                found.append("%s:%d: includes %s, which is not installed" % (rel, line_of(m.start()), m.group(1)))
        for m in EXCEPTION.finditer(text):
            if m.group(1) not in declared and not text[max(0, m.start() - 5):m.start()].endswith("std::"):
                found.append("%s:%d: names %s, which no public header declares" % (rel, line_of(m.start()), m.group(1)))
        for name in INTERNAL:
            for m in re.finditer(r"\b%s\b" % name, text):
                found.append("%s:%d: exposes the harness's %s" % (rel, line_of(m.start()), name))
    return found


def self_test():
    planted = {
        "include/cudabench/a.hpp": '#include "io/errors.hpp"\n',
        "include/cudabench/b.hpp": "/// Throws cudabench::usage_error for a bad name.\nvoid f();\n",
        "include/cudabench/c.hpp": "struct open_ranges {};\n",
        "include/cudabench/ok.hpp": '#include "cudabench/ok2.hpp"\n/// Throws input_error or std::logic_error.\n',
        "include/cudabench/ok2.hpp": "class input_error : public std::runtime_error {};\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        found = lint(root)
    caught = {line.split(":")[0] for line in found}
    want = {rel for rel in planted if "/ok" not in rel}
    if caught != want:
        print("self-test: caught %s, expected %s" % (sorted(caught), sorted(want)))
        return 1
    print("self-test: all %d planted problems caught, no false alarm" % len(want))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    problems = lint(sys.argv[1])
    for p in problems:
        print(p)
    print("%d public API problem(s)" % len(problems))
    sys.exit(1 if problems else 0)

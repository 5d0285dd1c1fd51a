#!/usr/bin/env python3
"""Fails when a source file includes a header its layer must not see.

Layers, bottom up: the CUDA support layer (include/cudabench/cuda_*.hpp, support/) <- kernels/ and the
harness (harness/, the rest of include/cudabench/) <- limits/ (the library's limits family) and reports/ <- app/
<- bench/ (the seed families).
  - the support layer includes no other project header, no Google Benchmark, no JSON;
  - kernels/ includes only kernels/ and the support layer (no harness, NVTX, Google Benchmark or JSON);
  - the harness includes no reports/, app/, bench/, kernels/ or limits/ header;
  - limits/ is written against the public API (include/cudabench/) and the kernels' header-only helpers: no
    harness/, reports/, app/ or bench/ header;
  - reports/ includes no app/, bench/ or kernels/ header;
  - app/ includes no bench/ or kernels/ header.
Usage: layering_lint.py SOURCE_DIR      (exit 1 and one line per violation)
       layering_lint.py --self-test     (plants violations in a scratch tree; exit 0 when all are caught)
"""
import os
import re
import sys
import tempfile

SUPPORT_HEADERS = {"cudabench/cuda_check.hpp", "cudabench/cuda_handles.hpp", "cudabench/run_memo.hpp"}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
SOURCES = (".hpp", ".cpp", ".cu", ".cuh", ".h")


def layer_of(rel):
    if rel in {"include/" + h for h in SUPPORT_HEADERS} or rel.startswith("support/"):
        return "support"
    for folder, layer in (("include/cudabench/", "harness"), ("harness/", "harness"), ("kernels/", "kernels"),
                          ("limits/", "limits"), ("reports/", "reports"), ("app/", "app")):
        if rel.startswith(folder):
            return layer
    return None


def problem(layer, inc):
    top = inc.split("/")[0]
    if top == "limits" and "/" not in inc:
        top = None  # the standard <limits>, not the limits/ folder
    if layer == "support":
        if inc.startswith(("cudabench/", "harness/", "kernels/", "reports/", "app/", "bench/")) and inc not in SUPPORT_HEADERS:
            return "the CUDA support layer includes only itself"
        if top in ("benchmark", "nlohmann", "nvtx3"):
            return "the CUDA support layer uses no Google Benchmark, JSON or NVTX"
    if layer == "kernels":
        if inc.startswith(("harness/", "reports/", "app/", "bench/")) or (inc.startswith("cudabench/") and inc not in SUPPORT_HEADERS):
            return "kernels use only kernels/ and the CUDA support layer"
        if top in ("benchmark", "nlohmann", "nvtx3"):
            return "kernels know nothing of Google Benchmark, JSON or NVTX"
    if layer == "harness" and top in ("reports", "app", "bench", "kernels", "limits"):
        return "the harness knows nothing of reports, the command line, the suite or its kernels"
    if layer == "limits" and top in ("harness", "reports", "app", "bench"):
        return "the limits family uses the public API and the kernels' helpers only"
    if layer == "reports" and top in ("app", "bench", "kernels", "limits"):
        return "reports know nothing of the command line, the suite or its kernels"
    if layer == "app" and top in ("bench", "kernels", "limits"):
        return "the application layer knows nothing of the suite's families or kernels"
    return None


def lint(root):
    found = []
    for folder in ("include", "support", "harness", "kernels", "limits", "reports", "app"):
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                layer = layer_of(rel)
                if not layer:
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    why = problem(layer, m.group(1))
                    if why:
                        line = text.count("\n", 0, m.start()) + 1
                        found.append("%s:%d: includes %s: %s" % (rel, line, m.group(1), why))
    return found


def self_test():
    planted = {
        "kernels/k.cu": '#include "harness/measure.hpp"\n',
        "kernels/j.cuh": '#include "cudabench/registry.hpp"\n',
        "harness/h.cpp": '#include "reports/writers.hpp"\n',
        "include/cudabench/x.hpp": '#include "app/options.hpp"\n',
        "include/cudabench/cuda_handles.hpp": "#include <nlohmann/json.hpp>\n",
        "reports/r.cpp": '#include "app/commands.hpp"\n',
        "app/a.cpp": '#include "kernels/conv2d.cuh"\n',
        "limits/l.cpp": '#include "harness/measure.hpp"\n',
        "limits/ok.cpp": '#include "cudabench/registry.hpp"\n#include "kernels/host_data.hpp"\n#include "limits/ok.cuh"\n',
        "kernels/ok.cu": '#include "cudabench/cuda_check.hpp"\n#include "kernels/ok.cuh"\n',
        "app/ok.cpp": '#include "reports/writers.hpp"\n#include "harness/stats.hpp"\n',
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        found = lint(root)
    caught = {line.split(":")[0] for line in found}
    want = {rel for rel in planted if "ok." not in rel}
    if caught != want:
        print("self-test: caught %s, expected %s" % (sorted(caught), sorted(want)))
        return 1
    print("self-test: all %d planted violations caught, no false alarm" % len(want))
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
    print("%d layering problem(s)" % len(problems))
    sys.exit(1 if problems else 0)

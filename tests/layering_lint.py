#!/usr/bin/env python3
"""Fails when a source file includes a header its layer must not see.

Layers, bottom up; each may include its own folder and what its row names:
  support   the CUDA support layer (include/cudabench/cuda_*.hpp, run_memo.hpp, support/): nothing else of
            the project, no Google Benchmark, JSON or NVTX
  public    the rest of include/cudabench/: public headers only
  kernels   support (no harness, NVTX, Google Benchmark or JSON)
  io        public, support
  results   public, support, io
  measure   public, support, io, results
  analysis  public, support, io, results
  api       public, support, io, results, measure
  limits    public, support (the public API and the support layer's device helpers)
  reports   public, support, io, results, analysis
  cli       public, support, io, results, measure, analysis, reports
  app       public, support, io, results, measure, analysis, api, reports, cli
Each folder is a library whose units see only the folders of what it links (the test layers_build); this lint
also covers the public headers and kernels/. No folder may hold more than a quarter of the product's source lines.
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
PROJECT = ("support", "public", "kernels", "io", "results", "measure", "analysis", "api", "limits", "reports",
           "cli", "app", "bench")
BELOW = {
    "support": set(),
    "public": {"support"},
    "kernels": {"support"},
    "io": {"public", "support"},
    "results": {"public", "support", "io"},
    "measure": {"public", "support", "io", "results"},
    "analysis": {"public", "support", "io", "results"},
    "api": {"public", "support", "io", "results", "measure"},
    "limits": {"public", "support"},
    "reports": {"public", "support", "io", "results", "analysis"},
    "cli": {"public", "support", "io", "results", "measure", "analysis", "reports"},
    "app": {"public", "support", "io", "results", "measure", "analysis", "api", "reports", "cli"},
}
FOLDERS = ("include", "support", "kernels", "io", "results", "measure", "analysis", "api", "limits", "reports",
           "cli", "app")


def layer_of(rel):
    """The layer of a source file (by its path in the tree), or of an included header (by its include name)."""
    if rel.startswith("include/"):
        rel = rel[len("include/"):]
    if rel in SUPPORT_HEADERS or rel.startswith("support/"):
        return "support"
    if rel.startswith("cudabench/"):
        return "public"
    top = rel.split("/")[0]
    return top if "/" in rel and top in PROJECT else None


def problem(layer, inc):
    if layer in ("support", "kernels") and inc.split("/")[0] in ("benchmark", "nlohmann", "nvtx3"):
        return "the %s layer uses no Google Benchmark, JSON or NVTX" % layer
    target = layer_of(inc)
    if target is None or target == layer or target in BELOW[layer]:
        return None
    return "the %s layer may use only %s" % (layer, ", ".join(sorted(BELOW[layer])) or "itself")


def lint(root):
    found = []
    for folder in FOLDERS:
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


def folder_shares(root):
    """One line per product folder holding more than a quarter of the product's source lines."""
    lines = {}
    for folder in FOLDERS + ("bench",):
        n = 0
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in files:
                if name.endswith(SOURCES):
                    with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                        n += sum(1 for _ in f)
        lines[folder] = n
    total = sum(lines.values())
    return ["%s/: %d of the product's %d source lines (%.0f%%), over a quarter: split it by job" % (folder, n, total, 100.0 * n / total)
            for folder, n in sorted(lines.items()) if total and 4 * n > total]


def self_test():
    planted = {
        "kernels/k.cu": '#include "measure/measure.hpp"\n',
        "kernels/j.cuh": '#include "cudabench/registry.hpp"\n',
        "kernels/n.cu": "#include <nvtx3/nvToolsExt.h>\n",
        "io/i.cpp": '#include "results/results_model.hpp"\n',
        "results/r.cpp": '#include "analysis/compare.hpp"\n',
        "analysis/a.cpp": '#include "measure/measure.hpp"\n',
        "measure/m.cpp": '#include "reports/writer.hpp"\n',
        "include/cudabench/x.hpp": '#include "app/options.hpp"\n',
        "include/cudabench/cuda_handles.hpp": "#include <nlohmann/json.hpp>\n",
        "reports/r.cpp": '#include "cli/options.hpp"\n',
        "reports/m.cpp": '#include "measure/measure.hpp"\n',
        "cli/c.cpp": '#include "app/commands.hpp"\n',
        "app/a.cpp": '#include "kernels/conv2d.hpp"\n',
        "limits/l.cpp": '#include "measure/measure.hpp"\n',
        "limits/k.cpp": '#include "kernels/matmul.hpp"\n',
        "limits/ok.cpp": '#include "cudabench/registry.hpp"\n#include "support/host_data.hpp"\n#include "limits/ok.cuh"\n#include <limits>\n',
        "kernels/ok.cu": '#include "cudabench/cuda_check.hpp"\n#include "kernels/ok.cuh"\n#include "support/fill_kernel.cuh"\n',
        "api/ok.cpp": '#include "measure/device_query.hpp"\n#include "cudabench/registry.hpp"\n',
        "app/ok.cpp": '#include "reports/writer.hpp"\n#include "results/stats.hpp"\n#include "cli/options.hpp"\n',
    }
    with tempfile.TemporaryDirectory() as root:
        for rel, text in planted.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        found = lint(root)
        lines_before = folder_shares(root)
        with open(os.path.join(root, "app", "big.cpp"), "w") as f:
            f.write("int x;\n" * 100)
        lines_after = folder_shares(root)
    caught = {line.split(":")[0] for line in found}
    want = {rel for rel in planted if "ok." not in rel}
    if caught != want:
        print("self-test: caught %s, expected %s" % (sorted(caught), sorted(want)))
        return 1
    if lines_before or [line.split(":")[0] for line in lines_after] != ["app/"]:
        print("self-test: folder shares %s before and %s after planting a large app/ file" % (lines_before, lines_after))
        return 1
    print("self-test: all %d planted violations and one oversized folder caught, no false alarm" % len(want))
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    problems = lint(sys.argv[1]) + folder_shares(sys.argv[1])
    for p in problems:
        print(p)
    print("%d layering problem(s)" % len(problems))
    sys.exit(1 if problems else 0)

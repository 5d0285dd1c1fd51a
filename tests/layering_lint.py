#!/usr/bin/env python3
"""Fails when a source file includes a header its layer must not see.

Layers, bottom up; each may include its own folder and what its row names:
  support   the CUDA support layer (support/): nothing else of the project, no Google Benchmark, JSON or NVTX
  kernels   support (no harness, NVTX, Google Benchmark or JSON)
  io        support
  results   support, io
  measure   support, io, results
  analysis  support, io, results
  api       support, io, results, measure
  limits    support, api (the public API and the support layer's device helpers)
  reports   support, io, results, analysis
  cli       support, io, results, measure, analysis, reports
  app       support, io, results, measure, analysis, api, reports, cli, limits (cudabench::main carries the
            limits family)
A public header (include/cudabench/X) is of the layer of the library whose code it is: the folder whose
CMakeLists.txt names it in cudabench_public_headers (each header in one folder's call). A layer may include the
public headers of its own library and of every layer below it, however far down (the code it links): limits/
may include cudabench/fixture.hpp (measure's, through api), never measure/'s own headers.
Each folder is a library whose units see only the folders, and the public headers, of what it links (the test
layers_build); this lint also covers the public headers and kernels/. No folder may hold more than a quarter of
the product's source lines.
Usage: layering_lint.py SOURCE_DIR      (exit 1 and one line per violation)
       layering_lint.py --self-test     (plants violations in a scratch tree; exit 0 when all are caught)
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
PUBLIC_HEADERS = re.compile(r"cudabench_public_headers\(([^)]*)\)")
SOURCES = (".hpp", ".cpp", ".cu", ".cuh", ".h")
PROJECT = ("support", "kernels", "io", "results", "measure", "analysis", "api", "limits", "reports", "cli", "app",
           "bench")
BELOW = {
    "support": set(),
    "kernels": {"support"},
    "io": {"support"},
    "results": {"support", "io"},
    "measure": {"support", "io", "results"},
    "analysis": {"support", "io", "results"},
    "api": {"support", "io", "results", "measure"},
    "limits": {"support", "api"},
    "reports": {"support", "io", "results", "analysis"},
    "cli": {"support", "io", "results", "measure", "analysis", "reports"},
    "app": {"support", "io", "results", "measure", "analysis", "api", "reports", "cli", "limits"},
}
FOLDERS = ("include", "support", "kernels", "io", "results", "measure", "analysis", "api", "limits", "reports",
           "cli", "app")


def reach(layer):
    """The layers below `layer`, however far down: whose public headers it may include."""
    seen, todo = set(), list(BELOW[layer])
    while todo:
        below = todo.pop()
        if below not in seen:
            seen.add(below)
            todo.extend(BELOW[below])
    return seen


def public_owners(root):
    """'cudabench/X' -> the layer whose library's code it is (its folder's cudabench_public_headers call), and
    one line per header that two folders name."""
    owners, found = {}, []
    for folder in PROJECT:
        path = os.path.join(root, folder, "CMakeLists.txt")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = re.sub(r"#.*", "", f.read())
        for m in PUBLIC_HEADERS.finditer(text):
            words = m.group(1).split()[1:]
            for header in words[:words.index("WITH")] if "WITH" in words else words:
                name = "cudabench/" + header
                if owners.setdefault(name, folder) != folder:
                    found.append("%s/CMakeLists.txt: %s is a public header of %s/ already" % (folder, name, owners[name]))
    return owners, found


def layer_of(rel, owners):
    """The layer of a source file (by its path in the tree), or of an included header (by its include name)."""
    if rel.startswith("include/"):
        rel = rel[len("include/"):]
    if rel.startswith("cudabench/"):
        return owners.get(rel)
    top = rel.split("/")[0]
    return top if "/" in rel and top in PROJECT else None


def problem(layer, inc, owners):
    if layer in ("support", "kernels") and inc.split("/")[0] in ("benchmark", "nlohmann", "nvtx3"):
        return "the %s layer uses no Google Benchmark, JSON or NVTX" % layer
    if inc.startswith("cudabench/"):
        owner = owners.get(inc)
        if owner is None:
            return "no library has it among its public headers (cudabench_public_headers in a folder's CMakeLists.txt)"
        if owner == layer or owner in reach(layer):
            return None
        return "a public header of %s/, which the %s layer does not link" % (owner, layer)
    target = layer_of(inc, owners)
    if target is None or target == layer or target in BELOW[layer]:
        return None
    return "the %s layer may use only %s" % (layer, ", ".join(sorted(BELOW[layer])) or "itself")


def lint(root):
    owners, found = public_owners(root)
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                layer = layer_of(rel, owners)
                if not layer:
                    if rel.startswith("include/"):
                        found.append("%s: no library has it among its public headers (cudabench_public_headers in "
                                     "the CMakeLists.txt of the folder whose code it is)" % rel)
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    why = problem(layer, m.group(1), owners)
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
        "results/p.cpp": '#include "cudabench/main.hpp"\n',
        "analysis/p.cpp": '#include "cudabench/fixture.hpp"\n',
        "cli/p.cpp": '#include "cudabench/registry.hpp"\n',
        "io/p.cpp": '#include "cudabench/unowned.hpp"\n',
        "include/cudabench/unowned.hpp": "#pragma once\n",
        "include/cudabench/fixture.hpp": '#include "cudabench/errors.hpp"\n',
        "include/cudabench/registry.hpp": '#include "cudabench/fixture.hpp"\n#include "cudabench/errors.hpp"\n',
        "include/cudabench/main.hpp": "#include <string_view>\n",
        "include/cudabench/errors.hpp": "#include <stdexcept>\n",
        "support/CMakeLists.txt": "cudabench_public_headers(cudabench_cuda cuda_check.hpp cuda_handles.hpp errors.hpp)\n",
        "measure/CMakeLists.txt": "# fixture.hpp: what a case is\ncudabench_public_headers(cudabench_measure fixture.hpp)\n",
        "api/CMakeLists.txt": "cudabench_public_headers(cudabench_api registry.hpp x.hpp WITH measure)\n",
        "app/CMakeLists.txt": "cudabench_public_headers(cudabench_app main.hpp)\n",
        "limits/ok2.cpp": '#include "cudabench/fixture.hpp"\n#include "cudabench/errors.hpp"\n',
        "app/ok2.cpp": '#include "cudabench/main.hpp"\n#include "cudabench/registry.hpp"\n',
        "measure/ok.cpp": '#include "cudabench/fixture.hpp"\n#include "cudabench/cuda_handles.hpp"\n',
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
    want = {rel for rel in planted if "ok" not in rel and not rel.endswith("CMakeLists.txt") and
            rel not in ("include/cudabench/fixture.hpp", "include/cudabench/registry.hpp",
                        "include/cudabench/main.hpp", "include/cudabench/errors.hpp")}
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

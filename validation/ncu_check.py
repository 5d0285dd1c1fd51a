#!/usr/bin/env python3
"""Checks the CSV of `./run_bench --ncu` (app/cudabench-run): every GPU case the filter selects must have had its
own kernels profiled (a kernel launched outside the case's NVTX range is simply not profiled), and every
profiled kernel must sit under the case's own range. Prints a table and a summary line; exits 1 if a case fails.
Usage: validation/ncu_check.py NCU_CSV BENCH_BINARY FILTER"""
import collections, csv, subprocess, sys

HARNESS_KERNELS = ("clock_probe_kernel", "stream_blocker_kernel", "spin_kernel")


def nvtx_ranges(stack):
    """The range names of an ncu NVTX push/pop stack column, outermost first."""
    return [part.split('"')[0] for part in stack.split("ASCII:")[1:]]


def main():
    path, bench, flt = sys.argv[1:4]
    kernels, inside, own = collections.Counter(), collections.Counter(), collections.Counter()
    for r in csv.reader(open(path)):
        if len(r) < 8 or not r[1].isdigit():
            continue  # header and unit rows
        case = r[0]
        kernels[case] += 1
        # the case's own kernels, not the harness's probes (ncu shortens some names, namespaces and all)
        own[case] += not any(k in r[7] for k in HARNESS_KERNELS)
        names = nvtx_ranges(next((f for f in r if "ASCII:" in f), ""))
        inside[case] += bool(names) and names[0].replace(":", "/") == case
    listed = subprocess.run([bench, "--list", "--filter=" + flt], capture_output=True, text=True).stdout.splitlines()
    gpu = [l.split()[0] for l in listed if len(l.split()) > 1 and l.split()[1] == "gpu"]
    print("%-40s %8s %8s %8s" % ("case", "kernels", "inside", "its own"))
    for c in gpu:
        print("%-40s %8d %8d %8d" % (c, kernels[c], inside[c], own[c]))
    bad = [c for c in gpu if own[c] == 0 or inside[c] != kernels[c]]
    print("%d GPU cases; %d with their own kernels found, all inside their own NVTX range; not: %s" % (
        len(gpu), len(gpu) - len(bad), bad or "none"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Synthetic results files of any size in the results schema, shaped like tests/fixtures/h100_quick.json.

Each case has --repetitions rows whose times spread --spread times apart (the worst case for the rank test's
detectable change), each family declares --roles reference roles over its --variants variants, and every case
is described in context.cudabench.cases. --slower makes a second side whose cases are that many percent slower.

    tools/scale/make_results.py --rows 100000 --out base.json
    tools/scale/make_results.py --rows 100000 --slower 10 --out cur.json
"""
import argparse
import json
import random
import sys

ROW = """    {{
      "name": "{name}",
      "family_index": {fi},
      "per_family_instance_index": {pi},
      "run_name": "{name}",
      "run_type": "iteration",
      "repetitions": {reps},
      "repetition_index": {rep},
      "threads": 1,
      "iterations": 1,
      "real_time": {t!r},
      "cpu_time": {cpu!r},
      "time_unit": "us",
      "bw_peak_fraction": {bw!r},
      "bytes_per_second": {bps!r},
      "cv_pct": 3.5,
      "flops_per_second": {fps!r},
      "items_per_second": {ips!r},
      "noise_pct": 0.09,
      "samples": 1554.0,
      "label": "cold",
      "cudabench": {{
        "cache": "cold",
        "stop": "noise",
        "samples": 1554,
        "noise": 0.0009,
        "correct": true,
        "note": ""
      }}
    }}"""


def context(args, families, cases):
    device = {"available": True, "ordinal": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0",
              "sm_count": 132, "sm_clock_mhz": 1980.0, "memory_clock_mhz": 2619.0, "memory_bus_width_bits": 5120,
              "theoretical_bandwidth_gbps": 3352.32, "l2_bytes": 52428800, "total_memory_bytes": 85017493504,
              "driver_version": "13.0", "runtime_version": "13.0", "pci_bus_id": "0000:00:06.0",
              "uuid": "GPU-00000000-0000-0000-0000-000000000000"}
    fams = {}
    for f in families:
        roles = {f"role{r}": f"v{r % args.variants}" for r in range(args.roles)}
        fams[f] = {"description": f"synthetic family {f}", "tolerance": "exact", "references": roles}
    meta = {"schema_version": 1, "preset": "quick", "repetitions": args.repetitions, "git_revision": "synthetic",
            "git_dirty": False, "host_name": "scale", "started_utc": "2026-11-22T04:43:46Z", "families": fams}
    return {"date": args.date, "host_name": "scale", "executable": "synthetic", "num_cpus": 16,
            "cudabench_device": device["name"], "cudabench_preset": "quick", "device": device, "cudabench": meta}, cases


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, required=True, help="rows in all (cases x repetitions)")
    p.add_argument("--repetitions", type=int, default=10, help="rows a case (default 10)")
    p.add_argument("--spread", type=float, default=12, help="slowest / fastest repetition of a case (default 12)")
    p.add_argument("--families", type=int, default=10)
    p.add_argument("--variants", type=int, default=50, help="variants a family (default 50)")
    p.add_argument("--roles", type=int, default=4, help="reference roles a family declares (default 4)")
    p.add_argument("--slower", type=float, default=0, help="percent added to every time (the current side)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--date", default="2026-11-22T04:43:46+00:00")
    p.add_argument("--out", required=True, help="output file ('-' for standard output)")
    args = p.parse_args()
    rng = random.Random(args.seed)
    n_cases = max(1, args.rows // args.repetitions)
    families = [f"fam{i}" for i in range(args.families)]
    per_family = -(-n_cases // len(families))
    sizes_per_variant = max(1, -(-per_family // args.variants))
    names = []
    for f in families:
        for v in range(args.variants):
            for s in range(sizes_per_variant):
                names.append((f, f"v{v}", 1024 * (s + 1)))
    names = names[:n_cases]
    cases = {}
    for f, v, size in names:
        cases[f"{f}/{v}/{size}"] = {"family": f, "variant": v, "params": str(size), "on": "gpu", "cache": "cold",
                                    "size": float(size), "bytes": 8.0 * size, "items": float(size), "flops": 50.0 * size}
    ctx, cases = context(args, families, cases)
    ctx["cudabench"]["cases"] = cases
    out = sys.stdout if args.out == "-" else open(args.out, "w")
    head = json.dumps({"context": ctx}, indent=2)
    out.write(head[:-2] + ",\n  \"benchmarks\": [\n")
    scale = 1 + args.slower / 100
    first = True
    for ci, (f, v, size) in enumerate(names):
        name = f"{f}/{v}/{size}"
        base = size * 0.01 * (1 + ci % 7)
        for rep in range(args.repetitions):
            # Repetitions from base to spread x base, in a shuffled order.
            t = base * (1 + (args.spread - 1) * rng.random()) * scale
            if not first:
                out.write(",\n")
            first = False
            out.write(ROW.format(name=name, fi=ci, pi=0, reps=args.repetitions, rep=rep, t=t, cpu=t * 1.5,
                                 bw=8.0 * size / (t * 1e-6) / 3.35e12, bps=8.0 * size / (t * 1e-6),
                                 fps=50.0 * size / (t * 1e-6), ips=size / (t * 1e-6)))
    out.write("\n  ]\n}\n")
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()

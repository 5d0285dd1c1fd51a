#!/usr/bin/env python3
"""Device faults: the fault_suite binary (the suite with tests/faults/fault_cases.cu linked in among its
families) runs the fault cases among others under a short watchdog. Each fault case must fail alone, with
what happened, while every other selected case is run and written; no temporary file may be left.

usage: faults_test.py FAULT_SUITE [--filter=REGEX] [--watchdog=SECONDS]   (default 5)
Without a GPU the GPU fault cases are skipped and the CPU ones (a crash, a hang) are the test; with one, the
default filter is the whole quick preset plus the fault cases.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

binary = sys.argv[1]
filters = [a for a in sys.argv[2:] if a.startswith("--filter=")]
watchdog = next((a.split("=", 1)[1] for a in sys.argv[2:] if a.startswith("--watchdog=")), "5")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    scratch = os.path.join(tmp, "tmp")
    os.mkdir(scratch)
    out = os.path.join(tmp, "faults.json")
    listing = subprocess.run([binary, "--list"], capture_output=True, text=True, check=True).stdout
    has_gpu = subprocess.run([binary, "--filter=^fault/illegal", "--quiet", "--watchdog=60"], capture_output=True,
                             text=True).stdout.find("SKIPPED") < 0
    args = filters or ([] if has_gpu else ["--filter=cpu|fault/"])
    start = time.monotonic()
    run = subprocess.run([binary, *args, f"--watchdog={watchdog}", "--json", out, "--benchmark_min_time=0.05s"],
                         capture_output=True, text=True, env={**os.environ, "TMPDIR": scratch})
    elapsed = time.monotonic() - start
    sys.stdout.write(run.stdout[-3000:])
    sys.stdout.write(run.stderr[-3000:])
    check(run.returncode == 1, f"exit status 1 (failed cases), got {run.returncode}")
    check(os.listdir(scratch) == [], f"no temporary file left in TMPDIR (found {os.listdir(scratch)})")
    doc = json.load(open(out))
    rows = {}
    for r in doc["benchmarks"]:
        rows.setdefault(r["run_name"], r)
    selected = list(doc["context"]["cudabench"]["cases"])
    check(selected == list(rows), f"every selected case has a row, in order ({len(rows)} of {len(selected)})")
    check(not doc["context"]["cudabench"].get("incomplete"), "not marked incomplete")
    hung = f"hung: no progress for {watchdog} s"
    expect = {"fault/cpu_crash": "killed by SIGSEGV", "fault/cpu_hang": hung}
    if has_gpu:
        expect["fault/illegal_address"] = "cudaErrorIllegalAddress"
        expect["fault/kernel_hang"] = hung
    for name, needle in expect.items():
        r = rows.get(name, {})
        check(r.get("error_occurred") and needle in r.get("error_message", ""),
              f"{name} failed with '{needle}': {r.get('error_message') or r.get('skip_message')}")
    others = [n for n in rows if not n.startswith("fault/")]
    bad = [n for n in others if rows[n].get("error_occurred")]
    check(len(others) > 0 and not bad, f"the {len(others)} other cases ran without failing (failed: {bad})")
    if has_gpu:
        after = [n for n in others if selected.index(n) > selected.index("fault/illegal_address")]
        check(all(not rows[n].get("skipped") and rows[n]["real_time"] > 0 for n in after),
              f"the {len(after)} cases after the lost context were measured on the GPU")
    check(elapsed < 120 + 10 * len(rows) + 4 * float(watchdog), f"finished in {elapsed:.0f} s")
    continued = run.stderr.count("go on in a fresh process")
    check(continued >= (4 if has_gpu else 2) - (1 if selected[-1].startswith("fault/") else 0),
          f"the run went on in a fresh process after each fault ({continued} times)")

print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)

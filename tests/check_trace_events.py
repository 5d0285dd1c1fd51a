#!/usr/bin/env python3
"""Checks a --trace file against the Trace Event Format (the JSON Object Format that Perfetto and
chrome://tracing load) and against what cudabench promises to put in it.

usage: check_trace_events.py TRACE.json [--cases NAME...] [--gpu]
  --cases  each named case has a "case" slice on the host with its stages nested inside it
  --gpu    device activity was recorded: a GPU process with kernels or copies on stream tracks
Prints one line per problem and exits 1 if there is any.
"""
import json
import sys

STAGES = {"setup", "verify", "warmup", "measure", "traced sample"}


def main(argv):
    path, cases, gpu = argv[1], [], False
    rest = argv[2:]
    while rest:
        a = rest.pop(0)
        if a == "--gpu":
            gpu = True
        elif a == "--cases":
            while rest and not rest[0].startswith("--"):
                cases.append(rest.pop(0))
    problems = []
    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        print("%s: not readable JSON: %s" % (path, e))
        return 1
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        print("%s: no traceEvents array" % path)
        return 1
    if doc.get("displayTimeUnit") not in (None, "ms", "ns"):
        problems.append("displayTimeUnit must be ms or ns")
    names = {}      # (pid, tid or None) -> name from metadata
    slices = {}     # (pid, tid) -> [(ts, end, name, cat)]
    for i, e in enumerate(doc["traceEvents"]):
        where = "event %d" % i
        if not isinstance(e, dict):
            problems.append(where + ": not an object")
            continue
        ph = e.get("ph")
        if not isinstance(e.get("name"), str):
            problems.append(where + ": no name")
        if not isinstance(e.get("pid"), int):
            problems.append(where + ": pid is not an integer")
        if ph == "M":
            if e.get("name") in ("process_name", "thread_name"):
                if not isinstance(e.get("args", {}).get("name"), str):
                    problems.append(where + ": %s without args.name" % e.get("name"))
                names[(e.get("pid"), e.get("tid"))] = e["args"]["name"]
            continue
        if ph != "X":
            problems.append(where + ": phase %r (cudabench writes only X and M events)" % ph)
            continue
        if not isinstance(e.get("tid"), int):
            problems.append(where + ": tid is not an integer")
        ts, dur = e.get("ts"), e.get("dur")
        if not isinstance(ts, (int, float)) or not isinstance(dur, (int, float)) or dur < 0:
            problems.append(where + ": ts/dur not numbers with dur >= 0")
            continue
        slices.setdefault((e["pid"], e["tid"]), []).append((ts, ts + dur, e["name"], e.get("cat")))
    # Complete events on one track must nest: each either inside the enclosing one or after it.
    for track, evs in slices.items():
        if (track[0], None) not in names:
            problems.append("process %d has no process_name" % track[0])
        if track not in names:
            problems.append("track %s has no thread_name" % (track,))
        evs.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for ts, end, name, cat in evs:
            while stack and ts >= stack[-1][1] - 1e-3:
                stack.pop()
            if stack and end > stack[-1][1] + 1e-3:
                problems.append("track %s: %r [%g, %g] overlaps %r without nesting" % (track, name, ts, end, stack[-1][2]))
            stack.append((ts, end, name))
    host = slices.get((0, 0), [])
    for case in cases:
        spans = [(ts, end) for ts, end, name, cat in host if cat == "case" and name == case]
        if not spans:
            problems.append("case %s: no case slice on the host's driving thread" % case)
            continue
        inside = {name for ts, end, name, cat in host if cat == "stage" and any(a <= ts and end <= b + 1e-3 for a, b in spans)}
        if not {"setup", "measure", "traced sample"} <= inside:
            problems.append("case %s: stages %s, want setup, measure and traced sample inside it" % (case, sorted(inside)))
    if gpu:
        device = [k for k in slices if k[0] >= 1]
        ops = [s for k in device for s in slices[k] if s[3] in ("kernel", "memcpy", "memset")]
        if not ops:
            problems.append("no GPU operation on any device track")
        for k in device:
            if not names.get(k, "").startswith("stream "):
                problems.append("device track %s is not named after its stream" % (k,))
        if not any(names.get((k[0], None), "").startswith("GPU ") for k in device):
            problems.append("no process named after a GPU")
    for p in problems[:50]:
        print(p)
    if not problems:
        print("ok: %d events, %d tracks" % (len(doc["traceEvents"]), len(slices)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

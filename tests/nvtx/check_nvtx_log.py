#!/usr/bin/env python3
"""Checks a log of the NVTX recorder against a run's JSON: every case that ran opened exactly one range
named after it per repetition, phase ranges nest inside it (worker threads open the case range again, with
its stage, around their jobs, only while the driving thread has it open),
pushes and pops balance on every thread, every range is in the project's domain, and each phase has one
colour of its own. Usage: check_nvtx_log.py NVTX_LOG RESULT_JSON"""
import collections
import json
import sys

PHASES = {"setup", "verify", "warmup", "measure", "traced sample", "copy H2D", "kernel", "copy D2H", "host work", "L2 flush"}
log, result = sys.argv[1], sys.argv[2]
errors = []
stacks = collections.defaultdict(list)
case_ranges = collections.Counter()
measured = set()
colours = collections.defaultdict(set)
main = None
foreign = collections.Counter()
mirrored = collections.Counter()
foreign_stacks = collections.defaultdict(list)
for n, line in enumerate(open(log), 1):
    parts = line.rstrip("\n").split("\t")
    if parts[0] == "domain":
        continue
    kind, thread, domain = parts[0], parts[1], parts[2]
    if domain != "cudabench":
        # Libraries keep their own domains (CUB's is CCCL); they must balance but are not ours to name.
        foreign[domain] += kind == "push"
        fstack = foreign_stacks[(thread, domain)]
        if kind == "pop":
            if not fstack: errors.append("line %d: pop with no open range in domain %s" % (n, domain))
            else: fstack.pop()
        else:
            if parts[4] in PHASES: errors.append("line %d: phase '%s' in domain '%s', not cudabench" % (n, parts[4], domain))
            fstack.append(parts[4])
        continue
    stack = stacks[thread]
    if kind == "pop":
        if not stack:
            errors.append("line %d: pop with no open range on thread %s" % (n, thread))
        else:
            stack.pop()
        continue
    colour, message = parts[3], parts[4]
    if main is None:
        main = thread
    open_case = stacks[main][0] if stacks[main] else None
    if not stack and message not in PHASES:
        if thread == main:
            case_ranges[message] += 1
        elif message != open_case:
            errors.append("line %d: worker thread %s opened case range '%s' while the driving thread has %s open" % (
                n, thread, message, "'%s'" % open_case if open_case else "none"))
        else:
            mirrored[message] += 1
    elif message not in PHASES:
        errors.append("line %d: range '%s' nested inside '%s' is not a phase" % (n, message, stack[0]))
    else:
        if not stack and thread != main:
            errors.append("line %d: phase '%s' on worker thread %s outside a case range" % (n, message, thread))
        if open_case is None:
            errors.append("line %d: phase '%s' outside any case range" % (n, message))
        colours[message].add(colour)
        if message == "measure" and open_case:
            measured.add(open_case)
    stack.append(message)
for thread, stack in stacks.items():
    if stack:
        errors.append("thread %s ends with %d unpopped range(s), from %s" % (thread, len(stack), stack[:3]))
for (thread, domain), stack in foreign_stacks.items():
    if stack:
        errors.append("domain %s on thread %s ends with %d unpopped range(s)" % (domain, thread, len(stack)))
for phase, cs in colours.items():
    if len(cs) != 1:
        errors.append("phase '%s' has several colours %s" % (phase, sorted(cs)))
seen_colours = [next(iter(cs)) for cs in colours.values() if len(cs) == 1]
if len(seen_colours) != len(set(seen_colours)):
    errors.append("two phases share a colour")

# A repetition row per run of a case; a skipped case's one row (an aggregate-like <case>_skipped) per attempt.
rows = [r for r in json.load(open(result))["benchmarks"] if r.get("run_type") == "iteration" or r.get("skipped")]
expected = collections.Counter(r["run_name"] for r in rows)
for name, count in expected.items():
    if case_ranges[name] != count:
        errors.append("case '%s' ran %d time(s) but opened %d range(s) named after it" % (name, count, case_ranges[name]))
for name in case_ranges:
    if name not in expected:
        errors.append("range '%s' names no case of the run" % name)
for r in rows:
    if not r.get("skipped") and not r.get("error_occurred") and r["run_name"] not in measured:
        errors.append("case '%s' was measured without a 'measure' phase" % r["run_name"])
for e in errors[:30]:
    print("FAIL", e)
print("%d case range(s), %d mirrored on worker threads (%d case(s)), %d phase(s) with colours, %d thread(s), other domains %s, %d problem(s)" % (
    sum(case_ranges.values()), sum(mirrored.values()), len(mirrored), len(colours), len(stacks), dict(foreign) or "none", len(errors)))
sys.exit(1 if errors else 0)

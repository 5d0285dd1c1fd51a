#!/usr/bin/env python3
"""The body of a pull request's benchmark comment, from the Markdown of `compare --md` (the merge base as the
baseline, the head as the current run) and its verdict file: a hidden marker by which the comment is found and
updated in place on the next push, a headline with the verdict, what was measured, and the comparison.
Usage: ci/pr_comment.py COMPARE.md [--verdict=VERDICT.json] [--base=SHA] [--head=SHA] [--processes=N] [--run-url=URL]
Prints the body on standard output (at most 60000 characters: the table of all cases is dropped first, then the
rest cut, saying so). Exit status: 0 written, 2 an input that cannot be read (one line)."""
import json
import re
import sys

MARKER = "<!-- cudabench-pr-benchmark -->"
LIMIT = 60000  # GitHub refuses a comment over 65536 characters


def fail(message):
    print("ci/pr_comment.py: %s" % message, file=sys.stderr)
    sys.exit(2)


def short(sha):
    return sha[:12] if re.fullmatch(r"[0-9a-f]{7,64}", sha or "") else None


def headline(verdict, counts):
    """The verdict in a few words, from the verdict file where there is one, else the comparison's counts line."""
    regressions = failed = None
    if verdict is not None:
        cases = verdict.get("cases") or []
        regressions = sum(1 for c in cases if isinstance(c, dict) and c.get("verdict") == "regression")
        failed = sum(1 for c in cases if isinstance(c, dict) and c.get("verdict") == "failed")
        failing = verdict.get("failing") is True
    else:
        m = re.search(r"(\d+) regression\(s\)", counts or "")
        f = re.search(r"(\d+) failed", counts or "")
        regressions, failed = (int(m.group(1)) if m else 0), (int(f.group(1)) if f else 0)
        failing = bool(regressions or failed)
    if not failing:
        return ":white_check_mark: **Benchmarks: no regression**"
    parts = []
    if regressions:
        parts.append("%d regression%s" % (regressions, "" if regressions == 1 else "s"))
    if failed:
        parts.append("%d failed case%s" % (failed, "" if failed == 1 else "s"))
    return ":x: **Benchmarks: %s**" % (", ".join(parts) or "the comparison failed")


def body(md, verdict, base, head, processes, run_url):
    md = md.replace(MARKER, "")  # the marker is ours alone
    counts = re.search(r"^\*\*(.*)\*\*$", md, flags=re.M)
    # The comparison's own heading gives way to the headline; its sections stay.
    md = re.sub(r"^## Benchmark comparison\s*\n", "", md, count=1)
    what = "The merge base%s (baseline) against the head%s (current)" % (" `%s`" % base if base else "", " `%s`" % head if head else "")
    if processes:
        what += ", each built and measured in %s fresh processes alternating with the other's" % processes
    what += "."
    out = [MARKER, headline(verdict, counts.group(1) if counts else ""), "", what, "", md.strip(), ""]
    tail = ["---", "<sub>Updated on each push while the pull request is labelled `benchmark`, or on a `/benchmark` comment"
            + ("; [the run](%s) has the reports" % run_url if run_url else "") + ".</sub>", ""]
    text = "\n".join(out + tail)
    if len(text) > LIMIT:  # the table of every case first
        md = re.sub(r"<details><summary>All .*?</details>\s*", "", md, flags=re.S)
        out[5] = md.strip() + "\n\n(the table of every case is left out: too long for a comment; the run's report has it)"
        text = "\n".join(out + tail)
    if len(text) > LIMIT:
        keep = LIMIT - len("\n".join(tail)) - 200
        text = "\n".join(out)[:keep].rsplit("\n", 1)[0] + "\n\n(cut here: too long for a comment; the run's report has the rest)\n\n" + "\n".join(tail)
    return text


def main(argv):
    opts, files = {}, []
    for a in argv:
        m = re.fullmatch(r"--(verdict|base|head|processes|run-url)=(.*)", a)
        if m:
            opts[m.group(1)] = m.group(2)
        elif a.startswith("-"):
            fail("unknown option '%s'" % a)
        else:
            files.append(a)
    if len(files) != 1:
        fail("usage: ci/pr_comment.py COMPARE.md [--verdict=VERDICT.json] [--base=SHA] [--head=SHA] [--processes=N] [--run-url=URL]")
    try:
        with open(files[0], encoding="utf-8") as f:
            md = f.read(4 << 20)
    except (OSError, UnicodeDecodeError) as e:
        fail("%s: cannot be read (%s)" % (files[0], e))
    if "## Benchmark comparison" not in md:
        fail("%s: not the Markdown of compare --md (no '## Benchmark comparison')" % files[0])
    verdict = None
    if opts.get("verdict"):
        try:
            with open(opts["verdict"], encoding="utf-8") as f:
                verdict = json.loads(f.read(64 << 20))
        except (OSError, ValueError) as e:
            fail("%s: not a verdict file (%s)" % (opts["verdict"], e))
        if not isinstance(verdict, dict) or not isinstance(verdict.get("cases"), list) or not isinstance(verdict.get("failing"), bool):
            fail("%s: not a verdict file (no 'cases' list and 'failing' flag, as compare --verdict writes)" % opts["verdict"])
    processes = opts.get("processes")
    if processes is not None and not re.fullmatch(r"[1-9][0-9]{0,2}", processes):
        fail("--processes=%s is not a count" % processes)
    run_url = opts.get("run-url") or ""
    if run_url and not re.fullmatch(r"https://[^\s()<>\[\]]+", run_url):
        fail("--run-url=%s is not an https address" % run_url)
    for end in ("base", "head"):
        if opts.get(end) and not short(opts[end]):
            fail("--%s=%s is not a commit hash" % (end, opts[end]))
    sys.stdout.write(body(md, verdict, short(opts.get("base", "")), short(opts.get("head", "")), processes, run_url))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

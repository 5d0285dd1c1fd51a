#!/usr/bin/env python3
"""tools/false_alarms.py: the table of a small manifest (a verdict file, a gzipped one, one inside a .tgz and a
pull-request summary) counted exactly; --check passes the same table and fails an edited one; --update writes it;
bad manifests and runs the files contradict are one line, exit 2. Then the table of docs/validation.md is checked
against the manifest its marker names, where it has one.
Usage: tests/false_alarms_test.py SOURCE_DIR"""
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        if detail:
            print(detail)


def case(name, verdict, change=0.0, **more):
    return dict(name=name, verdict=verdict, change=change, **more)


def verdict(cases, same_board=True, board=None, gates=None):
    machine = {"same_board": same_board, "differences": []}
    if board:
        machine["differences"] = [{"fact": "board", "baseline": "GPU-00000000", "current": board},
                                  {"fact": "host CPUs", "baseline": "16 logical", "current": "64 logical"}]
    return {"schema_version": 5, "gates": gates, "machine": machine, "cases": cases}


def fixture(d):
    """Four runs: A/A and a change of one board's PR flow, a nightly of another board, a summary's A/A."""
    aa = verdict([case("a/1", "unchanged"), case("a/2", "regression", 0.08), case("a/3", "not gated", 0.5),
                  case("a/4", "inconclusive"), case("k/1", "improvement", -0.03)])
    change = verdict([case("k/1", "regression", 0.05), case("k/2", "unchanged", 0.01), case("k/3", "missing"),
                      case("a/1", "unchanged"), case("k/4", "regression", 0.25)])
    nightly = verdict([case("k/1", "regression", 0.30, normalized_change=0.28,
                            note="confirmed: +2.0% on this machine (regression, ...); board: ..."),
                       case("k/2", "machine differs", 0.2, note="not confirmed: -0.5% on this machine (unchanged)"),
                       case("k/3", "unchanged", 0.04, normalized_change=0.03), case("a/1", "machine differs (same code)"),
                       case("a/2", "unconfirmed", 0.1)], same_board=False, board="GPU-deadbeef", gates={"runs": 5})
    os.makedirs(os.path.join(d, "pr"))
    json.dump(aa, open(os.path.join(d, "pr", "verdict-aa.json"), "w"))
    with gzip.open(os.path.join(d, "pr", "change.json.gz"), "wt") as f:
        json.dump(change, f)
    with tarfile.open(os.path.join(d, "night.tgz"), "w:gz") as t:
        data = json.dumps(nightly).encode()
        info = tarfile.TarInfo("night/verdict-1.json")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("night/latest.json")
        link.type, link.linkname = tarfile.SYMTYPE, "verdict-1.json"
        t.addfile(link)
    with open(os.path.join(d, "summary.txt"), "w") as f:
        f.write("pr flow, change (head 1 against A): exit 1, 5 s\n  k/1                                  regression   "
                "change   +9.00% gate 1.00%\npr flow, aa (head 2 against A): exit 0, 5 s\n  verdicts: {}\n"
                "  k/1                                      unchanged    change   +0.20% gate 1.00%\n"
                "  a/9                                      improvement  change   -3.00% gate 1.00%\n")
    with open(os.path.join(d, "gpu.txt"), "w") as f:
        f.write("NVIDIA H200, GPU-deadbeef-0000-0000-0000-000000000000, 00000000:00:06.0, 345 MHz, 1980 MHz, 35, 75 W\n"
                "NVIDIA H200, GPU-12345678-0000-0000-0000-000000000000, 00000000:00:07.0, 345 MHz, 1980 MHz, 35, 75 W\n64\n")
    one = dict(gpu="H200", board="0123abcd", host_gpus=1, cpus=16, flow="pr", revision="abc12345", gates="none")
    runs = [dict(one, verdict="pr/verdict-*.json", change=None), dict(one, verdict="pr/change.json.gz", change="x"),
            dict(one, gpu_file="gpu.txt", board="deadbeef", host_gpus=2, cpus=64, flow="nightly-other-board",
                 gates="learned", verdict="night.tgz", member="night/verdict-1.json", change="x"),
            dict(one, summary="summary.txt", section="aa", change=None, revision="0.5.3")]
    manifest = {"changes": {"x": {"what": "k does more", "cases": "^k/"}}, "runs": runs}
    json.dump(manifest, open(os.path.join(d, "m.json"), "w"))
    return manifest


EXPECTED = """| H200 | 1-GPU host (16 CPUs) | pull-request flow (one board) | `abc12345` | none | 1, 1 | `0123abcd` | 8 | 2 | 2 / 1 | +5.0% to +25.0% | +1.0% |
| H200 | 1-GPU host (16 CPUs) | pull-request flow (one board) | `0.5.3` | none | 1, 0 | `0123abcd` | 2 | 1 | 0 / 0 | - | - |
| H200 | 2-GPU host (64 CPUs) | nightly against another board's baseline, confirmed on one machine | `abc12345` | learned | 0, 1 | `deadbeef` | 5 | 1 | 1 / 2 | +2.0% | -0.5% to +3.0% |
"""


def run(tool, *args):
    p = subprocess.run([sys.executable, tool, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def bad_manifests(tool, d, manifest):
    """Each: a change to the manifest, and a word the one line must hold."""
    r0 = manifest["runs"][0]
    night = manifest["runs"][2]
    cases = [
        ("an unknown key", dict(r0, typo=1), "not an object of the keys"),
        ("a path out of the folder", dict(r0, verdict="../m.json"), "not a relative path"),
        ("a glob matching two files", dict(r0, verdict="pr/*"), "names 2 regular files"),
        ("a tar member that is a link", dict(night, member="night/latest.json"), "not a regular file"),
        ("a board the verdict contradicts", dict(night, gpu_file=None, board="feedbeef"), "current board is GPU-deadbeef"),
        ("a GPU file that contradicts the host", dict(night, host_gpus=4), "2 GPU(s), 64 CPUs"),
        ("gates the verdict contradicts", dict(night, gates="none"), "gates are learned"),
        ("a flow of one board for a verdict of two", dict(night, flow="pr"), "same_board false"),
        ("a revision that is Markdown", dict(r0, revision="<b>x</b>"), "revision must be"),
        ("a change that is no key", dict(r0, change="y"), "is not a key"),
    ]
    for name, bad_run, word in cases:
        bad_run = {k: v for k, v in bad_run.items() if v is not None}
        json.dump(dict(manifest, runs=[bad_run]), open(os.path.join(d, "bad.json"), "w"))
        rc, out, err = run(tool, os.path.join(d, "bad.json"))
        check(f"bad input, {name}: one line, exit 2", rc == 2 and not out and len(err.splitlines()) == 1 and word in err,
              f"rc {rc}: {err}")
    with open(os.path.join(d, "bad.json"), "w") as f:
        f.write("{not json")
    rc, out, err = run(tool, os.path.join(d, "bad.json"))
    check("bad input, a manifest that is no JSON: one line, exit 2", rc == 2 and len(err.splitlines()) == 1, err)


def main(src):
    tool = os.path.join(src, "tools", "false_alarms.py")
    with tempfile.TemporaryDirectory() as d:
        manifest = fixture(d)
        rc, out, err = run(tool, os.path.join(d, "m.json"))
        body = out.split("\n", 2)[2] if out.count("\n") >= 2 else ""
        check("the table: comparisons, false flags (unconfirmed too), caught and missed with their sizes (the "
              "confirmation's where it measured one)", rc == 0 and body == EXPECTED, f"rc {rc}: {err}\n{out}")
        doc = os.path.join(d, "doc.md")
        with open(doc, "w") as f:
            f.write(f"# x\n\n<!-- false-alarms: m.json -->\n{out}<!-- false-alarms:end -->\n\nafter\n")
        rc, _, err = run(tool, os.path.join(d, "m.json"), "--check", doc)
        check("--check: the same table passes", rc == 0, err)
        text = open(doc).read()
        with open(doc, "w") as f:
            f.write(text.replace("| 8 | 2 |", "| 8 | 0 |"))
        rc, _, err = run(tool, os.path.join(d, "m.json"), "--check", doc)
        check("--check: a table whose false flags were edited fails, saying how to remake it", rc == 1 and "--update" in err,
              err)
        rc, _, err = run(tool, os.path.join(d, "m.json"), "--update", doc)
        check("--update: writes the table, the rest of the page kept", rc == 0 and open(doc).read() == text, err)
        bad_manifests(tool, d, manifest)
    page = os.path.join(src, "docs", "validation.md")
    marker = re.search(r"^<!-- false-alarms: (\S+) -->$", open(page, encoding="utf-8").read(), re.M)
    if marker:
        rc, _, err = run(tool, os.path.join(src, marker.group(1)), "--check", page)
        check("docs/validation.md's false-alarm table is the one its kept runs make", rc == 0, err)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

#!/usr/bin/env python3
"""The false-alarm table: for each GPU model, host type, flow and revision, the case comparisons the kept verdicts
made, the flags on cases the run did not change (false flags), and the changed cases caught (a regression) or
missed (anything else), with the size of those changes. Recomputed from the verdict files a manifest names.

Usage: tools/false_alarms.py MANIFEST                 the table as Markdown on standard output
       tools/false_alarms.py MANIFEST --check DOC     exit 1 where DOC's table differs from it (a diff on stderr)
       tools/false_alarms.py MANIFEST --update DOC    DOC's table replaced by it

MANIFEST (JSON; paths relative to its folder):
  "changes": {"KEY": {"what": "...", "cases": "REGEX of the case names the change touched"}, ...}
  "runs": [{"verdict": "DIR/verdict-*.json" (one match; .gz read as gzip), "member": "a file inside a .tgz",
            or "summary": "a pull-request flow's summary text", "section": "change" or "aa" (its section),
            "gpu": "H200", "board": "8eb97239" (the uuid's first 8 hex digits), "host_gpus": 1, "cpus": 16,
            "flow": "pr" | "same-board" | "nightly-other-board" | "compare-other-board", "revision": "37481caf",
            "gates": "learned" (a gates file learned from earlier runs) or "none",
            "change": null (A/A: nothing changed) or a KEY of "changes",
            "gpu_file": "nvidia-smi's lines, then nproc's" (optional: checked against gpu, board, host_gpus, cpus)}]
In DOC the table sits between a line <!-- false-alarms: MANIFEST --> and a line <!-- false-alarms:end -->.
Bad input: one line naming the problem, exit 2."""
import difflib
import glob
import gzip
import json
import os
import re
import sys
import tarfile
import tempfile

MAX_BYTES = 64 << 20  # a verdict file of 132 cases is about 60 KiB
FLOWS = {  # the flows in the table's order
    "pr": "pull-request flow (one board)",
    "same-board": "nightly against a baseline of the same board",
    "nightly-other-board": "nightly against another board's baseline, confirmed on one machine",
    "compare-other-board": "`compare` against another board's run, no confirmation",
}
FLAGS = {"regression", "improvement", "unconfirmed"}  # each fails the comparison
NOT_COMPARED = {"not gated", "new", "missing", "failed", "skipped"}
TEXT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._+-]{0,39}$")
BOARD = re.compile(r"^[0-9a-f]{8}$")
RUN_KEYS = {"verdict", "member", "summary", "section", "gpu", "board", "host_gpus", "cpus", "flow", "revision", "gates",
            "change", "gpu_file"}
SUMMARY_LINE = re.compile(r"^  (\S+)\s+(regression|improvement|unchanged|inconclusive|unconfirmed|not gated)\s+"
                          r"change\s+([+-]\d+\.\d+)%")
HERE = re.compile(r"(?:^|; )(?:confirmed|not confirmed|not settled|not confirmed, the opposite): "
                  r"([+-]\d+(?:\.\d+)?)% on this machine")
BEGIN = re.compile(r"^<!-- false-alarms: (\S+) -->$")
END = "<!-- false-alarms:end -->"


class BadInput(Exception):
    pass


def read_bounded(f, name):
    data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise BadInput(f"{name}: over {MAX_BYTES >> 20} MiB")
    return data


def inside(root, rel, what):
    """The one file `rel` names under `root` (a * in its name may match; exactly one file must)."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or ".." in rel.split("/") or "\\" in rel:
        raise BadInput(f"{what}: {rel!r} is not a relative path inside the manifest's folder")
    found = sorted(glob.glob(os.path.join(glob.escape(root), rel.replace("[", "[[]")))) if "*" in rel else [
        os.path.join(root, rel)]
    found = [p for p in found if os.path.isfile(p) and not os.path.islink(p)]
    if len(found) != 1:
        raise BadInput(f"{what}: {rel} names {len(found)} regular files, not one")
    return found[0]


def load_text(path, member=None):
    """A file's bytes: gunzipped where it ends in .gz; a member's where a .tgz/.tar.gz is given with one."""
    try:
        if member is not None:
            with tarfile.open(path) as t:
                info = t.getmember(member)
                if not info.isfile() or info.size > MAX_BYTES:
                    raise BadInput(f"{path}: {member} is not a regular file of at most {MAX_BYTES >> 20} MiB")
                return read_bounded(t.extractfile(info), f"{path}:{member}")
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            return read_bounded(f, path)
    except (OSError, EOFError, KeyError, tarfile.TarError) as e:
        raise BadInput(f"{path}{':' + member if member else ''}: cannot read it ({e})")


def cases_of_verdict(path, member):
    name = f"{path}:{member}" if member else path
    try:
        j = json.loads(load_text(path, member).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise BadInput(f"{name}: not a verdict file ({e})")
    cases = j.get("cases") if isinstance(j, dict) else None
    if not isinstance(cases, list) or not all(
            isinstance(c, dict) and isinstance(c.get("name"), str) and isinstance(c.get("verdict"), str) for c in cases):
        raise BadInput(f"{name}: not a verdict file (no list of cases with a name and a verdict)")
    machine = dict(j.get("machine")) if isinstance(j.get("machine"), dict) else {}
    machine["gates"] = "learned" if isinstance(j.get("gates"), dict) else "none"
    return [{"name": c["name"], "verdict": c["verdict"], "size": size_of(c)} for c in cases], machine


def number(x):
    return x if isinstance(x, (int, float)) and not isinstance(x, bool) and abs(x) < 1e6 else None


def size_of(c):
    """The change the flow judged on one machine where it measured one there (the confirmation's), else the
    normalized change across boards, else the change."""
    m = HERE.search(c.get("note") or "") if isinstance(c.get("note"), str) else None
    if m:
        return float(m.group(1)) / 100
    for key in ("normalized_change", "change"):
        if number(c.get(key)) is not None:
            return c[key]
    return None


def cases_of_summary(path, section):
    """The cases of one section ("change" or "aa") of a pull-request flow's summary: a header line
    `pr flow, SECTION (...)`, then a line a case: name, verdict, change."""
    text = load_text(path).decode("utf-8", "replace")
    cases, on, seen = [], False, False
    for line in text.splitlines():
        if line.startswith("pr flow, "):
            on = line.startswith(f"pr flow, {section} (")
            seen = seen or on
            continue
        m = SUMMARY_LINE.match(line) if on else None
        if m:
            cases.append({"name": m.group(1), "verdict": m.group(2), "size": float(m.group(3)) / 100})
    if not seen or not cases:
        raise BadInput(f"{path}: no section 'pr flow, {section}' with cases")
    return cases, {"same_board": True}


def check_gpu_file(path, run, what):
    lines = load_text(path).decode("utf-8", "replace").splitlines()
    gpus = [[f.strip() for f in line.split(",")] for line in lines if ", GPU-" in line]
    cpus = [int(line) for line in lines if line.strip().isdigit()]
    if not gpus or not cpus:
        raise BadInput(f"{what}: {path} holds no nvidia-smi line or no nproc line")
    if run["gpu"] not in gpus[0][0] or not gpus[0][1].startswith("GPU-" + run["board"]) or len(gpus) != run[
            "host_gpus"] or cpus[0] != run["cpus"]:
        raise BadInput(f"{what}: {path} says {gpus[0][0]}, {gpus[0][1][:12]}, {len(gpus)} GPU(s), {cpus[0]} CPUs; "
                       f"the manifest says {run['gpu']}, GPU-{run['board']}, {run['host_gpus']}, {run['cpus']}")


def check_machine(machine, run, what):
    """The verdict's own record of the machines agrees with the manifest: the board, the host's CPUs, and one board
    or two as the flow says."""
    if machine.get("gates", run["gates"]) != run["gates"]:
        raise BadInput(f"{what}: the verdict's gates are {machine['gates']}, not {run['gates']}")
    same = machine.get("same_board")
    if isinstance(same, bool) and same != (run["flow"] in ("pr", "same-board")):
        raise BadInput(f"{what}: the verdict says same_board {str(same).lower()}, not what flow {run['flow']} is")
    for d in machine.get("differences") or []:
        if not isinstance(d, dict):
            continue
        if d.get("fact") == "board" and d.get("current") != "GPU-" + run["board"]:
            raise BadInput(f"{what}: the verdict's current board is {str(d.get('current'))[:20]}, not GPU-{run['board']}")
        if d.get("fact") == "host CPUs" and d.get("current") != f"{run['cpus']} logical":
            raise BadInput(f"{what}: the verdict's current host has {str(d.get('current'))[:20]} CPUs, not {run['cpus']}")


def checked_run(run, i, changes):
    what = f"run {i + 1}"
    if not isinstance(run, dict) or set(run) - RUN_KEYS:
        raise BadInput(f"{what}: not an object of the keys {', '.join(sorted(RUN_KEYS))}")
    for key in ("gpu", "revision"):
        if not isinstance(run.get(key), str) or not TEXT.match(run[key]):
            raise BadInput(f"{what}: {key} must be 1-40 letters, digits, spaces or ._+-")
    if not isinstance(run.get("board"), str) or not BOARD.match(run["board"]):
        raise BadInput(f"{what}: board must be the uuid's first 8 hex digits")
    for key in ("host_gpus", "cpus"):
        if not isinstance(run.get(key), int) or isinstance(run[key], bool) or not 1 <= run[key] <= 4096:
            raise BadInput(f"{what}: {key} must be a whole number from 1 to 4096")
    if run.get("gates") not in ("learned", "none"):
        raise BadInput(f"{what}: gates must be learned or none")
    if run.get("flow") not in FLOWS:
        raise BadInput(f"{what}: flow must be one of {', '.join(FLOWS)}")
    if run.get("change") is not None and run.get("change") not in changes:
        raise BadInput(f"{what}: change {str(run.get('change'))[:40]!r} is not a key of \"changes\" (or null)")
    if ("verdict" in run) == ("summary" in run) or ("member" in run and "verdict" not in run) or (
            ("section" in run) != ("summary" in run)) or run.get("section", "change") not in ("change", "aa"):
        raise BadInput(f"{what}: give \"verdict\" (and \"member\") or \"summary\" and \"section\" (change or aa)")
    return what


def run_cases(root, run, what):
    if "summary" in run:
        cases, machine = cases_of_summary(inside(root, run["summary"], what), run["section"])
    else:
        member = run.get("member")
        if member is not None and not isinstance(member, str):
            raise BadInput(f"{what}: member must be a path inside the archive")
        cases, machine = cases_of_verdict(inside(root, run["verdict"], what), member)
    if "gpu_file" in run:
        check_gpu_file(inside(root, run["gpu_file"], what), run, what)
    check_machine(machine, run, what)
    return cases


def count(cases, touched):
    """One run's counts: comparisons made (every case both sides measured and judged), false flags, and the changed
    cases caught or missed with their sizes."""
    judged = [c for c in cases if c["verdict"] not in NOT_COMPARED]
    changed = [c for c in judged if touched and touched.search(c["name"])]
    kept = [c for c in judged if not (touched and touched.search(c["name"]))]
    caught = [c for c in changed if c["verdict"] == "regression"]
    missed = [c for c in changed if c["verdict"] != "regression"]
    return {"compared": len(judged), "false": sum(c["verdict"] in FLAGS for c in kept), "caught": len(caught),
            "missed": len(missed), "caught_sizes": [c["size"] for c in caught if c["size"] is not None],
            "missed_sizes": [c["size"] for c in missed if c["size"] is not None]}


def load_manifest(path):
    try:
        with open(path, "rb") as f:
            m = json.loads(read_bounded(f, path).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise BadInput(f"{path}: not a readable JSON manifest ({e})")
    if not isinstance(m, dict) or not isinstance(m.get("runs"), list) or not m["runs"] or not isinstance(
            m.get("changes"), dict):
        raise BadInput(f"{path}: a manifest is an object with \"changes\" (an object) and \"runs\" (a non-empty list)")
    changes = {}
    for key, c in m["changes"].items():
        try:
            changes[key] = re.compile(c["cases"])
        except (TypeError, KeyError, re.error):
            raise BadInput(f"{path}: change {key[:40]!r} needs \"cases\", a regular expression")
    return m, changes


def rows(manifest_path):
    m, changes = load_manifest(manifest_path)
    root = os.path.dirname(os.path.abspath(manifest_path))
    groups, revisions = {}, {}
    for i, run in enumerate(m["runs"]):
        what = checked_run(run, i, changes)
        counts = count(run_cases(root, run, what), changes.get(run["change"]))
        revisions.setdefault(run["revision"], len(revisions))
        key = (run["gpu"], run["host_gpus"], run["cpus"], list(FLOWS).index(run["flow"]), revisions[run["revision"]],
               run["revision"], run["gates"])
        g = groups.setdefault(key, {"aa": 0, "changed": 0, "boards": [], "compared": 0, "false": 0, "caught": 0,
                                    "missed": 0, "caught_sizes": [], "missed_sizes": []})
        g["changed" if run["change"] else "aa"] += 1
        if run["board"] not in g["boards"]:
            g["boards"].append(run["board"])
        for k in ("compared", "false", "caught", "missed", "caught_sizes", "missed_sizes"):
            g[k] += counts[k]
    return sorted(groups.items())


def span(sizes):
    if not sizes:
        return "-"
    lo, hi = min(sizes), max(sizes)
    return f"{100 * lo:+.1f}%" if f"{lo:.3f}" == f"{hi:.3f}" else f"{100 * lo:+.1f}% to {100 * hi:+.1f}%"


def table(manifest_path):
    out = ["| GPU | host | flow | revision | gates | runs: A/A, changed | boards | case comparisons | false flags | "
           "changed cases: caught / missed | caught: change | missed: change |",
           "|---|---|---|---|---|---|---|---:|---:|---|---|---|"]
    for (gpu, host_gpus, cpus, flow, _, revision, gates), g in rows(manifest_path):
        boards = ", ".join(f"`{b}`" for b in g["boards"])
        out.append(f"| {gpu} | {host_gpus}-GPU host ({cpus} CPUs) | {list(FLOWS.values())[flow]} | `{revision}` | {gates} | "
                   f"{g['aa']}, {g['changed']} | {boards} | {g['compared']} | {g['false']} | "
                   f"{g['caught']} / {g['missed']} | {span(g['caught_sizes'])} | {span(g['missed_sizes'])} |")
    return "\n".join(out) + "\n"


def doc_block(doc):
    """DOC's text, and the first and last line index of its table (between the markers)."""
    try:
        with open(doc, encoding="utf-8") as f:
            lines = f.read().splitlines(keepends=True)
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{doc}: cannot read it ({e})")
    begins = [i for i, line in enumerate(lines) if BEGIN.match(line.rstrip("\n"))]
    ends = [i for i, line in enumerate(lines) if line.rstrip("\n") == END]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise BadInput(f"{doc}: no one block from <!-- false-alarms: MANIFEST --> to {END}")
    return lines, begins[0] + 1, ends[0]


def main(argv):
    if len(argv) not in (1, 3) or argv[0].startswith("-") or (len(argv) == 3 and argv[1] not in ("--check", "--update")):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    made = table(argv[0])
    if len(argv) == 1:
        sys.stdout.write(made)
        return 0
    doc = argv[2]
    lines, first, last = doc_block(doc)
    kept = "".join(lines[first:last])
    if argv[1] == "--check":
        if kept == made:
            return 0
        sys.stderr.writelines(difflib.unified_diff(kept.splitlines(True), made.splitlines(True), doc, "the manifest"))
        print(f"{doc}: the false-alarm table differs from its runs (tools/false_alarms.py {argv[0]} --update {doc})",
              file=sys.stderr)
        return 1
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(doc)), prefix=".false_alarms.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("".join(lines[:first]) + made + "".join(lines[last:]))
        os.chmod(tmp, os.stat(doc).st_mode & 0o777)
        os.replace(tmp, doc)
    except OSError as e:
        os.unlink(tmp)
        raise BadInput(f"{doc}: cannot write it ({e})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        print(f"false_alarms: {e}", file=sys.stderr)
        sys.exit(2)

#!/usr/bin/env python3
"""The body of a pull request's benchmark comment: a hidden marker by which the comment is found and updated in
place, a headline with the verdict, what was measured, and the comparison, made from the verdict file of
`compare --verdict` (the merge base as the baseline, the head as the current run) alone; or, when the two sides
could not be measured, the end of the build log.
Usage: ci/pr_comment.py (--verdict=VERDICT.json | --log=LOG) [--base=SHA] [--head=SHA] [--processes=N] [--run-url=URL]
                         [--dashboard=URL]   (the dashboard of the history store, linked at the end)
                         [--same-code=FILE]  (bisect --skip-same-code's same_code.json: the cases skipped as the same
                                              code on both sides, counted and listed)
Every text the inputs hold (case names, notes, log lines) is shown inert: case names and notes as code spans, the
log in a fence longer than any run of backticks in it, control characters as escapes, so nothing in a result or a
log becomes a link, an image, a mention or HTML. Paths are shown repository-relative: in the log, and in the notes,
where the compared files (the measuring job's temporary directory) are named by their names in the artifact. Prints the body on
standard output, under GitHub's limit in UTF-16 code units (the table of all cases is dropped first, then rows cut,
saying so). Exit status: 0 written, 2 an input that cannot be read (one line)."""
import json
import re
import sys

MARKER = "<!-- cudabench-pr-benchmark -->"
LIMIT = 65000  # GitHub refuses a comment over 65,536 UTF-16 code units
# Every verdict kind, in the order compare counts them (analysis/compare.hpp's all_verdicts; the pr_bench test holds
# this list to the keys of a verdict file's "counts", which name every kind).
VERDICTS = ("regression", "improvement", "unchanged", "inconclusive", "not gated", "unconfirmed",
            "machine differs (same code)", "machine differs", "new", "missing", "failed", "skipped")
# A section each for the verdicts that need a look, with what they mean (the Markdown comparison's, reports/render.cpp).
SECTIONS = (("Regressions", ("regression",), ""),
            ("Unconfirmed", ("unconfirmed",), "A change beyond the gate between runs of different machines, never "
             "failing: only a measurement of both revisions on one machine (`confirm`) tells the code's change from "
             "the machine's."),
            ("Machine differs", ("machine differs", "machine differs (same code)"), "The machine changed, not the code "
             "(a `limits` case beyond its gate, a flag that `confirm` did not confirm, or a change of a case whose "
             "device code and launches match the baseline's: same code); never failing."))
LOG_LINES, LOG_WIDTH, NAME_WIDTH = 5, 300, 200


def fail(message):
    print("ci/pr_comment.py: %s" % message, file=sys.stderr)
    sys.exit(2)


def units(text):
    """The length GitHub counts: UTF-16 code units (a character outside the BMP, as most emoji are, counts 2)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def visible(text, width):
    """Control characters (newlines, ESC, ...) as escapes, the marker (ours alone) named, the text cut to width
    characters."""
    text = "".join(ch if ch >= " " and ch != "\x7f" else "\\x%02x" % ord(ch) for ch in str(text)).replace(MARKER, "(marker)")
    return text if len(text) <= width else text[:width - 1] + "\u2026"


def code(text, in_table=False, width=NAME_WIDTH):
    """Text as an inert code span: delimited by more backticks than its longest run of them; | escaped in a table."""
    text = visible(text, width)
    if in_table:
        text = text.replace("|", "\\|")
    ticks = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text[:1] in ("`", " ") or text[-1:] in ("`", " ") or not text else ""
    return ticks + pad + text + pad + ticks


def fenced(lines):
    """Lines inside a fence longer than any run of backticks in them: nothing in them can close it."""
    text = "\n".join(lines)
    fence = "`" * max(3, max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    return [fence, text, fence]


def short(sha):
    return sha[:12] if re.fullmatch(r"[0-9a-f]{7,64}", sha or "") else None


def duration(seconds):
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds != seconds:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(seconds) >= scale:
            return "%.2f %s" % (seconds / scale, unit)
    return "%.2f ns" % (seconds * 1e9)


def pct(x):
    return "%+.1f%%" % (100 * x) if isinstance(x, (int, float)) and not isinstance(x, bool) and x == x else "-"


def row(case):
    verdict = case.get("verdict") if case.get("verdict") in VERDICTS else "?"
    return "| %s | %s | %s | %s | %s |" % (code(case.get("name", "?"), in_table=True), duration(case.get("baseline_median_s")),
                                         duration(case.get("current_median_s")), pct(case.get("change")), verdict)


def failing_case(case):
    return case.get("verdict") == "regression" or case.get("lost") is True


def threshold_of(verdict):
    settings = verdict.get("settings") if isinstance(verdict.get("settings"), dict) else {}
    t = settings.get("threshold")
    return t if isinstance(t, (int, float)) and not isinstance(t, bool) and 0 < t < 100 else 0.05


def not_gated_move(case, threshold):
    """A not-gated case that moved by the threshold or more: never failing, so the comment says so and why."""
    change = case.get("change")
    return case.get("verdict") == "not gated" and isinstance(change, (int, float)) and not isinstance(change, bool) \
        and abs(change) >= threshold


def not_gated_explained(verdict):
    settings = verdict.get("settings") if isinstance(verdict.get("settings"), dict) else {}
    host = settings.get("host_threshold")
    host = ("here gated by --host-threshold=%g%%" % (100 * host) if isinstance(host, (int, float)) and not isinstance(host, bool)
            else "gated only by --host-threshold or by a learned host gate where both runs are of one host")
    return ("Not gated: reported with its change, never failing the comparison; a host-bound case (host work "
            "dominates its time) is %s, and a case registered as not gated never is" % host)


def counts_text(cases):
    """Each verdict's count that is not zero, by its name, in compare's order ("?" last: a verdict no kind names)."""
    counts = {}
    for c in cases:
        v = c.get("verdict") if c.get("verdict") in VERDICTS else "?"
        counts[v] = counts.get(v, 0) + 1
    return ", ".join("%d %s" % (counts[v], v) for v in VERDICTS + ("?",) if counts.get(v))


def headline(cases, failing, moved):
    """One word (fail, unconfirmed, pass), then what made it: a pass with a not-gated case that moved is no plain
    green check."""
    if failing:
        regressions = sum(1 for c in cases if c.get("verdict") == "regression")
        lost = sum(1 for c in cases if c.get("lost") is True)
        parts = ["%d regression%s" % (regressions, "" if regressions == 1 else "s")] if regressions else []
        parts += ["%d lost case%s" % (lost, "" if lost == 1 else "s")] if lost else []
        return ":x: **Benchmarks: fail** (%s)" % (", ".join(parts) or "the comparison failed")
    unconfirmed = sum(1 for c in cases if c.get("verdict") == "unconfirmed")
    if unconfirmed:
        return ":grey_question: **Benchmarks: unconfirmed** (%d change%s between different machines; no regression)" % (
            unconfirmed, "" if unconfirmed == 1 else "s")
    if moved:
        return ":warning: **Benchmarks: pass** (no regression; %d case%s not gated moved: see below)" % (
            moved, "" if moved == 1 else "s")
    return ":white_check_mark: **Benchmarks: pass** (no regression)"


def relative(line):
    """A line with the temporary directories' prefixes dropped: the bisect worktree's (its paths are the
    repository's), and /tmp/...'s."""
    line = re.sub(r"(?:/[^/\s'\"`]+)*/\.git/cudabench-bisect/[^/\s'\"`]+/", "", line)
    return re.sub(r"(?<![\w.~-])/tmp/(?:[^/\s'\"`]+/)*", "", line)


def shown_note(note, verdict):
    """A note of the comparison with the compared files (and the gates file) that are absolute paths, as the
    measuring job's temporary directory makes them, named by their file names (their names in the artifact)."""
    gates = verdict.get("gates") if isinstance(verdict.get("gates"), dict) else {}
    for path in (verdict.get("baseline"), verdict.get("current"), gates.get("file")):
        if isinstance(path, str) and path.startswith("/") and path.rstrip("/"):
            note = note.replace(path, path.rstrip("/").rsplit("/", 1)[-1])
    return relative(note)


def comparison(verdict):
    """The headline and the comparison's sections (each a list of lines) from a verdict file."""
    cases = [c for c in verdict["cases"] if isinstance(c, dict)]
    header = ["| case | merge base | head | change | verdict |", "|---|---|---|---|---|"]
    summary = ["**%d case%s: %s**" % (len(cases), "" if len(cases) == 1 else "s", counts_text(cases) or "none")]
    notes = [shown_note(s, verdict) for s in verdict.get("notes") or [] if isinstance(s, str)][:20]
    if notes:
        summary += [""] + ["- " + code(n, width=LOG_WIDTH) for n in notes]
    sections = [summary]
    for title, kinds, meaning in SECTIONS:
        rows = [c for c in cases if c.get("verdict") in kinds or (kinds[0] == "regression" and failing_case(c))]
        if rows:
            sections.append(["### " + title, ""] + ([meaning, ""] if meaning else []) + header + [row(c) for c in rows])
    threshold = threshold_of(verdict)
    moved = [c for c in cases if not_gated_move(c, threshold)]
    if moved:
        sections.append(["### Not gated, moved by %.1f%% or more" % (100 * threshold), "",
                         not_gated_explained(verdict) + "."] + [""] + header + [row(c) for c in moved])
    elif any(c.get("verdict") == "not gated" for c in cases):
        summary += ["", not_gated_explained(verdict) + "."]
    sections.append(["<details><summary>All %d cases</summary>" % len(cases), ""] + header + [row(c) for c in cases] + ["", "</details>"])
    return headline(cases, verdict["failing"] is True, len(moved)), sections


def same_code_section(path):
    """The cases bisect --skip-same-code skipped as the same code on both sides (same_code.json), counted and
    listed; or why every case was measured."""
    try:
        with open(path, encoding="utf-8") as f:
            j = json.loads(f.read(16 << 20))
    except (OSError, ValueError) as e:
        fail("%s: not a same-code file (%s)" % (path, e))
    skipped, note = j.get("same_code") if isinstance(j, dict) else None, j.get("note", "") if isinstance(j, dict) else None
    if not isinstance(skipped, list) or not all(isinstance(n, str) for n in skipped) or not isinstance(note, str):
        fail("%s: not a same-code file (no 'same_code' list of case names and 'note', as bisect --skip-same-code writes)" % path)
    if not skipped:
        return ["- " + code(relative(note) or "every case measured", width=LOG_WIDTH)]
    return ["**%d case%s skipped as same code**: %s device code, launches and copies (the code identity of one untimed "
            "run) are the same on both sides, so %s not measured. A change of host code only (the harness, a CPU case, a "
            "reference) is not seen so: run it with `CUDABENCH_PR_ALL_CASES=1`."
            % (len(skipped), "" if len(skipped) == 1 else "s", "its" if len(skipped) == 1 else "their",
               "it was" if len(skipped) == 1 else "they were"),
            "", "<details><summary>Skipped as same code</summary>", ""] + ["- " + code(n) for n in skipped] + ["", "</details>"]


def log_section(path):
    """The end of the build log, paths repository-relative (the bisect worktree's prefix dropped), fenced."""
    try:
        with open(path, "rb") as f:
            f.seek(0, 2)
            f.seek(max(0, f.tell() - (64 << 10)))
            text = f.read().decode("utf-8", "replace")
    except OSError as e:
        fail("%s: cannot be read (%s)" % (path, e.strerror))
    lines = [relative(l) for l in text.splitlines()[-LOG_LINES:]]
    return [visible(l, LOG_WIDTH) for l in lines] or ["(the log is empty)"]


def fit(top, sections, tail):
    """The body, under LIMIT UTF-16 units: the table of every case dropped first, then rows cut from the longest
    section's end, saying so."""
    def joined(secs, note=None):
        return "\n".join(top + [l for s in secs for l in s + [""]] + ([note, ""] if note else []) + tail)
    text = joined(sections)
    if units(text) <= LIMIT:
        return text
    note = None
    if sections[-1][0].startswith("<details>"):
        sections, note = sections[:-1], "(the table of every case is left out: too long for a comment; the run's report has it)"
        text = joined(sections, note)
        if units(text) <= LIMIT:
            return text
    note = "(cut here: too long for a comment; the run's report has the rest)"
    cut = [list(s) for s in sections]
    total = units(joined(cut, note))
    while total > LIMIT and any(cut):
        longest = max(cut, key=len)
        total -= units(longest.pop()) + 1
    return joined(cut, note)


def https_address(opts, key):
    """The option's value, a plain https address (none of Markdown's or HTML's markup), or "" where not given."""
    value = opts.get(key) or ""
    if value and not re.fullmatch(r"https://[A-Za-z0-9._~:/?#@!$&'*+,;=%-]{1,2000}", value):
        fail("--%s=%s is not an https address" % (key, value))
    return value


def main(argv):
    opts = {}
    for a in argv:
        m = re.fullmatch(r"--(verdict|log|base|head|processes|run-url|dashboard|same-code)=(.*)", a)
        if not m:
            fail("unknown argument '%s' (usage: ci/pr_comment.py (--verdict=VERDICT.json | --log=LOG) [--base=SHA] [--head=SHA] "
                 "[--processes=N] [--run-url=URL] [--dashboard=URL] [--same-code=FILE])" % a)
        opts[m.group(1)] = m.group(2)
    if ("verdict" in opts) == ("log" in opts):
        fail("give one of --verdict=VERDICT.json (a comparison) and --log=LOG (the sides could not be measured)")
    processes = opts.get("processes")
    if processes is not None and not re.fullmatch(r"[1-9][0-9]{0,2}", processes):
        fail("--processes=%s is not a count" % processes)
    run_url, dashboard = https_address(opts, "run-url"), https_address(opts, "dashboard")
    for end in ("base", "head"):
        if opts.get(end) and not short(opts[end]):
            fail("--%s=%s is not a commit hash" % (end, opts[end]))
    base, head = short(opts.get("base", "")), short(opts.get("head", ""))
    if "log" in opts:
        top = [MARKER, ":x: **Benchmarks: not measured**", "",
               "The merge base `%s` and the head `%s` could not both be built and measured; the end of the log:" % (base or "?", head or "?")]
        sections = [fenced(log_section(opts["log"]))]
    else:
        verdict = read_verdict(opts["verdict"])
        title, sections = comparison(verdict)
        if opts.get("same-code"):
            sections.insert(1, same_code_section(opts["same-code"]))
        what = "The merge base%s (baseline) against the head%s (current)" % (" `%s`" % base if base else "", " `%s`" % head if head else "")
        if processes:
            what += ", each built and measured in %s fresh processes alternating with the other's" % processes
        top = [MARKER, title, "", what + "."]
    tail = ["---", "<sub>Measured at the commit a maintainer approved: label the pull request `benchmark`, or comment "
            "`/benchmark SHA`, again after each push" + ("; [the run](%s) has the reports" % run_url if run_url else "")
            + ("; [the dashboard](%s) shows the default branch across commits" % dashboard if dashboard else "") + ".</sub>", ""]
    sys.stdout.write(fit(top + [""], sections, tail))
    return 0


def read_verdict(path):
    try:
        with open(path, encoding="utf-8") as f:
            verdict = json.loads(f.read(64 << 20))
    except (OSError, ValueError) as e:
        fail("%s: not a verdict file (%s)" % (path, e))
    if not isinstance(verdict, dict) or not isinstance(verdict.get("cases"), list) or not isinstance(verdict.get("failing"), bool):
        fail("%s: not a verdict file (no 'cases' list and 'failing' flag, as compare --verdict writes)" % path)
    return verdict


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

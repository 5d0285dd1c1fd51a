#!/usr/bin/env python3
"""What ci/nightly.sh needs around `run_bench bisect`:
  nightly_bisect.py revision BASELINE.json   the baseline's git revision (context.cudabench.git_revision); exit 1 unless a full commit hash
  nightly_bisect.py filter VERDICT.json      an RE2 pattern matching exactly the cases the verdict file calls regressions
                                             (a --devices prefix devN/ dropped), the largest slowdowns first as many
                                             as bisect's pattern limit takes (the rest named on standard error);
                                             exit 1 when there are none
  nightly_bisect.py markdown BISECT.json     the bisect outcome as a Markdown section of the report and job summary
A file that is not what its command reads (a missing field, one of the wrong type): one line, exit 2."""
import json
import re
import sys


def revision(path):
    rev = json.load(open(path))["context"].get("cudabench", {}).get("git_revision", "")
    # a full commit hash only: a symbolic name (HEAD, a branch) or a short hash names whatever it points at now
    if not isinstance(rev, str):
        raise TypeError("git_revision is not a string")
    if not re.fullmatch(r"[0-9a-f]{40}", rev) or set(rev) == {"0"}:
        sys.exit(1)
    print(rev)


MAX_PATTERN = 1000  # bisect's limit on --filter (measure/pattern.hpp, regex_filter::max_length)


def case_filter(path):
    change = {}
    for c in json.load(open(path))["cases"]:
        if c.get("verdict") == "regression":
            name = re.sub(r"^dev[0-9]+/", "", c["name"])
            x = c.get("change")
            change[name] = max(change.get(name, 0.0), x if isinstance(x, (int, float)) else 0.0)
    if not change:
        sys.exit(1)
    worst = sorted(change, key=lambda n: (-change[n], n))
    taken, length = [], len("^()$") - 1  # "^(" + "a|b" + ")$": the largest slowdowns that fit
    for n in worst:
        if length + 1 + len(re.escape(n)) <= MAX_PATTERN:
            taken.append(n)
            length += 1 + len(re.escape(n))
    if not taken:
        sys.exit(1)
    if len(taken) < len(worst):
        print("nightly_bisect.py: %d regressed cases, bisecting the %d largest slowdowns (the pattern limit is %d characters)"
              % (len(worst), len(taken), MAX_PATTERN), file=sys.stderr)
    print("^(%s)$" % "|".join(re.escape(n) for n in sorted(taken)))


def pct(x):
    return "-" if x is None else "%+.1f%%" % (100 * x)


MARKDOWN_CHARS = set("\\`*_[]()<>!|~:@#&.")  # emphasis, code, links and images, HTML and entities, tables, autolinks


def visible(ch):
    """A character, a control character (newline, ESC) shown as an escape."""
    return "\\x%02x" % ord(ch) if ch < " " or ch == "\x7f" else ch


def inert(text):
    """Text from a commit or a result, inert in Markdown (no link, image, mention, issue reference or HTML): the
    characters Markdown and GitHub's autolinks read backslash-escaped, @ and # followed by a zero-width space,
    control characters shown as escapes; cut to 500 characters."""
    return "".join("\\" + ch + ("\u200b" if ch in "@#" else "") if ch in MARKDOWN_CHARS else visible(ch) for ch in str(text)[:500])


def code(text):
    """A commit or a file name as a code span (nothing in it is live), delimited by more backticks than its
    longest run of them."""
    text = "".join(visible(ch) for ch in str(text)[:500])
    ticks = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    return ticks + " " + text + " " + ticks


def markdown(path):
    j = json.load(open(path))
    out = ["## Bisect: which commit", ""]
    span = "%s..%s" % (code(j["good"]["commit"][:12]), code(j["bad"]["commit"][:12]))
    if j["outcome"] == "nothing_to_bisect":
        out.append("Measured fresh at both ends (%s), none of the regressed cases is slower: nothing to bisect "
                   "(the regression did not reproduce on this machine)." % span)
    elif j["outcome"] == "found":
        fb = j["first_bad"]
        out.append("First bad commit in %s: **%s** %s" % (span, code(fb["commit"]), inert(fb["subject"])))
        out += ["", "Files: " + ", ".join(code(f) for f in fb["files"])]
    else:
        why = "the time budget ran out" if j["stopped_by_time_limit"] else "the revisions between could not be built or measured"
        out.append("The first bad commit in %s is one of these %d (%s):" % (span, len(j["range"]), why))
        out += [""] + ["- %s %s" % (code(r["commit"]), inert(r["subject"])) for r in j["range"]]
    if j["cases"]:
        out += ["", "| case | good -> bad | good -> first bad |", "|---|---|---|"]
        out += ["| %s | %s | %s |" % (inert(c["name"]), pct(c["change"]), pct(c["first_bad_change"])) for c in j["cases"]]
    print("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("revision", "filter", "markdown"):
        sys.exit(__doc__)
    try:
        {"revision": revision, "filter": case_filter, "markdown": markdown}[sys.argv[1]](sys.argv[2])
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError) as e:
        # A field of the wrong type or missing: one line naming the file, nothing printed before it.
        what = {"revision": "a results file", "filter": "a verdict file", "markdown": "a bisect outcome (bisect --json)"}[sys.argv[1]]
        print("nightly_bisect.py: %s is not %s (%s: %s)" % (ascii(sys.argv[2])[1:-1], what, type(e).__name__,
                                                           ascii(str(e))[1:-1][:200]), file=sys.stderr)
        sys.exit(2)

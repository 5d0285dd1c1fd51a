#!/usr/bin/env bash
# The examples of docs/examples.md that a machine without a GPU can make (comparison, speedups, CSV, JSON lines,
# trend), made from real runs: --write puts them into the page; --check (the default) says whether its examples still have
# the shape of today's output (the same lines, each with the same fields; figures may differ).
# Usage: tools/doc_examples.sh [--write|--check] [BUILD_DIR]   (BUILD_DIR: default build/, built)
# Each example's block in docs/examples.md follows a line <!-- example: NAME -->.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=check
case "${1:-}" in
  --write) mode=write; shift ;;
  --check) shift ;;
  -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || { echo "doc_examples: no build directory ${1:-$root/build}" >&2; exit 2; }
bench="$build/bench/cudabench" report="$build/app/cudabench-report"
for b in "$bench" "$report"; do
  [ -x "$b" ] || { echo "doc_examples: $b is not built (cmake --build $build --target cudabench cudabench-report)" >&2; exit 2; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root" || exit 2

# The commands are the ones the page names beside each example.
"$report" compare tests/fixtures/synthetic_base.json tests/fixtures/synthetic_slowed.json >"$out/compare" 2>&1
"$report" report reports/baselines/NVIDIA_H100_80GB_HBM3/nightly.json 2>&1 |
  awk '/^reduce \(size 268435456\)/ { on = 1 } on && /^$/ { exit } on' >"$out/report"
"$bench" --filter='^(image/cpu|histogram/cpu/1048576)$' --csv "$out/csv" --json-lines "$out/json_lines" --quiet >/dev/null 2>&1
"$report" trend tests/fixtures/trend >"$out/trend" 2>&1
for name in compare report csv json_lines trend; do
  [ -s "$out/$name" ] || { echo "doc_examples: the $name example came out empty" >&2; exit 1; }
done

python3 - "$mode" "$root/docs/examples.md" "$out" <<'PY'
import os, re, sys
mode, page, out = sys.argv[1:]
text = open(page).read()
marker = re.compile(r"<!-- example: (\w+) -->\n```\n(.*?)```\n", re.S)

def shape(name, line):
    fields = line.split(",") if name == "csv" else line.split()
    return [("#" if re.search(r"\d", f) else f) for f in fields]

problems = []
def replace(m):
    name, old = m.group(1), m.group(2)
    new = open(os.path.join(out, name)).read()
    if mode == "check":
        old_lines, new_lines = old.splitlines(), new.splitlines()
        if len(old_lines) != len(new_lines):
            problems.append(f"{name}: {len(old_lines)} lines in docs/examples.md, {len(new_lines)} now")
        for i, (a, b) in enumerate(zip(old_lines, new_lines)):
            if shape(name, a) != shape(name, b):
                problems.append(f"{name}, line {i + 1}: docs/examples.md has\n    {a}\n  today's output\n    {b}")
        if name == "csv":
            width = len(old_lines[0].split(","))
            problems.extend(f"csv, line {i + 1}: {len(l.split(','))} fields under a header of {width}"
                            for i, l in enumerate(old_lines) if len(l.split(",")) != width)
    return f"<!-- example: {name} -->\n```\n{new}```\n"

updated = marker.sub(replace, text)
found = {m.group(1) for m in marker.finditer(text)}
missing = {"compare", "report", "csv", "trend"} - found
if missing:
    sys.exit(f"doc_examples: docs/examples.md has no block for {', '.join(sorted(missing))}")
if mode == "write":
    if updated != text:
        open(page, "w").write(updated)
    print("docs/examples.md: examples written:", ", ".join(sorted(found)))
elif problems:
    print("docs/examples.md's examples no longer have the shape of the output (tools/doc_examples.sh --write):")
    print("\n".join(problems))
    sys.exit(1)
else:
    print("docs/examples.md's examples have the shape of today's output:", ", ".join(sorted(found)))
PY

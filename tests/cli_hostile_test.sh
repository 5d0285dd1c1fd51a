#!/usr/bin/env bash
# End-to-end tests of hostile input and use: an output over a file the command reads (the gates file, the
# one beside the baseline); a large gates file read in linear time; CSV and HTML cells that a spreadsheet or a
# terminal would act on; fleet's unreadable or foreign verdict files; duplicate --axis/--sizes values and
# standard input named twice as usage errors; ci/nightly_bisect.py with many regressed cases and hostile
# names; corrupted rounds fields and the quiet acceptances (a trend of two presets, --rounds over the
# repetitions, a missing trend directory).
# Usage: tests/cli_hostile_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report" bench="$build/bench/cudabench" fx="$src/tests/fixtures"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
export CUDA_VISIBLE_DEVICES=
base="$fx/synthetic_base.json" slowed="$fx/synthetic_slowed.json"

# --- An output never overwrites a file the command reads: the gates file included.
"$report" gates "$fx/trend" --out "$tmp/g.gates.json" >/dev/null || { echo "FAIL: learning the gates"; exit 1; }
cp "$tmp/g.gates.json" "$tmp/g.kept"
for option in --verdict --md --html --csv; do
  check "compare --gates=G $option G: refused, G kept" 2 \
    "$(run "$report" compare "$base" "$slowed" --gates "$tmp/g.gates.json" "$option" "$tmp/g.gates.json")" \
    'one_line "same file as the input .*g.gates.json"' 'cmp -s "$tmp/g.gates.json" "$tmp/g.kept"'
done
cp "$base" "$tmp/base.json" && cp "$tmp/g.gates.json" "$tmp/base.gates.json"
for option in --verdict --md --html --csv; do
  check "compare $option over the gates file beside the baseline: refused, kept" 2 \
    "$(run "$report" compare "$tmp/base.json" "$slowed" "$option" "$tmp/base.gates.json")" \
    'one_line "base.gates.json is the same file as the input"' 'cmp -s "$tmp/base.gates.json" "$tmp/g.kept"'
done
check "compare --gates=none: the file beside the baseline is not read, and may be written" 1 \
  "$(run "$report" compare "$tmp/base.json" "$slowed" --gates=none --md "$tmp/base.gates.json")"
cp "$tmp/g.kept" "$tmp/base.gates.json"
cpu=(--filter='^image/cpu$' --preset=quick --watchdog=off --quiet)
for option in --json --md --csv --verdict; do
  check "the runner's --compare-to B $option over B's gates file: refused before running" 2 \
    "$(run "$bench" "${cpu[@]}" --compare-to="$tmp/base.json" --allow-device-mismatch "$option" "$tmp/base.gates.json")" \
    'one_line "same file as the input"' 'cmp -s "$tmp/base.gates.json" "$tmp/g.kept"' '! grep -q "case(s):" "$tmp/out"'
done
check "the runner's --gates=G --json=G: refused before running" 2 \
  "$(run "$bench" "${cpu[@]}" --compare-to="$base" --allow-device-mismatch --gates="$tmp/g.gates.json" --json="$tmp/g.gates.json")" \
  'one_line "same file as the input"' 'cmp -s "$tmp/g.gates.json" "$tmp/g.kept"'

# --- The gates file reader is linear: 200,000 cases (12 MB) read within seconds (minutes when it was quadratic).
python3 - "$tmp/g.gates.json" "$tmp/big.gates.json" <<'EOF'
import json, sys
g = json.load(open(sys.argv[1]))
g["cases"].update({"family/variant/%07d" % i: {"gate": 0.02, "drift": 0.003, "runs": 8} for i in range(200000)})
json.dump(g, open(sys.argv[2], "w"))
EOF
start=$(date +%s)
check "compare with a gates file of 200,000 cases: within 15 s" 1 \
  "$(run timeout 60 "$report" compare "$base" "$slowed" --gates "$tmp/big.gates.json")" '[ $(( $(date +%s) - start )) -le 15 ]' \
  'grep -q "200004 case(s) learned" "$tmp/out"'

# --- One escaping rule per format: CSV cells a spreadsheet would run, control bytes in CSV and HTML.
python3 - "$base" "$tmp/evil.json" "$tmp/evil_slowed.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
evil = {"image/sync": "=cmd|' /C calc'!A0", "image/async": "+1+\x1b]0;title\x07x", "conv2d/naive": "@SUM(A1)\x01\x08"}
def rename(name):
    for k, v in evil.items():
        if name.startswith(k + "/") or name == k:
            return v + name[len(k):]
    return name
for r in j["benchmarks"]:
    r["name"], r["run_name"] = rename(r["name"]), rename(r["run_name"])
j["context"]["cudabench"]["cases"] = {rename(k): v for k, v in j["context"]["cudabench"]["cases"].items()}
json.dump(j, open(sys.argv[2], "w"))
for r in j["benchmarks"]:
    r["real_time"] *= 1.3
json.dump(j, open(sys.argv[3], "w"))
EOF
raw='python3 -c "import sys; d = open(sys.argv[1], \"rb\").read(); sys.exit(any(b < 32 and b not in (9, 10, 13) for b in d))"'
formula='python3 -c "import csv, sys; sys.exit(any(c[:1] in (\"=\", \"+\", \"-\", \"@\", \"\\t\", \"\\r\") for row in csv.reader(open(sys.argv[1])) for c in row))"'
check "report --csv --html of hostile case names: no formula cell, no raw control byte" 0 \
  "$(run "$report" report "$tmp/evil.json" --csv "$tmp/r.csv" --html "$tmp/r.html")" \
  "$formula \"\$tmp/r.csv\"" "$raw \"\$tmp/r.csv\"" "$raw \"\$tmp/r.html\"" "grep -q \"'=cmd\" \"\$tmp/r.csv\""
check "compare --csv --html of hostile case names: no formula cell, no raw control byte" 1 \
  "$(run "$report" compare "$tmp/evil.json" "$tmp/evil_slowed.json" --csv "$tmp/c.csv" --html "$tmp/c.html")" \
  "$formula \"\$tmp/c.csv\"" "$raw \"\$tmp/c.csv\"" "$raw \"\$tmp/c.html\""
check "fleet --csv --html of hostile case names: no formula cell, no raw control byte" 0 \
  "$(run "$report" fleet "$tmp/evil.json" "$tmp/evil_slowed.json" --csv "$tmp/f.csv" --html "$tmp/f.html")" \
  "$formula \"\$tmp/f.csv\"" "$raw \"\$tmp/f.csv\"" "$raw \"\$tmp/f.html\""

# --- fleet: a verdict file that cannot be read, or of another schema version, is refused.
stamp=20261102T000000Z
night() {  # night DIR: a nightly directory with its run and verdict file
  mkdir -p "$1/runs" && cp "$slowed" "$1/runs/nightly-$stamp.json"
  "$report" compare "$base" "$1/runs/nightly-$stamp.json" --verdict "$1/verdict-$stamp.json" >/dev/null
}
for kind in directory fifo zero dangling loop; do
  d="$tmp/n-$kind"
  night "$d"
  rm "$d/verdict-$stamp.json"
  case $kind in
    directory) mkdir "$d/verdict-$stamp.json" ;;
    fifo) mkfifo "$d/verdict-$stamp.json" ;;
    zero) ln -s /dev/zero "$d/verdict-$stamp.json" ;;
    dangling) ln -s "$d/none.json" "$d/verdict-$stamp.json" ;;
    loop) ln -s "$d/verdict-$stamp.json" "$d/verdict-$stamp.json" ;;
  esac
  check "fleet with a verdict file that is a $kind: exit 2, one line" 2 "$(run timeout 20 "$report" fleet "$d")" \
    "one_line \"verdict-$stamp.json\""
done
# The versions this reader takes, from the one place that says them.
newest=$(sed -n 's/^constexpr int verdict_schema_version = \([0-9]*\);/\1/p' "$src/reports/render.hpp")
oldest=$(sed -n 's/^constexpr int oldest_verdict_schema_version = \([0-9]*\);/\1/p' "$src/reports/render.hpp")
[ -n "$newest" ] && [ -n "$oldest" ] || { echo "FAIL no verdict schema versions in reports/render.hpp"; exit 1; }
for version in $((oldest - 1)) $((newest + 1)) "\"$oldest\"" none; do
  d="$tmp/v-${version//\"/q}"
  night "$d"
  python3 - "$d/verdict-$stamp.json" "$version" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
if sys.argv[2] == "none":
    del j["schema_version"]
else:
    j["schema_version"] = json.loads(sys.argv[2])
json.dump(j, open(sys.argv[1], "w"))
EOF
  check "fleet with a verdict file of schema_version $version: refused" 2 "$(run "$report" fleet "$d")" \
    "one_line \"'schema_version' is .*verdict files of versions $oldest to $newest\""
done
# A verdict its schema version cannot hold, one that is none, a case listed twice: refused, not shown.
edits=("version 2 with machine differs" 'j["schema_version"] = 2; j["cases"][0]["verdict"] = "machine differs"'
       "an unknown verdict" 'j["cases"][0]["verdict"] = "passed"'
       "an unknown verdict in its counts" 'j["counts"]["passed"] = 3'
       "a case listed twice" 'j["cases"].append(dict(j["cases"][0], verdict="unchanged"))')
expect=("which a verdict file of schema version 2 cannot hold (it came with version 3)" "'passed', which is no verdict"
        "'counts' has the verdict 'passed', which is no verdict" "is listed twice")
for i in 0 1 2 3; do
  d="$tmp/e-$i"
  night "$d"
  python3 -c "import json, sys; j = json.load(open(sys.argv[1])); ${edits[2 * i + 1]}; json.dump(j, open(sys.argv[1], 'w'))" \
    "$d/verdict-$stamp.json"
  check "fleet with a verdict file holding ${edits[2 * i]}: refused in one line" 2 "$(run "$report" fleet "$d" --md "$tmp/e.md")" \
    "one_line \"verdict-$stamp.json: .*${expect[i]}\"" '[ ! -e "$tmp/e.md" ]'
done
night "$tmp/n-good"
check "fleet with the verdict file compare wrote: read" 1 "$(run "$report" fleet "$tmp/n-good")" 'grep -q "verdict verdict-" "$tmp/out"'

# --- Usage errors, not failed cases or a race.
check "--axis with a value twice: a usage error" 2 "$(run "$bench" --axis=dot.streams=2,2 --list)" \
  'one_line "\-\-axis: 2 appears twice"'
check "--sizes with a size twice: a usage error" 2 "$(run "$bench" --sizes=conv2d=1024,1024 --list)" \
  'one_line "\-\-sizes: 1024 appears twice"'
check "compare - -: standard input named twice, refused" 2 "$(run "$report" compare - - <"$base")" \
  'one_line "standard input (-) is named more than once"'
check "fleet - -: standard input named twice, refused" 2 "$(run "$report" fleet - - <"$base")" \
  'one_line "standard input (-) is named more than once"'

# --- ci/nightly_bisect.py: many regressed cases stay within bisect's pattern limit; names escaped in Markdown.
python3 - "$tmp/many.verdict.json" <<'EOF'
import json, sys
cases = [{"name": "family%03d/a_long_variant_name/parameters=4096x4096" % i, "verdict": "regression", "change": 0.1 + i / 1000}
         for i in range(200)]
json.dump({"schema_version": 2, "failing": True, "cases": cases}, open(sys.argv[1], "w"))
EOF
check "nightly_bisect.py filter of 200 regressions: within 1,000 characters, the worst first" 0 \
  "$(run python3 "$src/ci/nightly_bisect.py" filter "$tmp/many.verdict.json")" \
  '[ "$(head -c 1001 "$tmp/out" | tr -d "\n" | wc -c)" -le 1000 ]' 'grep -q "family199" "$tmp/out"' '! grep -q "family000/" "$tmp/out"' \
  'grep -q "200 regressed cases, bisecting the" "$tmp/err"'
check "... a pattern bisect accepts" 0 "$(run "$report" bisect --good=HEAD --bad=HEAD --filter="$(cat "$tmp/out")" --help)"
python3 - "$tmp/bisect.json" <<'EOF'
import json, sys
name = "evil\nline\x1b[31m|`x`"
j = {"good": {"commit": "a" * 40}, "bad": {"commit": "b" * 40}, "outcome": "found", "stopped_by_time_limit": False,
     "first_bad": {"commit": "c" * 40, "subject": "subject\x1b]0;t\x07", "files": ["f`\n.c"]},
     "range": [], "cases": [{"name": name, "change": 0.2, "first_bad_change": 0.2}]}
json.dump(j, open(sys.argv[1], "w"))
EOF
check "nightly_bisect.py markdown: newlines and ESC in names escaped" 0 \
  "$(run python3 "$src/ci/nightly_bisect.py" markdown "$tmp/bisect.json")" \
  "$raw \"\$tmp/out\"" 'grep -q "evil\\\\x0aline\\\\x1b" "$tmp/out"' '[ "$(grep -c "^| evil" "$tmp/out")" = 1 ]'

# --- Corrupted rounds fields are refused in one line; a good rounds file is read.
python3 - "$base" "$tmp/rounds" <<'EOF'
import copy, json, os, sys
j = json.load(open(sys.argv[1]))
out = sys.argv[2]
os.makedirs(out)
j["context"]["cudabench"]["rounds"] = 5
j["context"]["cudabench"]["shuffle_seed"] = 7
j["context"]["cudabench"]["started_utc"] = "2026-11-02T00:00:00Z"
for r in j["benchmarks"]:
    r.setdefault("cudabench", {})["round"] = r.get("repetition_index", 0) % 5 + 1
json.dump(j, open(os.path.join(out, "good.json"), "w"))
def bad(name, where, key, value):
    k = copy.deepcopy(j)
    if where == "context":
        k["context"]["cudabench"][key] = value
    else:
        k["benchmarks"][0]["cudabench"][key] = value
    text = json.dumps(k)
    if value == "2^64":
        text = text.replace('"2^64"', "18446744073709551616")
    open(os.path.join(out, name + ".json"), "w").write(text)
for v in (-1, 0, 2.5, 1e300):
    bad("rounds_%s" % v, "context", "rounds", v)
for name, v in (("minus1", -1), ("6", 6), ("string", "1"), ("array", [])):
    bad("round_" + name, "row", "round", v)
bad("seed_2e64", "context", "shuffle_seed", "2^64")
bad("repetitions_0", "context", "repetitions", 0)
bad("started_not_a_date", "context", "started_utc", "not a date")
EOF
check "a good rounds file: read as rounds" 0 "$(run "$report" report "$tmp/rounds/good.json")"
for f in "$tmp"/rounds/*.json; do
  name=$(basename "$f" .json)
  [ "$name" = good ] && continue
  check "a rounds file with $name: refused in one line" 2 "$(run "$report" report "$f")" "one_line \"$name.json\""
done

# --- Quiet acceptance made explicit.
mkdir "$tmp/mixed" && cp "$fx/trend/nightly-0.json" "$fx/trend/nightly-1.json" "$tmp/mixed/" && cp "$fx/h100_quick.json" "$tmp/mixed/"
check "trend over runs of two presets: refused as gates refuses them" 2 "$(run "$report" trend "$tmp/mixed")" \
  'one_line "a trend follows runs of one preset"'
check "trend of a directory that does not exist: says so" 2 "$(run "$report" trend "$tmp/nonexistent")" 'one_line "does not exist"'
check "--rounds over the repetitions: a note says what runs" 0 \
  "$(run "$bench" --filter='^image/cpu$' --preset=quick --rounds=3 --repetitions=2 --quiet --json "$tmp/r.json")" \
  'grep -q "note: --rounds=3 with 2 repetition(s): 2 round(s) run" "$tmp/err"'
s=$(CUDABENCH_EXTRA_WORK=abc run "$bench" --list --filter=reduce)
check "a bad CUDABENCH_EXTRA_WORK is refused in one line before any case" 2 "$s" \
  '[ "$(wc -l <"$tmp/err")" = 1 ]' 'grep -q "CUDABENCH_EXTRA_WORK is .abc." "$tmp/err"' '[ ! -s "$tmp/out" ]'
for work in 0x10 " 5" 1e-400 "5 " +5 -1 101 1e1; do
  s=$(CUDABENCH_EXTRA_WORK=$work run "$bench" --list --filter=reduce)
  check "CUDABENCH_EXTRA_WORK='$work': refused in one line" 2 "$s" \
    'one_line "CUDABENCH_EXTRA_WORK is .*expected a percentage from 0 to 100 in plain decimal"' '[ ! -s "$tmp/out" ]'
done
check "CUDABENCH_EXTRA_WORK=2.5: taken" 0 "$(CUDABENCH_EXTRA_WORK=2.5 run "$bench" --list --filter=reduce)"
check "--repetitions= 5 (a space in the number): refused naming the option" 2 "$(run "$bench" "--repetitions= 5" --list)" \
  'one_line "\-\-repetitions expects a whole number from 1 to 1000, got . 5."'

# --- Hostile numbers in energy, limits and settings: each refused in one line naming the file, the row where it
# is a row's, and the field. A file of version 1 and a CPU case carry no energy record.
python3 - "$base" "$tmp/numbers" <<'EOF'
import copy, json, os, sys
j = json.load(open(sys.argv[1]))
out = sys.argv[2]
os.makedirs(out)
settings = ("iterations:", "repeats:", "min_time:", "min_warmup_time:", "manual_time", "real_time", "process_time")
def case_of(r):
    parts = r["run_name"].split("/")
    return "/".join(parts[:1] + [p for p in parts[1:] if not p.startswith(settings)])
meta = j["context"]["cudabench"]
meta["schema_version"] = 2
meta["started_utc"] = "2026-11-22T00:00:00Z"
meta["cases"] = {case_of(r): {"on": "gpu", "bytes": 1e9, "flops": 1e12} for r in j["benchmarks"]}
meta["limits"] = {"limits/dram": {"rate": 3e12, "unit": "B/s", "from": "this run", "joules_per_unit": 1e-11}}
at = next(i for i, r in enumerate(j["benchmarks"]) if r.get("run_type") == "iteration")
row = j["benchmarks"][at]
row.update({"energy_j": 0.5, "joules_per_flop": 5e-13, "power_w": 300, "mem_clock_mhz": 2619, "throttled_samples": 0})
row.setdefault("cudabench", {})["energy"] = {
    "method": "counter", "window_s": 1.0, "runs": 100, "extra_s": 0.5, "busy_fraction": 0.95, "uncertainty": 0.001,
    "throttled_samples": 0, "throttle_source": "sampled reasons", "throttle_s": {"power_cap": 0.1}}
json.dump(j, open(os.path.join(out, "good.json"), "w"))
expected = open(os.path.join(out, "expected"), "w")
def bad(name, change, message):
    k = copy.deepcopy(j)
    change(k, k["benchmarks"][at], k["benchmarks"][at]["cudabench"]["energy"], k["context"]["cudabench"])
    json.dump(k, open(os.path.join(out, name + ".json"), "w"))  # a float NaN is written as the bare literal NaN
    expected.write("%s\t%s\n" % (name, message))
row_of = "row %d ('%s'): field " % (at + 1, case_of(row))
for counter in ("energy_j", "joules_per_flop", "power_w", "mem_clock_mhz", "throttled_samples"):
    for tag, v in (("string", "NaN"), ("nan", float("nan")), ("huge", 1e308), ("minus", -1), ("array", []), ("object", {})):
        bad("%s_%s" % (counter, tag), lambda k, r, e, m, c=counter, v=v: r.__setitem__(c, v), row_of + "'%s' is" % counter)
bad("throttled_samples_half", lambda k, r, e, m: r.__setitem__("throttled_samples", 2.5), row_of + "'throttled_samples'")
for field, v in (("uncertainty", 1e308), ("busy_fraction", 5), ("window_s", float("nan")), ("runs", -1),
                 ("extra_s", "1"), ("throttled_samples", [])):
    bad("energy_%s" % field, lambda k, r, e, m, f=field, v=v: e.__setitem__(f, v), row_of + "'cudabench.energy.%s' is" % field)
bad("energy_method", lambda k, r, e, m: e.__setitem__("method", 7), row_of + "'cudabench.energy.method' is 7")
bad("throttle_minus", lambda k, r, e, m: e["throttle_s"].__setitem__("power_cap", -1),
    row_of + "'cudabench.energy.throttle_s.power_cap' is -1")
bad("energy_array", lambda k, r, e, m: r["cudabench"].__setitem__("energy", []), row_of + "'cudabench.energy' is []")
bad("version_1", lambda k, r, e, m: (m.__setitem__("schema_version", 1), m["limits"]["limits/dram"].pop("joules_per_unit")),
    row_of + "'cudabench.energy' in a version 1 file")
bad("cpu_case", lambda k, r, e, m: m["cases"][case_of(r)].__setitem__("on", "cpu"), row_of + "'cudabench.energy' on a CPU case")
for tag, v in (("minus", -1), ("nan", float("nan")), ("string", "1e-11")):
    bad("limit_joules_" + tag, lambda k, r, e, m, v=v: m["limits"]["limits/dram"].__setitem__("joules_per_unit", v),
        "field 'context.cudabench.limits.limits/dram.joules_per_unit' is")
bad("limit_rate_nan", lambda k, r, e, m: m["limits"]["limits/dram"].__setitem__("rate", float("nan")),
    "field 'context.cudabench.limits.limits/dram.rate' is null")
bad("limit_joules_version_1", lambda k, r, e, m: (m.__setitem__("schema_version", 1), r["cudabench"].pop("energy")),
    "limits/dram.joules_per_unit' in a version 1 file")
bad("case_bytes_nan", lambda k, r, e, m: m["cases"][case_of(r)].__setitem__("bytes", float("nan")),
    "field 'context.cudabench.cases.%s.bytes' is null" % case_of(row))
bad("rounds_million", lambda k, r, e, m: m.__setitem__("rounds", 1000000), "field 'context.cudabench.rounds' is 1000000")
bad("started_empty", lambda k, r, e, m: m.__setitem__("started_utc", ""), "field 'context.cudabench.started_utc' is ''")
EOF
check "a version 2 file with an energy record in range: read" 0 "$(run "$report" report "$tmp/numbers/good.json")"
while IFS=$'\t' read -r file message; do
  check "a file with $file: refused in one line naming the field" 2 "$(run "$report" report "$tmp/numbers/$file.json")" \
    "one_line \"$file.json: \"" 'grep -qF -- "$message" "$tmp/err"'
done <"$tmp/numbers/expected"
check "compare of a file with a joules_per_flop of 1e308: refused, no regression of +inf%" 2 \
  "$(run "$report" compare "$tmp/numbers/good.json" "$tmp/numbers/joules_per_flop_huge.json" --gate-energy)" \
  'one_line "joules_per_flop"'

# --- A device of no name, an incomplete run: said as such.
python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); j["context"]["device"]["name"] = ""
json.dump(j, open(sys.argv[2], "w"))
j = json.load(open(sys.argv[1])); j["context"]["cudabench"].update({"incomplete": True, "interrupted_by": "SIGINT"})
json.dump(j, open(sys.argv[3], "w"))' "$slowed" "$tmp/unnamed.json" "$tmp/incomplete.json"
check "compare with a GPU of no name: the message names both sides" 2 "$(run "$report" compare "$base" "$tmp/unnamed.json")" \
  'one_line "different GPU models (NVIDIA H100 80GB HBM3 vs a GPU of no name)"'
check "compare with an incomplete current run: a note says so" 1 \
  "$(run "$report" compare "$base" "$tmp/incomplete.json" --md "$tmp/inc.md")" \
  'grep -q "note: the current run is incomplete (stopped by SIGINT)" "$tmp/out"' 'grep -q "the current run is incomplete" "$tmp/inc.md"'

finish

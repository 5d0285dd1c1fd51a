#!/usr/bin/env bash
# End-to-end tests of learned gates: `gates` over a trend directory or files, its refusals in one line, and
# compare using them (--gates, the file beside the baseline, --gates none), with each case's gate and its origin
# in every report; no p-value where no test ran and the `not gated` verdict in the verdict file and the CSV.
# Usage: tests/cli_gates_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report" bench="$build/bench/cudabench" fx="$src/tests/fixtures"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

# The trend fixture: eight nightly runs; conv2d/tiled/4096 steps up 15% from the fifth, image/sync has one +40% night.
check "gates over a trend directory" 0 "$(run "$report" gates "$fx/trend" --out "$tmp/g.gates.json")" \
  'grep -q "4 case(s) learned from 8 run(s) of NVIDIA H100 80GB HBM3 on [a-z0-9]* board(s) (preset nightly" "$tmp/out"' \
  'py "assert j[\"kind\"] == \"cudabench gates\" and j[\"device\"] == \"NVIDIA H100 80GB HBM3\" and j[\"preset\"] == \"nightly\"" "$tmp/g.gates.json"' \
  'py "assert [r[\"file\"] for r in j[\"runs\"]] == [\"nightly-%d.json\" % i for i in range(8)], j[\"runs\"]" "$tmp/g.gates.json"' \
  'py "assert j[\"floor\"] == 0.015 and j[\"k\"] == 6 and j[\"min_runs\"] == 5" "$tmp/g.gates.json"' \
  'py "c = j[\"cases\"]; assert all(c[n][\"runs\"] == 8 and 0.015 <= c[n][\"gate\"] < 0.08 for n in c), c" "$tmp/g.gates.json"'
check "gates over files: the same gates" 0 "$(run "$report" gates "$fx"/trend/nightly-{0..7}.json --out "$tmp/f.gates.json")" \
  'py "assert j[\"cases\"] == json.load(open(sys.argv[1].replace(\"f.gates\", \"g.gates\")))[\"cases\"]" "$tmp/f.gates.json"'
mkdir "$tmp/trend" && cp "$fx"/trend/*.json "$tmp/trend/"
check "gates written into its trend directory" 0 "$(run "$report" gates "$tmp/trend" --out "$tmp/trend/nightly.gates.json")"
check "a gates file in a trend directory is no run of gates" 0 "$(run "$report" gates "$tmp/trend" --out "$tmp/again.gates.json")" \
  'cmp -s "$tmp/trend/nightly.gates.json" "$tmp/again.gates.json"' '! grep -q "left out" "$tmp/err"'
check "a gates file in a trend directory is no run of trend" 0 "$(run "$report" trend "$tmp/trend")" \
  '! grep -q "gates.json" "$tmp/out" "$tmp/err"'
check "gates --floor --k --min-runs" 0 "$(run "$report" gates "$fx/trend" --out "$tmp/o.gates.json" --floor=3 --k=2 --min-runs=9)" \
  'py "assert j[\"floor\"] == 0.03 and j[\"k\"] == 2 and j[\"min_runs\"] == 9 and j[\"cases\"] == {}" "$tmp/o.gates.json"'
check "gates --help" 0 "$(run "$report" gates --help)" 'grep -q -- "--min-runs=N" "$tmp/out"' 'grep -q "RUNS..." "$tmp/out"'
check "gates without --out: refused" 2 "$(run "$report" gates "$fx/trend")" 'one_line "gates needs --out FILE"'
check "gates without runs: refused" 2 "$(run "$report" gates --out "$tmp/x.json")" 'one_line "at least 1 file argument"'
check "gates over runs of two GPU models: refused" 2 \
  "$(run "$report" gates "$fx/trend" "$fx/synthetic_other_gpu.json" --out "$tmp/x.json")" 'one_line "gates are learned from runs of one GPU model"' \
  '[ ! -e "$tmp/x.json" ]'
check "gates over runs of two presets: refused" 2 "$(run "$report" gates "$fx/trend" "$fx/h100_quick.json" --out "$tmp/x.json")" \
  'one_line "gates are learned from runs of one preset"'
check "gates writing over one of its runs: refused" 2 "$(cp "$fx/trend/nightly-0.json" "$tmp/r.json"; run "$report" gates "$tmp/r.json" --out "$tmp/r.json")" \
  'cmp -s "$tmp/r.json" "$fx/trend/nightly-0.json"'

# compare with the gates: named in the header, each case's gate and its origin in every report.
base="$fx/synthetic_base.json" slowed="$fx/synthetic_slowed.json"
check "compare --gates" 1 "$(run "$report" compare "$base" "$slowed" --gates "$tmp/g.gates.json" --md "$tmp/c.md" \
    --verdict "$tmp/v.json" --csv "$tmp/c.csv" --html "$tmp/c.html")" \
  'grep -q "gates: .*g.gates.json (4 case(s) learned from 8 run(s)" "$tmp/out"' \
  'grep -q "learned (8 runs)" "$tmp/out"' 'grep -q "learned (8 runs)" "$tmp/c.md"' 'grep -q "learned (8 runs)" "$tmp/c.html"' \
  'py "assert j[\"gates\"][\"file\"].endswith(\"g.gates.json\") and j[\"gates\"][\"runs\"] == 8" "$tmp/v.json"' \
  'py "assert all(c[\"gate_source\"] == \"learned\" and c[\"gate_runs\"] == 8 and c[\"detectable_change\"] >= c[\"gate\"] for c in j[\"cases\"])" "$tmp/v.json"' \
  'python3 -c "import csv, sys; r = list(csv.DictReader(open(sys.argv[1]))); assert all(x[\"gate_source\"] == \"learned (8 runs)\" and float(x[\"gate_pct\"]) >= 1.5 for x in r), r" "$tmp/c.csv"'
cp "$base" "$tmp/base.json"
cp "$tmp/g.gates.json" "$tmp/base.gates.json"
check "compare: the gates file beside the baseline" 1 "$(run "$report" compare "$tmp/base.json" "$slowed")" \
  'grep -q "gates: .*base.gates.json" "$tmp/out"' 'grep -q "learned (8 runs)" "$tmp/out"'
check "compare --gates none: the default for every case" 1 "$(run "$report" compare "$tmp/base.json" "$slowed" --gates none --verdict "$tmp/v.json")" \
  'grep -q "gates: none" "$tmp/out"' '! grep -q "learned (" "$tmp/out"' \
  'py "assert j[\"gates\"] is None and all(c[\"gate_source\"] == \"default\" for c in j[\"cases\"])" "$tmp/v.json"'
check "compare: gates of another GPU model refused" 2 \
  "$(run "$report" compare "$fx/synthetic_other_gpu.json" "$fx/synthetic_other_gpu.json" --gates "$tmp/g.gates.json")" \
  'one_line "g.gates.json: gates learned on NVIDIA H100 80GB HBM3"'
echo '{"kind": "cudabench gates", "schema_version": 1}' >"$tmp/bad.gates.json"
check "compare: a bad gates file refused in one line" 2 "$(run "$report" compare "$base" "$slowed" --gates "$tmp/bad.gates.json")" \
  "one_line \"bad.gates.json: 'device' is missing\""
cp "$tmp/bad.gates.json" "$tmp/base.gates.json"
check "compare: a bad gates file beside the baseline refused too" 2 "$(run "$report" compare "$tmp/base.json" "$slowed")" \
  "one_line \"base.gates.json: 'device' is missing\""

# Honest numbers: host-bound cases of two one-repetition runs are `not gated`, with no p-value and no detectable change.
a="$fx/h100/quick_board_a.json" b="$fx/h100/quick_board_b.json"
check "not gated: its own verdict, no p-value, never failing" 0 "$(run "$report" compare "$a" "$b" --verdict "$tmp/v.json" --csv "$tmp/c.csv")" \
  'py "n = [c for c in j[\"cases\"] if c[\"verdict\"] == \"not gated\"]; assert n and j[\"counts\"][\"not gated\"] == len(n); assert all(c[\"p_value\"] is None and c[\"detectable_change\"] is None and c[\"gate\"] is None and \"change\" in c for c in n), n" "$tmp/v.json"' \
  'py "assert all(c[\"p_value\"] is None for c in j[\"cases\"]), \"one repetition a side: no test ran\"" "$tmp/v.json"' \
  'python3 -c "import csv, sys; r = [x for x in csv.DictReader(open(sys.argv[1])) if x[\"verdict\"] == \"not gated\"]; assert r and all(x[\"p_value\"] == \"\" and x[\"gate_pct\"] == \"\" for x in r), r" "$tmp/c.csv"' \
  'grep -q " not gated" "$tmp/out"'

if [ -x "$bench" ]; then
  check "run --gates without --compare-to: refused" 2 "$(run "$bench" --gates "$tmp/g.gates.json")" 'one_line "it needs --compare-to"'
fi
finish

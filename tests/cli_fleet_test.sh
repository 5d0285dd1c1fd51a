#!/usr/bin/env bash
# End-to-end tests of `fleet`: two runs made here, the second rewritten to another GPU model, side by side in every
# format; nightly result directories with their verdict files; two runs of one model kept apart; --reference;
# a device of a --devices run that left no result said in a note; outputs that are files a directory stands for;
# the refusals (no path, a directory without a run, a file that is not a run, an unknown model) in one line.
# Usage: tests/cli_fleet_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report" bench="$build/bench/cudabench" fx="$src/tests/fixtures"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
# The runs these checks make are of a machine without a GPU (skipped GPU cases, "no GPU" members), on a GPU
# machine too.
export CUDA_VISIBLE_DEVICES=
# rename FILE MODEL [HOST]: the run's device becomes MODEL (and its host HOST)
rename() {
  python3 - "$@" <<'EOF'
import json, sys
path, model = sys.argv[1], sys.argv[2]
j = json.load(open(path))
j["context"]["device"]["name"] = model
if len(sys.argv) > 3:
    j["context"]["host_name"] = j["context"]["cudabench"]["host_name"] = sys.argv[3]
json.dump(j, open(path, "w"), indent=1)
EOF
}

cpu=(--filter='^(image/cpu|histogram/cpu/1048576)$' --preset=quick --watchdog=off --quiet)
"$bench" "${cpu[@]}" --json "$tmp/a.json" >/dev/null 2>&1 || { echo "FAIL: the first run"; exit 1; }
"$bench" "${cpu[@]}" --filter='^image/cpu$' --json "$tmp/b.json" >/dev/null 2>&1 || { echo "FAIL: the second run"; exit 1; }
rename "$tmp/b.json" "Other GPU 40GB"

# CPU cases only: host-bound, so no family geomean (of gated device cases, as compare's) and no chart.
check "fleet of two models: every format" 0 \
  "$(run "$report" fleet "$tmp/a.json" "$tmp/b.json" --md "$tmp/f.md" --html "$tmp/f.html" --csv "$tmp/f.csv" --json "$tmp/f.json")" \
  'grep -q "fleet: 2 run(s) side by side" "$tmp/out"' 'grep -q "\[2\] Other GPU 40GB" "$tmp/out"' \
  'grep "^histogram/cpu/1048576 " "$tmp/out" | grep -q missing' \
  'grep "^image/cpu " "$tmp/out" | grep -q "1.000x"' \
  'grep -q "## Fleet: 2 run(s) side by side" "$tmp/f.md"' 'grep -q "| Other GPU 40GB median | noise |" "$tmp/f.md"' \
  'grep -q "### image" "$tmp/f.md"' \
  '! grep -q "<svg" "$tmp/f.html"' '! grep -q "<script" "$tmp/f.html"' 'grep -q "<summary>histogram: [0-9]* case(s)</summary>" "$tmp/f.html"' \
  'head -1 "$tmp/f.csv" | grep -qx "name,family,model,label,reference,status,median_us,noise_pct,limit_pct,ratio,verdict,per_joule,per_joule_unit"' \
  'grep -q "^histogram/cpu/1048576,histogram,Other GPU 40GB,Other GPU 40GB,no,missing," "$tmp/f.csv"' \
  'grep -q "^image/cpu,image,Other GPU 40GB,Other GPU 40GB,no,ok," "$tmp/f.csv"' \
  'py "assert j[\"kind\"] == \"cudabench fleet\" and [m[\"label\"] for m in j[\"members\"]] == [\"no GPU\", \"Other GPU 40GB\"], j[\"members\"]" "$tmp/f.json"' \
  'py "r = {c[\"name\"]: c[\"results\"] for c in j[\"cases\"]}; assert r[\"histogram/cpu/1048576\"][1][\"status\"] == \"missing\" and r[\"image/cpu\"][1][\"ratio\"] > 0, r" "$tmp/f.json"'
check "fleet --json -: the document alone on standard output" 0 "$(run "$report" fleet "$tmp/a.json" "$tmp/b.json" --json -)" \
  'py "assert len(j[\"members\"]) == 2" "$tmp/out"' 'grep -q "side by side" "$tmp/err"'
check "fleet --reference by slug" 0 "$(run "$report" fleet "$tmp/a.json" "$tmp/b.json" --reference=Other_GPU_40GB --json "$tmp/r.json")" \
  'py "assert j[\"reference\"] == \"Other GPU 40GB\"" "$tmp/r.json"' 'grep -q "Other GPU 40GB (reference)" "$tmp/out"'
check "fleet --reference of no run: one line" 2 "$(run "$report" fleet "$tmp/a.json" "$tmp/b.json" --reference "H300")" \
  'one_line "no run is of that model"' '[ ! -s "$tmp/out" ]'

# Nightly result directories (ci/nightly.sh's layout): the newest night through latest.json, with its verdict file.
mkdir -p "$tmp/na/runs" "$tmp/nb/runs"
cp "$tmp/a.json" "$tmp/na/runs/nightly-20261101T000000Z.json"
cp "$tmp/a.json" "$tmp/na/runs/nightly-20261102T000000Z.json"
ln -s runs/nightly-20261102T000000Z.json "$tmp/na/latest.json"
"$report" compare "$tmp/a.json" "$tmp/na/runs/nightly-20261102T000000Z.json" --verdict "$tmp/na/verdict-20261102T000000Z.json" >/dev/null
cp "$tmp/b.json" "$tmp/nb/runs/nightly-20261102T000000Z.json"
python3 - "$tmp/nb/verdict-20261102T000000Z.json" <<'EOF'
import json, sys
json.dump({"schema_version": 2, "failing": True, "counts": {"regression": 1},
           "cases": [{"name": "image/cpu", "verdict": "regression"}]}, open(sys.argv[1], "w"))
EOF
check "fleet of nightly directories: verdicts, exit 1 when one failed" 1 "$(run "$report" fleet "$tmp/na" "$tmp/nb" --csv "$tmp/n.csv")" \
  'grep -q "nightly-20261102T000000Z.json" "$tmp/out"' 'grep -q "verdict verdict-20261102T000000Z.json" "$tmp/out"' \
  'grep -q "FAILED" "$tmp/out"' 'grep -q "^image/cpu,image,Other GPU 40GB,Other GPU 40GB,no,ok,.*,regression,,$" "$tmp/n.csv"' \
  'grep -q "^image/cpu,image,no GPU,no GPU,yes,ok,.*,not gated,,$" "$tmp/n.csv"'
check "an output that is the run a directory stands for: refused, the run kept" 2 \
  "$(run "$report" fleet "$tmp/na" "$tmp/nb" --json "$tmp/na/latest.json")" 'one_line "same file"' \
  'cmp -s "$tmp/a.json" "$tmp/na/runs/nightly-20261102T000000Z.json"' '[ -L "$tmp/na/latest.json" ]'
cp "$tmp/na/verdict-20261102T000000Z.json" "$tmp/verdict.kept"
check "an output that is a directory's verdict file: refused, the verdict kept" 2 \
  "$(run "$report" fleet "$tmp/na" "$tmp/nb" --md "$tmp/na/verdict-20261102T000000Z.json")" 'one_line "same file"' \
  'cmp -s "$tmp/verdict.kept" "$tmp/na/verdict-20261102T000000Z.json"'
python3 - "$tmp/nb/verdict-20261102T000000Z.json" <<'EOF'
import json, sys
json.dump({"schema_version": 2, "failing": False, "counts": {},
           "cases": [{"name": "image/cpu", "verdict": "ok\u001b]0;title\u0007\u001b[31mred"}]}, open(sys.argv[1], "w"))
EOF
check "a verdict file's unknown verdict with control characters: refused, not written to the terminal" 2 \
  "$(run "$report" fleet "$tmp/na" "$tmp/nb")" 'one_line "which is no verdict"' '! grep -q "$(printf "\033")" "$tmp/out" "$tmp/err"'
rm "$tmp/nb/verdict-20261102T000000Z.json"
check "fleet of nightly directories without a failing verdict: exit 0" 0 "$(run "$report" fleet "$tmp/na" "$tmp/nb")"

# Two runs of one model (as two hosts would leave them): both kept, named by host.
cp "$tmp/b.json" "$tmp/b2.json" && rename "$tmp/b2.json" "Other GPU 40GB" "second-host"
check "two runs of one model: both kept, by host" 0 "$(run "$report" fleet "$tmp/a.json" "$tmp/b.json" "$tmp/b2.json" --json "$tmp/t.json")" \
  'py "labels = [m[\"label\"] for m in j[\"members\"]]; assert len(labels) == 3 and \"Other GPU 40GB (second-host)\" in labels, labels" "$tmp/t.json"'
cp -r "$tmp/na" "$tmp/nc"
check "two nightly directories of one model and host: named by directory" 0 "$(run "$report" fleet "$tmp/na" "$tmp/nc/" --json "$tmp/t.json")" \
  'py "assert [m[\"label\"] for m in j[\"members\"]] == [\"no GPU (na)\", \"no GPU (nc)\"], j[\"members\"]" "$tmp/t.json"'
check "runs of different presets: said in the header" 0 "$(run "$report" fleet "$fx/synthetic_base.json" "$tmp/b.json")" \
  'grep -q "different presets" "$tmp/out"'

# A run of several devices (--devices=all, here two pretended devices without a GPU): a column per device.
pretend="$build/tests/pretend_devices"
if [ -x "$pretend" ]; then
  "$pretend" --pretend-devices=2 --devices=all --filter='^image/cpu$' --quiet --json "$tmp/merged.json" >/dev/null 2>&1
  check "a run of two devices: a column each" 0 "$(run "$report" fleet "$tmp/merged.json" --json "$tmp/d.json")" \
    'py "assert [(m[\"label\"], m[\"device_ordinal\"]) for m in j[\"members\"]] == [(\"no GPU (merged.json dev0)\", 0), (\"no GPU (merged.json dev1)\", 1)], j[\"members\"]" "$tmp/d.json"' \
    'py "r = j[\"cases\"]; assert [c[\"name\"] for c in r] == [\"image/cpu\"] and all(x[\"status\"] == \"ok\" for x in r[0][\"results\"]), r" "$tmp/d.json"'
  # A device that left no result (listed with its problem): said in the report, not dropped unseen.
  python3 - "$tmp/merged.json" "$tmp/lost.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
j["context"]["devices"][1] = {"ordinal": 1, "available": False, "problem": "device lost mid-run"}
j["benchmarks"] = [b for b in j["benchmarks"] if not b["name"].startswith("dev1/")]
json.dump(j, open(sys.argv[2], "w"))
EOF
  check "a run of two devices, one without a result: the other's column, the lost one in a note" 0 \
    "$(run "$report" fleet "$tmp/lost.json" --md "$tmp/lost.md" --json "$tmp/lost-fleet.json")" \
    'grep -q "^note: .*lost.json: device 1 left no result (device lost mid-run)" "$tmp/out"' 'grep -q "device 1 left no result" "$tmp/lost.md"' \
    'py "assert len(j[\"members\"]) == 1 and any(\"device 1 left no result\" in n for n in j[\"notes\"]), j" "$tmp/lost-fleet.json"'
fi

# Refusals: one line, exit 2, nothing written.
check "fleet without a path: one line" 2 "$(run "$report" fleet)" 'one_line "fleet expects at least 1"'
mkdir "$tmp/empty"
check "a directory without a run: one line" 2 "$(run "$report" fleet "$tmp/empty" --md "$tmp/no.md")" \
  'one_line "holds no run"' '[ ! -e "$tmp/no.md" ]'
check "a JSON file that is not a run: one line" 2 "$(run "$report" fleet "$tmp/a.json" "$tmp/na/verdict-20261102T000000Z.json")" \
  'one_line "verdict-20261102T000000Z.json"'
check "a file that is not there: one line" 2 "$(run "$report" fleet "$tmp/a.json" "$tmp/none.json")" 'one_line "none.json"'
check "fleet --help" 0 "$(run "$report" fleet --help)" 'grep -q -- "--reference=MODEL" "$tmp/out"' 'grep -q "PATH..." "$tmp/out"'
finish

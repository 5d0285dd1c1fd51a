#!/usr/bin/env bash
# End-to-end tests of energy in a comparison: an energy change is its own verdict, failing only with
# --gate-energy; an A/A pair flags none; a regression of mostly throttled samples is inconclusive (throttled);
# the reports and the verdict file carry the energy; one window a side is not judged (unconfirmed under
# --gate-energy, exit 3); a run that reads no energy says why; the run's energy options refuse bad values.
# Usage: tests/cli_energy_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
report="$build/app/cudabench-report" bench="$build/bench/cudabench" fx="$src/tests/fixtures"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

# with_energy IN OUT SCALE THROTTLED [WINDOWS]: IN with an energy window on every repetition of conv2d/tiled/4096 (its
# energy per unit of work, or per run where it declares none, 1e-10 x SCALE, THROTTLED of its samples flagged), as a run of this version writes it;
# with WINDOWS, on its first WINDOWS repetitions only (the others say why not, as one run's do).
with_energy() {
  python3 - "$@" <<'PY'
import json, sys
src, dst, scale, throttled = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
windows = int(sys.argv[5]) if len(sys.argv) > 5 else 1 << 30
j = json.load(open(src))
j["context"]["cudabench"]["schema_version"] = 2
meta = j["context"]["cudabench"].get("cases", {}).get("conv2d/tiled/4096", {})
work = meta.get("flops") or meta.get("bytes") or meta.get("items") or 0
unit = "flop" if meta.get("flops") else "byte" if meta.get("bytes") else "item"
for i, row in enumerate(r for r in j["benchmarks"] if r.get("run_name", "").startswith("conv2d/tiled/4096/") and r.get("run_type") == "iteration"):
    per = 1e-10 * scale * (1 + 0.01 * (i % 3))
    if i >= windows:
        row.setdefault("cudabench", {})["energy"] = {"absent": "energy is measured on the case's first repetition in the run"}
        continue
    if work:
        row["joules_per_" + unit] = per
    row["energy_j"] = per * (work or 1)  # J per run: the energy per operation of a case that declares no work
    row["power_w"] = 300
    rec = row.setdefault("cudabench", {})
    rec["samples"] = 10
    rec["energy"] = {"method": "counter", "window_s": 1.0, "runs": 100, "extra_s": 0.5, "busy_fraction": 0.95,
                     "uncertainty": 0.001, "throttled_samples": throttled}
json.dump(j, open(dst, "w"))
PY
}
with_energy "$fx/synthetic_base.json" "$tmp/base.json" 1 0
with_energy "$fx/synthetic_same.json" "$tmp/same.json" 1 0
with_energy "$fx/synthetic_same.json" "$tmp/more.json" 1.1 0
with_energy "$fx/synthetic_slowed.json" "$tmp/throttled.json" 1 8
with_energy "$fx/synthetic_base.json" "$tmp/base1.json" 1 0 1
with_energy "$fx/synthetic_same.json" "$tmp/more1.json" 1.1 0 1

check "10% more energy in one window a side: not judged, the reason said, exit 0" 0 \
  "$(run "$report" compare "$tmp/base1.json" "$tmp/more1.json" --verdict "$tmp/v.json")" \
  'grep -q "| energy not judged | 1 vs 1 windows: a test needs 3 a side |" "$tmp/out"' \
  'py "assert j[\"schema_version\"] == 6 and j[\"energy\"][\"counts\"][\"energy not judged\"] == 1" "$tmp/v.json"'
check "... with --gate-energy: unconfirmed, neither failing nor passing (exit 3)" 3 \
  "$(run "$report" compare "$tmp/base1.json" "$tmp/more1.json" --gate-energy --verdict "$tmp/v.json")" \
  'grep -q "| energy unconfirmed |" "$tmp/out"' \
  'py "e = [c for c in j[\"cases\"] if \"energy\" in c][0][\"energy\"]; assert e[\"held\"] == \"regression\" and not j[\"failing\"] and j[\"exit_status\"] == 3, e" "$tmp/v.json"'

check "A/A with --gate-energy: no energy flag" 0 "$(run "$report" compare "$tmp/base.json" "$tmp/same.json" --gate-energy)" \
  'grep -q "| energy unchanged |" "$tmp/out"' '! grep -q "| energy regression |" "$tmp/out"'
check "10% more energy: an energy regression, not failing" 0 "$(run "$report" compare "$tmp/base.json" "$tmp/more.json" --verdict "$tmp/v.json" --csv "$tmp/c.csv")" \
  'grep -q "| energy regression |" "$tmp/out"' 'py "assert j[\"energy\"][\"counts\"][\"energy regression\"] == 1 and not j[\"failing\"]" "$tmp/v.json"' \
  'head -n 1 "$tmp/c.csv" | grep -q ",energy_per_op,energy_unit,power_w,"' 'grep -q "energy regression" "$tmp/c.csv"'
check "... failing with --gate-energy" 1 "$(run "$report" compare "$tmp/base.json" "$tmp/more.json" --gate-energy --verdict "$tmp/v.json")" \
  'py "assert j[\"failing\"] and j[\"energy\"][\"gating\"]" "$tmp/v.json"'
check "... not beyond a 20% energy threshold" 0 "$(run "$report" compare "$tmp/base.json" "$tmp/more.json" --gate-energy --energy-threshold=20)" \
  '! grep -q "| energy regression |" "$tmp/out"'
check "a mostly throttled regression: inconclusive (throttled), not failing, not passing: exit 3 with a line saying so" 3 \
  "$(run "$report" compare "$tmp/base.json" "$tmp/throttled.json" --md "$tmp/c.md" --verdict "$tmp/v.json")" \
  'grep -q "inconclusive (throttled)" "$tmp/out"' 'grep -q "inconclusive (throttled)" "$tmp/c.md"' \
  'grep -q "1 case(s) could not be judged: most samples of a side were taken throttled (exit 3)" "$tmp/err"' \
  'grep -q "1 not judged (throttled)" "$tmp/c.md"' 'py "assert j[\"throttled\"] == 1 and not j[\"failing\"]" "$tmp/v.json"' \
  'grep -q "timed samples were taken while the GPU was throttled" "$tmp/out"' \
  'py "assert [c for c in j[\"cases\"] if c.get(\"throttled\")][0][\"verdict\"] == \"inconclusive\"" "$tmp/v.json"'
check "report: the energy beside the time" 0 "$(run "$report" report "$tmp/base.json" --md "$tmp/r.md")" \
  'grep -q "Energy, clocks and throttling" "$tmp/r.md"' 'grep -q "0 of [0-9]* timed samples were taken while the GPU was throttled" "$tmp/r.md"'
check "a version 1 file still compares, with no energy" 0 "$(run "$report" compare "$fx/synthetic_base.json" "$fx/synthetic_same.json" --gate-energy)" \
  '! grep -q "Energy per operation" "$tmp/out"'
check "a run that reads no energy says why in its results and its report" 0 \
  "$(run "$bench" --preset=quick --filter='^conv2d/cpu_seq/1024$' --no-energy --json "$tmp/noe.json" --md "$tmp/noe.md")" \
  'py "a = j[\"context\"][\"cudabench\"][\"energy_absent\"]; assert a == \"--no-energy\" or a.startswith(\"no GPU (\"), a" "$tmp/noe.json"' \
  'grep -q "^Energy unavailable: " "$tmp/noe.md"'
check "--energy-window=-1: refused in one line" 2 "$(run "$bench" --list --energy-window=-1)" 'one_line "energy-window"'
check "--energy-window=0 (the timed samples alone): taken" 0 "$(run "$bench" --list --energy-window=0)"
check "--no-energy=yes: refused in one line" 2 "$(run "$bench" --list --no-energy=yes)" 'one_line "no-energy"'
finish

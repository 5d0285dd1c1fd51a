#!/usr/bin/env bash
# Opens the HTML reports in headless Chromium: each must render (non-blank screenshot, SVG in the DOM)
# with no script errors, and no two texts of a chart may overlap or leave it, as the browser lays them out
# (tests/html_overlaps.js measures them with every folded section open): the synthetic pages, a comparison
# whose spread reaches 3x, the trend of runs of 13 H100 boards, and the stored H100 and H200 baselines compared
# and side by side.
# Exits 77 (ctest: skipped) and says why when no browser is installed.
# Usage: tests/html_render_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
report="$build/app/cudabench-report" fx="$src/tests/fixtures"
source "$src/tests/chromium_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$report" compare "$fx/synthetic_base.json" "$fx/synthetic_slowed.json" --html "$tmp/compare.html" >/dev/null || [ $? = 1 ] || exit 1
"$report" trend "$fx/trend" --html "$tmp/trend.html" >/dev/null || exit 1
"$report" fleet "$fx/synthetic_base.json" "$fx/synthetic_other_gpu.json" --html "$tmp/fleet.html" >/dev/null || exit 1
# A comparison whose current run is 3x slower in one case: its axis reaches 3x, the baseline median near its left.
python3 - "$fx/synthetic_same.json" "$tmp/slow3x.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
for row in doc["benchmarks"]:
    if row["name"].startswith("conv2d/tiled/4096"):
        row["real_time"] *= 3
json.dump(doc, open(sys.argv[2], "w"))
PY
"$report" compare "$fx/synthetic_base.json" "$tmp/slow3x.json" --html "$tmp/compare_3x.html" >/dev/null || [ $? = 1 ] || exit 1
pages=(compare trend fleet compare_3x)
# Real runs: the trend of 13 H100 boards (a few cases of each), and the stored H100 and H200 baselines (every
# case of the nightly preset) compared and side by side.
mkdir -p "$tmp/boards"
for f in "$fx"/h100_boards/*.json.gz; do gzip -dc "$f" >"$tmp/boards/$(basename "$f" .gz)" || exit 1; done
h100="$src/reports/baselines/NVIDIA_H100_80GB_HBM3/nightly.json" h200="$src/reports/baselines/NVIDIA_H200/nightly.json"
"$report" trend "$tmp/boards" --html "$tmp/trend_h100.html" >/dev/null || exit 1
"$report" compare "$h100" "$h200" --allow-device-mismatch --html "$tmp/compare_h100.html" >/dev/null || { rc=$?; [ $rc = 1 ] || [ $rc = 3 ]; } || exit 1
"$report" fleet "$h100" "$h200" --html "$tmp/fleet_h100.html" >/dev/null || exit 1
pages+=(trend_h100 compare_h100 fleet_h100)
for real in "$fx"/h100_*.json; do
  [ -e "$real" ] || continue
  name=$(basename "$real" .json)
  "$report" report "$real" --html "$tmp/report_$name.html" >/dev/null || exit 1
  pages+=("report_$name")
done
status=0
for p in "${pages[@]}"; do
  if ! render "$tmp/$p.html" "$tmp/$p"; then echo "FAIL $p: does not render (above)"; status=1; continue; fi
  if [ "$p" = report_h100_timeline ] && { [ "$(grep -o 'class="lane"' "$tmp/$p.dom" | wc -l)" -lt 10 ] || ! grep -q 'class="op kernel"' "$tmp/$p.dom"; }; then
    echo "FAIL $p: the traced timelines' lanes are not in the rendered DOM"; status=1; continue
  fi
  if ! layout "$tmp/$p.html" "$tmp/$p" >"$tmp/$p.layout.out"; then
    cat "$tmp/$p.layout.out"; echo "FAIL $p: texts overlap or leave their chart (above)"; status=1; continue
  fi
  echo "ok   $p.html renders;$(cat "$tmp/$p.layout.out")"
done
exit $status

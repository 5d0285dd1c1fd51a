#!/usr/bin/env bash
# Opens the HTML reports in headless Chromium: each must render (non-blank screenshot, SVG in the DOM)
# with no script errors. Exits 77 (ctest: skipped) and says why when no browser is installed.
# Usage: tests/html_render_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
report="$build/app/cudabench-report" fx="$src/tests/fixtures"
browser=${CUDABENCH_CHROMIUM:-}
[ -n "$browser" ] || browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: no Chromium installed (ci/deps.sh --tests installs Debian's chromium where it can)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$report" compare "$fx/synthetic_base.json" "$fx/synthetic_slowed.json" --html "$tmp/compare.html" >/dev/null || [ $? = 1 ] || exit 1
"$report" trend "$fx/trend" --html "$tmp/trend.html" >/dev/null || exit 1
"$report" fleet "$fx/synthetic_base.json" "$fx/synthetic_other_gpu.json" --html "$tmp/fleet.html" >/dev/null || exit 1
pages=(compare trend fleet)
for real in "$fx"/h100_*.json; do
  [ -e "$real" ] || continue
  name=$(basename "$real" .json)
  "$report" report "$real" --html "$tmp/report_$name.html" >/dev/null || exit 1
  pages+=("report_$name")
done
status=0
for p in "${pages[@]}"; do
  flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
         --disable-component-update --disable-sync --user-data-dir="$tmp/profile-$p" --enable-logging=stderr --v=0)
  timeout 120 "$browser" "${flags[@]}" --window-size=1200,1600 --screenshot="$tmp/$p.png" "file://$tmp/$p.html" >"$tmp/$p.log" 2>&1
  timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$tmp/$p.html" >"$tmp/$p.dom" 2>>"$tmp/$p.log"
  if grep -E "Uncaught|CONSOLE\(.*(error|Error)" "$tmp/$p.log"; then echo "FAIL $p: script errors"; status=1; continue; fi
  if ! grep -q "<svg" "$tmp/$p.dom"; then echo "FAIL $p: no SVG in the rendered DOM"; status=1; continue; fi
  if ! python3 "$src/tests/png_not_blank.py" "$tmp/$p.png"; then echo "FAIL $p: blank screenshot"; status=1; continue; fi
  if [ "$p" = report_h100_timeline ] && { [ "$(grep -o 'class="lane"' "$tmp/$p.dom" | wc -l)" -lt 10 ] || ! grep -q 'class="op kernel"' "$tmp/$p.dom"; }; then
    echo "FAIL $p: the traced timelines' lanes are not in the rendered DOM"; status=1; continue
  fi
  echo "ok   $p.html renders"
done
exit $status

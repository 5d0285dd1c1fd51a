# Sourced by the tests that open pages in headless Chromium (tests/html_render_test.sh, tests/site_test.sh): the
# browser, or exit 77 (ctest: skipped) saying why where none is installed; a page rendered and checked; its layout
# checked. Expects $src (the source directory). Not a test itself.
browser=${CUDABENCH_CHROMIUM:-}
[ -n "$browser" ] || browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "SKIPPED: no Chromium installed (ci/deps.sh --tests installs Debian's chromium where it can)"
  exit 77
fi

# chromium OUT ARGS...: the browser, headless on a profile of its own (OUT.profile), its log appended to OUT.log.
chromium() {
  local out=$1
  shift
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$out.profile" --enable-logging=stderr --v=0 "$@" 2>>"$out.log"
}

# render PAGE OUT [--no-chart]: the HTML file PAGE opened: OUT.png its screenshot (the 1200x1600 window drawn at half
# scale: the same layout in a quarter of the pixels to decode), OUT.dom its DOM once loaded, with
# the layout check of tests/html_overlaps.js run in it (OUT.layout.html: the page with the check; `layout` reads its
# result from OUT.dom, so a page rendered first is opened twice, not three times).
# Status 1, and the reason printed, on a script error, no SVG in the DOM (but with --no-chart, for a page of text and
# tables) or a blank screenshot.
render() {
  chromium "$2" --window-size=1200,1600 --force-device-scale-factor=0.5 --screenshot="$2.png" "file://$1" >>"$2.log"
  with_layout_check "$1" "$2.layout.html" || return 1
  chromium "$2" --window-size=1200,1600 --dump-dom "file://$2.layout.html" >"$2.dom"
  if grep -E "Uncaught|CONSOLE\(.*(error|Error)" "$2.log"; then echo "  script errors (above)"; return 1; fi
  [ "${3:-}" = --no-chart ] || grep -q "<svg" "$2.dom" || { echo "  no SVG in the rendered DOM"; return 1; }
  python3 "$src/tests/png_not_blank.py" "$2.png" || { echo "  a blank screenshot"; return 1; }
}

# with_layout_check PAGE OUT: PAGE with tests/html_overlaps.js run at its end, written to OUT.
with_layout_check() {
  python3 - "$1" "$src/tests/html_overlaps.js" "$2" <<'PY'
import sys
page, script, out = sys.argv[1:]
html = open(page, encoding="utf-8").read()
at = html.rfind("</body>")
open(out, "w", encoding="utf-8").write(html[:at] + "<script>" + open(script).read() + "</script>" + html[at:])
PY
}

# layout PAGE OUT: no two texts of a chart overlap or leave it as the browser lays them out (tests/html_overlaps.js,
# every folded section open); status 1 and each problem printed otherwise. Says how many texts it measured. Reads
# the check's result from OUT.dom where `render PAGE OUT` left one.
layout() {
  if [ -s "$2.dom" ] && grep -q 'id="layout-check"' "$2.dom"; then
    cp "$2.dom" "$2.layout.dom"
  else
    with_layout_check "$1" "$2.layout.html" || return 1
    chromium "$2" --window-size=1200,1600 --dump-dom "file://$2.layout.html" >"$2.layout.dom"
  fi
  python3 - "$2.layout.dom" <<'PY'
import html, json, re, sys
found = re.search(r'<pre id="layout-check">(.*?)</pre>', open(sys.argv[1], encoding="utf-8").read(), re.S)
if not found:
    sys.exit(print("  the layout check did not run (no result in the rendered DOM)") or 1)
check = json.loads(html.unescape(found.group(1)))
if check["measured"] == 0 or check["width"] <= 0:
    sys.exit(print("  no chart text was laid out (%d texts, %.0f px wide): is a font installed?" % (check["measured"], check["width"])) or 1)
for p in check["problems"][:20]:
    print("  " + p)
if not check["problems"]:
    print("  %d chart texts neither overlap nor leave their chart" % check["measured"])
sys.exit(1 if check["problems"] else 0)
PY
}

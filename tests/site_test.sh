#!/usr/bin/env bash
# The dashboard of a history store (trend STORE --site=DIR): built from a small store (the trend fixtures as eight
# nights of an H100 with their verdicts and learned gates, three of an H200), it has an index, each model and
# preset's page with its commits linked, its verdicts marked and its gate bands, and the models side by side.
# Outside text stays inert: a case name, a revision and a directory name that are markup come out as text (no
# element, attribute or link of theirs, on any page). Its pages are written all or nothing; bad input is one line
# and exit 2. With --browser: the pages opened in headless Chromium (tests/chromium_lib.sh; exit 77 when none is
# installed), rendering with no script error, the case shown, and nothing of the hostile text made an element.
# Usage: tests/site_test.sh BUILD_DIR SOURCE_DIR [--browser]
set -uo pipefail
report="$(cd "$1" && pwd)/app/cudabench-report" src=$(cd "$2" && pwd)
[ "${3:-}" != --browser ] || source "$src/tests/chromium_lib.sh"
source "$src/tests/cli_lib.sh"
fx="$src/tests/fixtures" repo=https://github.com/example/bench
h100="$tmp/store/NVIDIA_H100_80GB_HBM3/nightly" h200="$tmp/store/NVIDIA_H200/nightly"
hostile_case='image/<script>alert(1)</script>/"><img src=x onerror=alert(2)>'
hostile_revision='"><img src=x onerror=alert(3)>'
# night FIXTURE OUT MODEL REVISION [CASE]: a trend fixture as a run of MODEL at REVISION (with one more case, CASE).
night() {
  python3 - "$@" <<'PY'
import copy, json, sys
src, out, model, revision = sys.argv[1:5]
doc = json.load(open(src))
doc["context"]["device"]["name"] = model
doc["context"]["cudabench"]["git_revision"] = revision
# The project's own case "spike/sync" (NIGHT_SPIKE times slower this night), after the machine's: limits/copy
# measured, limits/read skipped in every run (no chart); NIGHT_DATE: the run's date.
import os
spike = float(os.environ.get("NIGHT_SPIKE", "1"))
doc["context"]["date"] = os.environ.get("NIGHT_DATE", doc["context"]["date"])
rows = []
for row in doc["benchmarks"]:
    if row["name"].startswith("image/sync/"):
        for name, scale in (("limits/copy", 1.0), ("spike/sync", spike)):
            extra = copy.deepcopy(row)
            extra["name"] = name + row["name"][len("image/sync"):]
            extra["run_name"] = name + row["run_name"][len("image/sync"):]
            for k in ("real_time", "cpu_time"):
                extra[k] = extra[k] * scale
            rows.append(extra)
doc["benchmarks"] = [r for r in rows if r["name"].startswith("limits/")] + doc["benchmarks"] + [r for r in rows if r["name"].startswith("spike/")]
doc["benchmarks"].insert(0, {"name": "limits/read_skipped", "run_name": "limits/read", "run_type": "aggregate", "aggregate_name": "skipped",
                             "skipped": True, "skip_message": "no device", "repetitions": 1, "threads": 1, "iterations": 0,
                             "family_index": 9, "per_family_instance_index": 0})
if len(sys.argv) > 5:
    for row in list(doc["benchmarks"]):
        if row["name"].startswith("image/sync/"):
            extra = copy.deepcopy(row)
            extra["name"] = sys.argv[5] + row["name"][len("image/sync"):]
            extra["run_name"] = sys.argv[5] + row["run_name"][len("image/sync"):]
            extra["per_family_instance_index"] = 99
            doc["benchmarks"].append(extra)
json.dump(doc, open(out, "w"))
PY
}
mkdir -p "$h100/runs" "$h200/runs" "$tmp/store/<img src=x onerror=alert(4)>"
for k in 0 1 2 3 4 5 6 7; do
  stamp=2026111${k}T020000Z rev=$(for _ in 1 2 3 4 5; do printf 'c0ffee%02x' $k; done)
  spike=1; [ $k != 4 ] || spike=4  # one noisy night of spike/sync: 300% slower
  if [ $k = 7 ]; then night "$fx/trend/nightly-$k.json" "$h100/runs/nightly-$stamp.json" "NVIDIA H100 80GB HBM3" "$hostile_revision" "$hostile_case"
  else NIGHT_SPIKE=$spike night "$fx/trend/nightly-$k.json" "$h100/runs/nightly-$stamp.json" "NVIDIA H100 80GB HBM3" "$rev"; fi
  # The H200's three nights recorded at one second: their x labels still differ.
  [ $k -gt 2 ] || NIGHT_DATE=2026-11-12T02:00:00+00:00 night "$fx/trend/nightly-$k.json" "$h200/runs/nightly-$stamp.json" "NVIDIA H200" "$rev"
done
"$report" gates "$h100/runs" --out "$h100/gates.json" >/dev/null 2>&1 || echo "FAIL the fixture store's gates were not learned"
for k in 1 2 3 4 5 6 7; do  # each night against the first, with the store's gates (as the nightly compares)
  "$report" compare "$h100/runs/nightly-20261110T020000Z.json" "$h100/runs/nightly-2026111${k}T020000Z.json" --gates="$h100/gates.json" \
    --verdict "$h100/verdict-2026111${k}T020000Z.json" >/dev/null 2>&1
done
page="$tmp/site/NVIDIA_H100_80GB_HBM3/nightly.html"

if [ "${3:-}" = --browser ]; then
  "$report" trend "$tmp/store" --site="$tmp/site" --repository="$repo" >/dev/null || exit 1
  for p in index NVIDIA_H100_80GB_HBM3/nightly NVIDIA_H200/nightly fleet-nightly; do
    s=$(render "$tmp/site/$p.html" "$tmp/site/$p" $([ $p != index ] || echo --no-chart) >"$tmp/out"; echo $?)
    check "$p.html renders in headless Chromium (no script error, its charts drawn, not blank)" 0 "$s" || cat "$tmp/out"
    check "$p.html: nothing of the hostile names became an element" 0 0 '! grep -Eiq "<(img|script)\b" "$tmp/site/$p.dom"'
  done
  check "the model's page shows its cases (the family's section, a case's chart) and the hostile case as text" 0 0 \
    'grep -q "<summary>image: " "$tmp/site/NVIDIA_H100_80GB_HBM3/nightly.dom"' 'grep -q ">image/sync; last " "$tmp/site/NVIDIA_H100_80GB_HBM3/nightly.dom"' \
    'grep -q "image/&lt;script&gt;alert(1)" "$tmp/site/NVIDIA_H100_80GB_HBM3/nightly.dom"'
  check "the index links every model's page and the fleet" 0 0 'grep -q "href=\"NVIDIA_H200/nightly.html\"" "$tmp/site/index.dom"' \
    'grep -q "href=\"fleet-nightly.html\"" "$tmp/site/index.dom"'
  s=$(layout "$page" "$tmp/site/h100" >"$tmp/out"; echo $?)
  check "the model's page: no two chart texts overlap or leave their chart" 0 "$s" || cat "$tmp/out"
  finish
  exit
fi

s=$(run "$report" trend "$tmp/store" --site="$tmp/site" --repository="$repo/")
check "trend STORE --site: an index, a page per model and preset, the fleet of the preset" 0 "$s" 'grep -q "dashboard: 4 page(s)" "$tmp/out"' \
  '[ -f "$tmp/site/index.html" ] && [ -f "$page" ] && [ -f "$tmp/site/NVIDIA_H200/nightly.html" ] && [ -f "$tmp/site/fleet-nightly.html" ]'
check "each run's point links to its commit (the address's trailing / dropped), with a tooltip saying the run" 0 0 \
  "grep -q 'href=\"$repo/commit/c0ffee01c0ffee01c0ffee01c0ffee01c0ffee01\"' \"\$page\"" 'grep -q "<title>2026-11-11T02:00 c0ffee01c0ff: " "$page"'
check "the runs' verdicts are marked, each case's usual spread shaded, its learned gate in its title" 0 0 'grep -q "class=\"flag-regression\"" "$page"' \
  'grep -q "class=\"spread-band\"" "$page"' 'grep -q "; gate [0-9.]*%" "$page"'
# The charts in page order: (title, svg) of each.
charts() {
  python3 - "$1" "$2" <<'PY'
import re, sys
page, want = sys.argv[1:]
svgs = re.findall(r"<svg.*?</svg>", open(page, encoding="utf-8").read(), re.S)
titles = [re.search(r'font-weight="bold">(.*?)</text>', s).group(1) for s in svgs]
spike = next(s for s, t in zip(svgs, titles) if t.startswith("spike/sync"))
ticks = [float(v) for v in re.findall(r'text-anchor="end">([+-]?[0-9.]+)%</text>', spike)]
band = [float(v) for v in re.search(r'class="spread-band" x="[0-9.]+" y="([0-9.]+)" width="[0-9.]+" height="([0-9.]+)"', spike).groups()]
checks = {
    "own-first": not any(t.startswith("limits/") for t in titles[:titles.index(next(t for t in titles if t.startswith("spike/")))]),
    "no-skipped-chart": not any(t.startswith("limits/read") for t in titles),
    "limits-charted-last": titles[-1].startswith("limits/copy"),
    "outlier-clipped": spike.count('class="clipped"') == 2 and re.search(r'class="clipped".*?<title>[^<]*: \+300\.[0-9]%', spike) and max(ticks) < 10,
    "band-narrow": band[1] < 45,  # of the plot's 90 px
    "step-band-narrow": float(re.search(r'class="spread-band" x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)"',
                                        next(s for s, t in zip(svgs, titles) if t.startswith("conv2d/tiled"))).group(1)) < 45,
    "values-on-axis": 'class="value"' in spike,
}
bad = [k for k in want.split() if not checks[k]]
print("failed: %s; titles %s; ticks %s; band %s" % (bad, titles, ticks, band) if bad else "ok")
sys.exit(1 if bad else 0)
PY
}
check "the project's cases first, cudabench's limits last, no chart of a case skipped in every run, the skipped named" 0 0 \
  'charts "$page" "own-first no-skipped-chart limits-charted-last"' 'grep -q "no time in any run (skipped or failed each time; no chart): <code>limits/read</code>" "$page"'
check "one noisy run: drawn clipped at the axis's edge (its value in its tooltip), the axis and the spread band as without it (nor a step widens the band), times on the axis" 0 0 \
  'charts "$page" "outlier-clipped band-narrow values-on-axis"' 'charts "$page" step-band-narrow'
check "runs recorded at one second: x labels that differ" 0 0 'grep -q ">11-12 02:00:00 #2<" "$tmp/site/NVIDIA_H200/nightly.html"' 
check "the runs table: each run's commit linked and its verdict's counts" 0 0 \
  "grep -q '<td><a href=\"$repo/commit/c0ffee06c0ffee06c0ffee06c0ffee06c0ffee06\"><code>c0ffee06c0ff</code></a></td><td><b>FAILED</b>: 1 regression, 1 skipped, 5 unchanged</td>' \"\$page\""
check "the index: each model and preset, its last run's verdict; the directory outside the layout named, as text" 0 0 \
  'grep -q ">NVIDIA_H200</a>" "$tmp/site/index.html"' 'grep -q "&lt;img src=x onerror=alert(4)&gt;: not a GPU model" "$tmp/site/index.html"'
# Every page: only the elements the reports write, no event attribute, every link a page of the site or a commit.
inert() {
  python3 - "$tmp/site" "$repo" <<'PY'
import html.parser, os, re, sys
root, repo = sys.argv[1:]
allowed = set("html head meta title style body h1 h2 h3 p b code a table tr th td details summary div svg rect text line polyline polygon circle g ul li small br span".split())
link = re.compile(r"(?:\.\./)?[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)?\.html|" + re.escape(repo) + r"/commit/[0-9a-f]{7,64}")
bad = []
class Page(html.parser.HTMLParser):
    def handle_starttag(self, tag, attrs):
        if tag not in allowed:
            bad.append("%s: element <%s>" % (self.name, tag))
        for k, v in attrs:
            if k.startswith("on") or (k == "href" and not link.fullmatch(v or "")):
                bad.append("%s: <%s %s=%r>" % (self.name, tag, k, v))
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith(".html"):
            p = Page(); p.name = os.path.relpath(os.path.join(d, f), root); p.feed(open(os.path.join(d, f), encoding="utf-8").read())
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
}
s=$(inert >"$tmp/out"; echo $?)
check "hostile case names, revisions and directory names stay inert on every page (no element, event attribute or link of theirs)" 0 "$s" \
  'grep -q "image/&lt;script&gt;alert(1)&lt;/script&gt;/&quot;&gt;&lt;img" "$page"' \
  'grep -q "<code>&quot;&gt;&lt;img src=x onerror=alert(3)&gt;</code>" "$page"' || cat "$tmp/out"

# All or nothing: a page that cannot be written leaves every page as it was.
cp "$tmp/site/index.html" "$tmp/index.before" && rm "$tmp/site/NVIDIA_H200/nightly.html" && mkdir "$tmp/site/NVIDIA_H200/nightly.html"
rm "$h100/runs/nightly-20261111T020000Z.json"
s=$(run "$report" trend "$tmp/store" --site="$tmp/site")
check "a page that cannot be written: one line, exit 2, no page replaced" 2 "$s" 'one_line "is a directory"' 'cmp -s "$tmp/index.before" "$tmp/site/index.html"'
rmdir "$tmp/site/NVIDIA_H200/nightly.html"

s=$(run "$report" trend "$tmp/store" --site="$tmp/site" --repository='javascript:alert(1)')
check "--repository that is not an http(s) address: one line, exit 2" 2 "$s" 'one_line "expects an http(s) address"'
s=$(run "$report" trend "$tmp/store" --site="$tmp/site" --repository="$repo/\"onmouseover=alert(1)")
check "--repository holding a quote: one line, exit 2" 2 "$s" 'one_line "expects an http(s) address"'
s=$(run "$report" trend "$h100/runs" --repository="$repo"); check "--repository without --site: one line, exit 2" 2 "$s" 'one_line "goes with --site"'
s=$(run "$report" trend "$tmp/store" --site="$tmp/site" --html="$tmp/t.html"); check "--site with --html: one line, exit 2" 2 "$s" 'one_line "give one"'
s=$(run "$report" trend "$tmp/store" --site="$h100/site"); check "--site inside the store: one line, exit 2, nothing written" 2 "$s" \
  'one_line "inside the history store"' '[ ! -e "$h100/site" ]'
mkdir -p "$tmp/empty"
s=$(run "$report" trend "$tmp/empty" --site="$tmp/site2"); check "a store with no runs: one line, exit 2, nothing written" 2 "$s" \
  'one_line "no GPU model and preset with runs"' '[ ! -e "$tmp/site2/index.html" ]'
finish

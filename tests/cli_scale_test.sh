#!/usr/bin/env bash
# compare, report in every format and trend over 100,000 rows a side (tools/scale/make_results.py: ten
# repetitions a case spread 12x apart), each within a generous bound; compare of 100,000 cases of one row a
# side with all four outputs, under 3x its input; and a page over 2,000 variants and 2,000 reference roles
# that stays the size of its input.
# Usage: tests/cli_scale_test.sh BUILD_DIR SOURCE_DIR [ROWS]
set -uo pipefail
build=$1 src=$2 rows=${3:-100000}
report="$build/app/cudabench-report" make="$src/tools/scale/make_results.py"
bound=60  # seconds a command; on an idle 2-core machine each takes a few
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {  # check NAME CONDITION...
  local name=$1
  shift
  for cond in "$@"; do
    if ! eval "$cond"; then echo "FAIL $name: $cond"; head -n 5 "$tmp/err"; fail=$((fail + 1)); return; fi
  done
  echo "ok   $name"; pass=$((pass + 1))
}
# timed LIMIT_S COMMAND...: its exit status (124 past the limit); its peak memory in KiB in $tmp/kb.
timed() {
  local limit=$1 s
  shift
  if [ -x /usr/bin/time ]; then
    timeout "$limit" /usr/bin/time -f %M -o "$tmp/kb" "$@" >"$tmp/out" 2>"$tmp/err"; s=$?
  else
    echo 0 >"$tmp/kb"
    timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err"; s=$?
  fi
  echo $s
}
kb() { tail -n 1 "$tmp/kb" | tr -dc 0-9; }
# Peak memory under 3x BYTES, above the program's own floor of a few MiB (0: not measured).
under_3x() { [ "$(kb)" -lt $(( $1 * 3 / 1024 + 16384 )) ]; }

# compare reads its two files at once; with both unreadable it still names the baseline.
printf '{"benchmarks": [' >"$tmp/broken.json"
s=$(timed $bound "$report" compare "$tmp/broken.json" "$tmp/absent.json")
check "compare of two unreadable files: exit 2 naming the baseline" "[ $s -eq 2 ]" "grep -q 'broken.json' '$tmp/err'" \
  "! grep -q 'absent.json' '$tmp/err'"
s=$(timed $bound "$report" compare "$src/tests/fixtures/synthetic_base.json" "$tmp/absent.json")
check "compare with an unreadable current file: exit 2 naming it" "[ $s -eq 2 ]" "grep -q 'absent.json' '$tmp/err'"

python3 "$make" --rows "$rows" --out "$tmp/base.json" || exit 1
python3 "$make" --rows "$rows" --slower 10 --seed 2 --date 2026-11-23T04:43:46+00:00 --out "$tmp/cur.json" || exit 1
one=$(stat -c %s "$tmp/base.json")
two=$(( one + $(stat -c %s "$tmp/cur.json") ))
mkdir "$tmp/trend"
cp "$tmp/base.json" "$tmp/trend/1.json"
cp "$tmp/cur.json" "$tmp/trend/2.json"

s=$(timed $bound "$report" compare "$tmp/base.json" "$tmp/cur.json" --verdict "$tmp/verdict.json")
check "compare of $rows rows a side within ${bound} s, under 3x its input in memory" "[ $s -le 1 ]" "under_3x $two" \
  "grep -q '\"unchanged\"\\|\"inconclusive\"' '$tmp/verdict.json'"
for format in "" "--md $tmp/r.md" "--html $tmp/r.html" "--csv $tmp/r.csv" "--format=gab" "--format=bmf"; do
  # shellcheck disable=SC2086
  s=$(timed $bound "$report" report "$tmp/base.json" $format)
  check "report ${format:-(text)} of $rows rows within ${bound} s, under 3x its input in memory" "[ $s -eq 0 ]" "under_3x $one"
done
check "the BMF export names every case" "[ \$(grep -c '\"latency\"' '$tmp/out') -eq $(( rows / 10 )) ]"
check "the page is smaller than its input" "[ \$(stat -c %s '$tmp/r.html') -lt $one ]"
check "the page shows the first 5,000 cases and says the CSV holds every case" \
  "grep -q 'tables shown</b> (5000 of $(( rows / 10 )) cases); the CSV (--csv) holds every case' '$tmp/r.html'"
s=$(timed $bound "$report" trend "$tmp/trend")
check "trend over two runs of $rows rows within ${bound} s, under 3x its input in memory" "[ $s -eq 0 ]" "under_3x $two"

# One row a case (the most cases for the bytes: each case's model, comparison and lines in every output),
# compared with all four outputs: 4 times the input in memory before the counters were made compact and the
# files read in pieces.
python3 "$make" --rows "$rows" --repetitions 1 --out "$tmp/one.json" || exit 1
python3 "$make" --rows "$rows" --repetitions 1 --slower 10 --seed 2 --date 2026-11-23T04:43:46+00:00 --out "$tmp/one_cur.json" || exit 1
both=$(( $(stat -c %s "$tmp/one.json") + $(stat -c %s "$tmp/one_cur.json") ))
s=$(timed $bound "$report" compare "$tmp/one.json" "$tmp/one_cur.json" --md "$tmp/one.md" --html "$tmp/one.html" --csv "$tmp/one.csv" \
  --verdict "$tmp/one_verdict.json")
check "compare of $rows cases of one row a side with --md --html --csv --verdict within ${bound} s, under 3x its input in memory" \
  "[ $s -eq 1 ]" "under_3x $both" "[ \$(grep -c '\"verdict\"' '$tmp/one_verdict.json') -eq $rows ]" \
  "[ \$(wc -l <'$tmp/one.csv') -eq $(( rows + 1 )) ]" "grep -q '5000 of $rows cases listed' '$tmp/one.html'"
rm -f "$tmp"/one*

# Every variant against every declared role made a 671 MB page of a 1.4 MB file.
python3 "$make" --rows 2000 --repetitions 1 --families 1 --variants 2000 --roles 2000 --out "$tmp/roles.json" || exit 1
s=$(timed $bound "$report" report "$tmp/roles.json" --html "$tmp/roles.html")
check "2,000 variants and 2,000 roles: a page under 10x its input" "[ $s -eq 0 ]" \
  "[ \$(stat -c %s '$tmp/roles.html') -lt \$(( 10 * \$(stat -c %s '$tmp/roles.json') )) ]" "grep -q '1984 more not shown' '$tmp/roles.html'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

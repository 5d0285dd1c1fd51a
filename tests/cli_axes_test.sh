#!/usr/bin/env bash
# The suite's cases from the command line: the names of every preset's cases (stored baselines are compared
# by name), the families' order, and --sizes and --axis choosing axis values.
# Usage: tests/cli_axes_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
bench="$build/bench/cudabench" faults="$build/tests/fault_suite" names="$src/tests/fixtures/case_names"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
families() { awk '{ split($1, p, "/"); if (p[1] != last) print p[1]; last = p[1] }' "$1"; }

# tests/fixtures/case_names/PRESET.txt holds the names --list gave each preset's cases: stored baselines are
# compared by name, so none may vanish or move; a new family's or case's names may be added anywhere. After a
# deliberate rename: CUDABENCH_UPDATE_CASE_NAMES=1 ctest -R cli_axes writes the fixtures anew.
kept_in_order() {  # FIXTURE LISTED: every name of FIXTURE is in LISTED, in the same order; else the first that is not
  python3 - "$1" "$2" <<'PY'
import sys
want = open(sys.argv[1]).read().split()
got = {name: i for i, name in enumerate(open(sys.argv[2]).read().split())}
last = -1
for name in want:
    if name not in got: sys.exit("%s: no longer listed" % name)
    if got[name] < last: sys.exit("%s: listed out of its order" % name)
    last = got[name]
PY
}
for preset in quick nightly full; do
  s=$(run "$bench" --list --preset=$preset)
  awk '{print $1}' "$tmp/out" >"$tmp/names"
  [ "${CUDABENCH_UPDATE_CASE_NAMES:-0}" = 1 ] && [ "$s" = 0 ] && [ -s "$tmp/names" ] &&
    cp "$tmp/names" "$names/$preset.txt.tmp" && mv "$names/$preset.txt.tmp" "$names/$preset.txt"
  check "--list --preset=$preset names every case of the stored names, in the same order" 0 "$s" "kept_in_order '$names/$preset.txt' '$tmp/names'"
done
# A planted fixture: a name added to the listing passes; a name gone, or two swapped, fails.
printf 'a/x\nb/y\nc/z\n' >"$tmp/fixture"
printf 'a/x\nnew/one\nb/y\nc/z\n' >"$tmp/listed"; check "a case added to the listing keeps the stored names" 0 "$(kept_in_order "$tmp/fixture" "$tmp/listed" 2>/dev/null; echo $?)"
printf 'a/x\nc/z\n' >"$tmp/listed"; check "a stored name gone from the listing fails" 1 "$(kept_in_order "$tmp/fixture" "$tmp/listed" 2>/dev/null; echo $?)"
printf 'a/x\nc/z\nb/y\n' >"$tmp/listed"; check "two stored names swapped fails" 1 "$(kept_in_order "$tmp/fixture" "$tmp/listed" 2>/dev/null; echo $?)"

# The suite's order: the library's limits family first (cudabench::limits_order), then the families by name.
{ echo limits; grep -ho 'CB_REGISTER_FAMILY([a-z0-9_]*' "$src"/bench/*.cpp | cut -d'(' -f2 | LC_ALL=C sort; } >"$tmp/declared"
s=$(run "$bench" --list); families "$tmp/out" >"$tmp/listed"
check "families run by name, after the limits" 0 "$s" "diff '$tmp/declared' '$tmp/listed'"
if [ -x "$faults" ]; then  # fault_cases.cu is linked last, and runs where its name puts it
  s=$(run "$faults" --list); families "$tmp/out" | paste -sd' ' >"$tmp/listed"
  check "a family linked last runs where its name puts it" 0 "$s" "grep -q '^limits conv2d dot fault histogram ' '$tmp/listed'"
fi

s=$(run "$bench" --list --sizes=dot=4096 --filter=^dot/)
check "--sizes sets the size axis" 0 "$s" 'grep -q "^dot/shared/4096 " "$tmp/out"' 'grep -q "^dot/threads_streams/4096/4 " "$tmp/out"' \
  '[ "$(wc -l <"$tmp/out")" = 3 ]'
s=$(run "$bench" --list --axis=dot.streams=2,16 --filter=^dot/threads)
check "--axis sets another axis" 0 "$s" 'grep -q "^dot/threads_streams/16777216/2 " "$tmp/out"' \
  'grep -q "^dot/threads_streams/16777216/16 " "$tmp/out"' '[ "$(wc -l <"$tmp/out")" = 2 ]'
s=$(run "$bench" --list --axis=image.chunks=3 --axis=dot.n=1024 --filter='image/fast_graph|dot/cpu')
check "--axis repeated, for two families (and a size axis by name)" 0 "$s" 'grep -q "^image/fast_graph/3 " "$tmp/out"' \
  'grep -q "^dot/cpu/1024 " "$tmp/out"'
s=$(run "$bench" --list --axis=dot.threads=2)
check "--axis naming no axis of the family: exit 2" 2 "$s" 'grep -q "family .dot. has no axis .threads. (its axes: n, streams)" "$tmp/err"' \
  '[ "$(wc -l <"$tmp/err")" = 1 ]'
s=$(run "$bench" --list --axis=nosuch.n=2); check "--axis naming no family: exit 2" 2 "$s" 'grep -q "no family named .nosuch." "$tmp/err"'
s=$(run "$bench" --list --axis=dot.streams=0); check "--axis with a value that is not positive: exit 2" 2 "$s" 'grep -q "not a positive whole number" "$tmp/err"'
s=$(run "$bench" --list --axis=dot=2); check "--axis without FAMILY.AXIS: exit 2" 2 "$s" 'grep -q "expects FAMILY.AXIS=V,V" "$tmp/err"'
s=$(run "$bench" --list --axis=dot.n=2 --sizes=dot=4); check "the size axis set by --axis and --sizes: exit 2" 2 "$s" 'grep -q "both set the size axis" "$tmp/err"'
s=$(run "$bench" --list --sizes=limits=4); check "--sizes for a family without a size axis: exit 2" 2 "$s" 'grep -q "does not take sizes" "$tmp/err"'

finish

#!/usr/bin/env bash
# Hostile command-line input to the suite binary: patterns that would backtrack for ever, sizes beyond what a
# case can hold, and sizes beyond the machine's memory (skipped with the figure before anything is allocated).
# Usage: tests/cli_input_test.sh BUILD_DIR
set -uo pipefail
build=$1
bench="$build/bench/cudabench"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
# A backtracking engine takes hours on these; 10 s is a generous bound for a linear one (exit 124 past it).
run() { timeout 10 "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }

for p in '(.*)+zzz' '(.*)*zzz' '.*.*.*.*.*.*.*zzz'; do
  s=$(run "$bench" --list --filter="$p"); check "--list --filter='$p' returns at once: no case matches" 2 "$s" one_line \
    'grep -q "no case matches" "$tmp/err"'
  s=$(run "$bench" --list --benchmark_filter="$p"); check "--list --benchmark_filter='$p' returns at once: no case matches" 2 "$s" one_line
  s=$(run "$bench" --list --filter="-$p"); check "--list --filter='-$p' (negated) lists every case at once" 0 "$s" \
    'grep -q "^conv2d/" "$tmp/out"' 'grep -q "^vector/" "$tmp/out"'
  s=$(run "$bench" --list --inject-slowdown="$p:5"); check "--inject-slowdown='$p:5' is taken at once" 0 "$s"
done
s=$(run "$bench" --list --filter='conv2d/(tiled|fast)/1024'); check "an RE2 pattern selects as before" 0 "$s" \
  '[ "$(awk "{print \$1}" "$tmp/out" | tr "\n" " ")" = "conv2d/tiled/1024 conv2d/fast/1024 " ]'
s=$(run "$bench" --list --filter='(a)\1'); check "a back-reference is refused in one line naming --filter" 2 "$s" one_line \
  'grep -q "^run_bench: --filter: invalid regular expression" "$tmp/err"'
s=$(run "$bench" --list --inject-slowdown='x(?=y):5'); check "a look-ahead is refused in one line naming --inject-slowdown" 2 "$s" one_line \
  'grep -q "^run_bench: --inject-slowdown: invalid regular expression" "$tmp/err"'

# Sizes and axis values are 64-bit; one beyond what a family's cases hold is refused naming the option and the limit.
s=$(run "$bench" --list --filter=conv2d/cpu --sizes=conv2d=99999999999); check "--sizes=conv2d=99999999999 is refused, not narrowed" 2 "$s" \
  one_line '! grep -q 1215752191 "$tmp/out"' 'grep -q "^run_bench: --sizes=conv2d: 99999999999 is over the largest n that conv2d runs (46340)" "$tmp/err"'
s=$(run "$bench" --list --sizes=conv2d=4294967296); check "--sizes=conv2d=4294967296 is refused, never /0" 2 "$s" one_line '! grep -q "/0 " "$tmp/out"'
s=$(run "$bench" --list --sizes=matmul=2147483648); check "--sizes=matmul=2147483648 is refused, never negative" 2 "$s" one_line '! grep -q "/-" "$tmp/out"'
for watchdog in 300 off; do
  s=$(run "$bench" --quiet --filter=matmul/cpu --sizes=matmul=4294967296 --watchdog=$watchdog)
  check "--filter=matmul/cpu --sizes=matmul=4294967296 --watchdog=$watchdog: a usage error, no SIGSEGV" 2 "$s" one_line \
    'grep -q "over the largest n that matmul runs" "$tmp/err"'
done
s=$(run "$bench" --list --axis=dot.streams=4294967296); check "--axis=dot.streams=4294967296 is refused naming the option" 2 "$s" one_line \
  'grep -q "^run_bench: --axis=dot.streams: 4294967296 is over the largest streams that dot runs (64)" "$tmp/err"'
s=$(run "$bench" --list --axis=image.chunks=65); check "--axis=image.chunks=65 is refused" 2 "$s" one_line
s=$(run "$bench" --list --sizes=vector=9223372036854775808); check "--sizes beyond 64 bits is refused naming the range" 2 "$s" one_line \
  'grep -q "(1 to 9223372036854775807)" "$tmp/err"'

# A size the machine cannot hold: every CPU case says what it needs and is skipped, in a worker and in-process.
for fam in vector dot reduce histogram; do
  for watchdog in 300 off; do
    s=$(run "$bench" --quiet --filter="^$fam/cpu/" --sizes="$fam=99999999999" --watchdog=$watchdog)
    check "--sizes=$fam=99999999999 --watchdog=$watchdog: SKIPPED with what it needs, no bad_alloc" 0 "$s" \
      'grep -q "SKIPPED.*needs [0-9.]* GiB of host memory" "$tmp/out"' '! grep -q bad_alloc "$tmp/out" "$tmp/err"'
  done
done

finish

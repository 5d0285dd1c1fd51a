#!/usr/bin/env bash
# Rounds from the command line: every case once per round in a fresh worker process, the order shuffled per
# round from a recorded seed, each repetition marked with its round, the table printed once. Without a GPU
# the cases are CPU cases, which the rounds spread only with --rounds-for=all; by default they take all their
# repetitions in the first round.
# Usage: tests/cli_rounds_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1
bench="$build/bench/cudabench"
. "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
cases='^(dot/cpu|reduce/cpu|histogram/cpu|vector/cpu)/1048576$|^image/cpu$'
sizes=(--sizes=dot=1048576 --sizes=vector=1048576 --sizes=reduce=1048576 --sizes=histogram=1048576)
quick=(--filter="$cases" "${sizes[@]}" --benchmark_min_time=0.002s --rounds-for=all)

# The order each round ran the cases in, from the progress lines: "ROUND NAME" per line.
orders() { sed -n 's/^\[[0-9]*\/[0-9]*\] \([^ ]*\) (round \([0-9]*\)\/[0-9]*.*/\2 \1/p' "$1"; }
rows() {  # JSON: "NAME ROUND" for every repetition row
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["benchmarks"]:
    if b.get("run_type") == "iteration": print(b["run_name"], b.get("cudabench", {}).get("round", 0))' "$1"
}
setting() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["context"]["cudabench"].get(sys.argv[2]))' "$1" "$2"; }

s=$(run "$bench" "${quick[@]}" --rounds=3 --repetitions=3 --shuffle-seed=7 --json "$tmp/a.json")
orders "$tmp/err" >"$tmp/a.orders"; rows "$tmp/a.json" >"$tmp/a.rows"
check "each of 3 rounds runs every case once" 0 "$s" \
  '[ "$(wc -l <"$tmp/a.orders")" = 15 ]' \
  '[ "$(for r in 1 2 3; do grep "^$r " "$tmp/a.orders" | awk "{print \$2}" | sort | paste -sd,; done | sort -u | wc -l)" = 1 ]' \
  '[ "$(awk "{print \$2}" "$tmp/a.orders" | sort | uniq -c | awk "{print \$1}" | sort -u)" = 3 ]'
check "the rounds run the cases in different orders" 0 "$s" \
  '[ "$(for r in 1 2 3; do grep "^$r " "$tmp/a.orders" | awk "{print \$2}" | paste -sd,; done | sort -u | wc -l)" -ge 2 ]'
check "the results record the rounds and the seed, and each repetition its round" 0 "$s" \
  '[ "$(setting "$tmp/a.json" rounds)" = 3 ] && [ "$(setting "$tmp/a.json" shuffle_seed)" = 7 ]' \
  '[ "$(setting "$tmp/a.json" repetitions)" = 3 ]' \
  '[ "$(wc -l <"$tmp/a.rows")" = 15 ] && [ "$(awk "{print \$2}" "$tmp/a.rows" | sort | uniq -c | awk "{print \$1}" | sort -u)" = 5 ]'
check "the table is printed once, after the last round, with every case" 0 "$s" \
  '[ "$(grep -c "^case  *median" "$tmp/out")" = 1 ]' '[ "$(grep -cE "^(dot|reduce|histogram|vector|image)/" "$tmp/out")" = 5 ]' \
  'grep -q "3 repetition(s) in 3 rounds" "$tmp/out"'
check "later rounds rely on the first round's check" 0 "$s" \
  '[ "$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted({(b[\"cudabench\"][\"round\"], b[\"cudabench\"].get(\"checked\", True)) for b in d[\"benchmarks\"] if b.get(\"run_type\") == \"iteration\"}))" "$tmp/a.json")" = "[(1, True), (2, False), (3, False)]" ]'

s=$(run "$bench" "${quick[@]}" --rounds=3 --repetitions=3 --shuffle-seed=7 --json "$tmp/b.json")
orders "$tmp/err" >"$tmp/b.orders"
check "the same seed gives the same orders" 0 "$s" 'diff "$tmp/a.orders" "$tmp/b.orders" >/dev/null'
s=$(run "$bench" "${quick[@]}" --rounds=3 --repetitions=3 --shuffle-seed=8 --json "$tmp/c.json")
orders "$tmp/err" >"$tmp/c.orders"
check "another seed gives other orders" 0 "$s" '! diff "$tmp/a.orders" "$tmp/c.orders" >/dev/null'
s=$(run "$bench" "${quick[@]}" --rounds=2 --repetitions=2 --json "$tmp/d.json")
check "without --shuffle-seed a fresh seed is recorded" 0 "$s" '[ "$(setting "$tmp/d.json" shuffle_seed)" != None ]'

s=$(run "$bench" "${quick[@]}" --repetitions=3 --benchmark_enable_random_interleaving=true --json "$tmp/e.json")
check "--benchmark_enable_random_interleaving: one round per repetition" 0 "$s" \
  '[ "$(setting "$tmp/e.json" rounds)" = 3 ]' '[ "$(rows "$tmp/e.json" | sort -u | wc -l)" = 15 ]'
s=$(run "$bench" "${quick[@]}" --rounds=5 --repetitions=2 --json "$tmp/f.json")
check "rounds are at most the repetitions" 0 "$s" '[ "$(setting "$tmp/f.json" rounds)" = 2 ]'
s=$(run "$bench" "${quick[@]}" --rounds=2 --repetitions=3 --json "$tmp/g.json")
check "each round takes its share of the repetitions, rounded up" 0 "$s" \
  '[ "$(setting "$tmp/g.json" repetitions)" = 4 ]' '[ "$(rows "$tmp/g.json" | wc -l)" = 20 ]'
s=$(run "$bench" "${quick[@]}" --preset=nightly --watchdog=off --repetitions=2 --json "$tmp/h.json")
check "--watchdog=off runs one round, in this process" 0 "$s" \
  '[ "$(setting "$tmp/h.json" rounds)" = None ]' '[ "$(setting "$tmp/h.json" shuffle_seed)" = None ]' \
  '[ "$(rows "$tmp/h.json" | awk "{print \$2}" | sort -u)" = 0 ]'
s=$(run "$bench" "${quick[@]}" --rounds-for=gated --rounds=3 --repetitions=3 --shuffle-seed=7 --json "$tmp/k.json")
orders "$tmp/err" >"$tmp/k.orders"
check "by default host-bound cases take every repetition in the first round" 0 "$s" \
  '[ "$(wc -l <"$tmp/k.orders")" = 5 ]' '[ "$(awk "{print \$1}" "$tmp/k.orders" | sort -u)" = 1 ]' \
  '[ "$(rows "$tmp/k.json" | wc -l)" = 15 ] && [ "$(rows "$tmp/k.json" | awk "{print \$2}" | sort -u)" = 1 ]' \
  '[ "$(setting "$tmp/k.json" rounds)" = 3 ]' 'grep -q "3 repetition(s) in 3 rounds" "$tmp/out"'
s=$(run "$bench" "${quick[@]}" --rounds-for=gated --rounds=3 --repetitions=3 --trace "$tmp/k.trace.json" --json "$tmp/l.json")
check "--trace spreads every case (the trace is the last round's)" 0 "$s" \
  '[ "$(rows "$tmp/l.json" | awk "{print \$2}" | sort -u | paste -sd,)" = 1,2,3 ]'
s=$(run "$bench" --list --preset=nightly --filter="$cases" "${sizes[@]}")
check "--list is not a run: no rounds" 0 "$s" '[ "$(wc -l <"$tmp/out")" = 5 ]'

# ^C in the second round: the cases of the rounds that ran, marked incomplete.
"$bench" "${quick[@]}" --rounds=3 --repetitions=3 --json "$tmp/int.json" >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 600); do grep -q '(round 2/3' "$tmp/err" && break; sleep 0.05; done
kill -INT "$pid"; wait "$pid"; s=$?
check "SIGINT in round 2: exit 130, the finished rounds written, marked incomplete" 130 "$s" \
  '[ "$(setting "$tmp/int.json" incomplete)" = True ] && [ "$(setting "$tmp/int.json" interrupted_by)" = SIGINT ]' \
  '[ "$(rows "$tmp/int.json" | awk "{print \$2}" | sort -u | head -n 1)" = 1 ]' '[ "$(rows "$tmp/int.json" | wc -l)" -ge 5 ]'

for bad in --rounds=0 --rounds=1001 --rounds=x --shuffle-seed=-1 --shuffle-seed=2147483648 \
           --benchmark_enable_random_interleaving=maybe --rounds-for=some; do
  s=$(run "$bench" "${quick[@]}" "$bad")
  check "$bad is refused with one line" 2 "$s" '[ "$(wc -l <"$tmp/err")" = 1 ]' '[ ! -s "$tmp/out" ]'
done
finish

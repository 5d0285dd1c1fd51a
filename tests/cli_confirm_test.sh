#!/usr/bin/env bash
# Unconfirmed flags and `confirm`, without building anything real: a repository whose "binary" is a script writing
# results on the board named by CUDABENCH_TEST_BOARD, with a time set per commit. A baseline of another board is
# compared (exit 3, unconfirmed), then confirmed here: a machine that is only slower leaves `machine differs`
# (exit 0); a commit that made the case slower is a confirmed regression (exit 1), which ci/nightly.sh then bisects.
# Usage: tests/cli_confirm_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
report="$(cd "$1" && pwd)/app/cudabench-report" src=$2
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
repo="$tmp/repo"
git init -q "$repo" && git -C "$repo" config user.email t@example.com && git -C "$repo" config user.name test
git -C "$repo" config commit.gpgsign false

# results TIME_MS BOARD REVISION OUT: a run of the case spin/loop (6 repetitions, 0.01% apart) on BOARD.
cat >"$tmp/results.sh" <<'SH'
#!/bin/sh
t=$1 board=$2 rev=$3 out=$4
{ printf '{"context": {"date": "2026-11-23T00:00:00+00:00", "host_name": "h", "executable": "bench",'
  printf ' "device": {"available": true, "name": "Test GPU", "uuid": "GPU-%s-0000-0000-0000-000000000000"},' "$board"
  printf ' "cudabench": {"schema_version": 1, "preset": "nightly", "git_revision": "%s"}}, "benchmarks": [' "$rev"
  for k in 0 1 2 3 4 5; do
    [ $k = 0 ] || printf ','
    printf '{"name": "spin/loop", "run_name": "spin/loop", "run_type": "iteration", "repetitions": 6, "repetition_index": %s, '\
'"threads": 1, "iterations": 1, "real_time": %s, "cpu_time": %s, "time_unit": "ms"}' $k "$t$k" "$t$k"
  done
  printf ']}\n'; } >"$out"
SH
chmod +x "$tmp/results.sh"
write_bench() {  # the benchmark binary of a commit: its case takes $1 ms on this board
  cat >"$repo/bench.sh" <<SH
#!/bin/sh
for a in "\$@"; do case \$a in --json=*) out=\${a#--json=} ;; esac; done
exec "$tmp/results.sh" $1 "\${CUDABENCH_TEST_BOARD:-aaaaaaaa}" "\$(git rev-parse HEAD)" "\$out"
SH
  chmod +x "$repo/bench.sh"
}
commit() { git -C "$repo" add -A && git -C "$repo" commit -qm "$1"; }
write_bench 1.000; commit "A case that sweeps 10 times"
echo "note" >"$repo/notes"; commit "A note"
first=$(git -C "$repo" rev-parse HEAD~1) noted=$(git -C "$repo" rev-parse HEAD)
confirm() { (cd "$repo" && CUDABENCH_TEST_BOARD=cccccccc "$report" confirm "$@" --build=true --binary=bench.sh); }

# The baseline on board aaaaaaaa; tonight's run on board bbbbbbbb, 10% slower with nothing changed but the machine.
"$tmp/results.sh" 1.000 aaaaaaaa "$first" "$tmp/base.json"
"$tmp/results.sh" 1.100 bbbbbbbb "$noted" "$tmp/cur.json"
s=$(run "$report" compare "$tmp/base.json" "$tmp/cur.json" --verdict "$tmp/v.json")
check "another board: the flag is unconfirmed, exit status 3, what differs named" 3 "$s" \
  'grep -q "unconfirmed" "$tmp/out"' 'grep -q "board GPU-aaaaaaaa vs GPU-bbbbbbbb" "$tmp/out"' \
  'py "assert j[\"counts\"][\"unconfirmed\"] == 1 and not j[\"failing\"] and not j[\"machine\"][\"same_machine\"]" "$tmp/v.json"'
s=$(run "$report" compare "$tmp/base.json" "$tmp/base.json"); check "one machine, nothing changed: exit 0" 0 "$s"
"$tmp/results.sh" 1.100 aaaaaaaa "$noted" "$tmp/same_board.json"
s=$(run "$report" compare "$tmp/base.json" "$tmp/same_board.json")
check "the same board 10% slower: a regression that stands, exit 1" 1 "$s" 'grep -q "regression" "$tmp/out"'

s=$(run confirm "$tmp/base.json" "$tmp/cur.json" --verdict "$tmp/vc.json" --md "$tmp/vc.md")
check "confirm: both revisions equal here, so the flag is the machine's (exit 0), the measurement said" 0 "$s" \
  'py "c = j[\"cases\"][0]; assert c[\"verdict\"] == \"machine differs\" and c[\"note\"].startswith(\"not confirmed: +0.0% on this machine\"), c" "$tmp/vc.json"' \
  'py "assert any(\"confirmed on this machine in\" in n for n in j[\"notes\"]), j[\"notes\"]" "$tmp/vc.json"' \
  'grep -q "measuring revisions" "$tmp/err"' '[ "$(git -C "$repo" worktree list | wc -l)" = 1 ]'

# Stopped by SIGTERM while it builds the revisions to measure: exit 143, one line, every output as it was.
cp "$tmp/vc.json" "$tmp/vt.json" && cp "$tmp/vc.md" "$tmp/vt.md"
(cd "$repo" && CUDABENCH_TEST_BOARD=cccccccc exec "$report" confirm "$tmp/base.json" "$tmp/cur.json" --build='sleep 30' \
  --binary=bench.sh --verdict "$tmp/vt.json" --md "$tmp/vt.md") >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 200); do grep -q "measuring revisions" "$tmp/err" && break; sleep 0.05; done
sleep 0.5
kill -TERM "$pid"; wait "$pid"; s=$?
check "confirm stopped by SIGTERM while measuring: exit 143, said so, every output as it was" 143 "$s" \
  'tail -n 1 "$tmp/err" | grep -q "confirm: interrupted by SIGTERM; no output was replaced"' \
  'cmp -s "$tmp/vt.json" "$tmp/vc.json" && cmp -s "$tmp/vt.md" "$tmp/vc.md"' '[ "$(git -C "$repo" worktree list | wc -l)" = 1 ]'
s=$(run confirm - - <"$tmp/base.json")
check "confirm - -: standard input named twice, refused" 2 "$s" 'one_line "standard input (-) is named more than once"'
s=$(run "$report" confirm "$tmp/base.json" "$tmp/cur.json" --binary=../../x)
check "confirm --binary=../../x: refused, the binary's path stays inside the worktree" 2 "$s" 'one_line "\-\-binary=../../x: give the binary"'

"$tmp/results.sh" 1.100 bbbbbbbb "$first" "$tmp/cur_same_rev.json"
s=$(run confirm "$tmp/base.json" "$tmp/cur_same_rev.json" --verdict "$tmp/vs.json")
check "confirm: both runs of one revision: the machine's, nothing built" 0 "$s" \
  'py "assert j[\"cases\"][0][\"verdict\"] == \"machine differs\"" "$tmp/vs.json"' '! grep -q "measuring revisions" "$tmp/err"'

write_bench 1.100; commit "Sweep 11 times"; slow=$(git -C "$repo" rev-parse HEAD)
echo "note 2" >>"$repo/notes"; commit "Another note"
"$tmp/results.sh" 1.210 bbbbbbbb "$(git -C "$repo" rev-parse HEAD)" "$tmp/cur2.json"
s=$(run confirm "$tmp/base.json" "$tmp/cur2.json" --verdict "$tmp/vr.json")
check "confirm: a commit made it slower: the regression is confirmed here (exit 1)" 1 "$s" \
  'py "c = j[\"cases\"][0]; assert c[\"verdict\"] == \"regression\" and c[\"note\"].startswith(\"confirmed: +10.0% on this machine\"), c" "$tmp/vr.json"' \
  'py "assert j[\"failing\"]" "$tmp/vr.json"'

printf '{"context": {"host_name": "h"}, "benchmarks": []}\n' >"$tmp/norev.json"
"$tmp/results.sh" 1.000 aaaaaaaa "" "$tmp/norev.json"
s=$(run confirm "$tmp/norev.json" "$tmp/cur.json")
check "a baseline without a revision: one line saying its flags cannot be measured" 2 "$s" 'one_line "records no git revision"'
s=$(run "$report" confirm "$tmp/base.json"); check "confirm needs two files: one line" 2 "$s" 'one_line'

# Only a full hash that is a commit of the repository names a revision: a symbolic name or a short hash would
# resolve to whatever it points at now (HEAD: the current run's own commit, "the same code"), and settle nothing.
for rev in HEAD @ refs/heads/master "${first:0:12}"; do
  "$tmp/results.sh" 1.000 aaaaaaaa "$rev" "$tmp/symbolic.json"
  s=$(run confirm "$tmp/symbolic.json" "$tmp/cur.json" --verdict "$tmp/vsym.json")
  check "a baseline of revision '$rev': refused in one line, nothing settled" 2 "$s" 'one_line "is not a full commit hash"' \
    '[ ! -e "$tmp/vsym.json" ]'
done
"$tmp/results.sh" 1.100 bbbbbbbb HEAD "$tmp/cur_symbolic.json"
s=$(run confirm "$tmp/base.json" "$tmp/cur_symbolic.json"); check "a current run of revision HEAD: refused" 2 "$s" \
  'one_line "cur_symbolic.json: its git_revision .HEAD. is not a full commit hash"'
"$tmp/results.sh" 1.000 aaaaaaaa 1111111111111111111111111111111111111111 "$tmp/foreign.json"
s=$(run confirm "$tmp/foreign.json" "$tmp/cur.json"); check "a full hash the repository does not hold: refused" 2 "$s" \
  'one_line "is not a commit of"'
# One revision is the same code only where both trees were clean: a dirty run ran code no commit holds.
python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); j["context"]["cudabench"]["git_dirty"] = True; json.dump(j, open(sys.argv[2], "w"))' \
  "$tmp/base.json" "$tmp/base_dirty.json"
s=$(run confirm "$tmp/base_dirty.json" "$tmp/cur_same_rev.json" --verdict "$tmp/vd.json")
check "one revision, the baseline's tree dirty: the flag stays unconfirmed (exit 3), nothing built" 3 "$s" \
  'py "assert j[\"cases\"][0][\"verdict\"] == \"unconfirmed\" and any(\"tree was dirty\" in n for n in j[\"notes\"])" "$tmp/vd.json"' \
  '! grep -q "measuring revisions" "$tmp/err"'

# ci/nightly.sh: a stand-in runner whose run is tonight's on board bbbbbbbb; the baseline stored for its model is
# board aaaaaaaa's at the first commit. The nightly confirms (the regression stands) and bisects to the commit.
mkdir -p "$repo/ci" "$tmp/baselines/Test_GPU"
cp "$src/ci/nightly.sh" "$src/ci/defaults.sh" "$src/ci/nightly_bisect.py" "$repo/ci/"
cp "$tmp/base.json" "$tmp/baselines/Test_GPU/nightly.json"
cat >"$tmp/runner" <<SH
#!/bin/sh
case \$1 in
  compare|report|trend|confirm|bisect|store) exec "$report" "\$@" ;;
esac
for a in "\$@"; do case \$a in --json=*) out=\${a#--json=} ;; --json) next=1 ;; *) [ "\${next:-}" = 1 ] && out=\$a; next= ;; esac; done
exec "$tmp/results.sh" 1.210 bbbbbbbb "\$(git -C "$repo" rev-parse HEAD)" "\$out"
SH
chmod +x "$tmp/runner"
s=$(cd "$repo" && RUN_BENCH="$tmp/runner" CUDABENCH_BASELINE_DIR="$tmp/baselines" CUDABENCH_TEST_BOARD=cccccccc \
    CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh" run bash ci/nightly.sh "$tmp/nightly")
check "the nightly confirms on this machine, fails on the confirmed regression and names its commit" 1 "$s" \
  'grep -q "confirming them on this one" "$tmp/err"' 'grep -q "confirmation took" "$tmp/err"' \
  'grep -q "Confirmation on this machine took" "$tmp/nightly"/report-*.md' \
  'grep -q "confirmed: +10.0% on this machine" "$tmp/nightly"/verdict-*.json' \
  'grep -q "${slow:0:12}" "$tmp/nightly"/report-*.md'

# A baseline stored with the revision HEAD: the nightly never passes its 2x regression as "the same code".
mkdir -p "$tmp/baselines_head/Test_GPU"
"$tmp/results.sh" 0.600 aaaaaaaa HEAD "$tmp/baselines_head/Test_GPU/nightly.json"
s=$(cd "$repo" && RUN_BENCH="$tmp/runner" CUDABENCH_BASELINE_DIR="$tmp/baselines_head" CUDABENCH_TEST_BOARD=cccccccc \
    CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh" run bash ci/nightly.sh "$tmp/nightly_head")
check "the nightly against a baseline of revision HEAD: refused, not passed" 2 "$s" \
  'grep -q "is not a full commit hash" "$tmp/nightly_head"/confirm-*.log'

# A flag is confirmed only by the same flag: a regression across machines that measures faster here is reported as
# the improvement it is, never as "confirmed".
write_bench 0.900; commit "Sweep 9 times"
"$tmp/results.sh" 1.210 bbbbbbbb "$(git -C "$repo" rev-parse HEAD)" "$tmp/cur_faster.json"
s=$(run confirm "$tmp/base.json" "$tmp/cur_faster.json" --verdict "$tmp/vo.json")
check "confirm: a regression across machines measured faster here: the opposite, not confirmed" 0 "$s" \
  'py "c = j[\"cases\"][0]; assert c[\"verdict\"] == \"improvement\" and c[\"held\"] == \"regression\" and c[\"note\"].startswith(\"not confirmed, the opposite: -10.0% on this machine\"), c" "$tmp/vo.json"' \
  'py "assert any(\"0 flag(s) confirmed, 1 the opposite\" in n for n in j[\"notes\"]), j[\"notes\"]" "$tmp/vo.json"'
finish

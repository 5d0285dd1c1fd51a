#!/usr/bin/env bash
# The adopter's CPU project of docs/ci.md, its benchmark a plain Google Benchmark function (BENCHMARK(), rows
# without our records, host-bound), in a repository whose commit B makes it 40% slower than commit A. Its "binary"
# is a script writing such rows (times fixed, so the test does not depend on this machine's load; a repetition
# disturbed 1.6x where $STANDIN_DISTURB names a file, which it removes). Both of docs/ci.md's flows, with their
# defaults, fail B even with one disturbed repetition in the baseline: ci/pr_bench.sh measure (5 processes a side,
# the merge base's first one disturbed: self-calibrated, more pairs decide it) and ci/nightly.sh against a baseline
# of the same machine stored by ci/baseline.sh from A's night (one of its 10 repetitions disturbed).
# Usage: tests/adopter_cpu_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
report="$(cd "$1" && pwd)/app/cudabench-report" src=$(cd "$2" && pwd)
source "$src/tests/cli_lib.sh"
repo="$tmp/adopter"
git init -q "$repo" && git -C "$repo" config user.email t@example.com && git -C "$repo" config user.name test
git -C "$repo" config commit.gpgsign false
# write_bench MS: the stand-in of the project's binary at a commit whose BM_spin takes MS ms; its subcommands are
# cudabench-report's, as a binary linked with cudabench::main has them.
write_bench() {
  cat >"$repo/bench.sh" <<SH
#!/bin/sh
case "\$1" in compare|report|trend|store|gates|fleet|bisect|confirm) exec "$report" "\$@" ;; esac
reps=1 out=
while [ \$# -gt 0 ]; do
  case \$1 in --identify*) echo "mybench: no --identify (a plain BENCHMARK() has no code identity)" >&2; exit 2 ;;
    --json=*) out=\${1#--json=} ;; --json) out=\$2; shift ;; --preset=nightly) reps=10 ;; --preset=*) reps=1 ;; esac
  shift
done
disturbed=-1
[ -n "\${STANDIN_DISTURB:-}" ] && rm "\$STANDIN_DISTURB" 2>/dev/null && disturbed=0
{ printf '{"context": {"date": "2026-11-29T00:00:00+00:00", "host_name": "runner", "executable": "mybench", "num_cpus": 2,'
  printf ' "device": {"available": false, "unavailable_reason": "no NVIDIA driver"},'
  printf ' "cudabench": {"schema_version": 2, "preset": "%s", "repetitions": %s, "host_name": "runner",' \$([ \$reps = 10 ] && echo nightly || echo quick) \$reps
  printf ' "git_revision": "%s", "git_dirty": false,' "\$(git rev-parse HEAD)"
  printf ' "cases": {"BM_spin": {"family": "BM_spin", "variant": "", "params": "", "on": "cpu", "cache": "hot", "bound": "host"}}}},'
  printf ' "benchmarks": ['
  k=0
  while [ \$k -lt \$reps ]; do
    [ \$k = 0 ] || printf ','
    t=\$(awk -v t=$1 -v d=\$([ \$k = \$disturbed ] && echo 1.6 || echo 1) -v k=\$k 'BEGIN { printf "%.6f", t * d * (1 + (k % 3 - 1) * 0.002) }')
    printf '{"name": "BM_spin", "family_index": 0, "per_family_instance_index": 0, "run_name": "BM_spin", "run_type": "iteration",'
    printf ' "repetitions": %s, "repetition_index": %s, "threads": 1, "iterations": 1500, "real_time": %s, "cpu_time": %s, "time_unit": "ms"}' \$reps \$k \$t \$t
    k=\$((k + 1))
  done
  printf ']}\n'; } >"\$out"
SH
  chmod +x "$repo/bench.sh"
}
write_bench 1.000 && git -C "$repo" add -A && git -C "$repo" commit -qm "A: the benchmark" && git -C "$repo" branch -q -M main
a=$(git -C "$repo" rev-parse HEAD)
export CUDABENCH_BASELINE_DIR="$repo/benchmarks/baselines" CUDABENCH_BISECT_BUDGET=0

# The nightly of A, one repetition disturbed, stored as the baseline by ci/baseline.sh (as the job summary says).
touch "$tmp/disturb"
s=$(cd "$repo" && STANDIN_DISTURB="$tmp/disturb" CUDABENCH_NO_BASELINE=candidate RUN_BENCH="$repo/bench.sh" run bash "$src/ci/nightly.sh" "$tmp/night-a")
check "the first night: the baseline candidate, one of its 10 repetitions 1.6x the others" 0 "$s" \
  'py "t = sorted(r[\"real_time\"] for r in j[\"benchmarks\"]); assert len(t) == 10 and t[-1] > 1.5 and t[-2] < 1.01, t" "$(ls "$tmp"/night-a/runs/nightly-*.json)"'
s=$(cd "$repo" && RUN_BENCH="$repo/bench.sh" run bash "$src/ci/baseline.sh" --preset=nightly "$(ls "$tmp"/night-a/runs/nightly-*.json)")
check "ci/baseline.sh stores it" 0 "$s" '[ -f "$repo/benchmarks/baselines/no-gpu/nightly.json" ]' || cat "$tmp/err"
git -C "$repo" add -A && git -C "$repo" commit -qm "The baseline"
git -C "$repo" checkout -q -b slower && write_bench 1.400 && git -C "$repo" commit -qam "B: 40% more work"

s=$(cd "$repo" && RUN_BENCH="$repo/bench.sh" run bash "$src/ci/nightly.sh" "$tmp/night-b")
check "a same-machine nightly of B: the 40% a regression despite the disturbed baseline repetition, exit 1" 1 "$s" \
  'py "c = j[\"cases\"][0]; assert c[\"verdict\"] == \"regression\" and 0.39 < c[\"change\"] < 0.41 and c[\"gate\"] < 0.2, c" "$(ls "$tmp"/night-b/verdict-*.json)"' \
  || { cat "$tmp/err"; tail -n 5 "$tmp/out"; }

touch "$tmp/disturb"
s=$(cd "$repo" && STANDIN_DISTURB="$tmp/disturb" RUN_BENCH="$report" CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh" \
    run bash "$src/ci/pr_bench.sh" measure main "$tmp/pr")
check "the PR flow of B against A, the merge base's first process disturbed: judged by its processes, more pairs decide it, a regression, exit 1" 1 "$s" \
  'py "t = [r[\"real_time\"] for r in j[\"benchmarks\"] if r[\"run_type\"] == \"iteration\"]; assert max(t) > 1.5 and len(t) > 5, t" "$tmp/pr/good.json"' \
  'py "c = j[\"cases\"][0]; assert c[\"verdict\"] == \"regression\" and c[\"method\"].startswith(\"self-calibrated\"), c" "$tmp/pr/verdict.json"' \
  'grep -q "undecided; another pair of processes" "$tmp/pr/bisect.log"' \
  'py "assert all(r[\"iterations\"] == 1500 and list(r[\"cudabench\"]) == [\"round\"] for r in j[\"benchmarks\"] if r[\"run_type\"] == \"iteration\")" "$tmp/pr/bad.json"' \
  || { cat "$tmp/err"; tail -n 5 "$tmp/pr/bisect.log"; cat "$tmp/pr/compare.txt"; }
s=$(cd "$repo" && git checkout -q main && echo n >notes && git add notes && git commit -qm "A note" && \
    RUN_BENCH="$report" CUDABENCH_BISECT_ARGS="--build=true --binary=bench.sh" run bash "$src/ci/pr_bench.sh" measure "$a" "$tmp/pr-aa")
check "the PR flow of a note against A: nothing flagged, exit 0" 0 "$s" \
  'py "assert j[\"cases\"][0][\"verdict\"] == \"unchanged\", j[\"cases\"][0]" "$tmp/pr-aa/verdict.json"' || cat "$tmp/err"
finish

#!/usr/bin/env bash
# The fuzz targets (tools/fuzz/run.sh's libFuzzer binaries) run in parallel on a machine with many CPUs: for each
# TARGET, JOBS libFuzzer jobs (-jobs, -workers) of RUNS_PER_JOB executions each over a copy of its corpus in
# tests/fuzz/corpus/, with run.sh's options. One line a target: the executions summed over its jobs' final
# statistics, the corpus at the end, findings (a crash-*, leak-*, timeout-* or oom-* input; kept under OUT),
# wall and CPU seconds.
# Usage: validation/fuzz_parallel.sh BIN_DIR TARGET...   (OUT: the results directory, default ./out)
# JOBS (default: the CPUs), RUNS_PER_JOB (default 1,000,000 / JOBS, rounded up).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin=$(cd "${1:?BIN_DIR}" && pwd); shift
out=$(mkdir -p "${OUT:-$root/out}" && cd "${OUT:-$root/out}" && pwd)
jobs=${JOBS:-$(nproc)}
per_job=${RUNS_PER_JOB:-$(( (1000000 + jobs - 1) / jobs ))}
echo "$(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $jobs jobs of $per_job executions a target" | tee "$out/fuzz-summary.txt"
status=0
for t in "$@"; do
  dir="$out/fuzz-$t" && rm -rf "$dir" && mkdir -p "$dir/corpus" && cp -r "$root/tests/fuzz/corpus/$t/." "$dir/corpus/"
  before=$(find "$dir/corpus" -type f | wc -l)
  start=$SECONDS
  cpu0=$(awk '{print $16 + $17}' "/proc/$$/stat")
  (cd "$dir" && "$bin/${t}_fuzzer" -max_len=8192 -timeout=10 -rss_limit_mb=4096 -entropic=0 -print_final_stats=1 \
      -runs="$per_job" -jobs="$jobs" -workers="$jobs" corpus >"$dir/main.log" 2>&1)
  rc=$?
  cpu=$(( ($(awk '{print $16 + $17}' "/proc/$$/stat") - cpu0) / $(getconf CLK_TCK) ))
  runs=$(cat "$dir"/fuzz-*.log 2>/dev/null | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{s += $1} END {print s + 0}')
  finished=$(cat "$dir"/fuzz-*.log 2>/dev/null | grep -c '^stat::number_of_executed_units')
  findings=$(find "$dir" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  after=$(find "$dir/corpus" -type f | wc -l)
  line="$t: $runs executions in $finished of $jobs jobs, corpus $before -> $after inputs, $findings finding(s), exit $rc, $((SECONDS - start)) s wall, $cpu s CPU"
  echo "$line" | tee -a "$out/fuzz-summary.txt"
  [ "$findings" = 0 ] && [ "$rc" = 0 ] || { status=1; grep -h -A12 "==ERROR\|^SUMMARY" "$dir"/fuzz-*.log | head -n 40; }
  rm -rf "$dir/corpus"
done
exit $status

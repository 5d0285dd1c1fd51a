#!/usr/bin/env bash
# Builds the fuzz targets (tests/fuzz/<target>_fuzzer.cpp) with clang's libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer over the project's own libraries (tools/fuzz/CMakeLists.txt), and runs each, one
# at a time, for RUNS executions (default 1,000,000), or MAX_TIME seconds if that comes first, over its corpus
# in tests/fuzz/corpus/<target>/; new inputs that widen coverage are merged back into that corpus (MERGE=0: they
# stay in FUZZ_BUILD_DIR/new-<target>/). Each target ends in one line: its executions, its corpus at the end of
# the run, its findings, and the wall and CPU seconds it took.
# Usage: tools/fuzz/run.sh [--smoke] [TARGET...]   (no target: all of them)
#   --smoke  a few seconds a target (SMOKE_SECONDS, default 3) from a sample of its corpus, merging nothing;
#            exits 77 where clang++ or libFuzzer is missing (the fuzz_smoke test)
# FUZZ_BUILD_DIR (default build-fuzz/) holds the build, the logs and any crashing input (crash-*); add such an
# input to tests/fuzz/regressions/<target>/ so the replay test (ctest -R fuzz_replay) keeps it fixed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
all=(compare report gates fleet trend results verdict options)
smoke=0
[ "${1:-}" = --smoke ] && { smoke=1; shift; }
out="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
runs=${RUNS:-1000000}
max_time=${MAX_TIME:-0}  # 0: no limit
cxx=${CXX_FUZZ:-clang++}
cuda=${CUDA_HOME:-/usr/local/cuda}
missing() {  # no fuzzer toolchain: the smoke test skips, a fuzzing run fails
  echo "tools/fuzz/run.sh: SKIPPED: $1" >&2
  [ $smoke -eq 1 ] && exit 77
  exit 2
}
command -v "$cxx" >/dev/null || missing "$cxx not found (Debian: apt-get install clang)"
mkdir -p "$out"
echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' >"$out/probe.cpp"
"$cxx" -fsanitize=fuzzer,address,undefined "$out/probe.cpp" -o "$out/probe" 2>"$out/probe.log" ||
  missing "$cxx cannot link libFuzzer with the sanitizers ($(head -n 1 "$out/probe.log"))"
# A sanitized program that cannot start (AddressSanitizer cannot reserve its shadow memory under ulimit -v) finds
# nothing: said once here, not reported as a finding of every target.
if ! ("$out/probe" -runs=1; exit $?) >"$out/probe-run.log" 2>&1; then  # the shell says "Aborted" into the log
  missing "a sanitized program cannot start here ($(grep -m 1 -E 'ERROR|failed' "$out/probe-run.log" | cut -c 1-160); under \
ulimit -v AddressSanitizer cannot reserve its shadow memory: run with ulimit -v unlimited)"
fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "tools/fuzz/run.sh: no target '$t' (${all[*]})" >&2; exit 2; }
done

launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
if [ ! -f "$out/CMakeCache.txt" ]; then
  cmake -S "$root/tools/fuzz" -B "$out" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$cxx" \
        -DCMAKE_CUDA_COMPILER="$cuda/bin/nvcc" "${launcher[@]}" >"$out/configure.log" 2>&1 ||
    { tail -n 30 "$out/configure.log" >&2; echo "tools/fuzz/run.sh: configuring failed (log: $out/configure.log)" >&2; exit 2; }
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=(--target "${t}_fuzzer"); done
cmake --build "$out" -j "$(nproc 2>/dev/null || echo 2)" "${build_targets[@]}" >"$out/build.log" 2>&1 ||
  { grep -E -A8 "error" "$out/build.log" | head -n 60 >&2; echo "tools/fuzz/run.sh: the build failed (log: $out/build.log)" >&2; exit 2; }

# One target: its corpus (for a smoke run, a sample of it) and what it found new; exit 0 when nothing was found.
fuzz() {
  local t=$1 corpus="$root/tests/fuzz/corpus/$1" new="$out/new-$1"
  # -entropic=0: libFuzzer's default scheduler spent about a third of each execution of these targets (tens
  # of thousands of features an input) keeping its rare-feature counts; the plain one covered as much a run.
  local args=(-max_len=8192 -timeout=10 -rss_limit_mb=4096 -entropic=0 -print_final_stats=1)
  rm -rf "$new" && mkdir -p "$new"
  if [ $smoke -eq 1 ]; then
    local seeds="$out/seeds-$t"
    rm -rf "$seeds" && mkdir -p "$seeds"
    find "$corpus" -type f | sort | head -n 64 | xargs -r cp -t "$seeds"
    args+=(-max_total_time="${SMOKE_SECONDS:-3}" "$new" "$seeds")
  else
    args+=(-runs="$runs" -max_total_time="$max_time" "$new" "$corpus")
  fi
  (cd "$out" && "./${t}_fuzzer" "${args[@]}" 2>"$out/$t.log")
}

# CPU seconds of the processes this script has waited for (Linux; 0 elsewhere).
cpu_seconds() {
  local ticks
  ticks=$(awk '{print $16 + $17}' "/proc/$$/stat" 2>/dev/null) || ticks=0
  echo $(( ${ticks:-0} / $(getconf CLK_TCK 2>/dev/null || echo 100) ))
}

# One line of what a target's run did, from its log: executions, the corpus it ended with, findings.
summary() {
  local t=$1 rc=$2 wall=$3 cpu=$4 log="$out/$1.log"
  local runs corpus findings=0
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  corpus=$(grep -oE 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -n 1 | sed 's/corp: //; s|/| inputs, |')
  # libFuzzer stops at its first finding; a target that never started it (no seed said) found nothing
  [ "$rc" -ne 0 ] && grep -q '^INFO: Seed:' "$log" && findings=1
  echo "$t: ${runs:-0} executions, corpus ${corpus:-?}, $findings finding(s), ${wall} s wall, ${cpu} s CPU" >&2
}

status=0  # 1: a finding; 2: a target that could not start (and no finding)
for t in "${targets[@]}"; do
  echo "== $t" >&2
  start=$SECONDS
  cpu_before=$(cpu_seconds)
  fuzz "$t"; rc=$?
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==[0-9]+==ERROR|SUMMARY)" "$out/$t.log" >&2
  summary "$t" "$rc" $((SECONDS - start)) $(( $(cpu_seconds) - cpu_before ))
  if [ $rc -ne 0 ] && ! grep -q '^INFO: Seed:' "$out/$t.log"; then  # libFuzzer never started: nothing was run
    echo "$t: did not start (exit $rc; not a finding): $(grep -m 1 -E 'ERROR|failed' "$out/$t.log" | cut -c 1-160)" >&2
    [ $status -eq 1 ] || status=2
    continue
  fi
  [ $rc -eq 0 ] || { echo "$t: FINDING (exit $rc), see $out/$t.log" >&2; status=1; continue; }
  [ $smoke -eq 1 ] || [ "${MERGE:-1}" = 0 ] && continue
  (cd "$out" && "./${t}_fuzzer" -merge=1 "$root/tests/fuzz/corpus/$t" "$out/new-$t" >/dev/null 2>&1)
  echo "$t: corpus now $(find "$root/tests/fuzz/corpus/$t" -type f | wc -l) inputs" >&2
done
exit $status

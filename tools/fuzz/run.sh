#!/usr/bin/env bash
# Builds the fuzz targets with clang's libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer, and runs
# each for RUNS executions (default 1,000,000), or MAX_TIME seconds if that comes first, over its corpus in
# tests/fuzz/corpus/<target>/; new inputs that widen coverage are merged back into that corpus.
# Usage: tools/fuzz/run.sh [results|options|trend|report|compare|gates|fleet ...]
# Needs clang (Debian: clang) and the build's packages. A finding stops with the crashing input saved as
# build-fuzz/crash-*; add it to the corpus so the replay test (ctest -R fuzz_replay) keeps it fixed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/build-fuzz"
runs=${RUNS:-1000000}
max_time=${MAX_TIME:-0}  # 0: no limit
cxx=${CXX_FUZZ:-clang++}
cuda=${CUDA_HOME:-/usr/local/cuda}
command -v "$cxx" >/dev/null || { echo "tools/fuzz/run.sh: $cxx not found (Debian: apt-get install clang)" >&2; exit 2; }
mkdir -p "$out"
flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I"$root" -I"$root/include" -I"$cuda/include")
reader=(results/results.cpp results/results_model.cpp results/device_info.cpp results/timeline.cpp results/stats.cpp
        io/format.cpp io/atomic_file.cpp io/output_sink.cpp)
declare -A sources=(
  [results]="tests/fuzz/results_fuzzer.cpp ${reader[*]}"
  [options]="tests/fuzz/options_fuzzer.cpp cli/options.cpp cli/option_parse.cpp cli/option_table.cpp cli/option_help.cpp
           cli/program_name.cpp measure/pattern.cpp api/presets.cpp io/format.cpp io/output_sink.cpp"
  [trend]="tests/fuzz/trend_fuzzer.cpp reports/trend.cpp reports/svg.cpp reports/escape.cpp ${reader[*]}"
  [report]="tests/fuzz/report_fuzzer.cpp reports/*.cpp analysis/compare.cpp analysis/gates.cpp ${reader[*]}"
  [compare]="tests/fuzz/compare_fuzzer.cpp reports/*.cpp analysis/compare.cpp analysis/gates.cpp ${reader[*]}"
  [gates]="tests/fuzz/gates_fuzzer.cpp analysis/gates.cpp ${reader[*]}"
  [fleet]="tests/fuzz/fleet_fuzzer.cpp reports/*.cpp analysis/compare.cpp analysis/gates.cpp ${reader[*]}"
)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(results options trend report compare gates fleet)
status=0
for t in "${targets[@]}"; do
  [ -n "${sources[$t]:-}" ] || { echo "tools/fuzz/run.sh: no target '$t' (results, options, trend, report, compare, gates, fleet)" >&2; exit 2; }
  (cd "$root" && "$cxx" "${flags[@]}" ${sources[$t]} -lfmt -lre2 -o "$out/${t}_fuzzer") || exit 2
  corpus="$root/tests/fuzz/corpus/$t"
  mkdir -p "$out/new-$t"
  echo "== $t: $runs runs" >&2
  (cd "$out" && ./"${t}_fuzzer" -runs="$runs" -max_total_time="$max_time" -max_len=8192 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      "$out/new-$t" "$corpus" 2>"$out/$t.log"); rc=$?
  grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==[0-9]+==ERROR|SUMMARY)" "$out/$t.log" >&2
  [ $rc -eq 0 ] || { echo "$t: FINDING (exit $rc), see $out/$t.log" >&2; status=1; continue; }
  (cd "$out" && ./"${t}_fuzzer" -merge=1 "$corpus" "$out/new-$t" >/dev/null 2>&1)
  echo "$t: corpus now $(ls "$corpus" | wc -l) inputs" >&2
done
exit $status

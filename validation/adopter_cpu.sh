#!/usr/bin/env bash
# docs/ci.md's adopter flow on a CPU project, measured here: a fresh repository whose benchmark is a plain Google
# Benchmark function (BENCHMARK(): a chain of dependent multiply-adds) built against the installed package, commit A,
# then commit B doing 40% more work. Commit A's nightly (ci/nightly.sh, the nightly preset) is stored as the baseline
# by ci/baseline.sh with one of its 10 repetitions made 1.6x the others; B's nightly runs against it (the same
# machine); then the PR flow (ci/pr_bench.sh measure: 5 alternating processes a side) of B against A, the first
# process of A disturbed (SPIN_DISTURB: it runs 60% more work). Each flow's exit status, wall time and verdict line.
# Usage: validation/adopter_cpu.sh PREFIX [WORKDIR]   (PREFIX: cmake --install build --prefix PREFIX; WORKDIR
# default: a new temporary directory, kept)
set -uo pipefail
prefix=$(cd "${1:?give the prefix of an installed package}" && pwd) share=$prefix/share/cudabench/ci
t=${2:-$(mktemp -d)}; mkdir -p "$t" && t=$(cd "$t" && pwd); repo=$t/repo
[ ! -e "$repo" ] || { echo "adopter_cpu.sh: $repo exists" >&2; exit 2; }
git init -q "$repo" && cd "$repo" && git config user.email v@example.com && git config user.name validation
mkdir bench
cat >bench/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(spin_gb LANGUAGES CXX)
find_package(cudabench 0.7 REQUIRED)
add_executable(mybench spin_bench.cpp)
target_compile_features(mybench PRIVATE cxx_std_20)
target_link_libraries(mybench PRIVATE cudabench::main)
CMAKE
cat >bench/spin_bench.cpp <<'CPP'
// A plain Google Benchmark function: a chain of dependent multiply-adds. SPIN_DISTURB=FILE: the process whose
// first call finds FILE removes it and does 60% more work (disturbed, as by another program on the machine).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#define WORK_PCT 100

static void BM_spin(benchmark::State& state) {
  static const bool disturbed = [] {
    const char* f = std::getenv("SPIN_DISTURB");
    return f && std::remove(f) == 0;
  }();
  const int n = 20000 * WORK_PCT / 100 * (disturbed ? 16 : 10) / 10;
  for (auto _ : state) {
    float acc = 1.0f;
    for (int i = 0; i < n; ++i) acc = acc * 0.999f + 0.5f;
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_spin);
CPP
cat >build.sh <<SH
#!/bin/sh
[ -f build-cudabench/CMakeCache.txt ] || cmake -S bench -B build-cudabench -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$prefix >&2 || exit 1
exec cmake --build build-cudabench --target mybench >&2
SH
chmod +x build.sh && printf 'build-cudabench/\n' >.gitignore
git add -A && git commit -qm "A: a CPU benchmark" && a=$(git rev-parse HEAD)
./build.sh >"$t/build-a.log" 2>&1 || { echo "adopter_cpu.sh: building A failed ($t/build-a.log)" >&2; exit 1; }
export RUN_BENCH=$repo/build-cudabench/mybench CUDABENCH_BASELINE_DIR=$repo/benchmarks/baselines CUDABENCH_BISECT_BUDGET=0
CUDABENCH_NO_BASELINE=candidate bash "$share/nightly.sh" "$t/night-a" >"$t/night-a.log" 2>&1
bash "$share/baseline.sh" --preset=nightly "$t"/night-a/runs/nightly-*.json >"$t/baseline.log" 2>&1 || { cat "$t/baseline.log"; exit 1; }
python3 - benchmarks/baselines/no-gpu/nightly.json <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
rows = [b for b in d["benchmarks"] if b["run_name"] == "BM_spin" and b["run_type"] == "iteration"]
for k in ("real_time", "cpu_time"):
    rows[3][k] *= 1.6  # one repetition disturbed; the aggregates made again from the repetitions
for b in d["benchmarks"]:
    if b["run_name"] == "BM_spin" and b["run_type"] == "aggregate":
        for k in ("real_time", "cpu_time"):
            xs = [r[k] for r in rows]
            b[k] = {"mean": statistics.mean(xs), "median": statistics.median(xs), "stddev": statistics.stdev(xs),
                    "cv": statistics.stdev(xs) / statistics.mean(xs)}.get(b["aggregate_name"], b[k])
json.dump(d, open(sys.argv[1], "w"), indent=1)
print("baseline repetitions (us):", [round(r["real_time"] / 1000, 1) for r in rows])
PY
git add -A && git commit -qm "The baseline"
sed -i 's/#define WORK_PCT 100/#define WORK_PCT 140/' bench/spin_bench.cpp && git commit -qam "B: 40% more work"
./build.sh >"$t/build-b.log" 2>&1 || { echo "adopter_cpu.sh: building B failed ($t/build-b.log)" >&2; exit 1; }
s=$SECONDS; bash "$share/nightly.sh" "$t/night-b" >"$t/night-b.log" 2>&1; rc=$?
echo "nightly of B against A's stored baseline: exit $rc, $((SECONDS - s)) s"
grep -E "^BM_spin .* us .* us " "$t/night-b.log"
touch "$t/disturb"
s=$SECONDS; SPIN_DISTURB=$t/disturb CUDABENCH_BISECT_ARGS="--build=./build.sh --binary=build-cudabench/mybench" \
  bash "$share/pr_bench.sh" measure "$a" "$t/pr" >"$t/pr.log" 2>&1; rc=$?
echo "PR flow of B against A (A's first process disturbed): exit $rc, $((SECONDS - s)) s, $(grep -c undecided "$t/pr/bisect.log") extra pair(s)"
grep -E "^BM_spin" "$t/pr/compare.txt"
python3 -c "
import json, sys
for side in ('good', 'bad'):
    d = json.load(open(sys.argv[1] + '/' + side + '.json'))
    print(side, 'processes (us):', [round(b['real_time'] / 1000, 1) for b in d['benchmarks'] if b['run_type'] == 'iteration'])" "$t/pr"

#!/usr/bin/env bash
# run_bench bisect on a project of its own: the package installed into a prefix, a git repository of a small
# project built against it whose CPU case sweeps its chain of multiply-adds 30% more often from a known commit
# among 16 (one later commit does not build), and bisect, measuring each revision in six processes, must name
# that commit.
# Usage: tests/bisect_test.sh BUILD_DIR
set -uo pipefail
build=$(cd "$1" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
prefix="$tmp/prefix" repo="$tmp/sweep"
cmake --install "$build" --prefix "$prefix" >"$tmp/log" 2>&1 || { tail -n 20 "$tmp/log"; echo "FAIL: cmake --install"; exit 1; }
report="$prefix/bin/cudabench-report"

git init -q "$repo" && git -C "$repo" config user.email t@example.com && git -C "$repo" config user.name test
git -C "$repo" config commit.gpgsign false
cat >"$repo/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(sweep LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(cudabench 0.7 REQUIRED)
add_executable(sweep_bench sweep_bench.cpp extra.cpp)
target_link_libraries(sweep_bench PRIVATE cudabench::main)
CMAKE
cat >"$repo/sweep_bench.cpp" <<'CPP'
// A CPU case: `sweeps` sweeps of a chain of dependent multiply-adds. Its time follows the count of sweeps and
// nothing else: no memory traffic, whose speed can differ from one process to the next (page placement).
#include <cudabench/cudabench.hpp>

#include <string>

#include "sweeps.hpp"

namespace {
class sweep final : public cudabench::fixture {
 public:
  void prepare(cudaStream_t) override { acc_ = 1.0f; }
  void run(cudaStream_t) override {
    float acc = acc_;
    for (int s = 0; s < sweeps; ++s)
      for (int i = 0; i < 20000; ++i) acc = acc * 0.999f + 0.5f;  // each step waits for the one before
    acc_ = acc;
  }
  std::string verify() override { return acc_ > 1.0f && acc_ < 501.0f ? "" : "the chain left " + std::to_string(acc_); }
 private:
  float acc_ = 1.0f;
};

void register_sweep(cudabench::family_builder& f) {
  f.describe("passes over an array on the CPU");
  f.add({.variant = "cpu", .on = cudabench::where::cpu, .make = [] { return std::make_unique<sweep>(); }});
}
}  // namespace

CB_REGISTER_FAMILY(sweep, register_sweep);
CPP
echo 'constexpr int sweeps = 10;' >"$repo/sweeps.hpp"
echo 'int extra() { return 1; }' >"$repo/extra.cpp"
commit() { git -C "$repo" add -A && git -C "$repo" commit -qm "$1"; }
commit "A CPU case that sweeps 10 times"
for k in $(seq 1 16); do
  case $k in
    11) echo 'constexpr int sweeps = 13;' >"$repo/sweeps.hpp"; commit "Sweep 13 times" ;;
    12) echo 'int extra() { return missing; }' >"$repo/extra.cpp"; commit "Break the build" ;;
    13) echo 'int extra() { return 1; }' >"$repo/extra.cpp"; commit "Fix the build" ;;
    *[02468]) echo "// note $k" >>"$repo/sweep_bench.cpp"; commit "Comment $k" ;;
    *) echo "note $k" >>"$repo/notes"; commit "Note $k" ;;
  esac
done
culprit=$(git -C "$repo" rev-parse HEAD~5)
[ "$(git -C "$repo" log -1 --format=%s "$culprit")" = "Sweep 13 times" ] || { echo "FAIL: the repository is not as planned"; exit 1; }

build_cmd="[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=$prefix; cmake --build build -j 2"
# A quick measurement: the quick preset, 4 repetitions of at least 10 ms, six processes per revision. On a
# shared test machine a whole repetition moves by half when another process takes the core, so the spread
# is no gate here (--noise-floor=0): the rank test and the medians decide.
quick=(--preset=quick --repetitions=4 --benchmark_min_time=0.01s --benchmark_min_warmup_time=0.01 --watchdog=off)
# Another process on the machine can slow a whole process of this case by half or more (2 shared cores), so a
# wrong answer is tried once more: a bisect that names another commit twice fails.
start=$(date +%s)
for attempt in 1 2; do
  s=$(cd "$repo" && run "$report" bisect --good=HEAD~16 --bad=HEAD --filter=sweep/cpu --build="$build_cmd" --binary=build/sweep_bench \
    --host-threshold=10 --noise-floor=0 --alpha=0.05 --processes=6 --json="$tmp/bisect.json" -- "${quick[@]}")
  [ "$s" = 0 ] && grep -q "^first bad commit: $culprit" "$tmp/out" && break
  echo "attempt $attempt: $(grep -m 1 "first bad\|one of these\|nothing to bisect" "$tmp/out")"
  python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
for c in j.get("cases", []): print("  ends:", c["name"], c["change"])
for t in j.get("tested", []): print("  tested", t["subject"], t["result"], t.get("changes"))' "$tmp/bisect.json" 2>/dev/null
done
check "bisect names the commit that made the CPU case 30% slower (attempt $attempt, $(( $(date +%s) - start )) s)" 0 "$s" \
  'grep -q "^first bad commit: $culprit Sweep 13 times" "$tmp/out"' 'grep -q "sweeps.hpp" "$tmp/out"' \
  'grep -q "skipping .*: the build failed" "$tmp/err"' '[ ! -e "$repo/.git/cudabench-bisect" ]' \
  '[ -z "$(git -C "$repo" status --porcelain)" ] && [ "$(git -C "$repo" worktree list | wc -l)" = 1 ]'
[ "$s" = 0 ] || { cat "$tmp/out"; tail -n 30 "$tmp/err"; }
python3 - "$tmp/bisect.json" "$culprit" <<'PY' >"$tmp/py" 2>&1; check "its JSON: the commit, its file, a slowdown at both" 0 $? 'cat "$tmp/py"'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["outcome"] == "found" and j["first_bad"]["commit"] == sys.argv[2], (j["outcome"], j["first_bad"])
assert j["first_bad"]["files"] == ["sweeps.hpp"], j["first_bad"]["files"]
(c,) = j["cases"]
assert c["name"] == "sweep/cpu" and 0.1 < c["change"] < 1.5 and 0.1 < c["first_bad_change"] < 1.5, c
PY
finish

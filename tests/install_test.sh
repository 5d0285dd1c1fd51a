#!/usr/bin/env bash
# The installed package as another project uses it: `cmake --install` into a fresh prefix, then
# examples/external and the CMake blocks of README.md and docs/extending.md (taken from between their markers,
# as written) configured with find_package(cudabench), built and checked; the binary listed, its CPU case run,
# its subcommands used, and bundled with cudabench-pack and run from elsewhere with its libraries' other
# copies out of reach.
# Usage: tests/install_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/log" ] && tail -n 40 "$tmp/log"; exit 1; }
prefix="$tmp/prefix" ext="$tmp/saxpy"

cmake --install "$build" --prefix "$prefix" >"$tmp/log" 2>&1 || fail "cmake --install"
for f in include/cudabench/cudabench.hpp include/cudabench/registry.hpp include/cudabench/limits.hpp bin/cudabench-report bin/cudabench-run bin/cudabench-pack \
         lib/cmake/cudabench/cudabenchConfig.cmake lib/cmake/cudabench/cudabenchConfigVersion.cmake; do
  [ -e "$prefix/$f" ] || fail "the install has no $f"
done
! find "$prefix/include" -path '*/io/*' -o -path '*/results/*' -o -path '*/measure/*' -o -path '*/analysis/*' -o -path '*/reports/*' -o -name worker_pool.hpp | grep -q . || fail "internal headers were installed"
echo "ok   install: headers, libraries, cudabench-report, cudabench-run, cudabench-pack, package config"
# CB_CHECK's file names in the libraries: relative to the project, never where it was built
for lib in "$prefix"/lib/*.a; do  # (through a file: grep -q would end strings early, failing the pipe)
  strings "$lib" >"$tmp/strings"
  if grep -q -F "$src/" "$tmp/strings"; then fail "${lib##*/} holds the building machine's source path $src/"; fi
  [ "${lib##*/}" != libcudabench_measure.a ] || grep -qx '\(\.\./\)*measure/measure.cpp' "$tmp/strings" \
    || fail "libcudabench_measure.a names measure/measure.cpp by no project-relative path"
done
echo "ok   the installed libraries name their sources relative to the project (no $src/)"

cuda_root=${CUDA_HOME:-/usr/local/cuda}
[ -e "$prefix/include/cudabench/errors.hpp" ] || fail "the install has no cudabench/errors.hpp (usage_error, input_error)"
for h in "$prefix"/include/cudabench/*.hpp; do  # each public header compiles alone against the install
  echo "#include <cudabench/${h##*/}>" >"$tmp/one_header.cpp"
  c++ -std=c++20 -fsyntax-only -I"$prefix/include" -I"$cuda_root/include" "$tmp/one_header.cpp" >"$tmp/log" 2>&1 \
    || fail "the installed ${h##*/} does not compile on its own"
done
echo "ok   every installed header compiles on its own (what it names is installed)"

cmake -S "$src/examples/external" -B "$ext" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" >"$tmp/log" 2>&1 || fail "configuring examples/external against the package"
cmake --build "$ext" -j 2 >"$tmp/log" 2>&1 || fail "building examples/external"
echo "ok   examples/external configures and builds with find_package(cudabench 0.7)"
link=$(find "$ext" -name link.txt -path '*saxpy_bench*' | head -n 1)
[ -n "$link" ] || fail "no link line found for saxpy_bench"
if grep -qi cudnn "$link" || ldd "$ext/saxpy_bench" | grep -qi cudnn; then fail "cuDNN is on the external project's link line"; fi
echo "ok   no cuDNN in the external project's link line or its libraries"

# snippet FILE NAME: the block between <!-- NAME:begin --> and <!-- NAME:end --> of FILE, without its fences
snippet() { awk -v b="<!-- $2:begin -->" -v e="<!-- $2:end -->" '$0 == e {on = 0} on && !/^```/ {print} $0 == b {on = 1}' "$1"; }
# build_snippet DIR WHAT: configures DIR with no CUDA setting of the test's own but the compiler, and builds it
build_snippet() {
  [ -s "$1/CMakeLists.txt" ] || fail "no CMake block found for $2 between its markers"
  cmake -S "$1" -B "$1/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" >"$tmp/log" 2>&1 \
    || fail "configuring $2 as written"
  cp "$tmp/log" "$1/configure.log"
  cmake --build "$1/build" -j 2 >"$tmp/log" 2>&1 || fail "building $2 as written"
}
# cuda_defaults DIR TARGET WHAT: its CUDA code for sm_90 with PTX (not the compiler's default), the shared runtime alone
cuda_defaults() {
  local flags="$1/build/CMakeFiles/$2.dir/flags.make" link="$1/build/CMakeFiles/$2.dir/link.txt"
  grep -q 'cudabench: CUDA defaults' "$1/configure.log" || fail "$3: the package did not say which CUDA defaults it gave"
  grep -q 'code=\[\(compute_90,\)\{0,1\}sm_90\]' "$flags" && grep -q 'code=\[compute_90[],]' "$flags" \
    || { grep CUDA_FLAGS "$flags"; fail "$3: not built for sm_90 with PTX"; }
  ! grep -q 'sm_75\|compute_75' "$flags" || fail "$3: built for the compiler's default sm_75"
  ! grep -q 'cudart_static' "$link" || fail "$3: the static CUDA runtime is linked beside the shared one"
  ldd "$1/build/$2" | grep -c 'libcudart\.so' >/dev/null || fail "$3: the shared CUDA runtime is not linked"
}
mkdir -p "$tmp/readme" "$tmp/extending"
snippet "$src/README.md" readme-snippet >"$tmp/readme/CMakeLists.txt"
cp "$src/examples/external/saxpy.cu" "$tmp/readme/my_kernels.cu"
cp "$src/examples/external/saxpy_bench.cpp" "$tmp/readme/my_bench.cpp"
cp "$src/examples/external/saxpy.cuh" "$tmp/readme/"
build_snippet "$tmp/readme" "README.md's block"
cuda_defaults "$tmp/readme" mybench "README.md's block"
snippet "$src/docs/extending.md" extending-snippet >"$tmp/extending/CMakeLists.txt"
cp "$src"/examples/external/saxpy* "$tmp/extending/"
grep -q 'CMAKE_CXX_STANDARD_REQUIRED ON' "$tmp/extending/CMakeLists.txt" || fail "docs/extending.md's block no longer asks for C++20 as required"
build_snippet "$tmp/extending" "docs/extending.md's block"
cuda_defaults "$tmp/extending" saxpy_bench "docs/extending.md's block"
grep -q 'code=\[\(compute_90,\)\{0,1\}sm_90\]' "$ext/CMakeFiles/saxpy_bench.dir/flags.make" || fail "examples/external's own CUDA architectures were not kept"
cmake -S "$tmp/readme" -B "$tmp/readme/own" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" \
      -DCMAKE_CUDA_ARCHITECTURES=80 -DCMAKE_CUDA_STANDARD=20 >"$tmp/log" 2>&1 || fail "configuring README.md's block with architectures of its own"
grep -q 'sm_80\]' "$tmp/readme/own/CMakeFiles/mybench.dir/flags.make" && ! grep -q 'sm_90' "$tmp/readme/own/CMakeFiles/mybench.dir/flags.make" \
  && grep -qx -- '-- cudabench: CUDA defaults for the targets that follow: CMAKE_CUDA_RUNTIME_LIBRARY=Shared (.*)' "$tmp/log" \
  || fail "the package replaced the project's own CUDA architectures or standard"
CUDAARCHS=80 cmake -S "$tmp/readme" -B "$tmp/readme/env" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" \
      >"$tmp/log" 2>&1 || fail "configuring README.md's block with CUDAARCHS=80"
grep -q 'sm_80\]' "$tmp/readme/env/CMakeFiles/mybench.dir/flags.make" && ! grep -q 'sm_90' "$tmp/readme/env/CMakeFiles/mybench.dir/flags.make" \
  || fail "the package replaced the architectures CUDAARCHS chose"
env -u CUDAARCHS cmake "$tmp/readme/env" >"$tmp/log" 2>&1 && grep -q 'sm_80\]' "$tmp/readme/env/CMakeFiles/mybench.dir/flags.make" \
  && ! grep -q 'sm_90' "$tmp/readme/env/CMakeFiles/mybench.dir/flags.make" || fail "configured again without CUDAARCHS, the package replaced what it chose"
mkdir -p "$tmp/late" && cp "$src"/examples/external/saxpy* "$tmp/late/"  # CUDA enabled after find_package(cudabench)
sed -e 's/LANGUAGES CXX CUDA)/LANGUAGES CXX)/' -e 's/^\(find_package(cudabench.*\)$/\1\nenable_language(CUDA)/' "$tmp/extending/CMakeLists.txt" >"$tmp/late/CMakeLists.txt"
grep -q '^enable_language(CUDA)$' "$tmp/late/CMakeLists.txt" || fail "no enable_language(CUDA) put after find_package(cudabench)"
cmake -S "$tmp/late" -B "$tmp/late/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" >"$tmp/log" 2>&1 \
  || fail "C++20 required and CUDA enabled after find_package(cudabench): configuring failed"
grep -q 'code=\[\(compute_90,\)\{0,1\}sm_90\]' "$tmp/late/build/CMakeFiles/saxpy_bench.dir/flags.make" || fail "CUDA enabled after find_package(cudabench): not for sm_90"
echo "ok   README.md's and docs/extending.md's blocks build as written: sm_90 + PTX, the shared CUDA runtime only; a project's own choices (CUDAARCHS too) are kept, CUDA enabled later gets them too"

mine="$tmp/readme/build/mybench"
# Optimized by default: README.md's block sets no build type; the package gives its targets Release's optimization,
# says so at configure time, and the results say how the cases were built. A Debug build warns and says so too.
grep -qx -- '-- cudabench: no CMAKE_BUILD_TYPE: the whole project is built as Release (-O3, NDEBUG); set CMAKE_BUILD_TYPE to choose' \
  "$tmp/readme/configure.log" || fail "README.md's block without a build type: the package did not say it optimizes"
grep -q -- '-O3' "$tmp/readme/build/CMakeFiles/mybench.dir/flags.make" && grep -q -- '-DNDEBUG' "$tmp/readme/build/CMakeFiles/mybench.dir/flags.make" \
  || fail "README.md's block without a build type: mybench is not built with -O3 and NDEBUG"
cmake -S "$tmp/readme" -B "$tmp/readme/debug" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_COMPILER="$cuda_root/bin/nvcc" \
      -DCMAKE_BUILD_TYPE=Debug >"$tmp/log" 2>&1 && cmake --build "$tmp/readme/debug" -j 2 >>"$tmp/log" 2>&1 || fail "building README.md's block as Debug"
! grep -q 'cudabench: no CMAKE_BUILD_TYPE' "$tmp/log" || fail "a Debug build was told it has no build type"
# how_built BINARY NAME: runs its CPU case into NAME.json and NAME.err
how_built() {
  (cd "$tmp" && "$1" --filter=saxpy/cpu --sizes=saxpy=1048576 --repetitions=5 --watchdog=off --quiet --json "$tmp/$2.json") \
    >"$tmp/$2.out" 2>"$tmp/$2.err" || { cat "$tmp/$2.out" "$tmp/$2.err"; fail "running $2's CPU case"; }
}
how_built "$mine" default && how_built "$ext/saxpy_bench" release && how_built "$tmp/readme/debug/mybench" debug
python3 - "$tmp" <<'PY' || fail "the results do not say how the binary was built"
import json, sys
tmp = sys.argv[1]
def build(name):
    j = json.load(open(f"{tmp}/{name}.json"))
    assert j["context"]["library_build_type"] in ("release", "debug"), j["context"]
    return j["context"]["cudabench"]["build"]
def same(b, want):
    assert {k: b[k] for k in want} == want, b
same(build("default"), {"build_type": "Release", "optimized": True, "assertions": False})
same(build("release"), {"build_type": "Release", "optimized": True, "assertions": False})
same(build("debug"), {"build_type": "Debug", "optimized": False, "assertions": True})
assert "-O3" in build("default")["flags"] and "-O3" not in build("debug")["flags"], (build("default"), build("debug"))
PY
grep -qx 'mybench: warning: its cases were built without optimization (build type Debug, not optimized, assertions on): timings are not those of an optimized build (build with CMAKE_BUILD_TYPE=Release)' "$tmp/debug.err" \
  || { cat "$tmp/debug.err"; fail "the Debug build did not warn in one line"; }
! grep -q 'warning' "$tmp/default.err" || { cat "$tmp/default.err"; fail "the build without a build type warned"; }
"$mine" compare "$tmp/release.json" "$tmp/debug.json" >"$tmp/cmp" 2>&1
[ $? = 2 ] && grep -q 'refusing to compare runs of different builds (build type Release, optimized, assertions off vs build type Debug, not optimized, assertions on); pass --allow-build-mismatch' "$tmp/cmp" \
  || { cat "$tmp/cmp"; fail "compare of a Release and a Debug run was not refused"; }
"$mine" compare --allow-build-mismatch "$tmp/release.json" "$tmp/debug.json" >"$tmp/cmp" 2>&1
[ $? -le 1 ] && grep -q 'compared despite different builds' "$tmp/cmp" || { cat "$tmp/cmp"; fail "compare --allow-build-mismatch"; }
echo "ok   no build type: Release's optimization (-O3 in the recorded flags), said at configure time; results record the build; a Debug build warns; compare refuses different builds"
# The project's code in a library target of its own, made before find_package(cudabench), no build type: the whole
# project is built optimized, the results name the library and how it was built, and a library built with -O0 warns.
mkdir -p "$tmp/kern"
cat >"$tmp/kern/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(kernbench LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
add_library(kern STATIC kern.cpp)
target_compile_options(kern PRIVATE ${KERN_OPTIONS})
find_package(cudabench 0.7 REQUIRED)
add_executable(kern_bench kern_bench.cpp)
target_link_libraries(kern_bench PRIVATE kern cudabench::main)
CMAKE
printf 'float kern_chain(float acc, int n) {\n  for (int i = 0; i < n; ++i) acc = acc * 0.999f + 0.5f;\n  return acc;\n}\n' >"$tmp/kern/kern.cpp"
cat >"$tmp/kern/kern_bench.cpp" <<'CPP'
#include <cudabench/cudabench.hpp>

#include <string>

float kern_chain(float acc, int n);
namespace {
class chain final : public cudabench::fixture {
 public:
  void run(cudaStream_t) override { acc_ = kern_chain(1.0f, 1000); }
  std::string verify() override { return acc_ > 1.0f ? "" : "the chain left " + std::to_string(acc_); }
 private:
  float acc_ = 0.0f;
};
void register_kern(cudabench::family_builder& f) {
  f.describe("a chain of multiply-adds in the project's library");
  f.add({.variant = "cpu", .on = cudabench::where::cpu, .make = [] { return std::make_unique<chain>(); }});
}
}  // namespace
CB_REGISTER_FAMILY(kern, register_kern);
CPP
py() { python3 -c "import json, sys; j = json.load(open(sys.argv[1])); $1" "$2"; }
# kern_build DIR OPTIONS: configures (no build type) and builds the project in DIR, runs its case into DIR/run.json
kern_build() {
  cmake -S "$tmp/kern" -B "$1" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "-DKERN_OPTIONS=$2" >"$tmp/log" 2>&1 \
    && cmake --build "$1" -j 2 >>"$tmp/log" 2>&1 || fail "building the project with its code in a library target (KERN_OPTIONS=$2)"
  (cd "$tmp" && "$1/kern_bench" --filter=kern --repetitions=1 --watchdog=off --quiet --json "$1/run.json") >"$1/run.out" 2>"$1/run.err" \
    || { cat "$1/run.out" "$1/run.err"; fail "running the project's case (KERN_OPTIONS=$2)"; }
}
kern_build "$tmp/kern/build" ""
grep -q 'cudabench: no CMAKE_BUILD_TYPE: the whole project is built as Release' "$tmp/log" || fail "the library project: no word of the build type chosen"
python3 - "$tmp/kern/build/compile_commands.json" <<'PY' || fail "kern.cpp, a library target made before find_package(cudabench), is not compiled optimized"
import json, re, sys
cmd = [c["command"] for c in json.load(open(sys.argv[1])) if c["file"].endswith("/kern.cpp")]
assert cmd and re.search(r"(^| )-O[23s]( |$)", cmd[0]), cmd
PY
py 'b = j["context"]["cudabench"]["build"]
assert b["build_type"] == "Release" and b["optimized"] is True and "-O3" in b["flags"], b
assert b["libraries"] == [{"target": "kern", "optimized": True, "assertions": False}], b' "$tmp/kern/build/run.json" \
  || fail "the results do not say the library kern was built optimized"
! grep -q warning "$tmp/kern/build/run.err" || { cat "$tmp/kern/build/run.err"; fail "the optimized library project warned"; }
kern_build "$tmp/kern/o0" "-O0"
grep -qx 'kern_bench: warning: the project.s library kern was built without optimization: timings are not those of an optimized build (build with CMAKE_BUILD_TYPE=Release)' \
  "$tmp/kern/o0/run.err" || { cat "$tmp/kern/o0/run.err"; fail "a benchmark linking a library built with -O0 did not warn in one line"; }
py 'b = j["context"]["cudabench"]["build"]
assert b["optimized"] is False and b["libraries"] == [{"target": "kern", "optimized": False, "assertions": False}], b' "$tmp/kern/o0/run.json" \
  || fail "the results of a benchmark linking a library built with -O0 say it was optimized"
echo "ok   no build type: a library target of the project's own (made before find_package) is built with -O3; the results name it and how it was built; one built with -O0 warns"
"$mine" --help >"$tmp/help" 2>&1 || fail "mybench --help"
head -n 1 "$tmp/help" | grep -qx 'usage: mybench \[options\]' || { head -n 3 "$tmp/help"; fail "mybench --help does not name mybench"; }
grep -q '^  saxpy  .* y = a x + y, fp32' "$tmp/help" && grep -q 'e\.g\. saxpy, saxpy/' "$tmp/help" || fail "mybench --help does not list its family or take its examples from it"
! grep -q 'run_bench\|conv2d\|image/pinned\|dot\.streams' "$tmp/help" || { grep 'run_bench\|conv2d\|image/pinned\|dot\.streams' "$tmp/help"; fail "mybench --help shows the suite's names"; }
grep -q '^       mybench compare BASELINE.json CURRENT.json' "$tmp/help" || fail "mybench --help does not list its subcommands"
"$mine" compare --help >"$tmp/help" 2>&1 && head -n 1 "$tmp/help" | grep -q '^usage: mybench compare BASELINE.json CURRENT.json' || fail "mybench compare --help"
"$mine" bisect --help >"$tmp/help" 2>&1 && grep -q 'e\.g\. saxpy, saxpy/' "$tmp/help" && ! grep -q 'conv2d\|image/pinned' "$tmp/help" \
  && [ "$(tr -s ' \n' '  ' <"$tmp/help" | grep -o "(required for a project's own binary;" | wc -l)" = 2 ] \
  || { grep 'e\.g\.' "$tmp/help"; fail "mybench bisect --help: examples not from its own family, or --build/--binary not said to be required"; }
echo "ok   the user's binary's --help (bisect's too) names it, lists its own family and its subcommands, and shows none of the suite's"

# The version file, asked by a project of C++ alone (no CUDA to detect first): 1.0 refused, and a project written
# against 0.3's API refused with both versions named and the migration's place.
mkdir -p "$tmp/v1"
asks() { printf 'cmake_minimum_required(VERSION 3.25)\nproject(asks LANGUAGES CXX)\nfind_package(cudabench %s REQUIRED)\n' "$1" >"$tmp/v1/CMakeLists.txt"; }
asks 1.0
if cmake -S "$tmp/v1" -B "$tmp/v1b" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/log" 2>&1; then
  fail "find_package(cudabench 1.0) accepted the installed version"
fi
tr -s ' \n' '  ' <"$tmp/log" | grep -q 'requested version "1\.0"' || { cat "$tmp/log"; fail "find_package(cudabench 1.0) failed for another reason than its version"; }
asks 0.3
if cmake -S "$tmp/v1" -B "$tmp/v03" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/log" 2>&1; then
  fail "find_package(cudabench 0.3) accepted the installed version, whose API is not 0.3's"
fi
version=$(sed -n 's/^project(cudabench VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
tr -s ' \n' '  ' <"$tmp/log" >"$tmp/log1"
grep -q "cudabench $version (.*) refuses a request for 0\.3: its API is ${version%.*}'s, not 0\.3's ($prefix/share/doc/cudabench/CHANGELOG\.md tells" "$tmp/log1" \
  && grep -q 'requested version "0\.3"' "$tmp/log1" && grep -q "version: $version" "$tmp/log1" \
  || fail "find_package(cudabench 0.3): the refusal does not name both versions and CHANGELOG.md"
grep -q "^## $version\$" "$prefix/share/doc/cudabench/CHANGELOG.md" && grep -q '^## 0\.3\.0$' "$src/CHANGELOG.md" || fail "CHANGELOG.md has no section for $version or 0.3.0"
echo "ok   the version file refuses an incompatible version; a request for 0.3 is refused naming both versions and CHANGELOG.md"

cd "$tmp" || exit 1
"$ext/saxpy_bench" --list >"$tmp/list" 2>&1 || fail "saxpy_bench --list"
grep -q '^saxpy/gpu/1048576 *gpu' "$tmp/list" && grep -q '^saxpy/cpu/1048576 *cpu' "$tmp/list" || { cat "$tmp/list"; fail "--list does not show the family"; }
"$ext/saxpy_bench" --list --sizes=saxpy=4096 >"$tmp/list2" && grep -q '^saxpy/cpu/4096 ' "$tmp/list2" || fail "--sizes does not reach the user's family"
"$ext/saxpy_bench" --list --preset=nightly --axis=saxpy.n=8,16 | awk '{print $1}' | grep -v '^limits/' | paste -sd' ' | grep -qx 'saxpy/gpu/8 saxpy/cpu/8 saxpy/gpu/16 saxpy/cpu/16' \
  || fail "--axis does not reach the user's family's axis n"
echo "ok   --list shows the user's family; --sizes and --axis choose its sizes"
# (Through files: under pipefail, grep -q or head ending a pipe early would fail the writer with EPIPE.)
# The library's limits family: with --limits whatever the filter, by default in the nightly preset, never
# unasked in the quick one.
! grep -q '^limits/' "$tmp/list" || fail "the quick preset lists the limits family without --limits"
"$ext/saxpy_bench" --list --limits --filter=saxpy/gpu | awk '{print $1}' | paste -sd' ' \
  | grep -qx 'limits/copy_d2d limits/read limits/h2d_pinned limits/d2h_pinned limits/bidir_pinned limits/h2d_pageable limits/d2h_pageable limits/fma limits/launch limits/empty_cold limits/empty_hot saxpy/gpu/1048576' \
  || fail "--list --limits does not list the limits family first, beside the selected cases"
"$ext/saxpy_bench" --list --preset=nightly >"$tmp/list2" && head -n 1 "$tmp/list2" | grep -q '^limits/copy_d2d ' || fail "the nightly preset does not run the limits family by default"
"$ext/saxpy_bench" --list --preset=nightly --filter=saxpy | grep -q '^limits/' && fail "--filter=saxpy runs the limits family in the nightly preset"
"$ext/saxpy_bench" --help >"$tmp/help" && grep -q -- '--limits' "$tmp/help" || fail "--help does not mention --limits"
echo "ok   the limits family ships in cudabench::main: --limits lists it, the nightly preset runs it, --help says so"
git -C "$tmp" rev-parse --git-dir >/dev/null 2>&1 && fail "the scratch directory $tmp is inside a git checkout"
CUDABENCH_GIT_REVISION=0123456789abcdef0123456789abcdef01234567 CUDABENCH_GIT_DIRTY=1 \
  "$ext/saxpy_bench" --filter=saxpy/cpu --sizes=saxpy=65536 --json "$tmp/out.json" --save-baseline >"$tmp/run" 2>&1 || { cat "$tmp/run"; fail "running the CPU case"; }
python3 - "$tmp/out.json" <<'PY' || fail "the result JSON"
import json, sys
j = json.load(open(sys.argv[1]))
rows = [r for r in j["benchmarks"] if r["name"] == "saxpy/cpu/65536"]
assert rows and rows[0]["real_time"] > 0, rows
cb = j["context"]["cudabench"]
assert cb["families"]["saxpy"]["references"]["cpu"] == ["cpu"]
assert cb["git_revision"] == "0123456789abcdef0123456789abcdef01234567" and cb["git_dirty"] is True, (cb["git_revision"], cb["git_dirty"])
PY
[ "$(find "$tmp/reports/baselines" -name quick.json | wc -l)" = 1 ] || fail "--save-baseline did not write under the current directory"
! find "$prefix" -newer "$tmp/list" -type f | grep -q . || fail "the run wrote into the installed tree"
echo "ok   the CPU case runs and is checked; results and baseline go to the user's directory, none into the prefix"
"$prefix/bin/cudabench-report" report "$tmp/out.json" >/dev/null || fail "cudabench-report on the user's result"
echo "ok   cudabench-report reads the user's result"
echo "ok   outside a checkout the result records CUDABENCH_GIT_REVISION and CUDABENCH_GIT_DIRTY"
"$ext/saxpy_bench" compare "$tmp/out.json" "$tmp/out.json" >"$tmp/cmp" 2>&1 || { cat "$tmp/cmp"; fail "saxpy_bench compare"; }
grep -q 'saxpy/cpu/65536' "$tmp/cmp" || { cat "$tmp/cmp"; fail "saxpy_bench compare does not show the case"; }
"$ext/saxpy_bench" report "$tmp/out.json" >/dev/null 2>&1 || fail "saxpy_bench report"
"$ext/saxpy_bench" gates --help >/dev/null 2>&1 && "$ext/saxpy_bench" trend --help >/dev/null 2>&1 && "$ext/saxpy_bench" bisect --help >/dev/null 2>&1 \
  && "$ext/saxpy_bench" fleet --help >"$tmp/help" 2>&1 && head -n 1 "$tmp/help" | grep -q '^usage: saxpy_bench fleet ' || fail "saxpy_bench gates/trend/bisect/fleet --help"
"$ext/saxpy_bench" compare --frobnicate "$tmp/out.json" "$tmp/out.json" >"$tmp/cmp" 2>&1
[ $? = 2 ] && grep -qx "saxpy_bench compare: unknown option '--frobnicate' (see saxpy_bench compare --help)" "$tmp/cmp" \
  || { cat "$tmp/cmp"; fail "saxpy_bench compare's usage error does not name saxpy_bench"; }
"$ext/saxpy_bench" bisect --good=HEAD~1 --bad=HEAD --filter=saxpy >"$tmp/cmp" 2>&1
[ $? = 2 ] && grep -q "^saxpy_bench bisect: bisect needs --build=CMD and --binary=PATH" "$tmp/cmp" \
  || { cat "$tmp/cmp"; fail "saxpy_bench bisect without --build/--binary: not refused in one line"; }
NSYS=/no/such/nsys "$prefix/bin/cudabench-run" "$ext/saxpy_bench" --nsys --filter=saxpy >"$tmp/cmp" 2>&1
[ $? = 2 ] && grep -q "^saxpy_bench: --nsys needs Nsight Systems" "$tmp/cmp" || { cat "$tmp/cmp"; fail "cudabench-run's message does not name saxpy_bench"; }
echo "ok   compare, report, trend, gates, bisect and fleet are the user's binary's subcommands, in its name"

# The bundle: libraries in lib/ beside the binary, found through $ORIGIN/lib from wherever it is copied
pack="$prefix/bin/cudabench-pack"
"$pack" "$ext/saxpy_bench" "$tmp/bundle" >"$tmp/pack" 2>&1 || { cat "$tmp/pack"; fail "cudabench-pack"; }
"$pack" "$ext/saxpy_bench" "$tmp/bundle" >/dev/null 2>&1; [ $? = 2 ] || fail "cudabench-pack wrote into a folder that is not empty"
"$pack" "$ext/saxpy_bench" >/dev/null 2>&1; [ $? = 2 ] || fail "cudabench-pack with one argument: not exit 2"
"$pack" --help >"$tmp/pack" && grep -q '^Usage: cudabench-pack BINARY OUTDIR$' "$tmp/pack" && ! grep -q pipefail "$tmp/pack" || fail "cudabench-pack --help"
for want in 'libcupti.so.*' 'libbenchmark.so.*' 'libfmt.so.*' 'libre2.so.*' 'libcudart.so.*'; do
  compgen -G "$tmp/bundle/lib/$want" >/dev/null || fail "the bundle has no $want: $(ls "$tmp/bundle/lib" | tr '\n' ' ')"
done
for never in 'libcuda.so*' 'libc.so*' 'libstdc++.so*' 'libm.so*' 'libgcc_s.so*' 'ld-linux*'; do
  ! compgen -G "$tmp/bundle/lib/$never" >/dev/null || fail "the bundle holds $never, which the GPU machine brings"
done
readelf -d "$tmp/bundle/saxpy_bench" | grep -E 'RPATH|RUNPATH' | grep -qF '[$ORIGIN/lib]' || fail "the bundled binary's RPATH is not \$ORIGIN/lib"
originals=$(ldd "$ext/saxpy_bench" | awk '$2 == "=>" && $3 ~ /^\// {print $3}')
mkdir -p "$tmp/elsewhere" && cp -a "$tmp/bundle" "$tmp/elsewhere/b" && rm -rf "$tmp/bundle"
moved="$tmp/elsewhere/b"
env -i PATH=/usr/bin:/bin ldd "$moved/saxpy_bench" >"$tmp/ldd" 2>&1
! grep -q 'not found' "$tmp/ldd" || { cat "$tmp/ldd"; fail "the moved bundle misses libraries"; }
for lib in "$moved"/lib/*; do
  grep -qF "=> $moved/lib/${lib##*/} " "$tmp/ldd" || { cat "$tmp/ldd"; fail "${lib##*/} is not taken from the bundle"; }
done
! grep -qF -e "$ext" -e "$prefix" -e "$(readlink -f "$cuda_root")" -e "$cuda_root/" "$tmp/ldd" || { cat "$tmp/ldd"; fail "the bundle reaches into the build tree, the prefix or the CUDA toolkit"; }
# Run it with every other copy of what it bundled out of reach: the CUDA toolkit and the build tree under empty
# mounts, each system copy under /dev/null (a private mount namespace, where the machine allows one).
hide="mount -t tmpfs none '$(readlink -f "$cuda_root")' && mount -t tmpfs none '$ext' && mount -t tmpfs none '$prefix'"
for f in $originals; do
  case "$f" in "$ext"/*|"$cuda_root"/*|"$(readlink -f "$cuda_root")"/*) continue ;; esac
  [ -e "$moved/lib/${f##*/}" ] && hide+=" && mount --bind /dev/null '$(readlink -f "$f")'"
done
if unshare -m --propagation private true 2>/dev/null; then
  unshare -m --propagation private sh -c "$hide && env -i LD_LIBRARY_PATH= '$moved/saxpy_bench' --list" >"$tmp/list" 2>&1 \
    || { cat "$tmp/list"; fail "the bundle does not run with the other copies of its libraries hidden"; }
  how="with the toolkit, the build tree and the system copies hidden"
else
  env -i LD_LIBRARY_PATH= "$moved/saxpy_bench" --list >"$tmp/list" 2>&1 || { cat "$tmp/list"; fail "the moved bundle does not run"; }
  how="(no private mount namespace here: the other copies stayed visible; ldd resolves every one from the bundle)"
fi
grep -q '^saxpy/cpu/1048576 *cpu' "$tmp/list" || { cat "$tmp/list"; fail "the bundle's --list"; }
if [ -x "$build/bench/cudabench" ]; then  # the suite: cuBLAS and cuDNN stay the GPU machine's, their folder after $ORIGIN/lib
  "$pack" "$build/bench/cudabench" "$tmp/suite" >"$tmp/pack" 2>&1 || { cat "$tmp/pack"; fail "cudabench-pack of the suite"; }
  grep -q '^from the GPU machine.s CUDA toolkit (not bundled): .*libcublas\.so.*libcudnn\.so' "$tmp/pack" || { cat "$tmp/pack"; fail "cudabench-pack does not list cuBLAS and cuDNN as the GPU machine's"; }
  ! compgen -G "$tmp/suite/lib/libcublas*" >/dev/null && ! compgen -G "$tmp/suite/lib/libcudnn*" >/dev/null || fail "cudabench-pack bundled cuBLAS or cuDNN"
  readelf -d "$tmp/suite/cudabench" | grep -qF '[$ORIGIN/lib:' || fail "the suite bundle's RPATH does not start with \$ORIGIN/lib"
  echo "ok   cudabench-pack of the suite leaves cuBLAS and cuDNN to the GPU machine's toolkit and says so"
fi
echo "ok   cudabench-pack: the bundle (RPATH \$ORIGIN/lib; CUPTI, CUDA runtime, Google Benchmark, fmt, RE2; no driver, glibc or libstdc++) runs --list from another folder $how"

#!/usr/bin/env bash
# A machine whose RE2 lives under a private prefix, not /usr: the system's RE2 headers and pkg-config file hidden
# from the set-up check and from CMake, a copy of RE2 (headers, library, a re2.pc) and of the other header-only
# prerequisites under one prefix given as CMAKE_PREFIX_PATH. The set-up check (ci/deps.sh, which ./run_bench
# runs first) finds them there; a small project vendoring the tree (tests/vendored/) configures it with them
# and builds only the library that uses RE2 (cudabench::measure, on results and io) and a program over its
# case-name patterns, linked with the prefix's RE2, whose refusal of a bad --filter is in RE2's words.
# WORK_DIR keeps the prefix and that build between runs (configured afresh each time, rebuilt incrementally).
# Usage: tests/private_re2_test.sh SOURCE_DIR [WORK_DIR]
set -uo pipefail
src=$(cd "$1" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"
work=${2:-$tmp}
mkdir -p "$work" && work=$(cd "$work" && pwd)

# The copies keep their times, so that a kept build finds its objects up to date.
prefix="$work/prefix"
rm -rf "$prefix"
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
header_dir() { for root in /usr/include /usr/local/include; do [ -d "$root/$1" ] && { echo "$root/$1"; return; }; done; echo "no $1 headers" >&2; exit 1; }
for d in benchmark nlohmann fmt re2; do cp -rp "$(header_dir "$d")" "$prefix/include/" || exit 1; done
libdir=$(pkg-config --variable=libdir re2) || { echo "no re2 pkg-config file to copy the library from" >&2; exit 1; }
cp -Lp "$libdir"/libre2.so* "$prefix/lib/" 2>/dev/null || cp -Lp "$libdir/libre2.so" "$prefix/lib/" || exit 1
{
  echo "prefix=$prefix"
  echo 'Name: re2'
  echo 'Description: RE2 under a private prefix'
  echo "Version: $(pkg-config --modversion re2)"
  echo "Requires.private: $(pkg-config --print-requires-private re2 | tr '\n' ' ')"
  echo 'Cflags: -pthread -I${prefix}/include'
  echo 'Libs: -pthread -L${prefix}/lib -lre2'
} >"$prefix/lib/pkgconfig/re2.pc"
# PKG_CONFIG_LIBDIR hides the system's .pc files (CMake adds CMAKE_PREFIX_PATH's lib/pkgconfig itself);
# abseil's, which a newer RE2 requires privately, stay reachable through PKG_CONFIG_PATH only where it has them.
absl_pc=$(dirname "$(pkg-config --variable=pcfiledir absl_base 2>/dev/null || echo /nonexistent/x)")
hidden=(env CUDABENCH_DEPS_SYSTEM_INCLUDE=/nonexistent CUDABENCH_DEPS_DRY_RUN=1 PKG_CONFIG_LIBDIR=/nonexistent
        PKG_CONFIG_PATH="$absl_pc")
with_prefix=("${hidden[@]}" CMAKE_PREFIX_PATH="$prefix")
check "the set-up check finds RE2 and the header-only prerequisites under the private prefix" 0 \
  "$(run "${with_prefix[@]}" "$src/ci/deps.sh")"

build="$work/build"
rm -f "$build/CMakeCache.txt"
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
check "a project vendoring the tree configures with RE2 from the prefix" 0 \
  "$(run "${with_prefix[@]}" cmake -S "$src/tests/vendored" -B "$build" -DCUDABENCH_SOURCE="$src" -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_CUDA_COMPILER="${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" "${launcher[@]}")" \
  "grep -q '^RE2_INCLUDE_DIRS:INTERNAL=$prefix/include\$' '$build/CMakeCache.txt'" \
  "grep -q '^RE2_LIBRARY_DIRS:INTERNAL=$prefix/lib\$' '$build/CMakeCache.txt'" || cat "$tmp/out" "$tmp/err"
check "it builds cudabench::measure and the probe alone, linked with the prefix's RE2" 0 \
  "$(run cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target pattern_probe)" \
  "grep -q '$prefix/lib/libre2' '$build/CMakeFiles/pattern_probe.dir/link.txt'" \
  "ldd '$build/pattern_probe' | grep '=> $prefix/lib/libre2' >/dev/null" \
  "[ -e '$build/cudabench/measure/libcudabench_measure.a' ] && [ ! -e '$build/cudabench/app/libcudabench_app.a' ]" \
  "[ ! -e '$build/cudabench/reports/libcudabench_reports.a' ]" || tail -n 30 "$tmp/out" "$tmp/err"
check "its patterns are RE2's: a match" 0 "$(run "$build/pattern_probe" 'reduce/cub/' reduce/cub/1024 matmul/cublas/64)" \
  "[ \"\$(cat '$tmp/out')\" = reduce/cub/1024 ]"
check "a pattern RE2 refuses, in RE2's words" 2 "$(run "$build/pattern_probe" 'reduce/(')" \
  "grep -q 'invalid regular expression .reduce/(. (RE2 syntax): missing )' '$tmp/err'"
finish

#!/usr/bin/env bash
# ./run_bench on a machine whose RE2 lives under a private prefix, not /usr: the system's RE2 headers and
# pkg-config file hidden from the set-up check and from CMake, a copy of RE2 (headers, library, a re2.pc) and of
# the other header-only prerequisites under one prefix given as CMAKE_PREFIX_PATH; `./run_bench compare` then
# configures (into a scratch build folder) and builds cudabench-report alone, with the prefix's RE2, which its
# --filter then uses.
# Usage: tests/private_re2_test.sh SOURCE_DIR
set -uo pipefail
src=$(cd "$1" && pwd)
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

prefix="$tmp/prefix"
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
header_dir() { for root in /usr/include /usr/local/include; do [ -d "$root/$1" ] && { echo "$root/$1"; return; }; done; echo "no $1 headers" >&2; exit 1; }
for d in benchmark nlohmann fmt re2; do cp -r "$(header_dir "$d")" "$prefix/include/" || exit 1; done
libdir=$(pkg-config --variable=libdir re2) || { echo "no re2 pkg-config file to copy the library from" >&2; exit 1; }
cp -L "$libdir"/libre2.so* "$prefix/lib/" 2>/dev/null || cp -L "$libdir/libre2.so" "$prefix/lib/" || exit 1
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
build="$tmp/build"
fx="$src/tests/fixtures/h100_quick.json"
with_prefix=(env CUDABENCH_BUILD_DIR="$build" CUDABENCH_DEPS_SYSTEM_INCLUDE=/nonexistent PKG_CONFIG_LIBDIR=/nonexistent
             PKG_CONFIG_PATH="$absl_pc" CMAKE_PREFIX_PATH="$prefix")
check "run_bench compare with RE2 under a private prefix: cudabench-report alone built, with the prefix's RE2" 0 \
  "$(run "${with_prefix[@]}" "$src/run_bench" compare "$fx" "$fx")" "grep -q 'reduce/cub/' '$tmp/out'" \
  "grep -q '^RE2_INCLUDE_DIRS:INTERNAL=$prefix/include\$' '$build/CMakeCache.txt'" \
  "grep -q '^RE2_LIBRARY_DIRS:INTERNAL=$prefix/lib\$' '$build/CMakeCache.txt'" \
  "grep -q '$prefix/lib/libre2' '$build/app/CMakeFiles/cudabench-report.dir/link.txt'" "[ ! -e '$build/bench/cudabench' ]" \
  || { readelf -d "$build/app/cudabench-report" | grep -i path; cat "$build/app/CMakeFiles/cudabench-report.dir/link.txt"; }
check "its --filter is RE2's: a pattern RE2 refuses, in RE2's words" 2 \
  "$(run "${with_prefix[@]}" "$src/run_bench" bisect --good=HEAD~1 --bad=HEAD --filter='reduce/(' --build=true --binary=x)" \
  "grep -q 'invalid regular expression .reduce/(. (RE2 syntax): missing )' '$tmp/err'"
finish

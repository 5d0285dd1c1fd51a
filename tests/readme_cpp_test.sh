#!/usr/bin/env bash
# README.md's C++ example (the block between <!-- readme-cpp:begin --> and <!-- readme-cpp:end -->) compiles as
# written against the public headers, after the fixtures it names (saxpy_gpu, saxpy_cpu: the definitions of
# examples/external/saxpy_bench.cpp before its registrar); and without them, it does not (the check can fail).
# Usage: tests/readme_cpp_test.sh SOURCE_DIR [INCLUDE_DIR]   (INCLUDE_DIR: default SOURCE_DIR/include)
set -uo pipefail
src=$1 include=${2:-$1/include}
cuda_root=${CUDA_HOME:-/usr/local/cuda}
cxx=${CXX:-c++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL $*"; [ -s "$tmp/log" ] && head -n 30 "$tmp/log"; exit 1; }
awk '$0 == "<!-- readme-cpp:end -->" {on = 0} on && !/^```/ {print} $0 == "<!-- readme-cpp:begin -->" {on = 1}' \
  "$src/README.md" >"$tmp/block.cpp"
grep -q 'CB_REGISTER_FAMILY' "$tmp/block.cpp" || fail "README.md has no C++ block between <!-- readme-cpp:begin --> and <!-- readme-cpp:end -->"
example="$src/examples/external/saxpy_bench.cpp"
grep -q '^void register_saxpy' "$example" || fail "$example has no register_saxpy to stand in for"
# The example's includes and fixtures (its anonymous namespace closed before its registrar), then README's block.
{ sed -n '/^void register_saxpy/q; p' "$example"; echo "}  // namespace"; cat "$tmp/block.cpp"; } >"$tmp/readme.cpp"
flags=(-std=c++20 -fsyntax-only -Wall -Werror -I"$include" -I"$src/examples/external" -I"$cuda_root/include")
"$cxx" "${flags[@]}" "$tmp/readme.cpp" >"$tmp/log" 2>&1 || fail "README.md's C++ example does not compile against $include"
# The check itself: the block with a member the API does not have must not compile.
sed 's/\.describe(/.no_such_member(/' "$tmp/readme.cpp" >"$tmp/broken.cpp"
! "$cxx" "${flags[@]}" "$tmp/broken.cpp" >"$tmp/log" 2>&1 || fail "a broken copy of the example compiled: the check checks nothing"
echo "ok   README.md's C++ example compiles against the public headers"
